import Effects
import Testing

@testable import Store

/// A child that loads for a second, in every place a parent can hold one: each place goes
/// away in the same action that starts the load, by each path the operators know.
@MainActor
@Suite struct CompositionHuntTests {
  struct Child: Reducer {
    struct State: Equatable, Identifiable, Sendable {
      var id: Int
      var loads = 0
    }
    enum Action: Sendable, Equatable {
      case load
      case loaded
      case loadAndClose
      case loadAndDismiss
      /// Asks the parent to close it, and loads: in the order `loadFirst` says, merged or
      /// one after the other.
      case loadAndAskToClose(loadFirst: Bool, concatenated: Bool)
      case closeMe
    }
    let clock: TestClock
    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      let load = Effect<Action>.run { [clock] send in
        try await clock.sleep(for: .seconds(1))
        send(.loaded)
      }
      switch action {
      case .load, .loadAndClose: return load
      case .loadAndDismiss: return .merge(load, .dismiss)
      case .loadAndAskToClose(let loadFirst, let concatenated):
        let parts: [Effect<Action>] =
          loadFirst ? [load, .send(.closeMe)] : [.send(.closeMe), load]
        return concatenated ? .concatenate(parts) : .merge(parts)
      case .closeMe: return .none
      case .loaded:
        state.loads += 1
        return .none
      }
    }
  }

  struct Mode: Reducer {
    enum State: Equatable, Sendable {
      case child(Child.State)
      case idle
    }
    enum Action: Sendable, Equatable {
      case child(Child.Action)
    }
    let clock: TestClock
    var body: some Reducer<State, Action> {
      Reduce { state, action in
        if action == .child(.loadAndClose) || action == .child(.closeMe) { state = .idle }
        return .none
      }
      .ifCaseLet(StateKey.huntChild, action: ActionKey.huntChild) { Child(clock: clock) }
    }
  }

  struct Parent: Reducer {
    struct State: Equatable, Sendable {
      var sheet: Child.State?
      var detail: Child.State?
      var mode = Mode.State.child(Child.State(id: 0))
      var rows: IdentifiedArrayOf<Child.State> = [Child.State(id: 1), Child.State(id: 2)]
      var path = StackState<Child.State>([Child.State(id: 3)])
    }
    enum Action: Sendable, Equatable {
      case sheet(PresentationAction<Child.Action>)
      case detail(Child.Action)
      case mode(Mode.Action)
      case rows(IdentifiedAction<Int, Child.Action>)
      case path(StackAction<Child.State, Child.Action>)
      case replaceAll
    }
    let clock: TestClock
    var body: some Reducer<State, Action> {
      Scope(state: \.mode, action: ActionKey.huntMode) { Mode(clock: clock) }
      Reduce { state, action in
        switch action {
        case .detail(.loadAndClose), .detail(.closeMe): state.detail = nil
        case .sheet(.presented(.closeMe)): state.sheet = nil
        case .rows(.element(let id, .loadAndClose)), .rows(.element(let id, .closeMe)):
          state.rows.remove(id: id)
        case .path(.element(let id, .loadAndClose)), .path(.element(let id, .closeMe)):
          state.path.pop(from: id)
        case .replaceAll: state = State(sheet: nil, detail: nil, mode: .idle, rows: [], path: [])
        default: break
        }
        return .none
      }
      .presents(\.sheet, action: ActionKey.huntSheet) { Child(clock: clock) }
      .ifLet(\.detail, action: ActionKey.huntDetail) { Child(clock: clock) }
      .forEach(\.rows, action: ActionKey.huntRows) { Child(clock: clock) }
      .navigationStack(\.path, action: ActionKey.huntPath) { Child(clock: clock) }
    }
  }

  let clock = TestClock()

  func makeHarness(_ warnings: WarningLog) -> Harness<Parent> {
    var state = Parent.State()
    state.sheet = Child.State(id: 4)
    state.detail = Child.State(id: 5)
    return Harness(initialState: state, warnings: warnings.handler, reducer: Parent(clock: clock))
  }

  nonisolated static let closings: [Parent.Action] = [
    .sheet(.presented(.loadAndDismiss)),
    .detail(.loadAndClose),
    .mode(.child(.loadAndClose)),
    .rows(.element(id: 1, action: .loadAndClose)),
    .path(.element(id: StackElementID(rawValue: 0), action: .loadAndClose)),
    .path(.element(id: StackElementID(rawValue: 0), action: .loadAndDismiss)),
  ]

  @Test(arguments: closings)
  func aLoadStartedByTheActionThatClosesItsChildEnds(action: Parent.Action) async {
    let warnings = WarningLog()
    let harness = makeHarness(warnings)
    harness.send(action)
    #expect(clock.sleeperCount == 0)
    await clock.advance(by: .seconds(2))
    harness.settle()
    #expect(!harness.processed.contains { "\($0.action)".contains("loaded") })
    #expect(warnings.messages.isEmpty, "\(warnings.messages)")
    #expect(harness.core.runtime.runningCount == 0)
  }

  /// A load then the request, concatenated, waits for the load: the child is there for it.
  nonisolated static let askingToClose: [Parent.Action] = [
    (true, false), (false, false), (false, true),
  ]
  .flatMap { loadFirst, concatenated -> [Parent.Action] in
    let action = Child.Action.loadAndAskToClose(loadFirst: loadFirst, concatenated: concatenated)
    return [
      .sheet(.presented(action)), .detail(action), .mode(.child(action)),
      .rows(.element(id: 1, action: action)),
      .path(.element(id: StackElementID(rawValue: 0), action: action)),
    ]
  }

  @Test(arguments: askingToClose)
  func aLoadStartedWithTheChildsRequestToCloseItEnds(action: Parent.Action) async {
    let warnings = WarningLog()
    let harness = makeHarness(warnings)
    harness.send(action)
    #expect(clock.sleeperCount == 0)
    await clock.advance(by: .seconds(2))
    harness.settle()
    #expect(!harness.processed.contains { "\($0.action)".contains("loaded") })
    #expect(warnings.messages.isEmpty, "\(warnings.messages)")
    #expect(harness.core.runtime.runningCount == 0)
  }

  nonisolated static let loads: [Parent.Action] = [
    .sheet(.presented(.load)),
    .detail(.load),
    .mode(.child(.load)),
    .rows(.element(id: 1, action: .load)),
    .path(.element(id: StackElementID(rawValue: 0), action: .load)),
  ]

  @Test(arguments: loads)
  func aLoadEndsWhenTheParentIsReplacedWholesale(action: Parent.Action) async {
    let warnings = WarningLog()
    let harness = makeHarness(warnings)
    harness.send(action)
    #expect(clock.sleeperCount == 1)
    harness.send(.replaceAll)
    #expect(clock.sleeperCount == 0)
    await clock.advance(by: .seconds(2))
    harness.settle()
    #expect(harness.processed.count == 2)
    #expect(warnings.messages.isEmpty, "\(warnings.messages)")
  }
}

