import Effects
import Testing

@testable import Store

/// An action for a child that is gone changes nothing: neither the child's reducer nor the
/// parent's (the one `forEach`, `navigationStack`, `ifLet`, `presents` or `ifCaseLet`
/// modifies) runs for it. A parent that saw it would act for a child that is not there (a
/// row's report for a row already deleted).
@MainActor
@Suite struct MissingChildParentTests {
  /// A parent that counts every action addressed to one of its children.
  struct Parent: Reducer {
    struct State: Equatable, Sendable {
      var rows: IdentifiedArrayOf<Row.State> = [Row.State(id: 1)]
      var child: Row.State? = Row.State(id: 1)
      var sheet: Row.State? = Row.State(id: 1)
      var path = StackState<Row.State>()
      /// The child actions the parent's own reducer saw.
      var seen: [String] = []
    }
    enum Action: Sendable, Equatable {
      case rows(IdentifiedActionOf<Row>)
      case child(Row.Action)
      case sheet(PresentationAction<Row.Action>)
      case path(StackActionOf<Row>)
      case removeRow(Int)
    }
    let clock: TestClock

    var body: some ReducerOf<Self> {
      Reduce { state, action in
        switch action {
        case .rows(.element(let id, let rowAction)):
          state.seen.append("row \(id) \(rowAction)")
          // A row's delete request: the parent removes it.
          if rowAction == .delegate(.deleteMe) { state.rows.remove(id: id) }
        case .child(let childAction): state.seen.append("child \(childAction)")
        case .sheet(.presented(let sheetAction)): state.seen.append("sheet \(sheetAction)")
        case .path(.element(let id, let screenAction)):
          state.seen.append("screen \(id.rawValue) \(screenAction)")
        case .removeRow(let id): state.rows.remove(id: id)
        case .path(.popFrom(let id)): state.seen.append("pop \(id.rawValue)")
        case .sheet, .path: break
        }
        return .none
      }
      .forEach(\.rows, action: .missingRows) { Row(clock: clock) }
      .ifLet(\.child, action: .missingChild) { Row(clock: clock) }
      .presents(\.sheet, action: .missingSheet) { Row(clock: clock) }
      .navigationStack(\.path, action: .missingPath) { Row(clock: clock) }
    }
  }

  /// An enum state: the parent counts, while idle, the actions for the editing case.
  struct Mode: Reducer {
    enum State: Equatable, Sendable {
      case editing(Row.State)
      case idle(seen: Int)
    }
    enum Action: Sendable, Equatable {
      case editing(Row.Action)
    }
    let clock: TestClock

    var body: some ReducerOf<Self> {
      Reduce { state, _ in
        if case .idle(let seen) = state { state = .idle(seen: seen + 1) }
        return .none
      }
      .ifCaseLet(.missingEditing, action: .missingEditing) { Row(clock: clock) }
    }
  }

  let clock = TestClock()

  @Test func anActionForAnotherCaseRunsNeitherTheCaseNorTheParent() {
    let warnings = WarningLog()
    let harness = Harness(
      initialState: .idle(seen: 0), warnings: warnings.handler, reducer: Mode(clock: clock))
    harness.send(.editing(.renamed("x")))
    #expect(harness.state == .idle(seen: 0))
    #expect(warnings.messages.count == 1)
    #expect(warnings.messages.first?.contains("so they changed nothing") == true)
  }

  func makeHarness(_ warnings: WarningLog, _ change: (inout Parent.State) -> Void = { _ in })
    -> Harness<Parent>
  {
    var state = Parent.State()
    change(&state)
    return Harness(initialState: state, warnings: warnings.handler, reducer: Parent(clock: clock))
  }

