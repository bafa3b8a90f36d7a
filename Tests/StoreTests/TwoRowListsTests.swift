import Effects
import Testing

@testable import Store

/// Checks two `forEach`es over lists of one row type holding the same ids: each row's effects
/// belong to its list, so cancelling or removing in one list, also from above a `Scope`, leaves
/// the other's running, and a row moved to the other list is a new row there.
@MainActor
@Suite struct TwoRowListsTests {
  typealias RowF = NestedRowList.Row

  struct Lists: Reducer {
    struct State: Equatable {
      var todo: IdentifiedArrayOf<RowF.State> = []
      var done: IdentifiedArrayOf<RowF.State> = []
    }
    enum Action: Sendable, Equatable {
      case todo(IdentifiedActionOf<RowF>)
      case done(IdentifiedActionOf<RowF>)
      case complete(Int)
      case stopTodoLoad(Int)
    }
    let clock: TestClock
    var body: some ReducerOf<Self> {
      Reduce { state, action in
        switch action {
        case .complete(let id):
          if let row = state.todo.remove(id: id) { state.done.append(row) }
        case .stopTodoLoad(let id):
          return .cancel(id: "load", inElement: id, of: \State.todo)
        case .todo, .done: break
        }
        return .none
      }
      .forEach(\.todo, action: .todo) { RowF(clock: clock) }
      .forEach(\.done, action: .done) { RowF(clock: clock) }
    }
  }

  /// The lists under a parent that removes from them above a `Scope`.
  struct Parent: Reducer {
    struct State: Equatable { var lists = Lists.State() }
    enum Action: Sendable, Equatable {
      case lists(Lists.Action)
      case dropTodo(Int)
    }
    let clock: TestClock
    var body: some ReducerOf<Self> {
      Scope(state: \.lists, action: .lists) { Lists(clock: clock) }
      Reduce { state, action in
        if case .dropTodo(let id) = action { state.lists.todo.remove(id: id) }
        return .none
      }
    }
  }

  let clock = TestClock()

  func makeHarness(_ warnings: WarningLog) -> Harness<Lists> {
    var state = Lists.State()
    state.todo = [.init(id: 1), .init(id: 2)]
    state.done = [.init(id: 1), .init(id: 3)]
    let harness = Harness(
      initialState: state, warnings: warnings.handler, reducer: Lists(clock: clock))
    for id in [1, 2] { harness.send(.todo(.element(id: id, action: .load))) }
    for id in [1, 3] { harness.send(.done(.element(id: id, action: .load))) }
    return harness
  }

  @Test func cancellingInOneListLeavesTheSameIDInTheOtherRunning() async {
    let warnings = WarningLog()
    let harness = makeHarness(warnings)
    harness.send(.stopTodoLoad(1))
    #expect(clock.sleeperCount == 3)
    await clock.advance(by: .seconds(1))
    #expect(harness.state.done.map(\.loads) == [1, 1])
    #expect(harness.state.todo.map(\.loads) == [0, 1])
  }

  @Test func aRowMovedToTheOtherListHasItsEffectsEnded() async {
    let warnings = WarningLog()
    let harness = makeHarness(warnings)
    harness.send(.complete(2))
    #expect(clock.sleeperCount == 3)
    await clock.advance(by: .seconds(1))
    #expect(harness.state.done.map(\.loads) == [1, 1, 0])
    #expect(harness.state.todo.map(\.loads) == [1])
    #expect(warnings.messages.isEmpty)
  }

  @Test func anAncestorRemovingFromOneListLeavesTheOtherRunning() async {
    let warnings = WarningLog()
    var state = Parent.State()
    state.lists.todo = [.init(id: 1), .init(id: 2)]
    state.lists.done = [.init(id: 1), .init(id: 3)]
    let harness = Harness(
      initialState: state, warnings: warnings.handler, reducer: Parent(clock: clock))
    for id in [1, 2] { harness.send(.lists(.todo(.element(id: id, action: .load)))) }
    for id in [1, 3] { harness.send(.lists(.done(.element(id: id, action: .load)))) }
    harness.send(.dropTodo(1))
    #expect(clock.sleeperCount == 3)
    await clock.advance(by: .seconds(1))
    #expect(harness.state.lists.done.map(\.loads) == [1, 1])
    #expect(harness.state.lists.todo.map(\.loads) == [1])
    #expect(warnings.messages.isEmpty)
  }
}

extension CaseKey<TwoRowListsTests.Lists.Action, IdentifiedActionOf<NestedRowList.Row>> {
  static var todo: Self {
    Self(TwoRowListsTests.Lists.Action.todo) { if case .todo(let a) = $0 { a } else { nil } }
  }
  static var done: Self {
    Self(TwoRowListsTests.Lists.Action.done) { if case .done(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<TwoRowListsTests.Parent.Action, TwoRowListsTests.Lists.Action> {
  static var lists: Self {
    Self(TwoRowListsTests.Parent.Action.lists) { if case .lists(let a) = $0 { a } else { nil } }
  }
}
