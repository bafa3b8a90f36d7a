import Effects
import Store
import StoreTesting
import Testing

// A `.dismiss` that one of a feature's own parts returns (a `Scope` child, a case of an enum
// feature, a lifecycle hook) closes the feature in the app, so a test store testing the
// feature alone records it as `isDismissed`, as it records the feature's own. Found by an
// adversarial trial: the test store took only a `.dismiss` in no namespace, and failed the
// test with "no presenting parent handled it" for the others. A child that is not presented
// (an `ifLet` child, a `forEach` row) still fails the test.

/// A form whose cancel button closes whatever it is part of.
struct DismissingForm: Reducer {
  struct State: Equatable, Sendable { var text = "" }
  enum Action: Sendable, Equatable { case cancelTapped }
  func reduce(into state: inout State, action: Action) -> Effect<Action> { .dismiss }
}

/// An editor made of a form (a `Scope` child), with a close button of its own and an optional
/// note (an `ifLet` child, which is not presented).
struct FormEditor: Reducer {
  struct State: Equatable, Sendable {
    var form = DismissingForm.State()
    var note: DismissingForm.State?
  }
  enum Action: Sendable, Equatable {
    case form(DismissingForm.Action)
    case note(DismissingForm.Action)
    case closeTapped
  }
  var body: some ReducerOf<Self> {
    Scope(state: \.form, action: .form) { DismissingForm() }
    Reduce { _, action in action == .closeTapped ? .dismiss : .none }
      .ifLet(\.note, action: .note) { DismissingForm() }
  }
}

/// Presents a `FormEditor`: the app's side.
struct FormEditorHost: Reducer {
  struct State: Equatable, Sendable { var editor: FormEditor.State? = FormEditor.State() }
  enum Action: Sendable, Equatable { case editor(PresentationAction<FormEditor.Action>) }
  var body: some ReducerOf<Self> {
    EmptyReducer().presents(\.editor, action: .editor) { FormEditor() }
  }
}

/// An enum destination with one case.
struct FormDestination: Reducer {
  enum State: Equatable, Sendable { case form(DismissingForm.State) }
  enum Action: Sendable, Equatable { case form(DismissingForm.Action) }
  var body: some ReducerOf<Self> {
    EmptyReducer().ifCaseLet(.form, action: .form) { DismissingForm() }
  }
}

/// A screen that closes itself from its startup hook (the item it shows is gone), or, with
/// `reports`, tells its parent, which removes it.
struct VanishedItemScreen: Reducer {
  struct State: Equatable, Sendable {
    var lifecycle = ScreenLifecycleState()
    var reports = false
  }
  enum Action: Sendable, Equatable {
    case lifecycle(ScreenLifecycleAction)
    case delegate(Delegate)
    enum Delegate: Sendable, Equatable { case itemGone }
  }
  var body: some ReducerOf<Self> {
    Reduce { state, action in
      guard action == .lifecycle(.startup) else { return .none }
      return state.reports ? .send(.delegate(.itemGone)) : .dismiss
    }
    .screenLifecycle(\.lifecycle, action: .lifecycle)
  }
}

/// Presents a `VanishedItemScreen`: the app's side.
struct VanishedItemHost: Reducer {
  struct State: Equatable, Sendable { var screen: VanishedItemScreen.State? = .init() }
  enum Action: Sendable, Equatable { case screen(PresentationAction<VanishedItemScreen.Action>) }
  var body: some ReducerOf<Self> {
    Reduce { state, action in
      if case .screen(.presented(.delegate(.itemGone))) = action { state.screen = nil }
      return .none
    }
    .presents(\.screen, action: .screen) { VanishedItemScreen() }
  }
}

extension CaseKey<VanishedItemHost.Action, PresentationAction<VanishedItemScreen.Action>> {
  fileprivate static var screen: Self {
    Self(VanishedItemHost.Action.screen) { if case .screen(let a) = $0 { a } else { nil } }
  }
}

/// An app root (tabs) that nothing presents, showing a form as a tab with `Scope`.
struct FormTabs: Reducer {
  struct State: Equatable, Sendable { var tab = DismissingForm.State() }
  enum Action: Sendable, Equatable { case tab(DismissingForm.Action) }
  var body: some ReducerOf<Self> {
    Scope(state: \.tab, action: .tab) { DismissingForm() }
  }
}

