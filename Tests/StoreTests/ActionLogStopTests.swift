import Effects
import Foundation
import Testing

@testable import Store

/// What the recorder does when it cannot write an action or a state: it says so at once,
/// marks the log as stopped, and a replay gives that reason rather than a log cut short.
@MainActor
@Suite final class ActionLogStopTests {
  let directory = TemporaryDirectory("action-log-stop-tests")

  let replayer = ActionLogReplayer(feature: "Gauge") { Gauge() }
  /// The stores recorded, kept for the test's length: a recorder does not keep its store.
  var stores: [StoreOf<Gauge>] = []

  /// Records `actions` with a checkpoint every `interval`, returning the recorder, the
  /// warnings, and the log's path; it does not finish.
  func record(_ actions: [Gauge.Action], interval: Int = 100) throws -> (
    ActionLogRecorder<Gauge.State, Gauge.Action>, WarningLog, String
  ) {
    let warnings = WarningLog()
    let store = RuntimeWarningHandler.$current.withValue(warnings.handler) {
      Store(initialState: Gauge.State()) { Gauge() }
    }
    let file = directory.path("\(UUID().uuidString).jsonl")
    let recorder = try store.recordActions(
      to: file, feature: "Gauge", checkpointInterval: interval, time: { 0 })
    for action in actions { store.send(action) }
    stores.append(store)
    return (recorder, warnings, file)
  }

  @Test func anActionThatCannotBeEncodedIsReportedAtOnceAndTheLogSaysWhy() throws {
    let (recorder, warnings, file) = try record([.set(1), .set(.infinity), .set(2), .set(3)])
    let reason = """
      action 2, Gauge.Action.set(inf), could not be written: the Double inf at action.set._0 cannot \
      be written as JSON, which has no NaN or infinity: keep such numbers out of actions and \
      state, or encode them another way (as nil, or as a string)
      """
    // Once, at the action that failed, before finish() is called.
    #expect(
      warnings.messages == [
        """
        The ActionLogRecorder writing \(file) stopped recording: \(reason). The log holds \
        actions 1 to 1 and no later one; it ends with a line saying why, and finish() throws \
        this error.
        """
      ])
    // Later actions are not counted as recorded, nor written.
    #expect(recorder.actionCount == 1)
    let written = try directory.lines(file)
    #expect(written.count == 3)
    #expect(written.last == #"{"kind":"stopped","reason":"\#(reason)","seq":1}"#)
    let expected = ActionLogError.cannotWrite(
      path: file, reason: "recording stopped after action 1: \(reason)")
    #expect(recorder.error == expected)
    #expect(throws: expected) { try recorder.finish() }
    // Again, as cleanup code calling it a second time would: the log is no more complete.
    #expect(throws: expected) { try recorder.finish() }
    #expect(warnings.messages.count == 1)

