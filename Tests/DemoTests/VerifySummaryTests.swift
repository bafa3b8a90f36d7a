import Foundation
import Testing

@testable import demo

/// What `demo verify` says of a log that does not end with its final checkpoint, and of
/// standard output that cannot be written.
@MainActor
@Suite final class VerifySummaryTests {
  let directory: URL = {
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("verify-summary-tests-\(UUID().uuidString)")
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }()

  deinit { try? FileManager.default.removeItem(at: directory) }

  /// The first `count` lines of the bundled sample, then `extra`, as a new log.
  func log(_ name: String, firstLines count: Int, then extra: [String] = []) throws -> String {
    let text = try String(contentsOfFile: DemoTests.samplePath, encoding: .utf8)
    let lines = text.split(separator: "\n").prefix(count).map(String.init) + extra
    let file = directory.appendingPathComponent(name).path
    try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: file))
    return file
  }

  @Test func aStoppedRecordingIsSaidToHaveStoppedNotJustToLackItsFinalCheckpoint() async throws {
    // Line 12 is the checkpoint after action 10.
    let file = try log(
      "stopped.jsonl", firstLines: 12,
      then: [#"{"kind":"stopped","reason":"a disk full","seq":10}"#])
    let output = Output(capturing: true)
    #expect(await Demo.run(["verify", file], output: output) == 0)
    #expect(
      output.captured?.last
        == """
        OK: all 1 checkpoint(s) matched over 10 action(s). The recording stopped after action 10 \
        (see the warning above): the log holds nothing after it, so the rest of the session is \
        not verified.
        """)
  }

  /// `replay` said only "the log has no final checkpoint" of it (a review).
  @Test func replayTooSaysTheRecordingStopped() async throws {
    let file = try log(
      "stopped-replay.jsonl", firstLines: 12,
      then: [#"{"kind":"stopped","reason":"a disk full","seq":10}"#])
    let output = Output(capturing: true)
    #expect(await Demo.run(["replay", "--quiet", file], output: output) == 0)
    #expect(
      output.captured?.last
        == """
        Replayed 10 action(s); 1 checkpoint(s) matched; the recording stopped after #10 (see the \
        warning above).
        """)
  }

  @Test func aLogOfOnlyAHeaderSaysSo() async throws {
    let file = try log("header.jsonl", firstLines: 1)
    let output = Output(capturing: true)
    #expect(await Demo.run(["verify", file], output: output) == 0)
    #expect(
      output.captured?.last
        == """
        OK, but nothing was verified: the log holds only its header (no action, no checkpoint). \
        The log has no final checkpoint: the recording was cut short (or is still being written).
        """)
  }

  /// With `--complete`, a log that does not end with its final checkpoint fails with 3, as a
  /// script checking a whole session needs; a whole log still passes.
  @Test func completeFailsAnIncompleteLogWithThree() async throws {
    let stopped = try log(
      "stopped-complete.jsonl", firstLines: 12,
      then: [#"{"kind":"stopped","reason":"a disk full","seq":10}"#])
    let header = try log("header-complete.jsonl", firstLines: 1)
    #expect(
      await Demo.run(["verify", "--complete", stopped], output: Output(capturing: true)) == 3)
    #expect(await Demo.run(["verify", header, "--complete"], output: Output(capturing: true)) == 3)
    #expect(await Demo.run(["verify", stopped], output: Output(capturing: true)) == 0)
    #expect(
      await Demo.run(
        ["verify", "--complete", DemoTests.samplePath], output: Output(capturing: true)) == 0)
  }

  /// Under `--complete`, the line of a log that fails with 3 does not open with "OK" (it did:
  /// "OK: all 1 checkpoint(s) matched …", then exit code 3); without it, the same log's line
  /// still does.
  @Test func completeSaysNotCompleteWhereItFails() async throws {
    let stopped = try log(
      "stopped-wording.jsonl", firstLines: 12,
      then: [#"{"kind":"stopped","reason":"a disk full","seq":10}"#])
    let header = try log("header-wording.jsonl", firstLines: 1)
    let strict = Output(capturing: true)
    #expect(await Demo.run(["verify", "--complete", stopped], output: strict) == 3)
    let strictLine = try #require(strict.captured?.last)
    #expect(strictLine.hasPrefix("Not complete: all 1 checkpoint(s) matched over 10 action(s)."))
    #expect(strictLine.contains("The recording stopped after action 10"))
    let empty = Output(capturing: true)
    #expect(await Demo.run(["verify", "--complete", header], output: empty) == 3)
    #expect(empty.captured?.last?.hasPrefix("Not complete: nothing was verified: ") == true)
    let lenient = Output(capturing: true)
    #expect(await Demo.run(["verify", stopped], output: lenient) == 0)
    #expect(lenient.captured?.last?.hasPrefix("OK: all 1 checkpoint(s) matched") == true)
  }

  @Test func aWriteErrorIsNamedInWordsNotDumped() {
    let underlying = NSError(domain: NSPOSIXErrorDomain, code: Int(ENOSPC))
    let error = NSError(
      domain: NSCocoaErrorDomain, code: 640, userInfo: [NSUnderlyingErrorKey: underlying])
    #expect(Output.reason(error) == String(cString: strerror(ENOSPC)))
    #expect(Output.reason(underlying) == String(cString: strerror(ENOSPC)))
  }
}