/// Rows and screens that present a sheet of their own: the sheet's load belongs to the row or
/// the screen too, and ends when it goes.
@MainActor
@Suite struct NestedCompositionHuntTests {
  typealias Child = CompositionHuntTests.Child

  struct Holder: Reducer {
    struct State: Equatable, Identifiable, Sendable {
      var id: Int
      var sheet: Child.State? = Child.State(id: 10)
    }
    enum Action: Sendable, Equatable {
      case sheet(PresentationAction<Child.Action>)
    }
    let clock: TestClock
    var body: some Reducer<State, Action> {
      EmptyReducer<State, Action>()
        .presents(\.sheet, action: ActionKey.huntSheet) { Child(clock: clock) }
    }
  }

  struct Parent: Reducer {
    struct State: Equatable, Sendable {
      var rows: IdentifiedArrayOf<Holder.State> = [Holder.State(id: 1), Holder.State(id: 2)]
      var path = StackState<Holder.State>([Holder.State(id: 3)])
    }
    enum Action: Sendable, Equatable {
      case rows(IdentifiedAction<Int, Holder.Action>)
      case path(StackAction<Holder.State, Holder.Action>)
      case removeRow(Int)
      case popAll
    }
    let clock: TestClock
    var body: some Reducer<State, Action> {
      Reduce { state, action in
        switch action {
        case .removeRow(let id): state.rows.remove(id: id)
        case .popAll: state.path.removeAll()
        case .rows, .path: break
        }
        return .none
      }
      .forEach(\.rows, action: ActionKey.huntRows) { Holder(clock: clock) }
      .navigationStack(\.path, action: ActionKey.huntPath) { Holder(clock: clock) }
    }
  }

  let clock = TestClock()

