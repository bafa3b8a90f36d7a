import Effects
import Foundation
import Testing

@testable import Store

/// Two ways a log's start was misread (demo hunt): a first line holding only a byte order
/// mark, and a checkpoint of action 0, which a divergence after it named as the header.
@MainActor
@Suite final class ReplayHeaderEdgeTests {
  let directory = TemporaryDirectory("replay-header-edge-tests")

  /// The lines of a log of `actions` recorded through `Ledger()`, with a checkpoint after
  /// every `interval` actions.
  func recordedLines(_ actions: [Ledger.Action], interval: Int) throws -> [String] {
    let store = Store(initialState: Ledger.State()) { Ledger() }
    let file = directory.appendingPathComponent("\(UUID().uuidString).jsonl").path
    let recorder = try store.recordActions(
      to: file, feature: "Ledger", checkpointInterval: interval, time: { 0 })
    for action in actions { store.send(action) }
    try recorder.finish()
    return try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n")
      .map(String.init)
  }

  func write(_ bytes: Data) throws -> String {
    let file = directory.appendingPathComponent("\(UUID().uuidString).jsonl").path
    try bytes.write(to: URL(fileURLWithPath: file))
    return file
  }

  /// A file whose first line is a byte order mark alone, then the log: the mark may start
  /// the first line, and a line that holds nothing else is blank, as blank lines before the
  /// header are skipped. It was refused as "not a valid log header: invalid JSON: the line
  /// ends where a value was expected", naming line 1 and not the mark.
  @Test(arguments: ["\n", "\r\n", "  \n"])
  func aFirstLineOfAByteOrderMarkAloneIsBlank(ending: String) throws {
    let lines = try recordedLines([.rename("a"), .rename("b")], interval: 1)
    let file = try write(
      Data([0xEF, 0xBB, 0xBF]) + Data((ending + lines.joined(separator: "\n") + "\n").utf8))
    let report = try ActionLogReplayer(feature: "Ledger") { Ledger() }.replay(path: file)
    #expect(report.actionCount == 2)
    #expect(report.isComplete)
  }

  /// Control: a mark on the second line is still refused, naming it.
  @Test func aByteOrderMarkAloneOnALaterLineIsStillRefused() throws {
    let lines = try recordedLines([.rename("a")], interval: 1)
    let file = try write(
      Data(("\n").utf8) + Data([0xEF, 0xBB, 0xBF])
        + Data(("\n" + lines.joined(separator: "\n") + "\n").utf8))
    #expect {
      _ = try ActionLogReplayer(feature: "Ledger") { Ledger() }.replay(path: file)
    } throws: { error in
      "\(error)".contains("byte order mark (U+FEFF) at column 1")
    }
  }

  /// A log with a checkpoint of action 0 (of the initial state) on line 2, which matches,
  /// and a divergence later: the explanation starts from that checkpoint, not from "the
  /// header (line 2)", and reads line 2 as a checkpoint, not as the header.
  @Test func aDivergenceAfterAMatchedCheckpointOfActionZeroStartsFromThatCheckpoint() throws {
    var lines = try recordedLines([.setBig(1), .setBig(2)], interval: 2)
    // The empty recording's final checkpoint is one of action 0.
    let initial = try recordedLines([], interval: 2)
    let checkpoint = try #require(initial.last { $0.contains(#""kind":"checkpoint""#) })
      .replacingOccurrences(of: #","final":true"#, with: "")
    #expect(checkpoint.contains(#""seq":0"#))
    lines.insert(checkpoint, at: 1)
    let file = try write(Data((lines.joined(separator: "\n") + "\n").utf8))
    do {
      _ = try ActionLogReplayer(feature: "Ledger") { Ledger(offset: 1) }.replay(path: file)
      Issue.record("the replay did not diverge")
    } catch ActionLogError.diverged(_, _, let differences, _) {
      #expect(
        differences.last
          == """
          since the last matching checkpoint (after action 0, line 2), actions 1 to 2 were \
          replayed (lines 3 to 4), and each decodes to what was recorded: look at what the \
          reducer (or a dependency) does with them
          """, "\(differences)")
    }
  }
}