    let report = try replayer.replay(path: file)
    #expect(report.actionCount == 1)
    #expect(report.finalState.level == 1)
    #expect(!report.isComplete)
    #expect(report.warnings == ["Line 3: the recording stopped after action 1: \(reason)"])
  }

  @Test(arguments: [
    (Gauge.Action.moved(to: -.infinity), "action.moved.to", "Gauge.Action.moved(to: -inf)"),
    (.read("a", .nan), "action.read._1", #"Gauge.Action.read("a", nan)"#),
    (
      .sensor(.reading(.init(name: "b", value: .nan))), "action.sensor._0.reading._0.value",
      #"Gauge.Action.sensor(.reading(Gauge.Reading(name: "b", value: nan)))"#
    ),
  ])
  func theWarningNamesThePlaceInTheActionWithItsEnumCases(
    action: Gauge.Action, place: String, described: String
  ) throws {
    let (recorder, warnings, _) = try record([action])
    #expect(recorder.actionCount == 0)
    let message = try #require(warnings.messages.first)
    #expect(message.contains("action 1, \(described), could not be written"), "\(message)")
    #expect(message.contains(" at \(place) cannot be written as JSON"), "\(message)")
    #expect(message.contains("The log holds no action and no later one"), "\(message)")
  }

  @Test func aStateThatCannotBeEncodedStopsAtItsCheckpoint() throws {
    let (recorder, warnings, file) = try record(
      [.set(1), .invalidated, .set(2), .read("k", 1)], interval: 2)
    let reason = """
      the checkpoint after action 2, Gauge.Action.invalidated, could not be written: the Double nan \
      at state.level cannot be written as JSON
      """
    #expect(warnings.messages.count == 1)
    #expect(warnings.messages.first?.contains(reason) == true)
    #expect(warnings.messages.first?.contains("The log holds actions 1 to 2 and no") == true)
    // The action was written; its checkpoint and the later actions were not.
    #expect(recorder.actionCount == 2)
    #expect(throws: ActionLogError.self) { try recorder.finish() }
    let report = try replayer.replay(path: file)
    #expect(report.actionCount == 2)
    #expect(!report.isComplete)
    #expect(report.warnings.count == 1)
    #expect(
      report.warnings.first?.hasPrefix("Line 4: the recording stopped after action 2: \(reason)")
        == true)
  }

  @Test func aDictionaryKeyIsNamedInThePlaceOfAValueThatCannotBeWritten() throws {
    let (_, warnings, _) = try record([.read("k", 1), .read("x", .nan)], interval: 1)
    // The action itself cannot be written, so it is the action's place that is named.
    #expect(warnings.messages.first?.contains(" at action.read._1 cannot") == true)
    let store = Store(initialState: Gauge.State(readings: ["k": .infinity])) { Gauge() }
    #expect {
      try store.recordActions(to: self.directory.path("header.jsonl"), feature: "Gauge")
    } throws: { error in
      "\(error)".contains(
        """
        the header could not be written: the Double inf at initialState.readings.k cannot be \
        written as JSON
        """)
    }
  }

  /// A header found unwritable before anything is written (a NaN in the initial state, a
  /// state too long for one line) leaves the file at the path as it was: the last
  /// session's log is not emptied by a recording that never started.
  @Test(arguments: ["a NaN", "a state too long for one line"])
  func aHeaderThatCannotBeWrittenLeavesTheFileThatWasThere(problem: String) throws {
    // Named by a string: a 9 MiB state as the argument would be printed whole.
    let state =
      problem == "a NaN"
      ? Gauge.State(level: .nan)
      : Gauge.State(readings: [String(repeating: "k", count: 9 << 20): 1])
    let path = directory.path("kept-\(UUID().uuidString).jsonl")
    let previous = "the last session's log\n"
    try previous.write(toFile: path, atomically: false, encoding: .utf8)
    let store = Store(initialState: state) { Gauge() }
    #expect {
      try store.recordActions(to: path, feature: "Gauge")
    } throws: { error in
      "\(error)".contains("the header could not be written")
    }
    #expect(try String(contentsOfFile: path, encoding: .utf8) == previous)
    // Nor is a file made where there was none.
    let absent = directory.path("absent-\(UUID().uuidString).jsonl")
    #expect(throws: ActionLogError.self) {
      try store.recordActions(to: absent, feature: "Gauge")
    }
    #expect(!FileManager.default.fileExists(atPath: absent))
  }

  /// The caller of finish() is told by the error it throws; the log still says why it ends.
  @Test func aFinalCheckpointThatCannotBeWrittenIsThrownNotWarned() throws {
    let (recorder, warnings, file) = try record([.set(1), .invalidated])
    #expect(warnings.messages.isEmpty)
    #expect(recorder.actionCount == 2)
    #expect {
      try recorder.finish()
    } throws: { error in
      "\(error)".contains(
        """
        recording stopped after action 2: the final checkpoint, after action 2, could not be \
        written: the Double nan at state.level cannot be written as JSON
        """)
    }
    #expect(warnings.messages.isEmpty)
    let report = try replayer.replay(path: file)
    #expect(report.actionCount == 2 && !report.isComplete)
    #expect(
      report.warnings.first?.hasPrefix("Line 4: the recording stopped after action 2") == true)
  }

  // MARK: - Reading the stop line

  func log(_ lines: [String]) throws -> String {
    let (recorder, _, file) = try record([])
    _ = recorder
    let header = try self.directory.lines(file)[0]
    try Data(([header] + lines).map { $0 + "\n" }.joined().utf8)
      .write(to: URL(fileURLWithPath: file))
    return file
  }

  let action = #"{"action":{"set":{"_0":1}},"kind":"action","origin":"user","seq":1,"time":0}"#
  let stop = #"{"kind":"stopped","reason":"a disk full","seq":1}"#

  @Test func nothingMayFollowTheStopLine() throws {
    let checkpoint = #"{"digest":"0000000000000000","kind":"checkpoint","seq":1}"#
    for after in [action.replacingOccurrences(of: #""seq":1"#, with: #""seq":2"#), checkpoint] {
      #expect {
        try self.replayer.replay(path: try self.log([self.action, self.stop, after]))
      } throws: { error in
        guard case .malformedLine(4, let reason) = error as? ActionLogError else { return false }
        return reason.hasPrefix("a line after line 3, which marks the recording as stopped")
      }
    }
    // A partial last line after it is damage too, not a recording cut off.
    let file = try log([action, stop])
    let whole = try Data(contentsOf: URL(fileURLWithPath: file))
    try (whole + Data(#"{"act"#.utf8)).write(to: URL(fileURLWithPath: file))
    #expect {
      try self.replayer.replay(path: file)
    } throws: { error in
      guard case .malformedLine(4, let reason) = error as? ActionLogError else { return false }
      return reason.contains("after line 3, which marks the recording as stopped")
    }
    // Blank lines are skipped, as everywhere.
    let report = try replayer.replay(path: try log([action, stop, "", "  "]))
    #expect(report.warnings == ["Line 3: the recording stopped after action 1: a disk full"])
  }

  @Test func aStopLineMustFollowTheLastActionAndNotTheFinalCheckpoint() throws {
    #expect(throws: ActionLogError.sequenceOutOfOrder(line: 3, found: 2, expected: 1)) {
      try self.replayer.replay(
        path: try self.log([
          self.action, self.stop.replacingOccurrences(of: #""seq":1"#, with: #""seq":2"#),
        ]))
    }
    // The final checkpoint of a one-action log, taken from a real recording.
    let (recorder, _, file) = try record([.set(1)])
    try recorder.finish()
    let final = try directory.lines(file)[2]
    #expect(
      throws: ActionLogError.malformedLine(
        line: 4, reason: "a recording marked as stopped after its final checkpoint.")
    ) {
      try self.replayer.replay(path: try self.log([self.action, final, self.stop]))
    }
    #expect {
      try self.replayer.replay(
        path: try self.log([self.action, #"{"kind":"stopped","seq":1}"#]))
    } throws: { error in
      guard case .malformedLine(3, let reason) = error as? ActionLogError else { return false }
      return reason.contains(#""reason""#)
    }
  }

  /// A log removed while it was being written took every action with it: `finish()` says
  /// so, rather than reporting a recording that nothing can replay.
  @Test func finishThrowsWhenTheLogWasRemovedWhileRecording() throws {
    let (recorder, _, file) = try record([.set(1)])
    try FileManager.default.removeItem(atPath: file)
    stores.last?.send(.set(2))
    let expected = ActionLogError.cannotWrite(
      path: file,
      reason: """
        the file was moved or removed while it was being written: the 2 action(s) recorded \
        and the final checkpoint went to a file that this path no longer names. Record to a \
        path that nothing else removes or replaces until finish()
        """)
    #expect(throws: expected) { try recorder.finish() }
    #expect(recorder.error == expected)
    #expect(throws: expected) { try recorder.finish() }
    #expect(!FileManager.default.fileExists(atPath: file))
  }

  @Test func finishThrowsWhenTheLogWasReplacedWhileRecording() throws {
    let (recorder, _, file) = try record([.set(1)])
    let other = directory.path("\(UUID().uuidString).jsonl")
    try Data("not the log\n".utf8).write(to: URL(fileURLWithPath: other))
    #expect(rename(other, file) == 0)
    #expect {
      try recorder.finish()
    } throws: { error in
      "\(error)".contains("the file was replaced while it was being written: the 1 action(s)")
    }
    #expect(try directory.lines(file) == ["not the log"])
  }

  @Test func aSecondFinishOfACompleteRecordingDoesNothing() throws {
    let (recorder, _, file) = try record([.set(1)])
    try recorder.finish()
    let lines = try directory.lines(file)
    try recorder.finish()
    #expect(try directory.lines(file) == lines)
    #expect(recorder.error == nil)
  }

  /// A session that failed (the demo's script threw), stopped by its caller: a checkpoint
  /// where none was just written, then a stop line with the reason, no runtime warning, and
  /// `finish()` throws the stop.
  @Test(arguments: [(1, 2), (2, 2), (2, 0)])
  func aFailedSessionEndsWithACheckpointAndAStopLine(interval: Int, actions: Int) throws {
    let (recorder, warnings, file) = try record(
      (0..<actions).map { .set(Double($0)) }, interval: interval)
    let reason = "the session failed: boom"
    #expect(recorder.stop(because: reason) == nil)
    #expect(warnings.messages.isEmpty, "\(warnings.messages)")
    let written = try directory.lines(file)
    // The header, the actions, the checkpoints: one a checkpoint interval, and one at the end
    // unless the last action's was written (or there is no action: the header holds the
    // state); then the stop line.
    let checkpoints = actions == 0 ? 0 : actions / interval + (actions % interval == 0 ? 0 : 1)
    #expect(written.count == 1 + actions + checkpoints + 1)
    #expect(written.last == #"{"kind":"stopped","reason":"\#(reason)","seq":\#(actions)}"#)
    let expected = ActionLogError.cannotWrite(
      path: file, reason: "recording stopped after action \(actions): \(reason)")
    #expect(throws: expected) { try recorder.finish() }
    // Stopped once: another stop writes nothing and returns the same error.
    #expect(recorder.stop(because: "again") == expected)
    #expect(try directory.lines(file).count == written.count)

    let report = try replayer.replay(path: file)
    #expect(report.actionCount == actions)
    #expect(report.checkpointsVerified == checkpoints)
    #expect(report.recordingStoppedAfter == actions)
    #expect(!report.isComplete)
  }
}
