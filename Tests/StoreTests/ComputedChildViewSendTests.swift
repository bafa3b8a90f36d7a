import Effects
import Testing

@testable import Store

/// A row of a filtered view that lies in a child state a computed property builds
/// (`Filtered(cards: cards.filter(\.isVisible))`, scoped to, then its `cards`): the collection
/// is a stored property of that child, but the child, and so the collection, is built anew at
/// each read. It was taken for a stored collection: a row that left the view had its sends go
/// on to the `forEach` over the whole collection, which changed the row, with no warning,
/// while the row's store went on showing its last state.
@MainActor
@Suite struct ComputedChildViewSendTests {
  func board(_ warnings: WarningLog) -> Harness<FilteredBoard> {
    Harness(
      initialState: FilteredBoard.State(), warnings: warnings.handler, reducer: FilteredBoard())
  }

  @Test func aRowThatLeavesAViewInAComputedChildStateIgnoresItsSends() throws {
    let warnings = WarningLog()
    let harness = board(warnings)
    let filtered = harness.store.scope(state: \.filtered, action: .filtered)
    let card = try #require(filtered.scope(state: \.cards, action: .cards)[id: 2])
    #expect(card.name == "card 2")
    harness.send(.cards(.element(id: 2, action: .hide)))
    #expect(filtered.scope(state: \.cards, action: .cards)[id: 2] == nil)
    card.send(.rename("typed while leaving"))
    #expect(harness.state.cards[id: 2]?.name == "card 2")
    #expect(card.name == "card 2")
    #expect(warnings.messages.count == 1)
    #expect(
      warnings.messages.first?.contains(
        "the element with id 2, which is no longer in the view of the collection the store was"
      ) == true, "\(warnings.messages)")
  }

  /// The rows still in the view are driven as before, and a row's store of a collection
  /// stored in the root's state still has a removed row's sends reach the `forEach`, which
  /// warns.
  @Test func rowsStillInTheViewAndStoredRowsAreDrivenAsBefore() throws {
    let warnings = WarningLog()
    let harness = board(warnings)
    let filtered = harness.store.scope(state: \.filtered, action: .filtered)
    let card = try #require(filtered.scope(state: \.cards, action: .cards)[id: 3])
    harness.send(.cards(.element(id: 2, action: .hide)))
    card.send(.rename("kept"))
    #expect(harness.state.cards[id: 3]?.name == "kept")
    #expect(card.name == "kept")
    let stored = try #require(harness.store.scope(state: \.cards, action: .cards)[id: 2])
    stored.send(.rename("hidden, still stored"))
    #expect(harness.state.cards[id: 2]?.name == "hidden, still stored")
    #expect(warnings.messages.isEmpty, "\(warnings.messages)")
  }
}
