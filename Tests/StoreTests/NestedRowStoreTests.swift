import Effects
import Testing

@testable import Store

/// Checks the stores scoped under a row store (a row's items, a row's optional detail): once
/// their row, item or detail goes they drive nothing, not even what comes back with the same
/// ids, and warn naming the action and the id; they are let go with their row; and presenting
/// and removing children over and over piles nothing up.
@MainActor
@Suite struct NestedRowStoreTests {
  typealias List = NestedRowList.List
  typealias ItemStore = Store<NestedRowList.Item.State, NestedRowList.Item.Action>

  let clock = TestClock()

  func makeHarness(warnings: WarningLog = WarningLog()) -> Harness<List> {
    let harness = Harness(
      initialState: List.State(), warnings: warnings.handler, reducer: List(clock: clock))
    harness.send(.addRow(41, items: [42], detail: 43))
    harness.send(.addRow(2, items: [42], detail: 43))
    return harness
  }

  @Test func storesUnderARemovedRowDriveNothingOnceTheRowComesBackAndWarnNamingIt() {
    let warnings = WarningLog()
    let harness = makeHarness(warnings: warnings)
    let row = harness.store.scope(state: \.rows, action: .rows)[id: 41]!
    let item = row.scope(state: \.items, action: .items)[id: 42]!
    let detail = row.scope(state: \.detail, action: .detail)!
    _ = (row.loads, item.loads, detail.loads)
    harness.send(.setNil(41))
    harness.send(.addRow(41, items: [42], detail: 43))
    row.send(.loaded)
    item.send(.loaded)
    detail.send(.loaded)
    harness.settle()
    #expect(
      harness.state.rows[id: 41] == .init(id: 41, items: [.init(id: 42)], detail: .init(id: 43)))
    #expect((row.loads, item.loads, detail.loads) == (0, 0, 0))
    let messages = warnings.messages
    #expect(messages.count == 3)
    #expect(messages.allSatisfy { $0.contains("loaded") && $0.contains("41") }, "\(messages)")
    #expect(messages.count == 3 && messages[1].contains("42"), "\(messages)")
  }

  @Test func storesOfAnItemOrDetailRemovedAndAddedBackDriveNothing() {
    let warnings = WarningLog()
    let harness = makeHarness(warnings: warnings)
    let row = harness.store.scope(state: \.rows, action: .rows)[id: 41]!
    let item = row.scope(state: \.items, action: .items)[id: 42]!
    let detail = row.scope(state: \.detail, action: .detail)!
    _ = (item.loads, detail.loads)
    harness.send(.removeItemFromParent(41, 42))
    harness.send(.addItem(41, 42))
    harness.send(.closeDetail(41))
    harness.send(.rows(.element(id: 41, action: .openDetail(43))))
    item.send(.loaded)
    detail.send(.loaded)
    harness.settle()
    #expect(harness.state.rows[id: 41]?.items[id: 42]?.loads == 0)
    #expect(harness.state.rows[id: 41]?.detail?.loads == 0)
    #expect(warnings.messages.count == 2, "\(warnings.messages)")
    #expect(row.scope(state: \.items, action: .items)[id: 42] !== item)
    #expect(row.scope(state: \.detail, action: .detail) !== detail)
  }

  @Test func storesUnderARemovedRowAreLetGoWithIt() {
    let harness = makeHarness()
    weak var row: Store<NestedRowList.Row.State, NestedRowList.Row.Action>?
    weak var item: ItemStore?
    weak var detail: ItemStore?
    do {
      let rowStore = harness.store.scope(state: \.rows, action: .rows)[id: 41]!
      row = rowStore
      item = rowStore.scope(state: \.items, action: .items)[id: 42]
      detail = rowStore.scope(state: \.detail, action: .detail)
      _ = (item?.loads, detail?.loads)
    }
    #expect(row != nil)
    harness.send(.setNil(41))
    #expect(row == nil)
    #expect(item == nil)
    #expect(detail == nil)
  }

  @Test func aRootHoldingNestedStoresWithRunningEffectsIsFreed() async {
    weak var core: AnyObject?
    weak var root: AnyObject?
    do {
      let store = Store(initialState: List.State()) { List(clock: clock) }
      store.send(.addRow(1, items: [10, 11], detail: 5))
      store.send(.addRow(2, items: [10], detail: nil))
      for row in store.scope(state: \.rows, action: .rows) {
        _ = row.name
        row.send(.load)
        for item in row.scope(state: \.items, action: .items) {
          _ = item.loads
          item.send(.load)
        }
        if let detail = row.scope(state: \.detail, action: .detail) {
          _ = detail.loads
          detail.send(.load)
        }
      }
      core = store.core
      root = store
    }
    #expect(root == nil)
    #expect(core == nil)
    // How many loads sleep by now depends on when the live store's tasks ran: only that none
    // is left once time passes is certain.
    await clock.advance(by: .seconds(2))
    #expect(clock.sleeperCount == 0)
  }

  @Test func hooksAndChildStoresDoNotPileUpAsChildrenAndRowsComeAndGo() {
    let harness = makeHarness()
    let row = harness.store.scope(state: \.rows, action: .rows)[id: 2]!
    _ = row.name
    for cycle in 0..<300 {
      harness.send(.rows(.element(id: 2, action: .openDetail(cycle))))
      _ = row.scope(state: \.detail, action: .detail)?.loads
      harness.send(.closeDetail(2))
      harness.send(.addRow(1000 + cycle, items: [1], detail: 2))
      let other = harness.store.scope(state: \.rows, action: .rows)[id: 1000 + cycle]!
      _ = other.scope(state: \.items, action: .items)[id: 1]?.loads
      _ = other.scope(state: \.detail, action: .detail)?.loads
      harness.send(.setNil(1000 + cycle))
    }
    #expect(harness.core.dispatchHooks.count < 20, "\(harness.core.dispatchHooks.count) hooks")
    #expect(row.children.count < 5, "\(row.children.count) child stores")
  }
}
