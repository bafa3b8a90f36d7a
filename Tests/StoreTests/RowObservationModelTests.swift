import Effects
import Observation
import Testing

@testable import Store

/// Checks that row stores observed as a view observes them (reading the row's name) are
/// notified exactly when their row's name changed, never for a change to another row, and
/// read what the state holds, through random renames, loads, reorders, removals, refreshes
/// and undos.
@MainActor
@Suite struct RowObservationModelTests {
  typealias List = NestedRowList.List

  @Test(arguments: 0..<10 as Range<UInt64>)
  func observersAreNotifiedExactlyForTheirOwnRow(seed: UInt64) async {
    let clock = TestClock()
    let warnings = WarningLog()
    let harness = Harness(
      initialState: List.State(), warnings: warnings.handler, reducer: List(clock: clock))
    var random = SeededGenerator(state: seed &* 31 &+ 77)
    let watched = WatchedRows<Int, NestedRowList.Row.State, NestedRowList.Row.Action>(
      name: \.name)
    var renames = 0
    var log: [String] = []
    for id in 0..<6 { harness.send(.addRow(id, items: [], detail: nil)) }
    for step in 0..<300 {
      let ids = harness.state.rows.ids
      // Rows the action replaced wholesale: their observers may fire without a name change.
      var replaced: Set<Int> = []
      var description = ""
      switch Int.random(in: 0..<100, using: &random) {
      case 0..<25:
        if let id = ids.randomElement(using: &random) {
          renames += 1
          harness.send(.renameRow(id, "n\(renames)"))
          replaced = [id]
          description = "rename \(id)"
        }
      case 25..<35:
        if let id = ids.randomElement(using: &random) {
          harness.send(.rows(.element(id: id, action: .load)))
          description = "load \(id)"
        }
      case 35..<45:
        if ids.count > 1 {
          let i = Int.random(in: 0..<ids.count, using: &random)
          let j = Int.random(in: 0..<ids.count, using: &random)
          harness.send(.swap(i, j))
          description = "swap \(i) \(j)"
        }
      case 45..<50:
        harness.send(.sortDescending)
        description = "sortDescending"
      case 50..<58:
        if let id = ids.randomElement(using: &random) {
          harness.send(.setNil(id))
          description = "remove \(id)"
        }
      case 58..<66:
        let id = Int.random(in: 0..<8, using: &random)
        if !ids.contains(id) {
          harness.send(.addRow(id, items: [], detail: nil))
          description = "add \(id)"
        }
      case 66..<72:
        let kept = Set((0..<3).map { _ in Int.random(in: 0..<8, using: &random) }).sorted()
        harness.send(.refresh(kept))
        replaced = Set(kept)
        description = "refresh \(kept)"
      case 72..<80:
        harness.send(.save)
        description = "save"
      case 80..<86:
        harness.send(.restore)
        replaced = Set(harness.state.rows.ids)
        description = "restore"
      case 86..<92:
        if let id = ids.randomElement(using: &random) {
          harness.send(.rows(.element(id: id, action: .openDetail(5))))
          description = "openDetail \(id)"
        }
      default:
        await clock.advance(by: .seconds(1))
        harness.settle()
        description = "advance"
      }
      log.append(description)
      let place = "seed \(seed) step \(step) after \(description)"
      guard
        watched.check(
          ids: harness.state.rows.ids, names: { harness.state.rows[id: $0]?.name },
          stores: harness.store.scope(state: \.rows, action: .rows), replaced: replaced,
          place: place, log: log)
      else { return }
    }
    #expect(warnings.messages.isEmpty, "seed \(seed): \(warnings.messages)")
  }
}
