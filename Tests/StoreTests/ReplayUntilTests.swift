import Effects
import Foundation
import Testing

@testable import Store

/// What `replay(path:until:step:)` reports, as Recording and Replaying a Feature says (review).
@MainActor
@Suite final class ReplayUntilTests {
  let directory = TemporaryDirectory("replay-until-tests")

  /// A log of three actions, with a checkpoint after each and the final one.
  func record() throws -> String {
    let store = Store(initialState: Tally.State()) { Tally() }
    let file = directory.path("\(UUID().uuidString).jsonl")
    let recorder = try store.recordActions(
      to: file, feature: "Tally", checkpointInterval: 1, time: { 0 })
    for amount in 1...3 { store.send(.add(amount)) }
    try recorder.finish()
    return file
  }

  func replay(_ file: String, until: Int) throws -> ReplayReport<Tally.State> {
    try ActionLogReplayer(feature: "Tally") { Tally() }.replay(path: file, until: until)
  }

  @Test func stoppingBeforeTheEndSaysWhereAndThatTheLogWasNotReplayedWhole() throws {
    let report = try replay(record(), until: 2)
    #expect(report.actionCount == 2)
    #expect(report.finalState.count == 3)
    #expect(report.stoppedAfter == 2)
    #expect(!report.isComplete)
    #expect(report.warnings.isEmpty)
  }

  @Test func stoppingAtTheLastActionReplaysTheWholeLog() throws {
    let report = try replay(record(), until: 3)
    #expect(report.actionCount == 3)
    #expect(report.stoppedAfter == nil)
    #expect(report.isComplete)
  }

  @Test func aNumberBelowOneReplaysNoAction() throws {
    for until in [0, -1] {
      let report = try replay(record(), until: until)
      #expect(report.actionCount == 0)
      #expect(report.finalState == Tally.State())
      #expect(report.stoppedAfter == 0, "no action replayed, as its doc says")
      #expect(!report.isComplete)
    }
  }
}