  @Test(arguments: [
    Parent.Action.rows(.element(id: 2, action: .renamed("x"))),
    .child(.renamed("x")),
    .sheet(.presented(.renamed("x"))),
    .path(.element(id: StackElementID(rawValue: 0), action: .renamed("x"))),
    .path(.popFrom(id: StackElementID(rawValue: 0))),
  ])
  func anActionForAMissingChildRunsNeitherTheChildNorTheParent(action: Parent.Action) {
    let warnings = WarningLog()
    let harness = makeHarness(warnings) { state in
      state.child = nil
      state.sheet = nil
    }
    let before = harness.state
    harness.send(action)
    #expect(harness.state == before)
    #expect(warnings.messages.count == 1)
    #expect(warnings.messages.first?.contains("so they changed nothing") == true)
    #expect(
      warnings.messages.first?.hasPrefix("MissingChildParentTests.Parent.Action.") == true,
      "no doubled word")
  }

  @Test func whileTheChildIsThereTheParentSeesItsActionsAfterTheChild() {
    let warnings = WarningLog()
    let harness = makeHarness(warnings)
    harness.send(.rows(.element(id: 1, action: .renamed("a"))))
    harness.send(.child(.renamed("b")))
    harness.send(.sheet(.presented(.renamed("c"))))
    #expect(
      harness.state.seen == [
        "row 1 renamed(\"a\")", "child renamed(\"b\")", "sheet renamed(\"c\")",
      ])
    #expect(harness.state.rows[id: 1]?.title == "a")
    #expect(warnings.messages == [])
  }

  /// A row's report queued behind the action that removes the row: it reaches `forEach`,
  /// which warns (nothing is lost silently), and the parent never acts on it.
  @Test func aRowsReportQueuedBehindItsRemovalReachesNoReducerAndWarns() {
    let warnings = WarningLog()
    let harness = makeHarness(warnings)
    harness.store.send(.removeRow(1))
    harness.store.send(.rows(.element(id: 1, action: .delegate(.deleteMe))))
    harness.settle()
    #expect(harness.state.seen == [])
    #expect(warnings.messages.count == 1)
    #expect(warnings.messages.first?.contains(".deleteMe") == true)
    #expect(warnings.messages.first?.contains("id 1") == true)
  }

  /// The usual backward flow: a row asks to be deleted, and its parent removes it.
  @Test func aRowsReportWhileItIsThereReachesTheParent() {
    let warnings = WarningLog()
    let harness = makeHarness(warnings)
    harness.send(.rows(.element(id: 1, action: .delegate(.deleteMe))))
    #expect(harness.state.rows.isEmpty)
    #expect(harness.state.seen == ["row 1 delegate(StoreTests.Row.Action.Delegate.deleteMe)"])
    #expect(warnings.messages == [])
  }
}

/// An action for a child that is gone, deeper down: the reducers around the one that found
/// it gone do not run either, at any depth.
@MainActor
@Suite struct NestedMissingChildTests {
  /// A destination with two cases, presented by a parent that handles its actions.
  struct Destination: Reducer {
    enum State: Equatable, Sendable {
      case editor(Row.State)
      case viewer(Row.State)
    }
    enum Action: Sendable, Equatable {
      case editor(Row.Action)
      case viewer(Row.Action)
    }
    let clock: TestClock
    var body: some ReducerOf<Self> {
      EmptyReducer()
        .ifCaseLet(.nestedEditor, action: .nestedEditor) { Row(clock: clock) }
        .ifCaseLet(.nestedViewer, action: .nestedViewer) { Row(clock: clock) }
    }
  }

  /// A screen with a destination and a list of rows, each with an optional child.
  struct Screen: Reducer {
    struct State: Equatable, Sendable {
      var destination: Destination.State? = .viewer(Row.State(id: 1))
      var items: IdentifiedArrayOf<Item.State> = [Item.State(id: 1)]
      var seen: [String] = []
    }
    enum Action: Sendable, Equatable {
      case destination(PresentationAction<Destination.Action>)
      case items(IdentifiedActionOf<Item>)
    }
    let clock: TestClock
    var body: some ReducerOf<Self> {
      Reduce { state, action in
        state.seen.append("\(action)")
        // What a parent typically does with a destination's report: close it.
        if case .destination(.presented(.editor(.delegate(.deleteMe)))) = action {
          state.destination = nil
        }
        return .none
      }
      .presents(\.destination, action: .nestedDestination) { Destination(clock: clock) }
      .forEach(\.items, action: .nestedItems) { Item(clock: clock) }
    }
  }