  @Test func aRowsSheetsLoadEndsWithTheRowAndNotWithItsSibling() async {
    let warnings = WarningLog()
    let harness = Harness(
      initialState: Parent.State(), warnings: warnings.handler, reducer: Parent(clock: clock))
    harness.send(.rows(.element(id: 1, action: .sheet(.presented(.load)))))
    harness.send(.rows(.element(id: 2, action: .sheet(.presented(.load)))))
    #expect(clock.sleeperCount == 2)
    harness.send(.removeRow(1))
    #expect(clock.sleeperCount == 1)
    await clock.advance(by: .seconds(1))
    harness.settle()
    #expect(harness.state.rows[id: 2]?.sheet?.loads == 1)
    #expect(warnings.messages.isEmpty, "\(warnings.messages)")
  }

  @Test func aScreensSheetsLoadEndsWithTheScreen() async {
    let warnings = WarningLog()
    let harness = Harness(
      initialState: Parent.State(), warnings: warnings.handler, reducer: Parent(clock: clock))
    let screen = StackElementID(rawValue: 0)
    harness.send(.path(.element(id: screen, action: .sheet(.presented(.load)))))
    #expect(clock.sleeperCount == 1)
    harness.send(.popAll)
    #expect(clock.sleeperCount == 0)
    await clock.advance(by: .seconds(2))
    harness.settle()
    #expect(harness.processed.count == 2)
    #expect(warnings.messages.isEmpty, "\(warnings.messages)")
  }
}

/// A reducer beside a sheet's and a stack's operators, after them in one body: an action the
/// operator finds addressed to nothing, ordinary or not, does not reach it, as
/// `PresentationAction.dismiss` and `CombineReducers` say.
@MainActor
@Suite struct SiblingOfOperatorsHuntTests {
  typealias Child = CompositionHuntTests.Child

  struct Feature: Reducer {
    struct State: Equatable, Sendable {
      var sheet: Child.State?
      var path = StackState<Child.State>()
      var seen: [Action] = []
    }
    enum Action: Sendable, Equatable {
      case sheet(PresentationAction<Child.Action>)
      case path(StackAction<Child.State, Child.Action>)
    }
    let clock: TestClock
    var body: some Reducer<State, Action> {
      EmptyReducer<State, Action>()
        .presents(\.sheet, action: ActionKey.huntSheet) { Child(clock: clock) }
        .navigationStack(\.path, action: ActionKey.huntPath) { Child(clock: clock) }
      Reduce { state, action in
        state.seen.append(action)
        return .none
      }
    }
  }

  let clock = TestClock()

  @Test func aDismissalOfNothingReachesNoReducer() {
    let warnings = WarningLog()
    let harness = Harness(
      initialState: Feature.State(), warnings: warnings.handler, reducer: Feature(clock: clock))
    harness.send(.sheet(.dismiss))
    #expect(harness.state.seen == [])
    #expect(warnings.messages.isEmpty, "\(warnings.messages)")
    // A sheet that is there: the dismissal reaches the reducer beside it, and closes it.
    var presented = Feature.State()
    presented.sheet = Child.State(id: 1)
    let open = Harness(
      initialState: presented, warnings: warnings.handler, reducer: Feature(clock: clock))
    open.send(.sheet(.dismiss))
    #expect(open.state.sheet == nil)
    #expect(open.state.seen == [.sheet(.dismiss)])
    #expect(warnings.messages.isEmpty, "\(warnings.messages)")
  }

  struct Root: Reducer {
    struct State: Equatable, Sendable {
      var feature = Feature.State()
      var seen: [Action] = []
    }
    enum Action: Sendable, Equatable {
      case feature(Feature.Action)
    }
    let clock: TestClock
    var body: some Reducer<State, Action> {
      Scope(state: \.feature, action: ActionKey.huntFeature) { Feature(clock: clock) }
      Reduce { state, action in
        state.seen.append(action)
        return .none
      }
    }
  }

  @Test func aDismissalOfNothingDoesNotReachAnAncestor() {
    let warnings = WarningLog()
    let harness = Harness(
      initialState: Root.State(), warnings: warnings.handler, reducer: Root(clock: clock))
    harness.send(.feature(.sheet(.dismiss)))
    #expect(harness.state == Root.State())
    #expect(warnings.messages.isEmpty, "\(warnings.messages)")
  }

  @Test func aPopOfAScreenPoppedAlreadyReachesNoReducer() {
    let warnings = WarningLog()
    var state = Feature.State()
    state.path.append(Child.State(id: 1))
    let harness = Harness(
      initialState: state, warnings: warnings.handler, reducer: Feature(clock: clock))
    let screen = StackElementID(rawValue: 0)
    harness.send(.path(.popFrom(id: screen)))
    harness.send(.path(.popFrom(id: screen)))
    #expect(harness.state.seen == [.path(.popFrom(id: screen))])
    #expect(warnings.messages.isEmpty, "\(warnings.messages)")
  }

