import Effects
import Store
import StoreTesting
import Testing

/// An ancestor that sets a list back to an older copy of itself removes rows without taking a
/// new stamp, so a live store may only notice when some array's ids change; a test store
/// looks after every action, so what such a test sees does not depend on other tests.
@MainActor
@Suite struct GonePlaceTests {
  struct Row: Reducer {
    struct State: Equatable, Identifiable {
      let id: Int
      var loads = 0
    }
    enum Action: Sendable, Equatable {
      case loadTapped
      case loaded
    }
    let clock: TestClock
    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .loadTapped:
        return .run { send in
          try await clock.sleep(for: .seconds(1))
          send(.loaded)
        }
      case .loaded:
        state.loads += 1
        return .none
      }
    }
  }

  struct List: Reducer {
    struct State: Equatable {
      var rows: IdentifiedArrayOf<Row.State> = []
    }
    enum Action: Sendable, Equatable {
      case rows(IdentifiedActionOf<Row>)
      case addRow(Int)
    }
    let clock: TestClock
    var body: some ReducerOf<Self> {
      Reduce { state, action in
        if case .addRow(let id) = action { state.rows.append(Row.State(id: id)) }
        return .none
      }
      .forEach(\.rows, action: .rows) { Row(clock: clock) }
    }
  }

  /// Keeps a copy of the list and sets it back, as an undo does, above the list's `forEach`.
  struct Undoing: Reducer {
    struct State: Equatable {
      var list = List.State()
      var saved: List.State?
    }
    enum Action: Sendable, Equatable {
      case list(List.Action)
      case save
      case undo
    }
    let clock: TestClock
    var body: some ReducerOf<Self> {
      Scope(state: \.list, action: .list) { List(clock: clock) }
      Reduce { state, action in
        switch action {
        case .save: state.saved = state.list
        case .undo: if let saved = state.saved { state.list = saved }
        case .list: break
        }
        return .none
      }
    }
  }

  @Test func aRowAnAncestorUndoesAwayHasItsEffectEndedByThatAction() async {
    let clock = TestClock()
    let store = TestStore(initialState: Undoing.State()) { Undoing(clock: clock) }
    await store.send(.save) { $0.saved = List.State() }
    await store.send(.list(.addRow(1))) { $0.list.rows.append(Row.State(id: 1)) }
    await store.send(.list(.rows(.element(id: 1, action: .loadTapped))))
    #expect(clock.sleeperCount == 1)
    await store.send(.undo) { $0.list.rows = [] }
    #expect(clock.sleeperCount == 0, "the removed row's load ends with the undo")
    await store.finish()
  }
}

extension CaseKey<GonePlaceTests.List.Action, IdentifiedActionOf<GonePlaceTests.Row>> {
  static var rows: Self {
    Self(GonePlaceTests.List.Action.rows) { if case .rows(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<GonePlaceTests.Undoing.Action, GonePlaceTests.List.Action> {
  static var list: Self {
    Self(GonePlaceTests.Undoing.Action.list) { if case .list(let a) = $0 { a } else { nil } }
  }
}
