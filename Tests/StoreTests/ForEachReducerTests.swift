import Effects
import Testing

@testable import Store

@MainActor
@Suite struct ForEachReducerTests {
  let clock = TestClock()

  func makeHarness(rows: [Int], warnings: WarningLog = WarningLog()) -> Harness<Todos> {
    var state = Todos.State()
    for id in rows { state.rows.append(Row.State(id: id)) }
    return Harness(initialState: state, warnings: warnings.handler, reducer: Todos(clock: clock))
  }

  @Test func anElementActionReachesOnlyThatElement() {
    let harness = makeHarness(rows: [1, 2, 3])
    harness.send(.rows(.element(id: 2, action: .renamed("two"))))
    #expect(harness.state.rows.map(\.title) == ["", "two", ""])
  }

  @Test func anActionForAMissingIDChangesNothingAndWarnsNamingTheActionAndID() {
    let warnings = WarningLog()
    let harness = makeHarness(rows: [1], warnings: warnings)
    let before = harness.state
    harness.send(.rows(.element(id: 42, action: .renamed("x"))))
    #expect(harness.state == before)
    #expect(warnings.messages.count == 1)
    #expect(warnings.messages.first?.contains("id 42") == true)
    #expect(warnings.messages.first?.contains(#"renamed("x")"#) == true)
    #expect(warnings.all.first?.fileID == "StoreTests/Todos.swift")
  }

  @Test func aRowRemovedAndAddedBackInOneStepKeepsItsEffectsAndItsStore() {
    let harness = makeHarness(rows: [1, 2])
    let rowStore = harness.store.scope(state: \.rows, action: .rows)[0]
    harness.send(.rows(.element(id: 1, action: .loadTapped)))
    harness.send(.rows(.element(id: 2, action: .loadTapped)))
    harness.send(.refreshRows([1]))
    #expect(clock.sleeperCount == 1)  // row 2's load ended, row 1's runs on
    #expect(harness.store.scope(state: \.rows, action: .rows)[0] === rowStore)
  }

  @Test func aRowRemovedByAnAncestorHasItsEffectsEndedByThatAction() {
    let warnings = WarningLog()
    var state = Account.State()
    state.todos.rows.append(Row.State(id: 1))
    let harness = Harness(
      initialState: state, warnings: warnings.handler, reducer: Account(clock: clock))
    harness.send(.todos(.rows(.element(id: 1, action: .loadTapped))))
    harness.send(.signOut)  // the ancestor empties the list, out of the forEach's sight
    #expect(clock.sleeperCount == 0)
    #expect(harness.core.runtime.runningCount == 0)
    #expect(warnings.messages.isEmpty)
  }

  /// Holds a list it empties itself on sign-out, above the list's own `forEach`.
  struct Account: Reducer {
    struct State: Equatable {
      var todos = Todos.State()
    }
    enum Action: Sendable, Equatable {
      case todos(Todos.Action)
      case signOut
    }
    let clock: TestClock
    var body: some Reducer<State, Action> {
      Scope(state: \.todos, action: .todos) { Todos(clock: clock) }
      Reduce { state, action in
        if action == .signOut { state.todos.rows.removeAll() }
        return .none
      }
    }
  }

  @Test func removingAnElementCancelsExactlyItsEffects() async {
    let harness = makeHarness(rows: [1, 2])
    harness.send(.rows(.element(id: 1, action: .loadTapped)))
    harness.send(.rows(.element(id: 2, action: .loadTapped)))
    #expect(clock.sleeperCount == 2)
    harness.send(.removeRow(1))
    #expect(clock.sleeperCount == 1)
    await clock.advance(by: .seconds(1))
    #expect(harness.state.rows.map(\.loads) == [1])
    #expect(harness.core.runtime.runningCount == 0)
  }

  @Test func anElementThatRemovesItselfCancelsItsOwnEffects() async {
    let harness = makeHarness(rows: [1, 2])
    harness.send(.rows(.element(id: 1, action: .loadTapped)))
    harness.send(.rows(.element(id: 1, action: .delegate(.deleteMe))))
    #expect(harness.state.rows.ids == [2])
    #expect(clock.sleeperCount == 0)
  }

