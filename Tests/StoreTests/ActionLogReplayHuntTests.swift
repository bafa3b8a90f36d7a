import Effects
import Foundation
import Testing

@testable import Store

/// What the replay hunt found: edges of `until`, of a header without its initial state, and
/// of a recording whose initial state does not decode back.
@MainActor
@Suite final class ActionLogReplayHuntTests {
  let directory = TemporaryDirectory("action-log-replay-hunt")

  /// Records `actions` sent to a `Tally` store with a checkpoint every `interval` actions,
  /// returning the log's lines.
  func record(_ actions: [Tally.Action], interval: Int) throws -> [String] {
    let file = directory.path("recorded-\(UUID().uuidString).jsonl")
    let store = Store(initialState: Tally.State()) { Tally() }
    let recorder = try store.recordActions(
      to: file, feature: "Tally", checkpointInterval: interval, time: { 0 })
    for action in actions { store.send(action) }
    try recorder.finish()
    return try directory.lines(file)
  }

  /// Writes `text` to a new file, returning its path.
  func write(_ text: String) throws -> String {
    let file = directory.path("written-\(UUID().uuidString).jsonl")
    try Data(text.utf8).write(to: URL(fileURLWithPath: file))
    return file
  }

  func replay(_ file: String, until: Int? = nil) throws -> ReplayReport<Tally.State> {
    try ActionLogReplayer(feature: "Tally") { Tally() }.replay(path: file, until: until)
  }

  // MARK: - A last line cut short after the action `until` asks for

