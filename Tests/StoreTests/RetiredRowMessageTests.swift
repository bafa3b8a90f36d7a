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
