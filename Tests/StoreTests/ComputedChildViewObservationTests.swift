import Effects
import Testing

@testable import Store

/// A collection read through the store of a child state that a computed property builds anew
/// at each read (`Filtered(cards: cards.filter(\.isVisible))`): its stamps are new at each
/// build. It was followed by them, kept hollow, as a collection stored where the root keeps
/// it is, and so found changed after every action, whatever the action changed: a view of the
/// filtered cards drew again after each one.
@MainActor
@Suite struct ComputedChildViewObservationTests {
  func board() -> Harness<FilteredBoard> {
    Harness(initialState: FilteredBoard.State(), reducer: FilteredBoard())
  }

  @Test func aCollectionOfAComputedChildIsNotReportedChangedByAnUnrelatedAction() {
    let harness = board()
    let filtered = harness.store.scope(state: \.filtered, action: .filtered)
    let cards = Tracker { _ = filtered.cards }
    let whole = Tracker { _ = filtered.state }
    harness.send(.tick)
    #expect(cards.firings == 0)
    #expect(whole.firings == 0)
    // As the same view read through the root is not.
    let throughRoot = Tracker { _ = harness.store.visibleCards }
    harness.send(.tick)
    #expect(throughRoot.firings == 0)
    #expect(cards.firings == 0)
    #expect(whole.firings == 0)
  }

  @Test func aChangeToTheViewIsStillReported() {
    let harness = board()
    let filtered = harness.store.scope(state: \.filtered, action: .filtered)
    let cards = Tracker { _ = filtered.cards }
    let whole = Tracker { _ = filtered.state }
    harness.send(.cards(.element(id: 1, action: .rename("renamed"))))
    #expect(cards.firings == 1)
    #expect(whole.firings == 1)
    #expect(filtered.cards[id: 1]?.name == "renamed")
    let again = Tracker { _ = filtered.cards }
    harness.send(.cards(.element(id: 2, action: .hide)))
    #expect(again.firings == 1)
    #expect(filtered.cards.ids == [1, 3])
  }

  /// A computed child that holds the stored collection itself has its stamps: it is still
  /// followed by them, kept hollow, and a row's change writes the rows in place while a view
  /// shows it (a copy kept to compare would share their buffer, and the next write copy it).
  @Test func aComputedChildHoldingTheStoredCollectionIsStillFollowedByItsStamps() {
    let harness = board()
    let everything = harness.store.scope(state: \.everything, action: .filtered)
    let cards = Tracker { _ = everything.cards }
    let whole = Tracker { _ = everything.state }
    harness.send(.tick)
    #expect(cards.firings == 0)
    #expect(whole.firings == 0)
    func buffer() -> UnsafeRawPointer? {
      harness.core.untrackedState.cards.storage.withUnsafeBufferPointer {
        UnsafeRawPointer($0.baseAddress)
      }
    }
    let before = buffer()
    harness.send(.cards(.element(id: 1, action: .rename("in place"))))
    #expect(buffer() == before)
    #expect(cards.firings == 1)
    #expect(whole.firings == 1)
  }
}
