import Effects
import Testing

@testable import Store

/// An element, optional child, screen or case removed by an ancestor, above the `Scope` that
/// runs the reducer owning it, where that reducer does not run: the store finds the place gone
/// after the action and ends its effects then, not at the next action for it.
@MainActor
@Suite struct AncestorRemovalTests {
  let clock = TestClock()

  func makeHarness(
    _ build: (inout Home.State) -> Void,
    warnings: WarningLog = WarningLog()
  ) -> Harness<Home> {
    var state = Home.State()
    build(&state)
    return Harness(initialState: state, warnings: warnings.handler, reducer: Home(clock: clock))
  }

  @Test func aRowRemovedAboveItsScopeHasItsEffectsEndedAndTheOthersGoOn() async {
    let warnings = WarningLog()
    let harness = makeHarness(
      { $0.todos.rows = [Row.State(id: 1), Row.State(id: 2)] }, warnings: warnings)
    harness.send(.todos(.rows(.element(id: 1, action: .loadTapped))))
    harness.send(.todos(.rows(.element(id: 2, action: .loadTapped))))
    harness.send(.ancestor(.dropRow(1)))
    #expect(clock.sleeperCount == 1)
    await clock.advance(by: .seconds(1))
    harness.settle()
    #expect(harness.state.todos.rows.map(\.loads) == [1])
    #expect(harness.core.runtime.runningCount == 0)
    #expect(!harness.core.runtime.hasRemovablePlaces, "nothing is left to look for")
    #expect(warnings.messages.isEmpty)
  }

  @Test func anUnrelatedChangeAboveTheScopeEndsNothing() async {
    let harness = makeHarness { $0.todos.rows = [Row.State(id: 1)] }
    harness.send(.todos(.rows(.element(id: 1, action: .loadTapped))))
    harness.send(.ancestor(.renameRow(1, "renamed")))
    harness.send(.ancestor(.addRow(2)))
    #expect(clock.sleeperCount == 1)
    await clock.advance(by: .seconds(1))
    harness.settle()
    #expect(harness.state.todos.rows[id: 1]?.loads == 1)
  }

  @Test func anEditorClosedAboveItsScopeHasItsEffectsEnded() {
    let warnings = WarningLog()
    let harness = makeHarness({ $0.todos.rows = [Row.State(id: 1)] }, warnings: warnings)
    harness.send(.todos(.editTapped(1)))
    harness.send(.todos(.editor(.presented(.autosaveTapped))))
    #expect(clock.sleeperCount == 1)
    harness.send(.ancestor(.closeEditor))
    #expect(clock.sleeperCount == 0)
    #expect(harness.core.runtime.runningCount == 0)
    #expect(warnings.messages.isEmpty)
  }

  @Test func screensClearedAboveTheirScopeHaveTheirEffectsEnded() {
    let harness = makeHarness { $0.todos.path = StackState([Row.State(id: 7)]) }
    let screen = harness.state.todos.path.id(at: 0)
    harness.send(.todos(.path(.element(id: screen, action: .loadTapped))))
    #expect(clock.sleeperCount == 1)
    harness.send(.ancestor(.clearPath))
    #expect(clock.sleeperCount == 0)
    #expect(harness.core.runtime.runningCount == 0)
  }

  @Test func aNestedRowRemovedByAnAncestorEndsOnlyItsOwnEffects() async {
    // Two sections whose rows have the same ids: the row's place is found through its
    // section, and the other section's row 1 goes on.
    let harness = makeHarness {
      $0.sections = [
        Home.Section(id: 1, todos: Todos.State(rows: [Row.State(id: 1)])),
        Home.Section(id: 2, todos: Todos.State(rows: [Row.State(id: 1)])),
      ]
    }
    for section in [1, 2] {
      harness.send(
        .sections(.element(id: section, action: .rows(.element(id: 1, action: .loadTapped)))))
    }
    #expect(clock.sleeperCount == 2)
    harness.send(.ancestor(.dropNestedRow(section: 1, row: 1)))
    #expect(clock.sleeperCount == 1)
    await clock.advance(by: .seconds(1))
    harness.settle()
    #expect(harness.state.sections[id: 2]?.todos.rows[id: 1]?.loads == 1)
    #expect(harness.core.runtime.runningCount == 0)
  }

  @Test func aCaseLeftAboveItsScopeHasItsEffectsEnded() {
    let harness = makeHarness {
      $0.shell = .browsing(Todos.State(rows: [Row.State(id: 1)]))
    }
    harness.send(.shell(.browsing(.rows(.element(id: 1, action: .loadTapped)))))
    #expect(clock.sleeperCount == 1)
    harness.send(.ancestor(.leave))
    #expect(clock.sleeperCount == 0)
    #expect(harness.core.runtime.runningCount == 0)
  }

