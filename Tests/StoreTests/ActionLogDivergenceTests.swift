import Effects
import Foundation
import Testing

@testable import Store

/// What a divergence explains: the recorded state as written against the replayed one, the
/// actions since the last matching checkpoint that do not round-trip, which actions those
/// were, and the warnings the replay noted before.
@MainActor
@Suite final class ActionLogDivergenceTests {
  let directory = TemporaryDirectory("action-log-divergence-tests")

  /// Records `actions` through `Ledger()`, returning the log's path.
  func record(_ actions: [Ledger.Action], interval: Int = 100) throws -> String {
    let store = Store(initialState: Ledger.State()) { Ledger() }
    let file = directory.appendingPathComponent("\(UUID().uuidString).jsonl").path
    let recorder = try store.recordActions(
      to: file, feature: "Ledger", checkpointInterval: interval, time: { 0 })
    for action in actions { store.send(action) }
    try recorder.finish()
    return file
  }

  func divergence(
    replaying file: String,
    through reducer:
      @escaping () -> some Reducer<
        Ledger.State, Ledger.Action
      >
  ) -> (differences: [String], warnings: [String])? {
    do {
      _ = try ActionLogReplayer(feature: "Ledger", reducer: reducer).replay(path: file)
    } catch ActionLogError.diverged(_, _, let differences, let warnings) {
      return (differences, warnings)
    } catch {
      Issue.record("unexpected error: \(error)")
    }
    return nil
  }

  @Test func anActionThatDoesNotRoundTripIsNamedAndTheStatesCompareAsRecorded() throws {
    let file = try record([.rename("a"), .setMaybe(.some(nil)), .rename("b")], interval: 3)
    let found = try #require(divergence(replaying: file) { Ledger() })
    #expect(found.differences.first == "recorded → replayed: maybe: null → (absent)")
    #expect(found.differences.count == 3)
    let problem = found.differences[1]
    #expect(
      problem.hasPrefix(
        "action 2 on line 3 does not round-trip: recorded .setMaybe(null), decoded as "),
      "\(problem)")
    #expect(
      problem.hasSuffix(
        """
        which is recorded as .setMaybe (setMaybe._0: null → (absent)); the replay reduced what \
        it decoded
        """), "\(problem)")
    #expect(
      found.differences[2]
        == "since the header (line 1), actions 1 to 3 were replayed (lines 2 to 4)")
  }

  @Test func anExtraValueInALoggedActionIsNamedWhenTheReplayDiverges() throws {
    let file = try record([.rename("a"), .setBig(1), .rename("b")], interval: 2)
    var lines = try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n")
      .map(String.init)
    // Line 5 is action 3: an extra value, which decoding drops.
    lines[4] = lines[4].replacingOccurrences(of: #"{"_0":"b"}"#, with: #"{"_0":"b","_1":3}"#)
    try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: file))
    let found = try #require(divergence(replaying: file) { Ledger(offset: 1) })
    #expect(
      found.differences == [
        "recorded → replayed: big: 1 → 2",
        """
        since the header (line 1), actions 1 to 2 were replayed (lines 2 to 3), and each \
        decodes to what was recorded: look at what the reducer (or a dependency) does with them
        """,
      ])
    // Past the first checkpoint, through a reducer that matches it: the extra value is named.
    lines[3] = lines[3].replacingOccurrences(of: #""big":1"#, with: #""big":2"#)
    lines[5] = #"{"digest":"0000000000000000","kind":"checkpoint","seq":3}"#
    try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: file))
    let later = try #require(divergence(replaying: file) { Ledger() })
    #expect(later.differences.count == 3, "\(later.differences)")
    #expect(
      later.differences.first
        == "the state's digest differs (the checkpoint has no state to compare)")
    #expect(
      later.differences[1].hasPrefix(
        #"action 3 on line 5 does not round-trip: recorded .rename(_0: "b", _1: 3)"#),
      "\(later.differences)")
    #expect(later.differences[1].contains("(rename._1: 3 → (absent))"))
    #expect(
      later.differences[2]
        == """
        since the last matching checkpoint (after action 2, line 4), action 3 was replayed \
        (line 5)
        """)
  }

  /// The explanation looked for the `action` and `state` fields by their bytes: written
  /// with an escape (`"\u0061ction"`, the same key to JSON and to the replay, which reduced
  /// the action), the action was skipped and every action said to decode "to what was
  /// recorded", and the checkpoint's state called absent.
  @Test func aDivergenceReadsTheActionAndTheStateHoweverTheirKeysAreWritten() throws {
    let file = try record([.rename("a"), .setBig(1), .rename("b")], interval: 2)
    var lines = try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n")
      .map(String.init)
    // Line 5 is action 3: an extra value, which decoding drops, under an escaped key.
    lines[4] = lines[4].replacingOccurrences(of: #"{"_0":"b"}"#, with: #"{"_0":"b","_1":3}"#)
      .replacingOccurrences(of: #""action""#, with: #""\u0061ction""#)
    lines[3] = lines[3].replacingOccurrences(of: #""big":1"#, with: #""big":2"#)
    // The checkpoint after it, with its state under an escaped key.
    let state = try #require(lines[3].firstRange(of: #""state":"#)).upperBound
    lines[5] =
      #"{"digest":"0000000000000000","kind":"checkpoint","seq":3,"st\u0061te":"#
      + lines[3][state...].replacingOccurrences(of: #""big":2"#, with: #""big":3"#)
    try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: file))
    let found = try #require(divergence(replaying: file) { Ledger() })
    #expect(found.differences.first == "recorded → replayed: big: 3 → 1", "\(found.differences)")
    #expect(
      found.differences.contains {
        $0.hasPrefix(#"action 3 on line 5 does not round-trip: recorded .rename(_0: "b", _1: 3)"#)
      }, "\(found.differences)")
    #expect(
      !found.differences.contains { $0.contains("no state") || $0.contains("what was recorded") })
  }

  @Test func theWarningsBeforeADivergenceAreKept() throws {
    let file = try record([.rename("ghost"), .setBig(1)])
    let found = try #require(divergence(replaying: file) { GhostLedger() })
    #expect(found.warnings.count == 1)
    #expect(found.warnings.first?.hasPrefix("Line 2 (action 1): No row is named ghost.") == true)
    let error = ActionLogError.diverged(
      sequence: 2, line: 4, differences: found.differences, warnings: found.warnings)
    #expect(error.description.contains("\nWarnings before it:\n  Line 2 (action 1): No row"))
  }

  @Test func aReplayedStateThatCannotBeEncodedIsADivergenceNamingItsPlace() throws {
    let file = try record([.scale(1e308), .rename("x")], interval: 1)
    let found = try #require(divergence(replaying: file) { Ledger(offset: 1) })
    #expect(
      found.differences.first?.hasPrefix(
        "the replayed state cannot be encoded: the Double inf at state.ratio cannot be written"
      ) == true, "\(found.differences)")
    #expect(found.differences.last?.hasPrefix("since the header (line 1), action 1 was") == true)
  }

  /// Ledger, diverging at `setBig` and warning for one name, as a reducer warns of an action
  /// for a missing row.
  struct GhostLedger: Reducer {
    func reduce(into state: inout Ledger.State, action: Ledger.Action) -> Effect<Ledger.Action> {
      let effect = Ledger(offset: 1).reduce(into: &state, action: action)
      guard action == .rename("ghost") else { return effect }
      return .merge(
        effect, .warning("No row is named ghost.", site: SourceSite(fileID: #fileID, line: #line)))
    }
  }
}
