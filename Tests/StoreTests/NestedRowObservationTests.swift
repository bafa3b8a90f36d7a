import Effects
import Observation
import Testing

@testable import Store

/// Checks observation through stores scoped under a row store: an item store, a row's item
/// list and a row's optional detail are notified for their own changes only, never for a
/// sibling's or another row's with the same ids, and an observer reading again in `onChange`
/// sees the new value, also when the row was taken out and put back with other content.
@MainActor
@Suite struct NestedRowObservationTests {
  typealias List = NestedRowList.List

  let clock = TestClock()

  func makeHarness() -> Harness<List> {
    let harness = Harness(initialState: List.State(), reducer: List(clock: clock))
    harness.send(.addRow(1, items: [10, 11], detail: 5))
    harness.send(.addRow(2, items: [10, 11], detail: 5))
    return harness
  }

  @Test func anItemStoreIsNotifiedForItsItemAloneNotForSiblingsOrTheOtherRow() {
    let harness = makeHarness()
    let row = harness.store.scope(state: \.rows, action: .rows)[id: 1]!
    let item = row.scope(state: \.items, action: .items)[id: 10]!
    let view = Tracker { _ = item.loads }
    harness.send(.rows(.element(id: 2, action: .items(.element(id: 10, action: .loaded)))))
    harness.send(.rows(.element(id: 1, action: .items(.element(id: 11, action: .loaded)))))
    harness.send(.renameRow(1, "x"))
    #expect(view.firings == 0)
    harness.send(.rows(.element(id: 1, action: .items(.element(id: 10, action: .loaded)))))
    #expect(view.firings == 1)
    #expect(item.loads == 1)
  }

  @Test func aRowsItemListIsNotifiedForItsOwnItemsStructureOnly() {
    let harness = makeHarness()
    let row = harness.store.scope(state: \.rows, action: .rows)[id: 1]!
    let list = Tracker { _ = row.scope(state: \.items, action: .items) }
    harness.send(.removeItemFromParent(2, 10))
    harness.send(.rows(.element(id: 1, action: .items(.element(id: 10, action: .loaded)))))
    harness.send(.renameRow(1, "x"))
    #expect(list.firings == 0)
    harness.send(.removeItemFromParent(1, 11))
    #expect(list.firings == 1)
    #expect(row.scope(state: \.items, action: .items).ids == [10])
  }

  @Test func aRowsDetailIsNotifiedForPresenceAndIDNotContent() {
    let harness = makeHarness()
    let row = harness.store.scope(state: \.rows, action: .rows)[id: 1]!
    let first = row.scope(state: \.detail, action: .detail)
    #expect(first != nil)
    let view = Tracker { _ = row.scope(state: \.detail, action: .detail) }
    harness.send(.rows(.element(id: 1, action: .detail(.loaded))))
    harness.send(.rows(.element(id: 2, action: .openDetail(6))))
    #expect(view.firings == 0)
    #expect(first?.loads == 1)
    harness.send(.rows(.element(id: 1, action: .openDetail(6))))
    #expect(view.firings == 1)
    let second = row.scope(state: \.detail, action: .detail)
    #expect(second !== first)
    #expect(second?.id == 6)
    view.observe()
    harness.send(.closeDetail(1))
    #expect(view.firings == 2)
    #expect(row.scope(state: \.detail, action: .detail) == nil)
  }

  /// What an observer read again from its `onChange`.
  @MainActor fileprivate final class Rereads {
    private(set) var values: [String] = []

    /// Observes `read`, and from `onChange` reads it again, as a view that draws at once.
    init(_ read: @escaping @MainActor () -> String) {
      withObservationTracking {
        _ = read()
      } onChange: {
        MainActor.assumeIsolated { self.values.append(read()) }
      }
    }
  }

  @Test func observersOfARowPutBackWithOtherContentReadTheNewValuesInOnChange() {
    let harness = makeHarness()
    let row = harness.store.scope(state: \.rows, action: .rows)[id: 1]!
    let item = row.scope(state: \.items, action: .items)[id: 10]!
    let detail = row.scope(state: \.detail, action: .detail)!
    let rowName = Rereads { row.name }
    let itemLoads = Rereads { "\(item.loads)" }
    let detailLoads = Rereads { "\(detail.loads)" }
    let listedName = Rereads { harness.store.rows[id: 1]?.name ?? "-" }
    harness.send(.reinsert(1, item: 10, loads: 3, name: "re"))
    #expect(rowName.values == ["re"])
    #expect(itemLoads.values == ["3"])
    #expect(detailLoads.values == ["3"])
    #expect(listedName.values == ["re"])
  }
}