  /// Lines 1 to 3 hold the header and actions 1 and 2, line 4 action 2's checkpoint. Cut
  /// anywhere, that checkpoint is a line a replay until action 2 needed: it was said to have
  /// stopped after 2 as asked, with no warning, and the checkpoint went unchecked silently.
  /// Now a warning names the line, and once the cut line says it is a checkpoint, that
  /// action 2's could not be read.
  @Test func aCutCheckpointOfTheActionUntilAsksForIsReported() throws {
    let lines = try record([.add(1), .add(2), .add(3)], interval: 2)
    #expect(lines[3].hasPrefix(#"{"digest":"#))
    #expect(lines[3].contains(#""kind":"checkpoint","seq":2"#))
    let checkpoint = Array(lines[3].utf8)
    for length in 1..<checkpoint.count {
      let cut = String(decoding: checkpoint[..<length], as: UTF8.self)
      let file = try write(lines[0...2].joined(separator: "\n") + "\n" + cut)
      let report = try replay(file, until: 2)
      #expect(report.stoppedAfter == 2)
      #expect(!report.isComplete)
      #expect(report.finalState.count == 3)
      #expect(report.warnings.count == 1, "cut after \(length) bytes: \(report.warnings)")
      let warning = report.warnings.first ?? ""
      // As a replay of the whole log says of its cut last line.
      #expect(warning.hasPrefix("Line 4: incomplete (the recording was cut off while writing it)"))
      #expect(try replay(file).warnings.first?.hasPrefix("Line 4: incomplete") == true)
      if length >= #"{"digest""#.utf8.count {
        #expect(
          warning.contains("the checkpoint of action 2, which could not be read"), "\(warning)")
      } else {
        #expect(warning.contains("without knowing whether it was that action's checkpoint"))
      }
    }
  }

  /// A cut line that says it is the line marking the recording as stopped after the action
  /// asked for is named as such.
  @Test func aCutStopLineOfTheActionUntilAsksForIsReported() throws {
    let lines = try record([.add(1), .add(2)], interval: 100)
    let file = try write(
      lines[0...2].joined(separator: "\n") + "\n" + #"{"kind":"stopped","reason":"the disk"#)
    let report = try replay(file, until: 2)
    #expect(report.stoppedAfter == 2)
    #expect(
      report.warnings == [
        """
        Line 4: incomplete (the recording was cut off while writing it): it is the line \
        marking the recording as stopped after action 2, which could not be read; the replay \
        stopped after action 2, as asked.
        """
      ])
  }

  /// A cut action line past the action asked for is no line the replay needed: it stops
  /// there with no warning, as before a whole one.
  @Test func aCutActionLinePastTheActionUntilAsksForIsSilent() throws {
    let lines = try record([.add(1), .add(2), .add(3)], interval: 100)
    #expect(lines[3].hasPrefix(#"{"action":"#))
    let action = Array(lines[3].utf8)
    for length in #"{"a"#.utf8.count..<action.count {
      let cut = String(decoding: action[..<length], as: UTF8.self)
      let file = try write(lines[0...2].joined(separator: "\n") + "\n" + cut)
      let report = try replay(file, until: 2)
      #expect(report.stoppedAfter == 2)
      #expect(report.finalState.count == 3)
      #expect(report.warnings.isEmpty, "cut after \(length) bytes: \(report.warnings)")
    }
  }

  // MARK: - `until` and a complete log

  /// A replay until the last action reads its final checkpoint; a line after that checkpoint
  /// (an action, in a log damaged after it was finished) is past the step asked for, not
  /// read: the replay stopped before the end of the log, so the log is not called complete.
  /// It said `stoppedAfter == 2` and `isComplete` at once.
  @Test func aReplayStoppedBeforeALineAfterTheFinalCheckpointIsNotComplete() throws {
    let lines = try record([.add(1), .add(2)], interval: 100)
    #expect(lines.count == 4)
    let third = lines[2].replacingOccurrences(of: #""seq":2"#, with: #""seq":3"#)
    let file = try write((lines + [third]).joined(separator: "\n") + "\n")
    let report = try replay(file, until: 2)
    #expect(report.stoppedAfter == 2)
    #expect(!report.isComplete)
    #expect(report.checkpointsVerified == 1)
    #expect(report.finalState.count == 3)
  }

  /// Blank space with no newline after the final checkpoint is a blank last line, as it is
  /// in a replay of the whole log: a replay until the last action gives the whole log's
  /// report. It said the replay stopped after action 2, before the end of the log.
  @Test func aBlankLastLineWithoutNewlineEndsAReplayUntilTheLastActionAsItEndsTheLog() throws {
    let lines = try record([.add(1), .add(2)], interval: 100)
    for blank in [" ", "\t", "  \r"] {
      let file = try write(lines.joined(separator: "\n") + "\n" + blank)
      for until in [2, 5] {
        let report = try replay(file, until: until)
        #expect(report.stoppedAfter == nil, "until \(until), \(blank.debugDescription)")
        #expect(report.isComplete)
        #expect(report.warnings.isEmpty)
      }
    }
  }

  // MARK: - A header without its initial state

  /// A header with every field but `initialState` was refused as a state that "does not
  /// decode with the current types (they changed since the recording…)": it is simply not
  /// there, and is named as another missing field is.
  /// So is one whose `initialState` is `null` (the session's diff reviewer).
  @Test(arguments: [false, true])
  func aHeaderWithoutItsInitialStateSaysSo(null: Bool) throws {
    let lines = try record([.add(1)], interval: 100)
    let header = try #require(
      try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
    #expect(header["initialState"] != nil)
    var without = header
    without["initialState"] = null ? NSNull() : nil
    let line = try JSONSerialization.data(withJSONObject: without, options: [.sortedKeys])
    let file = try write(
      String(decoding: line, as: UTF8.self) + "\n" + lines[1...].joined(separator: "\n") + "\n")
    #expect(
      throws: ActionLogError.badHeader(
        line: 1,
        reason: """
          no "initialState": the field is missing, or null, so the header holds no state to \
          replay the actions from.
          """)
    ) { try self.replay(file) }
  }

  // MARK: - An initial state that does not decode back

  /// A feature whose state's decoder refuses a blank name, which its own code never makes,
  /// but an app can build.
  struct Named: Reducer {
    struct State: Equatable, Codable {
      var name = "Ada"
      init(name: String = "Ada") { self.name = name }
      init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        guard !name.isEmpty else {
          throw DecodingError.dataCorruptedError(
            forKey: .name, in: container, debugDescription: "A name is never blank.")
        }
      }
    }
    enum Action: Equatable, Codable, Sendable { case rename(String) }
    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      guard case .rename(let name) = action, !name.isEmpty else { return .none }
      state.name = name
      return .none
    }
  }

  /// A recording from a state its own decoder refuses wrote a log no replay could start,
  /// and said so only at replay time. The recorder reads its header back before it opens
  /// the file: it refuses to start, naming the value and the decoder's reason, and the file
  /// at the path is left as it was.
  @Test func aRecordingWhoseInitialStateDoesNotDecodeBackDoesNotStart() throws {
    let file = directory.path("named.jsonl")
    try Data("the last session's log\n".utf8).write(to: URL(fileURLWithPath: file))
    let store = Store(initialState: Named.State(name: "")) { Named() }
    #expect(
      throws: ActionLogError.cannotWrite(
        path: file,
        reason: """
          the initial state does not decode from the header written for it, so no replay could \
          read the log: invalid value "" at initialState.name: A name is never blank.
          """)
    ) { _ = try store.recordActions(to: file, feature: "Named", time: { 0 }) }
    #expect(try String(contentsOfFile: file, encoding: .utf8) == "the last session's log\n")
    // The same store, from a state that decodes, records and replays.
    store.send(.rename("Grace"))
    let recorder = try store.recordActions(to: file, feature: "Named", time: { 0 })
    store.send(.rename("Lin"))
    try recorder.finish()
    let report = try ActionLogReplayer(feature: "Named") { Named() }.replay(path: file)
    #expect(report.finalState == Named.State(name: "Lin"))
    #expect(report.isComplete)
  }
}
