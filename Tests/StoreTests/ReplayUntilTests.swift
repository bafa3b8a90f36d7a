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

  /// In a log that holds no action, 0 is the last action: the report is the whole log's, as
  /// the article says (the review of the stop-line read).
  @Test func aNumberBelowOneInALogOfNoActionReplaysTheWholeLog() throws {
    let store = Store(initialState: Tally.State()) { Tally() }
    let file = directory.path("\(UUID().uuidString).jsonl")
    let recorder = try store.recordActions(
      to: file, feature: "Tally", checkpointInterval: 1, time: { 0 })
    try recorder.finish()
    for until in [0, -1] {
      let report = try replay(file, until: until)
      #expect(report.actionCount == 0)
      #expect(report.stoppedAfter == nil)
      #expect(report.isComplete)
    }
  }
}

extension ReplayUntilTests {
  /// A line too long to read after the step asked for is damage the replay need not read, as
  /// a line that is not JSON there is: it stops with a warning (it threw `lineTooLong`, the
  /// log hunt, though `until` promises that a log damaged after that point replays up to it).
  @Test func aLineTooLongAfterTheStepAskedForStopsTheReplayWithAWarning() throws {
    var lines = try directory.lines(record())
    // Line 6, action 3, after action 2's checkpoint on line 5.
    lines[5] = String(repeating: "x", count: ActionLogFormat.maximumLineLength + 1)
    let damaged = directory.path("too-long.jsonl")
    try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: damaged))
    let report = try replay(damaged, until: 2)
    #expect(report.actionCount == 2)
    #expect(report.stoppedAfter == 2)
    #expect(report.checkpointsVerified == 2)
    #expect(
      report.warnings == [
        """
        Line 6: longer than the limit of 8388608 bytes; the replay stopped before it, after \
        action 2 as asked, without reading it, or knowing whether it was that action's \
        checkpoint.
        """
      ])
    // Without `until`, or before the line, it is still refused.
    for until: Int? in [nil, 3] {
      #expect(throws: ActionLogError.lineTooLong(line: 6, limit: ActionLogFormat.maximumLineLength))
      {
        try ActionLogReplayer(feature: "Tally") { Tally() }.replay(path: damaged, until: until)
      }
    }
  }
}

extension ReplayUntilTests {
  /// A replay that stops at the last action a stopped recording wrote reads the line that
  /// marks it as stopped, as it reads that action's checkpoints: the report is the whole
  /// log's, with the reason. (It stopped before that line, and reported a replay stopped
  /// as asked before the end, with no word of the recording having stopped: the log hunt.)
  @Test func stoppingAtTheLastActionOfAStoppedRecordingReadsWhyItStopped() throws {
    // The third action's time is NaN, which no log line can hold: the recording stops there.
    let warnings = WarningLog()
    let store = RuntimeWarningHandler.$current.withValue(warnings.handler) {
      Store(initialState: Tally.State()) { Tally() }
    }
    let file = directory.path("\(UUID().uuidString).jsonl")
    var times = [0.0, 1.0, .nan][...]
    let recorder = try store.recordActions(
      to: file, feature: "Tally", checkpointInterval: 100, time: { times.popFirst() ?? 0 })
    for amount in 1...3 { store.send(.add(amount)) }
    #expect(recorder.actionCount == 2)
    #expect(warnings.messages.count == 1)
    let whole = try replay(file, until: .max)
    #expect(whole.recordingStoppedAfter == 2)
    let report = try replay(file, until: 2)
    #expect(report.stoppedAfter == nil)
    #expect(report.recordingStoppedAfter == 2)
    #expect(report.warnings == whole.warnings)
    #expect(
      report.warnings.first?.hasPrefix("Line 4: the recording stopped after action 2:") == true)
    // Before it, the replay stops as asked, without reading it.
    let earlier = try replay(file, until: 1)
    #expect(earlier.stoppedAfter == 1)
    #expect(earlier.recordingStoppedAfter == nil)
  }
}
