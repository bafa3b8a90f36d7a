import Effects
import Observation
import Testing

@testable import Store

// Regressions found in review of this library's own changes: each failed before its fix.

/// A list that may be absent: reading it through the store must not trap.
struct OptionalRows: Reducer {
  struct State: Equatable {
    var rows: IdentifiedArrayOf<Row.State>? = [Row.State(id: 1)]
    var count = 0
  }
  enum Action: Sendable { case rename(String), bump }
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .rename(let title): state.rows?[id: 1]?.title = title
    case .bump: state.count += 1
    }
    return .none
  }
}

/// An optional child with an observer.
struct ObservedChild: Reducer {
  struct State: Equatable {
    var writes = 0
    var child: Row.State? = nil { didSet { writes += 1 } }
    var other = 0
  }
  enum Action: Sendable { case child(Row.Action), other }
  let clock: TestClock
  var body: some Reducer<State, Action> {
    Reduce { state, action in
      if case .other = action { state.other += 1 }
      return .none
    }
    .ifLet(\.child, action: .child) { Row(clock: clock) }
  }
}

extension CaseKey<ObservedChild.Action, Row.Action> {
  static var child: Self {
    Self(ObservedChild.Action.child) { if case .child(let a) = $0 { a } else { nil } }
  }
}

/// An optional child computed from a list: its setter writes into the list.
struct SelectedRow: Reducer {
  struct State: Equatable {
    var rows: IdentifiedArrayOf<Row.State> = [Row.State(id: 1)]
    var selectedID: Int? = 1
    var other = 0
    var selected: Row.State? {
      get { selectedID.flatMap { rows[id: $0] } }
      set {
        if let newValue { rows[id: newValue.id] = newValue } else { selectedID = nil }
      }
    }
  }
  enum Action: Sendable { case selected(Row.Action), other }
  let clock: TestClock
  var body: some Reducer<State, Action> {
    Reduce { state, action in
      if case .other = action { state.other += 1 }
      return .none
    }
    .ifLet(\.selected, action: .selected) { Row(clock: clock) }
  }
}

extension CaseKey<SelectedRow.Action, Row.Action> {
  static var selected: Self {
    Self(SelectedRow.Action.selected) { if case .selected(let a) = $0 { a } else { nil } }
  }
}

/// The list feature scoped inside a parent, for cancellation by element from within it.
struct TodosInside: Reducer {
  struct State: Equatable { var todos = Todos.State() }
  enum Action: Sendable, Equatable { case todos(Todos.Action) }
  let clock: TestClock
  var body: some Reducer<State, Action> {
    Scope(state: \.todos, action: .todos) { Todos(clock: clock) }
  }
}

extension CaseKey<TodosInside.Action, Todos.Action> {
  static var todos: Self {
    Self(TodosInside.Action.todos) { if case .todos(let a) = $0 { a } else { nil } }
  }
}

@MainActor
@Suite struct ReviewRegressionTests {
  let clock = TestClock()

  @Test func anOptionalListReadThroughTheStoreIsObserved() {
    let store = Store(initialState: OptionalRows.State()) { OptionalRows() }
    let tracker = Tracker { _ = store.rows }
    store.send(.bump)
    #expect(tracker.firings == 0)
    store.send(.rename("x"))
    #expect(tracker.firings == 1)
  }

  @Test func ifLetNeverWritesAnObservedChildForOtherActions() {
    let store = Store(initialState: ObservedChild.State()) { ObservedChild(clock: clock) }
    store.send(.other)
    store.send(.other)
    #expect(store.writes == 0, "the child's didSet ran for actions that are not the child's")
  }

  @Test func ifLetOnAComputedChildLeavesTheListItComesFromAlone() {
    let store = Store(initialState: SelectedRow.State()) { SelectedRow(clock: clock) }
    let tracker = Tracker { _ = store.rows }
    store.send(.other)
    #expect(tracker.firings == 0, "the rows did not change")
    store.send(.selected(.renamed("one")))
    #expect(tracker.firings == 1)
    #expect(store.rows[id: 1]?.title == "one")
  }

  @Test func aParentCancelsAnElementsEffectWhenItIsItselfScoped() async {
    var state = TodosInside.State()
    state.todos.rows = [Row.State(id: 1), Row.State(id: 2)]
    state.todos.path.append(Row.State(id: 7))
    state.todos.path.append(Row.State(id: 8))
    let harness = Harness(initialState: state, reducer: TodosInside(clock: clock))
    harness.send(.todos(.rows(.element(id: 1, action: .loadTapped))))
    harness.send(.todos(.rows(.element(id: 2, action: .loadTapped))))
    harness.send(.todos(.stopRowLoad(1)))
    #expect(clock.sleeperCount == 1)
    harness.send(.todos(.path(.element(id: StackElementID(rawValue: 0), action: .loadTapped))))
    harness.send(.todos(.path(.element(id: StackElementID(rawValue: 1), action: .loadTapped))))
    harness.send(.todos(.stopScreenLoad(StackElementID(rawValue: 1))))
    #expect(clock.sleeperCount == 2)
    await clock.advance(by: .seconds(1))
    #expect(harness.state.todos.rows.map(\.loads) == [0, 1])
    #expect(harness.state.todos.path.map(\.loads) == [1, 0])
  }
}