/// A list whose rows live in a dictionary and are run by hand, their effects in a namespace
/// of the list's making (Identity and Navigation, "a child run by hand").
struct HandRunFormList: Reducer {
  struct State: Equatable, Sendable { var rows: [Int: DismissingForm.State] = [1: .init()] }
  enum Action: Sendable, Equatable { case row(id: Int, DismissingForm.Action) }
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .row(let id, let rowAction):
      guard var row = state.rows[id] else { return .none }
      let effect = DismissingForm().reduce(into: &row, action: rowAction)
      state.rows[id] = row
      return effect.map { .row(id: id, $0) }.scoped(to: id)
    }
  }
}

/// Presents a `HandRunFormList`: the app's side of the list tested alone below.
struct HandRunFormListHost: Reducer {
  struct State: Equatable, Sendable { var list: HandRunFormList.State? = .init() }
  enum Action: Sendable, Equatable { case list(PresentationAction<HandRunFormList.Action>) }
  var body: some ReducerOf<Self> {
    EmptyReducer().presents(\.list, action: .list) { HandRunFormList() }
  }
}

extension CaseKey<HandRunFormListHost.Action, PresentationAction<HandRunFormList.Action>> {
  fileprivate static var list: Self {
    Self(HandRunFormListHost.Action.list) { if case .list(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<FormTabs.Action, DismissingForm.Action> {
  fileprivate static var tab: Self {
    Self(FormTabs.Action.tab) { if case .tab(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<FormEditor.Action, DismissingForm.Action> {
  fileprivate static var form: Self {
    Self(FormEditor.Action.form) { if case .form(let a) = $0 { a } else { nil } }
  }
  fileprivate static var note: Self {
    Self(FormEditor.Action.note) { if case .note(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<FormEditorHost.Action, PresentationAction<FormEditor.Action>> {
  fileprivate static var editor: Self {
    Self(FormEditorHost.Action.editor) { if case .editor(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<FormDestination.State, DismissingForm.State> {
  fileprivate static var form: Self {
    Self(FormDestination.State.form) { if case .form(let s) = $0 { s } else { nil } }
  }
}

extension CaseKey<FormDestination.Action, DismissingForm.Action> {
  fileprivate static var form: Self {
    Self(FormDestination.Action.form) { if case .form(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<VanishedItemScreen.Action, ScreenLifecycleAction> {
  fileprivate static var lifecycle: Self {
    Self(VanishedItemScreen.Action.lifecycle) { if case .lifecycle(let a) = $0 { a } else { nil } }
  }
}

@MainActor
@Suite struct NestedDismissTests {
  @Test func inTheAppAScopeChildsDismissClosesThePresentedFeature() async {
    let store = TestStore(initialState: FormEditorHost.State()) { FormEditorHost() }
    await store.send(.editor(.presented(.form(.cancelTapped))))
    await store.receive(.editor(.dismiss)) { $0.editor = nil }
    #expect(!store.isDismissed)
    await store.finish()
  }

  @Test func testedAloneTheFeatureIsDismissedByItsScopeChildsDismiss() async {
    let store = TestStore(initialState: FormEditor.State()) { FormEditor() }
    await store.send(.form(.cancelTapped))
    #expect(store.isDismissed)
    await store.finish()
  }

  @Test func testedAloneTheFeatureIsDismissedByItsOwnDismiss() async {
    let store = TestStore(initialState: FormEditor.State()) { FormEditor() }
    await store.send(.closeTapped)
    #expect(store.isDismissed)
    await store.finish()
  }

  @Test func testedAloneADestinationIsDismissedByItsCasesDismiss() async {
    let store = TestStore(initialState: FormDestination.State.form(DismissingForm.State())) {
      FormDestination()
    }
    await store.send(.form(.cancelTapped))
    #expect(store.isDismissed)
    await store.finish()
  }

  @Test func testedAloneAScreenIsDismissedByItsLifecycleHooksDismiss() async {
    let store = TestStore(initialState: VanishedItemScreen.State()) { VanishedItemScreen() }
    await store.send(.lifecycle(.taskStarted)) {
      $0.lifecycle.isTaskRunning = true
      $0.lifecycle.hasStarted = true
      $0.lifecycle.isFocused = true
      $0.lifecycle.hasGainedFocus = true
      $0.lifecycle.runningHook = .startup
      $0.lifecycle.pendingHooks = [.firstFocus, .subscribe]
    }
    // The hooks ran as the task started: the startup hook asked to close the screen.
    await store.receive(.lifecycle(.startup))
    #expect(store.isDismissed)
    store.skipReceivedActions()
    await store.send(.lifecycle(.taskEnded)) {
      $0.lifecycle = ScreenLifecycleState()
      $0.lifecycle.hasStarted = true
      $0.lifecycle.hasGainedFocus = true
    }
    await store.receive(.lifecycle(.teardown))
  }

  @Test func inTheAppALifecycleHooksDismissClosesThePresentedScreen() async {
    let store = TestStore(initialState: VanishedItemHost.State()) { VanishedItemHost() }
    store.exhaustivity = .off
    await store.send(.screen(.presented(.lifecycle(.taskStarted))))
    await store.receive(.screen(.presented(.lifecycle(.startup))))
    await store.receive(.screen(.dismiss)) { $0.screen = nil }
    #expect(!store.isDismissed)
    await store.finish()
  }

  @Test func inTheAppAScreenWhoseHookReportsAndIsRemovedByItsParentRaisesNoWarning() async {
    var screen = VanishedItemScreen.State()
    screen.reports = true
    let store = TestStore(initialState: VanishedItemHost.State(screen: screen)) {
      VanishedItemHost()
    }
    store.exhaustivity = .off
    await store.send(.screen(.presented(.lifecycle(.taskStarted))))
    await store.receive(.screen(.presented(.delegate(.itemGone)))) { $0.screen = nil }
    await store.finish()
  }

  /// Found in review: the first version of the fix took any `.dismiss` that reached the root,
  /// a row run by hand included, for the feature's own.
  @Test func aHandRunRowsDismissStillFailsTheTest() async {
    let store = TestStore(initialState: HandRunFormList.State()) { HandRunFormList() }
    await withKnownIssue {
      await store.send(.row(id: 1, .cancelTapped))
    } matching: {
      "\($0)".contains(
        """
        HandRunFormList.Action.row(id: 1, .cancelTapped) returned `.dismiss` inside the \
        namespace 1 given with `scoped(to:)` (a child run by hand)
        """)
    }
    #expect(!store.isDismissed)
    await store.finish()
  }

  /// Found in a second review: presented, the same row's `.dismiss` closed the whole list (the
  /// presenter resolved every `.dismiss` in the list's effect, the row's namespace included).
  @Test func aHandRunRowsDismissInAPresentedListDoesNotCloseTheList() async {
    let store = TestStore(initialState: HandRunFormListHost.State()) { HandRunFormListHost() }
    await withKnownIssue {
      await store.send(.list(.presented(.row(id: 1, .cancelTapped))))
    } matching: {
      "\($0)".contains("returned `.dismiss` inside the namespace 1 given with `scoped(to:)`")
    }
    #expect(store.state.list != nil)
    await store.finish()
  }

  /// Found in review: a root that nothing presents closes nothing with its `.dismiss`, and a
  /// test that does not look at `isDismissed` must not pass over it.
  @Test func aDismissalTheTestNeverChecksFailsFinish() async {
    let store = TestStore(initialState: FormTabs.State()) { FormTabs() }
    await store.send(.tab(.cancelTapped))
    await withKnownIssue {
      await store.finish()
    } matching: {
      "\($0)".contains(
        """
        The feature asked to be dismissed (FormTabs.Action.tab(.cancelTapped) returned \
        `.dismiss`), and the test did not check it
        """)
    }
  }

  @Test func aDismissalTheTestNeverChecksFailsWhenTheStoreIsReleased() async {
    await withKnownIssue {
      let store = TestStore(initialState: FormTabs.State()) { FormTabs() }
      await store.send(.tab(.cancelTapped))
    } matching: {
      "\($0)".contains("The feature asked to be dismissed")
    }
  }

  @Test func aDismissalIsCheckedOnceAndNotInANonExhaustiveTest() async {
    let checked = TestStore(initialState: FormTabs.State()) { FormTabs() }
    await checked.send(.tab(.cancelTapped))
    #expect(checked.isDismissed)
    await checked.send(.tab(.cancelTapped))
    await checked.finish()

    let outcomeOnly = TestStore(initialState: FormTabs.State()) { FormTabs() }
    outcomeOnly.exhaustivity = .off
    await outcomeOnly.send(.tab(.cancelTapped))
    await outcomeOnly.finish()

    // A dismissal in a non-exhaustive setup is not demanded once exhaustivity is back on.
    let setUp = TestStore(initialState: FormTabs.State()) { FormTabs() }
    setUp.exhaustivity = .off
    await setUp.send(.tab(.cancelTapped))
    setUp.exhaustivity = .on
    await setUp.finish()
  }

  @Test func anIfLetChildsDismissStillFailsTheTestAndIsNotTheFeatures() async {
    let store = TestStore(initialState: FormEditor.State(note: DismissingForm.State())) {
      FormEditor()
    }
    await withKnownIssue {
      await store.send(.note(.cancelTapped))
    } matching: {
      "\($0)".contains("returned `.dismiss` in the child at")
        && "\($0)".contains("an `ifLet` child is not presented")
    }
    #expect(!store.isDismissed)
    await store.finish()
  }
}
