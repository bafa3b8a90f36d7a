import Effects
import Testing

@testable import Store

/// The visible cards of a `FilteredBoard`, reached through a child state a computed property
/// builds anew at each read, by way of an optional child's or an enum case's store: such a
/// store keeps a copy of its state, and its `cards` lie at an offset in it, so that they were
/// taken for a stored collection. A row that left the view had its sends go on, with no
/// warning, to the `forEach` over the whole collection, which changed the row while its store
/// showed its last state; and the cards, and the child's whole state, read through the store
/// were reported changed after every action, whatever it changed.
@MainActor
@Suite struct ComputedOptionalChildViewTests {
  /// How the store of the visible cards is reached.
  enum Route: String, CaseIterable, CustomTestStringConvertible {
    /// An optional child a computed property builds (`\.filteredIfAny`).
    case computedOptional
    /// A case of an enum a computed property builds (`\.shown`, then `.filtered`).
    case caseOfComputedEnum
    /// A case of an optional enum a computed property builds.
    case caseOfComputedOptional
    /// A stored property of an optional child a computed property builds.
    case storedInComputedOptional
    /// A stored optional of a child a computed property builds.
    case storedOptionalInComputed

    var testDescription: String { rawValue }

    /// The store of the visible cards, in `harness`'s store.
    @MainActor
    func store(in harness: Harness<FilteredBoard>) throws -> Store<
      FilteredBoard.Filtered, FilteredBoard.Action
    > {
      let root = harness.store
      switch self {
      case .computedOptional:
        return try #require(root.scope(state: \.filteredIfAny, action: .filtered))
      case .caseOfComputedEnum:
        let shown = root.scope(state: \.shown, action: .filtered)
        return try #require(shown.scope(state: .filtered, action: .filtered))
      case .caseOfComputedOptional:
        let shown = try #require(root.scope(state: \.shownIfAny, action: .filtered))
        return try #require(shown.scope(state: .filtered, action: .filtered))
      case .storedInComputedOptional:
        let panel = try #require(root.scope(state: \.panelIfAny, action: .filtered))
        return panel.scope(state: \.filtered, action: .filtered)
      case .storedOptionalInComputed:
        let drawer = root.scope(state: \.drawer, action: .filtered)
        return try #require(drawer.scope(state: \.filtered, action: .filtered))
      }
    }
  }

  func board(_ warnings: WarningLog = WarningLog()) -> Harness<FilteredBoard> {
    Harness(
      initialState: FilteredBoard.State(), warnings: warnings.handler, reducer: FilteredBoard())
  }

  @Test(arguments: Route.allCases)
  func aRowThatLeavesTheViewIgnoresItsSendsWithAWarning(route: Route) throws {
    let warnings = WarningLog()
    let harness = board(warnings)
    let filtered = try route.store(in: harness)
    let card = try #require(filtered.scope(state: \.cards, action: .cards)[id: 2])
    #expect(card.name == "card 2")
    harness.send(.cards(.element(id: 2, action: .hide)))
    #expect(filtered.scope(state: \.cards, action: .cards)[id: 2] == nil)
    card.send(.rename("typed while leaving"))
    #expect(harness.state.cards[id: 2]?.name == "card 2")
    #expect(card.name == "card 2")
    #expect(warnings.messages.count == 1, "\(warnings.messages)")
    #expect(
      warnings.messages.first?.contains(
        "the element with id 2, which is no longer in the view of the collection the store was"
      ) == true, "\(warnings.messages)")
  }

  @Test(arguments: Route.allCases)
  func rowsStillInTheViewAreDrivenAsBefore(route: Route) throws {
    let warnings = WarningLog()
    let harness = board(warnings)
    let filtered = try route.store(in: harness)
    let card = try #require(filtered.scope(state: \.cards, action: .cards)[id: 3])
    harness.send(.cards(.element(id: 2, action: .hide)))
    card.send(.rename("kept"))
    #expect(harness.state.cards[id: 3]?.name == "kept")
    #expect(card.name == "kept")
    #expect(warnings.messages.isEmpty, "\(warnings.messages)")
  }

  @Test(arguments: Route.allCases)
  func anUnrelatedActionNotifiesNoObserverAndAChangeStillDoes(route: Route) throws {
    let harness = board()
    let filtered = try route.store(in: harness)
    let cards = Tracker { _ = filtered.cards }
    let whole = Tracker { _ = filtered.state }
    harness.send(.tick)
    harness.send(.tick)
    #expect(cards.firings == 0)
    #expect(whole.firings == 0)
    harness.send(.cards(.element(id: 1, action: .rename("renamed"))))
    #expect(cards.firings == 1)
    #expect(whole.firings == 1)
    #expect(filtered.cards[id: 1]?.name == "renamed")
    let again = Tracker { _ = filtered.cards }
    harness.send(.cards(.element(id: 2, action: .hide)))
    #expect(again.firings == 1)
    #expect(filtered.cards.ids == [1, 3])
  }

  /// A stored optional child is followed as before: a row removed from its stored cards has
  /// its sends reach the `forEach`, which refuses them with its own warning, and a row hidden
  /// there is still driven.
  @Test func aStoredOptionalChildsRowsAreDrivenAsBefore() throws {
    let warnings = WarningLog()
    let harness = Harness(
      initialState: StoredFilteredBoard.State(), warnings: warnings.handler,
      reducer: StoredFilteredBoard())
    let child = try #require(harness.store.scope(state: \.child, action: .child))
    let rows = child.scope(state: \.cards, action: .cards)
    let removed = try #require(rows[id: 2])
    let hidden = try #require(rows[id: 3])
    harness.send(.child(.cards(.element(id: 3, action: .hide))))
    hidden.send(.rename("hidden, still stored"))
    #expect(harness.state.child?.cards[id: 3]?.name == "hidden, still stored")
    #expect(warnings.messages.isEmpty, "\(warnings.messages)")
    harness.send(.removeCard(2))
    removed.send(.rename("typed after removal"))
    #expect(warnings.messages.count == 1, "\(warnings.messages)")
    #expect(
      warnings.messages.first?.contains("no element has that id") == true,
      "\(warnings.messages)")
    #expect(warnings.messages.first?.contains("no longer in the view") == false)
  }

  @Test func aStoredOptionalChildIsObservedAsBefore() throws {
    let harness = Harness(
      initialState: StoredFilteredBoard.State(), reducer: StoredFilteredBoard())
    let child = try #require(harness.store.scope(state: \.child, action: .child))
    let cards = Tracker { _ = child.cards }
    let whole = Tracker { _ = child.state }
    harness.send(.tick)
    #expect(cards.firings == 0)
    #expect(whole.firings == 0)
    harness.send(.child(.cards(.element(id: 1, action: .rename("renamed")))))
    #expect(cards.firings == 1)
    #expect(whole.firings == 1)
  }
}