  @Test func twoElementsUsingTheSameCancellationIDDoNotCancelEachOther() async {
    let harness = makeHarness(rows: [1, 2])
    harness.send(.rows(.element(id: 1, action: .loadTapped)))
    harness.send(.rows(.element(id: 2, action: .loadTapped)))
    // Row 1 restarts its load: cancel-in-flight cancels only row 1's earlier load.
    harness.send(.rows(.element(id: 1, action: .loadTapped)))
    #expect(clock.sleeperCount == 2)
    await clock.advance(by: .seconds(1))
    #expect(harness.state.rows.map(\.loads) == [1, 1])
  }

  @Test func aParentCancelsOneElementsEffectByItsCancellationID() async {
    let harness = makeHarness(rows: [1, 2])
    harness.send(.rows(.element(id: 1, action: .loadTapped)))
    harness.send(.rows(.element(id: 2, action: .loadTapped)))
    harness.send(.stopRowLoad(1))
    #expect(clock.sleeperCount == 1, "only row 1's load is cancelled")
    harness.send(.stopRowLoad(42))
    #expect(clock.sleeperCount == 1, "a missing id cancels nothing")
    await clock.advance(by: .seconds(1))
    #expect(harness.state.rows.map(\.loads) == [0, 1])
    #expect(harness.core.runtime.runningCount == 0)
  }

  @Test func anElementCancelsItsOwnEffectFromAnotherAction() async {
    let harness = makeHarness(rows: [1, 2])
    harness.send(.rows(.element(id: 1, action: .loadTapped)))
    harness.send(.rows(.element(id: 2, action: .loadTapped)))
    harness.send(.rows(.element(id: 2, action: .stopLoadTapped)))
    #expect(clock.sleeperCount == 1)
    await clock.advance(by: .seconds(1))
    #expect(harness.state.rows.map(\.loads) == [1, 0])
  }

  @Test func addingAnElementLeavesOthersEffectsRunning() async {
    let harness = makeHarness(rows: [1])
    harness.send(.rows(.element(id: 1, action: .loadTapped)))
    harness.send(.addRow(2))
    await clock.advance(by: .seconds(1))
    #expect(harness.state.rows[id: 1]?.loads == 1)
  }

  @Test func reAddingARemovedIDStartsAFreshLifetime() async {
    let harness = makeHarness(rows: [1])
    harness.send(.rows(.element(id: 1, action: .loadTapped)))
    harness.send(.removeRow(1))
    harness.send(.addRow(1))
    harness.send(.rows(.element(id: 1, action: .loadTapped)))
    await clock.advance(by: .seconds(1))
    #expect(harness.state.rows[id: 1]?.loads == 1)
  }

  @Test func anElementActionRunsOnlyThatElementsReducer() {
    // No scan over the elements: the element reducer runs once, for the one element.
    struct Counted: Reducer {
      let calls: FiringCount
      func reduce(into state: inout Row.State, action: Row.Action) -> Effect<Row.Action> {
        calls.increment()
        if case .renamed(let title) = action { state.title = title }
        return .none
      }
    }
    struct List: Reducer {
      struct State { var rows: IdentifiedArrayOf<Row.State> }
      enum Action: Sendable { case rows(IdentifiedAction<Int, Row.Action>) }
      let calls: FiringCount
      var body: some Reducer<State, Action> {
        EmptyReducer()
          .forEach(
            \.rows, action: CaseKey(Action.rows) { if case .rows(let a) = $0 { a } else { nil } }
          ) {
            Counted(calls: calls)
          }
      }
    }
    let calls = FiringCount()
    var state = List.State(
      rows: IdentifiedArrayOf((0..<10_000).map { Row.State(id: $0) }) { a, _ in a })
    _ = List(calls: calls).reduce(
      into: &state, action: .rows(.element(id: 9_999, action: .renamed("last"))))
    #expect(calls.value == 1)
    #expect(state.rows[id: 9_999]?.title == "last")
  }
}

extension CaseKey<ForEachReducerTests.Account.Action, Todos.Action> {
  static var todos: Self {
    Self(ForEachReducerTests.Account.Action.todos) { if case .todos(let a) = $0 { a } else { nil } }
  }
}
