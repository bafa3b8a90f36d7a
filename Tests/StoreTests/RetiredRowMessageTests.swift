import Effects
import Foundation
import Testing

@testable import Store

/// A row keyed by a UUID.
private struct UUIDRow: Reducer {
  struct State: Equatable, Identifiable, Sendable {
    let id: UUID
    var bumps = 0
  }
  enum Action: Sendable, Equatable { case bump }
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    state.bumps += 1
    return .none
  }
}

private struct UUIDList: Reducer {
  struct State: Equatable {
    var rows: IdentifiedArrayOf<UUIDRow.State> = []
  }
  enum Action: Sendable, Equatable {
    case rows(IdentifiedActionOf<UUIDRow>)
    case add(UUID)
    case remove(UUID)
  }
  static var rowsKey: CaseKey<Action, IdentifiedActionOf<UUIDRow>> {
    CaseKey(Action.rows) { if case .rows(let action) = $0 { action } else { nil } }
  }
  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .add(let id): state.rows.append(UUIDRow.State(id: id))
      case .remove(let id): state.rows.remove(id: id)
      case .rows: break
      }
      return .none
    }
    .forEach(\.rows, action: Self.rowsKey) { UUIDRow() }
  }
}

/// The warning for a send to a removed row's store, whose id another row now has, printed a
/// UUID as its hex digits (`00000000-0000-0000-0000-000000000003`), where every other message
/// writes it as a test does, `UUID(counting: 3)` (observation hunt).
@MainActor
@Suite struct RetiredRowMessageTests {
  @Test func aSendToARemovedRowsStoreNamesItsUUIDAsATestWritesIt() throws {
    let warnings = WarningLog()
    let id = UUID(counting: 3)
    let harness = Harness(
      initialState: UUIDList.State(rows: [UUIDRow.State(id: id)]), warnings: warnings.handler,
      reducer: UUIDList())
    let old = try #require(harness.store.scope(state: \.rows, action: UUIDList.rowsKey)[id: id])
    harness.send(.remove(id))
    harness.send(.add(id))
    old.send(.bump)
    #expect(harness.state.rows[id: id]?.bumps == 0)
    #expect(warnings.messages.count == 1)
    #expect(
      warnings.messages.first?.contains(
        "element UUID(counting: 3), which was removed; the element with that id now is another")
        == true, "\(warnings.messages)")
  }
}

/// A row keyed by a string.
private struct NamedRow: Reducer {
  struct State: Equatable, Identifiable, Sendable {
    let id: String
    var bumps = 0
  }
  enum Action: Sendable, Equatable { case bump }
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    state.bumps += 1
    return .none
  }
}

private struct NamedList: Reducer {
  struct State: Equatable {
    var rows: IdentifiedArray<String, NamedRow.State> = []
  }
  enum Action: Sendable, Equatable {
    case rows(IdentifiedAction<String, NamedRow.Action>)
    case add(String)
    case remove(String)
  }
  static var rowsKey: CaseKey<Action, IdentifiedAction<String, NamedRow.Action>> {
    CaseKey(Action.rows) { if case .rows(let action) = $0 { action } else { nil } }
  }
  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .add(let id): state.rows.append(NamedRow.State(id: id))
      case .remove(let id): state.rows.remove(id: id)
      case .rows: break
      }
      return .none
    }
    .forEach(\.rows, action: Self.rowsKey) { NamedRow() }
  }
}

/// The warnings for a send to the store of a row that left a view, or whose id another row
/// took: a row that left a filtered view and came back was said to have been removed, and a
/// string id was written bare, so that an empty one read "element with id  of", and one with
/// a line break split the line.
@MainActor
@Suite struct LeftViewMessageTests {
  /// A row that left a filtered view (a computed property) and came back has a store of its
  /// own again; the old store's warning says the row left the view, not that it was removed.
  @Test func aSendToTheOldStoreOfARowBackInAFilteredViewSaysItLeftTheView() throws {
    let warnings = WarningLog()
    let harness = Harness(
      initialState: FilteredBoard.State(), warnings: warnings.handler, reducer: FilteredBoard())
    let old = try #require(harness.store.scope(state: \.visibleCards, action: .cards)[id: 2])
    harness.send(.cards(.element(id: 2, action: .hide)))
    harness.send(.cards(.element(id: 2, action: .show)))
    let new = try #require(harness.store.scope(state: \.visibleCards, action: .cards)[id: 2])
    #expect(new !== old)
    old.send(.rename("old store"))
    #expect(harness.state.cards[id: 2]?.name == "card 2")
    #expect(warnings.messages.count == 1)
    let message = try #require(warnings.messages.first)
    #expect(!message.contains("which was removed"), "\(message)")
    #expect(
      message.contains(
        "the element with id 2, which left the view of the collection the store was scoped to"),
      "\(message)")
    #expect(message.contains("scope again for its current store"), "\(message)")
  }

  /// String ids are quoted, and escaped, as an action's string payload is.
  @Test func aSendToARemovedRowsStoreQuotesItsStringID() throws {
    let warnings = WarningLog()
    let harness = Harness(
      initialState: NamedList.State(), warnings: warnings.handler, reducer: NamedList())
    harness.send(.add(""))
    harness.send(.add("a\nb"))
    let rows = harness.store.scope(state: \.rows, action: NamedList.rowsKey)
    let empty = try #require(rows[id: ""])
    let split = try #require(rows[id: "a\nb"])
    harness.send(.remove(""))
    harness.send(.remove("a\nb"))
    empty.send(.bump)
    split.send(.bump)
    // Added back: the old store's send is ignored by the store itself.
    harness.send(.add(""))
    empty.send(.bump)
    #expect(harness.state.rows[id: ""]?.bumps == 0)
    let messages = warnings.messages
    #expect(messages.count == 3)
    #expect(messages.allSatisfy { !$0.contains("\n") }, "\(messages)")
    #expect(messages.first?.contains(#"the element with id "" of"#) == true, "\(messages)")
    #expect(
      messages.dropFirst().first?.contains(#"the element with id "a\nb" of"#) == true,
      "\(messages)")
    #expect(
      messages.last?.contains(#"element "", which was removed; the element with that id"#)
        == true, "\(messages)")
  }
}