  @Test func anActionForASheetThatIsNotThereReachesNoReducer() {
    let warnings = WarningLog()
    let harness = Harness(
      initialState: Feature.State(), warnings: warnings.handler, reducer: Feature(clock: clock))
    harness.send(.sheet(.presented(.load)))
    #expect(harness.state.seen == [])
    #expect(warnings.messages.count == 1)
  }
}

extension CaseKey<
  SiblingOfOperatorsHuntTests.Feature.Action, PresentationAction<CompositionHuntTests.Child.Action>
> {
  static var huntSheet: Self {
    Self(SiblingOfOperatorsHuntTests.Feature.Action.sheet) {
      if case .sheet(let a) = $0 { a } else { nil }
    }
  }
}

extension CaseKey<
  SiblingOfOperatorsHuntTests.Feature.Action,
  StackAction<CompositionHuntTests.Child.State, CompositionHuntTests.Child.Action>
> {
  static var huntPath: Self {
    Self(SiblingOfOperatorsHuntTests.Feature.Action.path) {
      if case .path(let a) = $0 { a } else { nil }
    }
  }
}

extension CaseKey<
  NestedCompositionHuntTests.Holder.Action, PresentationAction<CompositionHuntTests.Child.Action>
> {
  static var huntSheet: Self {
    Self(NestedCompositionHuntTests.Holder.Action.sheet) {
      if case .sheet(let a) = $0 { a } else { nil }
    }
  }
}

extension CaseKey<
  NestedCompositionHuntTests.Parent.Action,
  IdentifiedAction<Int, NestedCompositionHuntTests.Holder.Action>
> {
  static var huntRows: Self {
    Self(NestedCompositionHuntTests.Parent.Action.rows) {
      if case .rows(let a) = $0 { a } else { nil }
    }
  }
}

extension CaseKey<
  NestedCompositionHuntTests.Parent.Action,
  StackAction<NestedCompositionHuntTests.Holder.State, NestedCompositionHuntTests.Holder.Action>
> {
  static var huntPath: Self {
    Self(NestedCompositionHuntTests.Parent.Action.path) {
      if case .path(let a) = $0 { a } else { nil }
    }
  }
}

extension CaseKey<CompositionHuntTests.Mode.State, CompositionHuntTests.Child.State> {
  static var huntChild: Self {
    Self(CompositionHuntTests.Mode.State.child) { if case .child(let s) = $0 { s } else { nil } }
  }
}

extension CaseKey<CompositionHuntTests.Mode.Action, CompositionHuntTests.Child.Action> {
  static var huntChild: Self {
    Self(CompositionHuntTests.Mode.Action.child) { if case .child(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<CompositionHuntTests.Parent.Action, CompositionHuntTests.Mode.Action> {
  static var huntMode: Self {
    Self(CompositionHuntTests.Parent.Action.mode) { if case .mode(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<CompositionHuntTests.Parent.Action, CompositionHuntTests.Child.Action> {
  static var huntDetail: Self {
    Self(CompositionHuntTests.Parent.Action.detail) {
      if case .detail(let a) = $0 { a } else { nil }
    }
  }
}

extension CaseKey<
  CompositionHuntTests.Parent.Action, PresentationAction<CompositionHuntTests.Child.Action>
> {
  static var huntSheet: Self {
    Self(CompositionHuntTests.Parent.Action.sheet) {
      if case .sheet(let a) = $0 { a } else { nil }
    }
  }
}

extension CaseKey<
  CompositionHuntTests.Parent.Action, IdentifiedAction<Int, CompositionHuntTests.Child.Action>
> {
  static var huntRows: Self {
    Self(CompositionHuntTests.Parent.Action.rows) { if case .rows(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<
  CompositionHuntTests.Parent.Action,
  StackAction<CompositionHuntTests.Child.State, CompositionHuntTests.Child.Action>
> {
  static var huntPath: Self {
    Self(CompositionHuntTests.Parent.Action.path) { if case .path(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<
  SiblingOfOperatorsHuntTests.Root.Action, SiblingOfOperatorsHuntTests.Feature.Action
> {
  static var huntFeature: Self {
    Self(SiblingOfOperatorsHuntTests.Root.Action.feature) {
      if case .feature(let a) = $0 { a } else { nil }
    }
  }
}