  /// A row with an optional child of its own.
  struct Item: Reducer {
    struct State: Equatable, Identifiable, Sendable {
      let id: Int
      var detail: Row.State?
      var seen = 0
    }
    enum Action: Sendable, Equatable {
      case detail(Row.Action)
    }
    let clock: TestClock
    var body: some ReducerOf<Self> {
      Reduce { state, _ in
        state.seen += 1
        return .none
      }
      .ifLet(\.detail, action: .nestedDetail) { Row(clock: clock) }
    }
  }

  /// An app that scopes to the screen, then handles the screen's actions itself.
  struct App: Reducer {
    struct State: Equatable, Sendable {
      var screen = Screen.State()
      var seen = 0
    }
    enum Action: Sendable, Equatable {
      case screen(Screen.Action)
    }
    let clock: TestClock
    var body: some ReducerOf<Self> {
      Scope(state: \.screen, action: .nestedScreen) { Screen(clock: clock) }
      Reduce { state, _ in
        state.seen += 1
        return .none
      }
    }
  }

  let clock = TestClock()

  @Test(arguments: [
    // The destination shows the viewer, not the editor.
    App.Action.screen(.destination(.presented(.editor(.delegate(.deleteMe))))),
    // Item 1 has no detail.
    .screen(.items(.element(id: 1, action: .detail(.renamed("x"))))),
  ])
  func noReducerAroundTheOneThatFoundTheChildGoneRuns(action: App.Action) {
    let warnings = WarningLog()
    let harness = Harness(
      initialState: App.State(), warnings: warnings.handler, reducer: App(clock: clock))
    harness.send(action)
    #expect(harness.state == App.State())
    #expect(warnings.messages.count == 1)
    #expect(warnings.messages.first?.contains("so they changed nothing") == true)
  }

  /// A warning raised deep down names the child's action, which does not say which element
  /// or screen of its ancestors it was: the warning adds the store's action, which does.
  @Test func aNestedWarningNamesTheStoresAction() {
    var state = App.State()
    state.screen.items.append(Item.State(id: 2))
    let warnings = WarningLog()
    let harness = Harness(
      initialState: state, warnings: warnings.handler, reducer: App(clock: clock))
    harness.send(.screen(.items(.element(id: 2, action: .detail(.renamed("x"))))))
    #expect(warnings.messages.count == 1)
    #expect(
      warnings.messages.first?.hasSuffix(
        """
        The store's action was \
        NestedMissingChildTests.App.Action.screen(.items(.element(id: 2, action: \
        .detail(.renamed("x"))))).
        """) == true,
      "\(warnings.messages)")
    // A warning at the top names the store's action already, and is left as it is.
    let top = WarningLog()
    let list = Harness(
      initialState: Screen.State(), warnings: top.handler, reducer: Screen(clock: clock))
    list.send(.items(.element(id: 9, action: .detail(.renamed("x")))))
    #expect(top.messages.count == 1)
    #expect(top.messages.first?.contains("The store's action") == false, "\(top.messages)")
  }

  @Test func whenTheChildIsThereEveryReducerOnTheWayRuns() {
    var state = App.State()
    state.screen.destination = .editor(Row.State(id: 1))
    state.screen.items[id: 1]?.detail = Row.State(id: 5)
    let warnings = WarningLog()
    let harness = Harness(
      initialState: state, warnings: warnings.handler, reducer: App(clock: clock))
    harness.send(.screen(.items(.element(id: 1, action: .detail(.renamed("x"))))))
    harness.send(.screen(.destination(.presented(.editor(.delegate(.deleteMe))))))
    #expect(harness.state.screen.items[id: 1]?.detail?.title == "x")
    #expect(harness.state.screen.items[id: 1]?.seen == 1)
    #expect(harness.state.screen.seen.count == 2)
    #expect(harness.state.screen.destination == nil)
    #expect(harness.state.seen == 2)
    #expect(warnings.messages == [])
  }
}

