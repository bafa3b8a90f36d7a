import Effects
import Foundation
import Testing

@testable import Store

/// A divergence names at most five of the actions since the last matching checkpoint that do
/// not round-trip, and counts the others.
@MainActor
@Suite final class RoundTripProblemLimitTests {
  let directory = TemporaryDirectory("round-trip-problem-limit-tests")

  /// Seven actions that do not round-trip (`.setMaybe(.some(nil))`, written `null` and
  /// decoded as `nil`) before the final checkpoint: actions 1 to 5 are named, in order, and
  /// the last two counted.
  @Test func actionsPastTheFifthThatDoNotRoundTripAreCounted() throws {
    let store = Store(initialState: Ledger.State()) { Ledger() }
    let file = directory.path("\(UUID().uuidString).jsonl")
    let recorder = try store.recordActions(
      to: file, feature: "Ledger", checkpointInterval: 100, time: { 0 })
    for _ in 1...7 { store.send(.setMaybe(.some(nil))) }
    try recorder.finish()
    do {
      _ = try ActionLogReplayer(feature: "Ledger") { Ledger() }.replay(path: file)
      Issue.record("the replay did not diverge")
    } catch ActionLogError.diverged(let sequence, let line, let differences, _) {
      #expect(sequence == 7)
      #expect(line == 9)
      let named = (1...5).map { sequence in
        """
        action \(sequence) on line \(sequence + 1) does not round-trip: recorded \
        .setMaybe(null), decoded as Ledger.Action.setMaybe(nil), which is recorded as \
        .setMaybe (setMaybe._0: null → (absent)); the replay reduced what it decoded
        """
      }
      #expect(
        differences == ["recorded → replayed: maybe: null → (absent)"] + named + [
          "and 2 more action(s) that do not round-trip",
          "since the header (line 1), actions 1 to 7 were replayed (lines 2 to 8)",
        ])
    }
  }

  /// A header whose initial state does not round-trip is named besides the five actions, not
  /// as one of them.
  @Test func aHeaderThatDoesNotRoundTripIsNotOneOfTheFiveActions() throws {
    var initial = Ledger.State()
    initial.maybe = .some(nil)
    let store = Store(initialState: initial) { Ledger() }
    let file = directory.path("\(UUID().uuidString).jsonl")
    let recorder = try store.recordActions(
      to: file, feature: "Ledger", checkpointInterval: 100, time: { 0 })
    for _ in 1...7 { store.send(.setMaybe(.some(nil))) }
    try recorder.finish()
    #expect {
      try ActionLogReplayer(feature: "Ledger") { Ledger() }.replay(path: file)
    } throws: { error in
      guard case ActionLogError.diverged(_, _, let differences, _) = error else { return false }
      let header = differences.filter { $0.hasPrefix("the initial state in the header on line 1") }
      let actions = differences.filter { $0.hasPrefix("action ") }
      return header.count == 1 && actions.count == 5 && actions.last?.hasPrefix("action 5 ") == true
        && differences.contains("and 2 more action(s) that do not round-trip")
    }
  }
}
