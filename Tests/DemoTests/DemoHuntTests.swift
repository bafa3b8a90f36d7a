import Foundation
import Testing

@testable import demo

/// Contracts of `demo verify` and of the format article that had no test: the article's
/// complete example, its digest recipe, and `--complete` on a log cut short.
@MainActor
@Suite final class DemoHuntTests {
  let directory: URL = {
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("demo-hunt-tests-\(UUID().uuidString)")
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }()

  deinit { try? FileManager.default.removeItem(at: directory) }

  /// The format article, found from this file's place in the package.
  static let articlePath = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent()  // DemoTests
    .deletingLastPathComponent()  // Tests
    .deletingLastPathComponent()  // the package root
    .appendingPathComponent("Sources/Store/Store.docc/ActionLogFileFormat.md").path

  /// Writes `text` to a new log named `name`, returning its path.
  func write(_ text: String, to name: String) throws -> String {
    let file = directory.appendingPathComponent(name).path
    try Data(text.utf8).write(to: URL(fileURLWithPath: file))
    return file
  }

  /// The lines of the code block under "A complete example" in the format article.
  func articleExample() throws -> [String] {
    let article = try String(contentsOfFile: Self.articlePath, encoding: .utf8)
    let lines = article.split(separator: "\n", omittingEmptySubsequences: false)
    let heading = try #require(lines.firstIndex(of: "### A complete example"))
    let open = try #require(lines[heading...].firstIndex(of: "```"))
    let close = try #require(lines[(open + 1)...].firstIndex(of: "```"))
    return lines[(open + 1)..<close].map(String.init)
  }