extension CaseKey<NestedMissingChildTests.Destination.State, Row.State> {
  static var nestedEditor: Self {
    Self(NestedMissingChildTests.Destination.State.editor) {
      if case .editor(let a) = $0 { a } else { nil }
    }
  }
  static var nestedViewer: Self {
    Self(NestedMissingChildTests.Destination.State.viewer) {
      if case .viewer(let a) = $0 { a } else { nil }
    }
  }
}

extension CaseKey<NestedMissingChildTests.Destination.Action, Row.Action> {
  static var nestedEditor: Self {
    Self(NestedMissingChildTests.Destination.Action.editor) {
      if case .editor(let a) = $0 { a } else { nil }
    }
  }
  static var nestedViewer: Self {
    Self(NestedMissingChildTests.Destination.Action.viewer) {
      if case .viewer(let a) = $0 { a } else { nil }
    }
  }
}

extension CaseKey<
  NestedMissingChildTests.Screen.Action,
  PresentationAction<NestedMissingChildTests.Destination.Action>
> {
  static var nestedDestination: Self {
    Self(NestedMissingChildTests.Screen.Action.destination) {
      if case .destination(let a) = $0 { a } else { nil }
    }
  }
}

extension CaseKey<
  NestedMissingChildTests.Screen.Action, IdentifiedActionOf<NestedMissingChildTests.Item>
> {
  static var nestedItems: Self {
    Self(NestedMissingChildTests.Screen.Action.items) {
      if case .items(let a) = $0 { a } else { nil }
    }
  }
}

extension CaseKey<NestedMissingChildTests.Item.Action, Row.Action> {
  static var nestedDetail: Self {
    Self(NestedMissingChildTests.Item.Action.detail) {
      if case .detail(let a) = $0 { a } else { nil }
    }
  }
}

extension CaseKey<NestedMissingChildTests.App.Action, NestedMissingChildTests.Screen.Action> {
  static var nestedScreen: Self {
    Self(NestedMissingChildTests.App.Action.screen) {
      if case .screen(let a) = $0 { a } else { nil }
    }
  }
}

extension CaseKey<MissingChildParentTests.Parent.Action, IdentifiedActionOf<Row>> {
  static var missingRows: Self {
    Self(MissingChildParentTests.Parent.Action.rows) {
      if case .rows(let a) = $0 { a } else { nil }
    }
  }
}

extension CaseKey<MissingChildParentTests.Parent.Action, Row.Action> {
  static var missingChild: Self {
    Self(MissingChildParentTests.Parent.Action.child) {
      if case .child(let a) = $0 { a } else { nil }
    }
  }
}

extension CaseKey<MissingChildParentTests.Parent.Action, PresentationAction<Row.Action>> {
  static var missingSheet: Self {
    Self(MissingChildParentTests.Parent.Action.sheet) {
      if case .sheet(let a) = $0 { a } else { nil }
    }
  }
}

extension CaseKey<MissingChildParentTests.Parent.Action, StackActionOf<Row>> {
  static var missingPath: Self {
    Self(MissingChildParentTests.Parent.Action.path) {
      if case .path(let a) = $0 { a } else { nil }
    }
  }
}

extension CaseKey<MissingChildParentTests.Mode.State, Row.State> {
  static var missingEditing: Self {
    Self(MissingChildParentTests.Mode.State.editing) {
      if case .editing(let a) = $0 { a } else { nil }
    }
  }
}

extension CaseKey<MissingChildParentTests.Mode.Action, Row.Action> {
  static var missingEditing: Self {
    Self(MissingChildParentTests.Mode.Action.editing) {
      if case .editing(let a) = $0 { a } else { nil }
    }
  }
}
