import Foundation
import Testing

@testable import demo

/// The demo from a user's side: what it says of a command line or a log it cannot take, or
/// of a log it takes only in part.
@MainActor
@Suite final class DemoUserInputHuntTests {
  let directory: URL = {
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("demo-user-input-hunt-tests-\(UUID().uuidString)")
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }()

  deinit { try? FileManager.default.removeItem(at: directory) }

  /// Writes `lines` to a new log named `name`, each ending in a newline; returns its path.
  func write(_ lines: [String], to name: String) throws -> String {
    let file = directory.appendingPathComponent(name).path
    let text = lines.map { $0 + "\n" }.joined()
    try Data(text.utf8).write(to: URL(fileURLWithPath: file))
    return file
  }

  /// The first line of what `arguments` make the demo say, and its exit code.
  func firstLine(of arguments: [String]) async -> (line: String, code: Int32) {
    let output = Output(capturing: true)
    let code = await Demo.run(arguments, output: output)
    let first = output.captured?.first ?? ""
    return (String(first.prefix { $0 != "\n" }), code)
  }

  /// `Int(_:)` takes a number written with a "+" (`--until +5` is 5), so one too large for
  /// an `Int` written so is too large as well: it was said not to be a whole number from 0 up.
  @Test(arguments: [
    (
      ["replay", "a.jsonl", "--until", "+99999999999999999999"],
      "demo: --until +99999999999999999999 is too large: the largest is 9223372036854775807."
    ),
    (
      ["record", "--sessions", "+99999999999999999999"],
      "demo: --sessions +99999999999999999999 is too large: the largest is 100000."
    ),
    (
      ["record", "--sessions", "+100001"],
      "demo: --sessions +100001 is too large: the largest is 100000."
    ),
    // Not numbers, and a negative one, as before.
    (
      ["replay", "a.jsonl", "--until", "+"],
      #"demo: --until needs a sequence number, a whole number from 0 up: "+" is not one."#
    ),
    (
      ["replay", "a.jsonl", "--until", "++1"],
      #"demo: --until needs a sequence number, a whole number from 0 up: "++1" is not one."#
    ),
    (
      ["replay", "a.jsonl", "--until", "-99999999999999999999"],
      """
      demo: --until needs a sequence number, a whole number from 0 up: \
      "-99999999999999999999" is not one.
      """
    ),
  ])
  func aNumberWrittenWithAPlusIsTooLargeWhenItIs(arguments: [String], message: String) async {
    let (line, code) = await firstLine(of: arguments)
    #expect(code == 2)
    #expect(line == message)
  }

  /// A number written with a "+" that fits is taken, as `Int(_:)` takes it.
  @Test func aNumberWrittenWithAPlusThatFitsIsTaken() throws {
    #expect(try ReplayCommand.parse(["a.jsonl", "--until", "+5"]).until == 5)
    #expect(try RecordCommand.parse(["--sessions", "+100000"]).sessions == 100_000)
  }

  /// The first `count` lines of the bundled sample.
  func sampleLines(_ count: Int) throws -> [String] {
    let text = try String(contentsOfFile: DemoTests.samplePath, encoding: .utf8)
    return text.split(separator: "\n").prefix(count).map(String.init)
  }

  /// `verify` of a log with actions but no checkpoint, cut short, said "the actions after its
  /// last checkpoint are not verified" of a log that has no checkpoint: it says that nothing
  /// was verified, and that the log has no final checkpoint, and no more.
  @Test func aLogWithNoCheckpointIsNotSaidToHaveALastOne() async throws {
    // Lines 2 to 11 are actions 1 to 10; line 12 is their checkpoint.
    let file = try write(try sampleLines(11), to: "no-checkpoint.jsonl")
    for (arguments, opening, code) in [
      (["verify", file], "OK, but nothing was verified", Int32(0)),
      (["verify", "--complete", file], "Not complete: nothing was verified", 3),
    ] {
      let output = Output(capturing: true)
      #expect(await Demo.run(arguments, output: output) == code)
      #expect(
        output.captured?.last
          == """
          \(opening): the log has no checkpoint to compare; replayed 10 action(s). The log has \
          no final checkpoint: the recording was cut short (or is still being written).
          """)
    }
  }

  /// A log cut short after a checkpoint still says that the actions after its last one are
  /// not verified.
  @Test func aLogCutShortAfterACheckpointStillNamesItsLastOne() async throws {
    let file = try write(try sampleLines(14), to: "after-checkpoint.jsonl")
    let output = Output(capturing: true)
    #expect(await Demo.run(["verify", file], output: output) == 0)
    #expect(
      output.captured?.last
        == """
        OK: all 1 checkpoint(s) matched over 12 action(s). The log has no final checkpoint: the \
        recording was cut short (or is still being written), and the actions after its last \
        checkpoint are not verified.
        """)
  }
}