  @Test func aChildRunByHandKeepsItsEffectsThroughOtherActions() async {
    // No `Scope` names where the child's state is, so its rows cannot be found from the root:
    // their effects are never ended by guesswork.
    var state = ByHand.State()
    state.todos.rows = [Row.State(id: 1)]
    let harness = Harness(initialState: state, reducer: ByHand(clock: clock))
    harness.send(.todos(.rows(.element(id: 1, action: .loadTapped))))
    harness.send(.other)
    #expect(clock.sleeperCount == 1)
    await clock.advance(by: .seconds(1))
    harness.settle()
    #expect(harness.state.todos.rows[id: 1]?.loads == 1)
  }

  /// Changes the state of children that it reaches through `Scope`s, where their own reducers
  /// do not run.
  struct Home: Reducer {
    struct Section: Equatable, Identifiable {
      let id: Int
      var todos = Todos.State()
    }
    struct Shell: Reducer {
      enum State: Equatable {
        case browsing(Todos.State)
        case away
      }
      enum Action: Sendable, Equatable { case browsing(Todos.Action) }
      let clock: TestClock
      var body: some Reducer<State, Action> {
        EmptyReducer<State, Action>()
          .ifCaseLet(.browsing, action: .browsing) { Todos(clock: clock) }
      }
    }
    struct State: Equatable {
      var todos = Todos.State()
      var sections: IdentifiedArrayOf<Section> = []
      var shell = Shell.State.away
    }
    enum Change: Sendable, Equatable {
      case dropRow(Int)
      case renameRow(Int, String)
      case addRow(Int)
      case closeEditor
      case clearPath
      case dropNestedRow(section: Int, row: Int)
      case leave
    }
    enum Action: Sendable, Equatable {
      case todos(Todos.Action)
      case sections(IdentifiedAction<Int, Todos.Action>)
      case shell(Shell.Action)
      case ancestor(Change)
    }
    let clock: TestClock
    var body: some Reducer<State, Action> {
      Scope(state: \.todos, action: .todos) { Todos(clock: clock) }
      Scope(state: \.shell, action: .shell) { Shell(clock: clock) }
      Reduce { state, action in
        guard case .ancestor(let change) = action else { return .none }
        switch change {
        case .dropRow(let id): state.todos.rows.remove(id: id)
        case .renameRow(let id, let title): state.todos.rows[id: id]?.title = title
        case .addRow(let id): state.todos.rows.append(Row.State(id: id))
        case .closeEditor: state.todos.editor = nil
        case .clearPath: state.todos.path.removeAll()
        case .dropNestedRow(let section, let row):
          state.sections[id: section]?.todos.rows.remove(id: row)
        case .leave: state.shell = .away
        }
        return .none
      }
      .forEach(\.sections, action: .sections) {
        Scope(state: \Section.todos, action: .todos) { Todos(clock: clock) }
      }
    }
  }

  /// Runs its child's reducer by hand, on its state, with no `Scope`.
  struct ByHand: Reducer {
    struct State: Equatable { var todos = Todos.State() }
    enum Action: Sendable, Equatable {
      case todos(Todos.Action)
      case other
    }
    let clock: TestClock
    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      guard case .todos(let action) = action else { return .none }
      return Todos(clock: clock).reduce(into: &state.todos, action: action).map(Action.todos)
    }
  }
}

extension CaseKey<AncestorRemovalTests.Home.Action, Todos.Action> {
  static var todos: Self {
    Self(AncestorRemovalTests.Home.Action.todos) { if case .todos(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<AncestorRemovalTests.Home.Action, IdentifiedAction<Int, Todos.Action>> {
  static var sections: Self {
    Self(AncestorRemovalTests.Home.Action.sections) {
      if case .sections(let a) = $0 { a } else { nil }
    }
  }
}

extension CaseKey<AncestorRemovalTests.Home.Action, AncestorRemovalTests.Home.Shell.Action> {
  static var shell: Self {
    Self(AncestorRemovalTests.Home.Action.shell) { if case .shell(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<Todos.Action, Todos.Action> {
  /// A section's actions are its list's actions.
  static var todos: Self {
    Self({ $0 }, extract: { $0 })
  }
}

extension CaseKey<AncestorRemovalTests.Home.Shell.Action, Todos.Action> {
  static var browsing: Self {
    Self(AncestorRemovalTests.Home.Shell.Action.browsing) {
      if case .browsing(let a) = $0 { a } else { nil }
    }
  }
}

extension CaseKey<AncestorRemovalTests.Home.Shell.State, Todos.State> {
  static var browsing: Self {
    Self(AncestorRemovalTests.Home.Shell.State.browsing) {
      if case .browsing(let s) = $0 { s } else { nil }
    }
  }
}