  /// The article says its hand-written log "passes `swift run demo verify`": it does, whole
  /// (with `--complete`), and replays its four actions.
  @Test func theFormatArticlesCompleteExampleVerifies() async throws {
    let example = try articleExample()
    #expect(example.count == 7)
    let file = try write(example.joined(separator: "\n") + "\n", to: "example.jsonl")
    let output = Output(capturing: true)
    #expect(await Demo.run(["verify", "--complete", file], output: output) == 0)
    #expect(output.captured == ["OK: all 2 checkpoint(s) matched over 4 action(s)."])
    let replay = Output(capturing: true)
    #expect(await Demo.run(["replay", "--quiet", file], output: replay) == 0)
    #expect(
      replay.captured == ["Replayed 4 action(s); 2 checkpoint(s) matched; the log is complete."])
  }

  /// The article's digest: the 64-bit FNV-1a hash of the state's canonical JSON, 16
  /// lowercase hex digits, zero-padded. Computed here as its Python recipe does, from the
  /// `state` the example's checkpoints hold (their last field), with nothing of the library.
  @Test func theArticlesDigestRecipeGivesTheExamplesDigests() throws {
    let checkpoints = try articleExample().filter { $0.contains(#""kind":"checkpoint""#) }
    #expect(checkpoints.count == 2)
    for line in checkpoints {
      let stateStart = try #require(line.range(of: #","state":"#)).upperBound
      let state = line[stateStart...].dropLast()  // the line's closing brace
      var hash: UInt64 = 0xCBF2_9CE4_8422_2325
      for byte in state.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3 }
      let hex = String(hash, radix: 16)
      let digest = String(repeating: "0", count: 16 - hex.count) + hex
      #expect(line.hasPrefix(#"{"digest":"\#(digest)","#), "\(line.prefix(40))")
    }
  }

  /// `verify --complete` exits with 3 for a log cut short, with no stop line: one whose last
  /// line was cut while it was written, and one that lost only its final checkpoint. Without
  /// `--complete` both pass, saying what was not verified. A damaged log is still 2, and a
  /// divergence still 1: `--complete` adds a failure, and hides none.
  @Test func completeFailsALogCutShortWithThreeAndKeepsTheOtherCodes() async throws {
    let sample = try String(contentsOfFile: DemoTests.samplePath, encoding: .utf8)
    let lines = sample.split(separator: "\n").map(String.init)
    #expect(lines.count == 42)
    // Line 23 is the checkpoint after action 20; line 24 is cut in the middle.
    let cut = try write(
      lines.prefix(23).joined(separator: "\n") + "\n" + lines[23].prefix(30), to: "cut.jsonl")
    let unfinished = try write(
      lines.dropLast().joined(separator: "\n") + "\n", to: "unfinished.jsonl")
    for (file, said) in [
      (
        cut,
        """
        OK: all 2 checkpoint(s) matched over 20 action(s). The log has no final checkpoint: the \
        recording was cut short (or is still being written), and the actions after its last \
        checkpoint are not verified.
        """
      ),
      (
        unfinished,
        """
        OK: all 3 checkpoint(s) matched over 37 action(s). The log has no final checkpoint: the \
        recording was cut short (or is still being written), and the actions after its last \
        checkpoint are not verified.
        """
      ),
    ] {
      let output = Output(capturing: true)
      #expect(await Demo.run(["verify", file], output: output) == 0)
      #expect(output.captured?.last == said)
      #expect(await Demo.run(["verify", "--complete", file], output: Output(capturing: true)) == 3)
    }
    let damaged = try write(
      lines.prefix(23).joined(separator: "\n") + "\n{oops\n", to: "damaged.jsonl")
    #expect(
      await Demo.run(["verify", "--complete", damaged], output: Output(capturing: true)) == 2)
    // The digest of the checkpoint after action 20, on line 23.
    #expect(lines[22].hasPrefix(#"{"digest":"86d9f44163f539a4""#))
    let diverged = try write(
      sample.replacingOccurrences(of: "86d9f44163f539a4", with: "0000000000000000"),
      to: "diverged.jsonl")
    #expect(
      await Demo.run(["verify", "--complete", diverged], output: Output(capturing: true)) == 1)
  }

  /// `replay --until N` prints the steps up to N and no further, checks N's checkpoint, and
  /// says where it stopped; N the last action (or past it) replays the whole log, and a log
  /// damaged after N's checkpoint still replays up to N, as the help and the article say.
  @Test(arguments: [
    ("0", 0, "Replayed 0 action(s); 0 checkpoint(s) matched; stopped after #0."),
    ("10", 10, "Replayed 10 action(s); 1 checkpoint(s) matched; stopped after #10."),
    ("36", 36, "Replayed 36 action(s); 3 checkpoint(s) matched; stopped after #36."),
    ("37", 37, "Replayed 37 action(s); 4 checkpoint(s) matched; the log is complete."),
    ("99", 37, "Replayed 37 action(s); 4 checkpoint(s) matched; the log is complete."),
  ])
  func replayUntilPrintsTheStepsUpToItAndSaysWhereItStopped(
    until: String, steps: Int, summary: String
  ) async {
    let output = Output(capturing: true)
    #expect(
      await Demo.run(["replay", DemoTests.samplePath, "--until", until], output: output) == 0)
    let printed = output.captured ?? []
    let numbers = printed.filter { $0.hasPrefix("#") }.compactMap {
      Int($0.dropFirst().prefix { $0 != "u" && $0 != "e" }.trimmingCharacters(in: .whitespaces))
    }
    #expect(numbers == Array(0...steps).dropFirst().map { $0 })
    #expect(printed.last == summary)
  }

  /// A line that is not JSON after the checkpoint of the step asked for does not stop
  /// `replay --until` from getting there (exit 0, with a warning); without `--until` it is 2.
  @Test func replayUntilStopsBeforeDamageAfterTheStepAskedFor() async throws {
    let lines = try String(contentsOfFile: DemoTests.samplePath, encoding: .utf8)
      .split(separator: "\n").map(String.init)
    // Line 23 is the checkpoint after action 20: damage right after it.
    let file = try write(
      (lines.prefix(23) + ["{oops"] + lines.dropFirst(23)).joined(separator: "\n") + "\n",
      to: "damaged-later.jsonl")
    let output = Output(capturing: true)
    #expect(await Demo.run(["replay", "--quiet", file, "--until", "20"], output: output) == 0)
    // The line after the checkpoint might have been a second one of action 20: said so.
    #expect(output.captured?.count == 2)
    #expect(
      output.captured?.first?.hasSuffix(
        """
        Line 24: not a log line; the replay stopped before it, after action 20 as asked, \
        without knowing whether it was that action's checkpoint.
        """) == true)
    #expect(
      output.captured?.last == "Replayed 20 action(s); 2 checkpoint(s) matched; stopped after #20.")
    #expect(await Demo.run(["replay", "--quiet", file], output: Output(capturing: true)) == 2)
  }
}
