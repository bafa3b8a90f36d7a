import Effects
import Observation
import Testing

@testable import Store

/// Removed rows' stores are let go once nothing outside holds them, observed or not, with
/// children scoped from them or not; the stores of rows still there keep working.
@MainActor
@Suite struct RemovedRowStoreReleaseTests {
  typealias List = NestedRowList.List

  @Test func aRemovedObservedRowStoreWithScopedChildrenIsReleased() {
    let clock = TestClock()
    let harness = Harness(initialState: List.State(), reducer: List(clock: clock))
    for id in 0..<40 { harness.send(.addRow(id, items: [1, 2], detail: 7)) }
    weak var released: Store<NestedRowList.Row.State, NestedRowList.Row.Action>?
    weak var releasedItem: Store<NestedRowList.Item.State, NestedRowList.Item.Action>?
    weak var releasedDetail: Store<NestedRowList.Item.State, NestedRowList.Item.Action>?
    var tracker: Tracker?
    do {
      let rows = harness.store.scope(state: \.rows, action: .rows)
      let row = rows[id: 5]!
      released = row
      let items = row.scope(state: \.items, action: .items)
      let item = items[id: 1]!
      releasedItem = item
      let detail = row.scope(state: \.detail, action: .detail)!
      releasedDetail = detail
      tracker = Tracker {
        _ = row.name
        _ = item.loads
        _ = detail.loads
      }
      harness.send(.renameRow(5, "x"))
      #expect(tracker!.firings == 1)
      tracker!.observe()
    }
    harness.send(.setNil(5))
    harness.send(.renameRow(6, "y"))
    tracker = nil
    #expect(released == nil, "the removed row's store is let go")
    #expect(releasedItem == nil, "its item's store is let go")
    #expect(releasedDetail == nil, "its detail's store is let go")
  }

  @Test func manyRowsRemovedInOneActionAreAllReleased() {
    let clock = TestClock()
    let harness = Harness(initialState: List.State(), reducer: List(clock: clock))
    for id in 0..<300 { harness.send(.addRow(id, items: [], detail: nil)) }
    var weakStores: [WeakBox] = []
    do {
      let rows = harness.store.scope(state: \.rows, action: .rows)
      var trackers: [Tracker] = []
      for id in 0..<300 {
        let row = rows[id: id]!
        weakStores.append(WeakBox(row))
        trackers.append(Tracker { _ = row.name })
      }
      harness.send(.removeWhereOdd)
      harness.send(.renameRow(0, "z"))
      #expect(trackers[0].firings == 1)
      #expect(trackers[1].firings == 0)
    }
    let held = weakStores.enumerated().filter { $0.element.object != nil }.map(\.offset)
    // Even rows are still in the list, whose cache holds their stores: odd ones must be gone.
    #expect(held.allSatisfy { $0 % 2 == 0 }, "held: \(held.filter { $0 % 2 == 1 }.prefix(10))")
  }

  final class WeakBox {
    weak var object: AnyObject?
    init(_ object: AnyObject) { self.object = object }
  }
}
