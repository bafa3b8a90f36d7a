import Effects
import Foundation
import Store

/// Scenario 39: a replay's timeline, each step's `stateChanges`, over a state of 1,000 rows,
/// against encoding each step's state once with `JSONEncoder`: the least a timeline that
/// compares states in their logged form must do.
///
/// What `demo replay` prints without `--quiet`. Its cost is the encoding, the canonical form's
/// walk, the comparison of two steps' encodings and the check of how deeply they nest; a scan
/// that read each byte through `Data`'s subscript once made it 35 to 45% slower, unseen by the
/// other scenarios.
enum TimelineBench {
  static let rowCount = 1_000
  static let stepCount = 100

  /// A list of rows, each action stepping one row's quantity.
  struct Rows: Reducer {
    struct Row: Codable, Equatable, Identifiable, Sendable {
      var id: Int
      var name: String
      var note = ""
      var quantity = 1
    }
    struct State: Codable, Equatable, Sendable {
      var title = "Cart"
      var rows: IdentifiedArrayOf<Row> = []
    }
    enum Action: Codable, Equatable, Sendable {
      case stepped(id: Int)
    }
    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .stepped(let id):
        state.rows[id: id]?.quantity += 1
        return .none
      }
    }
  }

  @MainActor
  static func run(into table: inout Table) throws {
    let path = ScratchFiles.make(prefix: "swift-unidirectional-store-bench-timeline-")
    defer { ScratchFiles.remove(path) }
    let rows = (0..<rowCount).map { Rows.Row(id: $0, name: "Item \($0)") }
    let store = Store(initialState: Rows.State(rows: IdentifiedArray(rows))) { Rows() }
    let recorder = try store.recordActions(
      to: path, feature: "Rows", checkpointInterval: 1_000, time: { 0 })
    for step in 1...stepCount { store.send(.stepped(id: step * 7 % rowCount)) }
    try recorder.finish()

    let replayer = ActionLogReplayer(feature: "Rows") { Rows() }
    var states: [Rows.State] = []
    _ = try replayer.replay(path: path) { states.append($0.stateAfter) }
    precondition(states.count == stepCount)
    let encoder = JSONEncoder()
    let clock = ContinuousClock()
    var timelineTimes: [Duration] = []
    var encodeTimes: [Duration] = []
    func replayTimeline() throws {
      var changes = 0
      let start = clock.now
      _ = try replayer.replay(path: path) { changes += $0.stateChanges.count }
      timelineTimes.append(start.duration(to: clock.now))
      // One changed quantity a step.
      precondition(changes == stepCount)
    }
    func encodeEach() throws {
      let encodeStart = clock.now
      for state in states { _ = try encoder.encode(state) }
      encodeTimes.append(encodeStart.duration(to: clock.now))
    }
    // The sides take turns going first, as in scenario 7.
    for round in 0..<3 {
      if round.isMultiple(of: 2) {
        try replayTimeline()
        try encodeEach()
      } else {
        try encodeEach()
        try replayTimeline()
      }
    }
    // The fastest of each, as for the replay (scenario 7): runs are long enough for the
    // machine's other work to land in some and not others.
    table.add(
      "a replay's timeline (each step's stateChanges), 1,000 rows",
      timelineTimes.min()!.nanoseconds / Double(stepCount),
      "JSONEncoder encoding each step's state once",
      encodeTimes.min()!.nanoseconds / Double(stepCount), 2.0)
  }
}
