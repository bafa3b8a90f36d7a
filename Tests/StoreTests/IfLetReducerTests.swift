import Effects
import Testing

@testable import Store

@MainActor
@Suite struct IfLetReducerTests {
  let clock = TestClock()

  func makeHarness(warnings: WarningLog = WarningLog()) -> Harness<Todos> {
    var state = Todos.State()
    state.rows.append(Row.State(id: 1, title: "Milk"))
    return Harness(initialState: state, warnings: warnings.handler, reducer: Todos(clock: clock))
  }

  @Test func theEditorReportsSavedAndDismissesItself() {
    let harness = makeHarness()
    harness.send(.editTapped(1))
    #expect(harness.state.editor == Editor.State(rowID: 1, title: "Milk"))
    harness.send(.editor(.presented(.titleChanged("Oat milk"))))
    harness.send(.editor(.presented(.saveTapped)))
    #expect(harness.state.editor == nil)
    #expect(harness.state.rows[id: 1]?.title == "Oat milk")
    #expect(harness.state.log == ["saved 1"])
  }

  @Test func cancellingLeavesTheParentUnchanged() {
    let harness = makeHarness()
    harness.send(.editTapped(1))
    harness.send(.editor(.presented(.titleChanged("Oat milk"))))
    harness.send(.editor(.presented(.cancelTapped)))
    #expect(harness.state.editor == nil)
    #expect(harness.state.rows[id: 1]?.title == "Milk")
    #expect(harness.state.log == ["cancelled"])
  }

  @Test func dismissingCancelsTheChildsEffects() async {
    let harness = makeHarness()
    harness.send(.editTapped(1))
    harness.send(.editor(.presented(.autosaveTapped)))
    #expect(clock.sleeperCount == 1)
    harness.send(.editor(.dismiss))
    #expect(harness.state.editor == nil)
    #expect(clock.sleeperCount == 0)
    #expect(harness.core.runtime.runningCount == 0)
  }

  @Test func theChildsEffectsRunWhileItIsPresented() async {
    let harness = makeHarness()
    harness.send(.editTapped(1))
    harness.send(.editor(.presented(.autosaveTapped)))
    await clock.advance(by: .seconds(5))
    #expect(harness.processed.last?.action == .editor(.presented(.autosaved)))
  }

  @Test func anActionForANilChildChangesNothingAndWarns() {
    let warnings = WarningLog()
    let harness = makeHarness(warnings: warnings)
    let before = harness.state
    harness.send(.editor(.presented(.titleChanged("x"))))
    #expect(harness.state == before)
    #expect(warnings.messages.count == 1)
    #expect(warnings.messages.first?.contains(#"titleChanged("x")"#) == true)
    #expect(warnings.messages.first?.contains("nil") == true)
  }

  @Test func plainIfLetRunsTheChildAndEndsItsLifetimeWhenNil() async {
    struct Parent: Reducer {
      struct State: Equatable { var child: Row.State? = Row.State(id: 1) }
      enum Action: Sendable, Equatable {
        case child(Row.Action)
        case clear
      }
      let clock: TestClock
      var body: some Reducer<State, Action> {
        Reduce { state, action in
          if action == .clear { state.child = nil }
          return .none
        }
        .ifLet(
          \.child, action: CaseKey(Action.child) { if case .child(let a) = $0 { a } else { nil } }
        ) {
          Row(clock: clock)
        }
      }
    }
    let harness = Harness(initialState: Parent.State(), reducer: Parent(clock: clock))
    harness.send(.child(.renamed("a")))
    #expect(harness.state.child?.title == "a")
    harness.send(.child(.loadTapped))
    harness.send(.clear)
    #expect(clock.sleeperCount == 0)
  }

  /// A detail screen that shows one row at a time, replaced when another row is picked.
  struct Detail: Reducer {
    struct State: Equatable {
      var shown: Row.State?
      /// Moves on to the next row when the shown one starts loading, in the same action.
      var movesOnWhenLoading = false
    }
    enum Action: Sendable, Equatable {
      case shown(Row.Action)
      case show(Int)
    }
    let clock: TestClock
    var body: some Reducer<State, Action> {
      Reduce { state, action in
        if case .show(let id) = action, state.shown?.id != id { state.shown = Row.State(id: id) }
        if action == .shown(.loadTapped), state.movesOnWhenLoading, let id = state.shown?.id {
          state.shown = Row.State(id: id + 1)
        }
        return .none
      }
      .ifLet(\.shown, action: .shown) { Row(clock: clock) }
    }
  }

  @Test func aLoadStartedInTheActionThatReplacesTheChildEndsWithIt() {
    let harness = Harness(
      initialState: Detail.State(shown: Row.State(id: 1), movesOnWhenLoading: true),
      reducer: Detail(clock: clock))
    harness.send(.shown(.loadTapped))  // row 1 starts loading, the parent moves on to row 2
    #expect(harness.state.shown?.id == 2)
    #expect(clock.sleeperCount == 0)  // row 1's load must not land in row 2
  }

  /// Holds a detail and closes it itself, above the detail's own `ifLet`.
  struct Screen: Reducer {
    struct State: Equatable { var detail = Detail.State(shown: Row.State(id: 1)) }
    enum Action: Sendable, Equatable {
      case detail(Detail.Action)
      case close
    }
    let clock: TestClock
    var body: some Reducer<State, Action> {
      Scope(state: \.detail, action: .detail) { Detail(clock: clock) }
      Reduce { state, action in
        if action == .close { state.detail.shown = nil }
        return .none
      }
    }
  }

  /// A draft that takes a new id when saved and starts uploading; its parent may move on to
  /// another draft in the same action.
  struct Drafts: Reducer {
    struct Draft: Equatable, Identifiable {
      var id: Int
    }
    struct DraftReducer: Reducer {
      let clock: TestClock
      func reduce(into state: inout Draft, action: Row.Action) -> Effect<Row.Action> {
        guard action == .loadTapped else { return .none }
        state.id += 100  // saved: the server's id
        return .run { [clock] send in
          try await clock.sleep(for: .seconds(1))
          send(.loaded)
        }
      }
    }
    struct State: Equatable {
      var draft: Draft? = Draft(id: 1)
      var movesOnWhenSaved = false
    }
    enum Action: Sendable, Equatable {
      case draft(Row.Action)
    }
    let clock: TestClock
    var body: some Reducer<State, Action> {
      Reduce { state, action in
        if action == .draft(.loadTapped), state.movesOnWhenSaved { state.draft = Draft(id: 7) }
        return .none
      }
      .ifLet(\.draft, action: .draft) { DraftReducer(clock: clock) }
    }
  }

  @Test func aChildThatChangesItsOwnIDKeepsTheEffectItStartsThen() {
    let harness = Harness(initialState: Drafts.State(), reducer: Drafts(clock: clock))
    harness.send(.draft(.loadTapped))
    #expect(harness.state.draft?.id == 101)
    #expect(clock.sleeperCount == 1)
  }

  @Test func aChildThatChangesItsOwnIDAndIsThenReplacedLeavesNothingRunning() {
    let harness = Harness(
      initialState: Drafts.State(movesOnWhenSaved: true), reducer: Drafts(clock: clock))
    harness.send(.draft(.loadTapped))
    #expect(harness.state.draft?.id == 7)
    #expect(clock.sleeperCount == 0)  // draft 101's upload must not run on into draft 7
  }

  /// An editor sheet whose parent reads the editor it is dismissing, and tries to open a
  /// fresh one in its place.
  struct Sheet: Reducer {
    struct State: Equatable {
      var editor: Editor.State? = Editor.State(rowID: 1, title: "")
      var seenOnDismiss: [Int?] = []
    }
    enum Action: Sendable, Equatable {
      case editor(PresentationAction<Editor.Action>)
    }
    let clock: TestClock
    var body: some Reducer<State, Action> {
      Reduce { state, action in
        if action == .editor(.dismiss) {
          state.seenOnDismiss.append(state.editor?.rowID)
          state.editor = Editor.State(rowID: 2, title: "")
        }
        return .none
      }
      .presents(\.editor, action: .editor) { Editor(clock: clock) }
    }
  }

  /// As in The Composable Architecture: the parent sees `.dismiss` with the child still there,
  /// then the child goes. A child that is not `Identifiable` cannot be told from another, so
  /// one the parent presents in answer is dismissed too; the old child's effects end.
  @Test func theParentSeesTheChildItDismissesThenTheChildGoes() {
    let harness = Harness(initialState: Sheet.State(), reducer: Sheet(clock: clock))
    harness.send(.editor(.presented(.autosaveTapped)))
    #expect(clock.sleeperCount == 1)
    harness.send(.editor(.dismiss))
    #expect(harness.state.seenOnDismiss == [1])
    #expect(harness.state.editor == nil)
    #expect(clock.sleeperCount == 0)
  }

  /// A sheet of drafts whose parent keeps the draft the user swiped away, and may open the
  /// next one in its place.
  struct SwipedDrafts: Reducer {
    struct State: Equatable {
      var draft: Drafts.Draft? = Drafts.Draft(id: 1)
      var kept: [Int] = []
      var opensNext = false
    }
    enum Action: Sendable, Equatable {
      case draft(PresentationAction<Row.Action>)
    }
    let clock: TestClock
    var body: some Reducer<State, Action> {
      Reduce { state, action in
        if action == .draft(.dismiss) {
          if let draft = state.draft { state.kept.append(draft.id) }
          if state.opensNext { state.draft = Drafts.Draft(id: 50) }
        }
        return .none
      }
      .presents(\.draft, action: .draft) { Drafts.DraftReducer(clock: clock) }
    }
  }

  @Test func aParentKeepsTheDraftItDismissesAndItsEffectsEnd() {
    let warnings = WarningLog()
    let harness = Harness(
      initialState: SwipedDrafts.State(), warnings: warnings.handler,
      reducer: SwipedDrafts(clock: clock))
    harness.send(.draft(.presented(.loadTapped)))
    #expect(harness.state.draft?.id == 101)
    #expect(clock.sleeperCount == 1)
    harness.send(.draft(.dismiss))
    #expect(harness.state.kept == [101])
    #expect(harness.state.draft == nil)
    #expect(clock.sleeperCount == 0)
    // A second dismissal, with nothing presented: it reaches no reducer, and warns of nothing.
    harness.send(.draft(.dismiss))
    #expect(harness.state.kept == [101])
    #expect(warnings.messages.isEmpty)
  }

  @Test func aChildOfAnotherIDPresentedInAnswerToADismissalStaysWithNoEffects() {
    var state = SwipedDrafts.State()
    state.opensNext = true
    let harness = Harness(initialState: state, reducer: SwipedDrafts(clock: clock))
    harness.send(.draft(.presented(.loadTapped)))
    #expect(clock.sleeperCount == 1)
    harness.send(.draft(.dismiss))
    #expect(harness.state.kept == [101])
    #expect(harness.state.draft?.id == 50)
    #expect(clock.sleeperCount == 0)  // draft 101's load must not run on into draft 50
  }

  /// A sheet that answers its draft's save by presenting the next draft.
  struct Drafting: Reducer {
    struct Draft: Equatable, Identifiable, Sendable {
      var id: Int
    }
    struct State: Equatable {
      var draft: Draft? = Draft(id: 1)
      var saved: [Int] = []
      var presentsNext = true
    }
    enum Action: Sendable, Equatable {
      case draft(PresentationAction<DraftEditor.Action>)
    }
    var body: some Reducer<State, Action> {
      Reduce { state, action in
        if case .draft(.presented(.delegate(.saved(let id)))) = action {
          state.saved.append(id)
          if state.presentsNext { state.draft = Draft(id: id + 1) }
        }
        return .none
      }
      .presents(\.draft, action: .draft) { DraftEditor() }
    }
  }

  struct DraftEditor: Reducer {
    enum Action: Sendable, Equatable {
      case saveTapped
      case delegate(Delegate)
      enum Delegate: Sendable, Equatable { case saved(Int) }
    }
    func reduce(into state: inout Drafting.Draft, action: Action) -> Effect<Action> {
      guard action == .saveTapped else { return .none }
      return .concatenate(.send(.delegate(.saved(state.id))), .dismiss)
    }
  }

  @Test func aChildsDismissClosesItselfNotTheChildItsParentPresentedInResponse() {
    let warnings = WarningLog()
    let harness = Harness(
      initialState: Drafting.State(), warnings: warnings.handler, reducer: Drafting())
    harness.send(.draft(.presented(.saveTapped)))
    // Draft 1 reported, the parent presented draft 2, then draft 1's dismissal arrived:
    // draft 1 is gone already, and draft 2 stays.
    #expect(harness.state.saved == [1])
    #expect(harness.state.draft?.id == 2)
    #expect(warnings.messages.isEmpty)
    // A parent that only takes the report: the child closes itself.
    harness.send(.draft(.presented(.saveTapped)))
    #expect(harness.state.draft?.id == 3)
    var onlyTakes = Drafting.State()
    onlyTakes.presentsNext = false
    let quiet = Harness(initialState: onlyTakes, warnings: warnings.handler, reducer: Drafting())
    quiet.send(.draft(.presented(.saveTapped)))
    #expect(quiet.state.saved == [1])
    #expect(quiet.state.draft == nil)
    #expect(warnings.messages.isEmpty)
  }

  /// A screen with an alert: state that says what to show, and no reducer of its own.
  struct Deleting: Reducer {
    /// `EphemeralState`, as an app's alerts would be; `presents` without a reducer closes it
    /// itself all the same, and still tells a tap from a second tap.
    struct Alert: Equatable, EphemeralState {
      var title: String
    }
    enum AlertAction: Sendable, Equatable {
      case confirmTapped
      case askAgainTapped
    }
    struct State: Equatable {
      var alert: Alert?
      var deleted = 0
    }
    enum Action: Sendable, Equatable {
      case deleteTapped
      case alert(PresentationAction<AlertAction>)
    }
    var body: some Reducer<State, Action> {
      Reduce { state, action in
        switch action {
        case .deleteTapped:
          state.alert = Alert(title: "Delete?")
        case .alert(.presented(.confirmTapped)):
          #expect(state.alert == nil, "closed before the parent runs")
          state.deleted += 1
        case .alert(.presented(.askAgainTapped)):
          state.alert = Alert(title: "Really?")
        case .alert(.dismiss):
          break
        }
        return .none
      }
      .presents(\.alert, action: .alert)
    }
  }

  /// A screen with an alert whose state is a plain struct, not `EphemeralState`: `presents`
  /// without a reducer closes it on each of its actions all the same.
  struct Confirming: Reducer {
    struct Alert: Equatable {
      var title: String
    }
    enum AlertAction: Sendable, Equatable {
      case yesTapped
    }
    struct State: Equatable {
      var alert: Alert?
      var confirmed = 0
    }
    enum Action: Sendable, Equatable {
      case confirmTapped
      case alert(PresentationAction<AlertAction>)
    }
    var body: some Reducer<State, Action> {
      Reduce { state, action in
        switch action {
        case .confirmTapped:
          state.alert = Alert(title: "Sure?")
        case .alert(.presented(.yesTapped)):
          #expect(state.alert == nil, "closed before the parent runs")
          state.confirmed += 1
        case .alert(.dismiss):
          break
        }
        return .none
      }
      .presents(\.alert, action: .alert)
    }
  }

  /// A screen whose destinations are one enum: an editor sheet, or a delete alert that closes
  /// on its buttons (its state is `EphemeralState`).
  struct Chooser: Reducer {
    struct Alert: Equatable, EphemeralState {
      var title: String
    }
    enum AlertAction: Sendable, Equatable {
      case confirmTapped
      case editInsteadTapped
    }
    struct Destination: Reducer {
      enum State: Equatable {
        case editor(Editor.State)
        case alert(Alert)
      }
      enum Action: Sendable, Equatable {
        case editor(Editor.Action)
        case alert(AlertAction)
      }
      let clock: TestClock
      /// Whether the alert's own reducer (wrongly) returns work for its buttons.
      let alertReturnsWork: Bool
      var body: some Reducer<State, Action> {
        Reduce { state, action in
          // Asks before discarding: the editor's destination switches itself to an alert.
          if case .editor(.titleChanged("")) = action {
            state = .alert(Alert(title: "Discard?"))
          }
          // Only while the alert shows: were it not closed, this must not send forever.
          guard alertReturnsWork, case .alert = action, case .alert = state else { return .none }
          return .send(.alert(.confirmTapped))
        }
        .ifCaseLet(.editor, action: .editor) { Editor(clock: clock) }
      }
    }
    struct State: Equatable {
      var destination: Destination.State?
      var deleted = 0
    }
    enum Action: Sendable, Equatable {
      case deleteTapped
      case destination(PresentationAction<Destination.Action>)
    }
    let clock: TestClock
    var alertReturnsWork = false
    var body: some Reducer<State, Action> {
      Reduce { state, action in
        switch action {
        case .deleteTapped:
          state.destination = .alert(Alert(title: "Delete?"))
        case .destination(.presented(.alert(.confirmTapped))):
          #expect(state.destination == nil, "closed before the parent runs")
          state.deleted += 1
        case .destination(.presented(.alert(.editInsteadTapped))):
          state.destination = .editor(Editor.State(rowID: 1, title: "Milk"))
        case .destination:
          break
        }
        return .none
      }
      .presents(\.destination, action: .destination) {
        Destination(clock: clock, alertReturnsWork: alertReturnsWork)
      }
    }
  }

  @Test func anAlertCaseOfADestinationEnumClosesOnItsButtons() {
    let warnings = WarningLog()
    let harness = Harness(
      initialState: Chooser.State(), warnings: warnings.handler, reducer: Chooser(clock: clock))
    harness.send(.deleteTapped)
    harness.send(.destination(.presented(.alert(.editInsteadTapped))))
    let editor = Editor.State(rowID: 1, title: "Milk")
    #expect(harness.state.destination == .editor(editor), "presented in answer")
    harness.send(.destination(.presented(.editor(.titleChanged("Oat milk")))))
    #expect(
      harness.state.destination == .editor(Editor.State(rowID: 1, title: "Oat milk")),
      "a destination that is not EphemeralState stays open")
    harness.send(.destination(.dismiss))
    harness.send(.deleteTapped)
    harness.send(.destination(.presented(.alert(.confirmTapped))))
    #expect(harness.state.destination == nil)
    #expect(harness.state.deleted == 1)
    #expect(warnings.messages.isEmpty)
    // A second tap finds nothing presented.
    harness.send(.destination(.presented(.alert(.confirmTapped))))
    #expect(warnings.messages.count == 1)
  }

  @Test func aDestinationThatSwitchesItselfToAnAlertShowsIt() {
    let warnings = WarningLog()
    let harness = Harness(
      initialState: Chooser.State(destination: .editor(Editor.State(rowID: 1, title: "Milk"))),
      warnings: warnings.handler, reducer: Chooser(clock: clock))
    harness.send(.destination(.presented(.editor(.titleChanged("")))))
    #expect(harness.state.destination == .alert(Chooser.Alert(title: "Discard?")))
    #expect(warnings.messages.isEmpty)
  }

  @Test func anActionForAnotherCaseLeavesTheAlertOpen() {
    let warnings = WarningLog()
    let harness = Harness(
      initialState: Chooser.State(), warnings: warnings.handler, reducer: Chooser(clock: clock))
    harness.send(.deleteTapped)
    harness.send(.destination(.presented(.editor(.titleChanged("x")))))
    #expect(harness.state.destination == .alert(Chooser.Alert(title: "Delete?")))
    #expect(warnings.messages.count == 1)
    #expect(warnings.messages.first?.contains("the state is another case: .alert") == true)
  }

  @Test func onlyAnEphemeralPayloadTypeClosesAnEnumDestination() {
    enum Shown { case alert(Chooser.Alert), maybeAlert(Chooser.Alert?) }
    enum Tap { case alert(Int), maybeAlert(Int) }
    var alert: Shown? = .alert(Chooser.Alert(title: "x"))
    var maybe: Shown? = .maybeAlert(Chooser.Alert(title: "x"))
    #expect(
      withUnsafePointer(to: &alert) { Ephemerality.closing($0, on: Tap.alert(1)).closing }
        == "alert")
    #expect(
      withUnsafePointer(to: &alert) { Ephemerality.closing($0, on: Tap.maybeAlert(1)).closing }
        == nil)
    #expect(
      withUnsafePointer(to: &maybe) { Ephemerality.closing($0, on: Tap.maybeAlert(1)).closing }
        == nil)
    var closed: Shown? = nil
    #expect(
      withUnsafePointer(to: &closed) { Ephemerality.closing($0, on: Tap.alert(1)).closing } == nil)
  }

  @Test func workAnAlertReturnsAsItClosesIsNotRunAndWarns() {
    let warnings = WarningLog()
    let harness = Harness(
      initialState: Chooser.State(), warnings: warnings.handler,
      reducer: Chooser(clock: clock, alertReturnsWork: true))
    harness.send(.deleteTapped)
    harness.send(.destination(.presented(.alert(.editInsteadTapped))))
    #expect(harness.state.destination == .editor(Editor.State(rowID: 1, title: "Milk")))
    #expect(harness.state.deleted == 0, "the alert's .send(.confirmTapped) did not run")
    #expect(warnings.messages.count == 1)
    #expect(warnings.messages.first?.contains("EphemeralState") == true)
  }

  @Test func anAlertWithoutAReducerClosesOnEachOfItsActions() {
    let warnings = WarningLog()
    let harness = Harness(
      initialState: Deleting.State(), warnings: warnings.handler, reducer: Deleting())
    harness.send(.deleteTapped)
    harness.send(.alert(.presented(.askAgainTapped)))
    #expect(harness.state.alert == Deleting.Alert(title: "Really?"), "presented again in answer")
    harness.send(.alert(.presented(.confirmTapped)))
    #expect(harness.state.alert == nil)
    #expect(harness.state.deleted == 1)
    harness.send(.deleteTapped)
    harness.send(.alert(.dismiss))
    #expect(harness.state.alert == nil)
    #expect(warnings.messages.isEmpty)
    // A button tapped twice: the second tap finds no alert.
    harness.send(.alert(.presented(.confirmTapped)))
    #expect(harness.state.deleted == 1)
    #expect(warnings.messages.count == 1)
    #expect(warnings.messages.first?.contains("confirmTapped") == true)
  }

  @Test func anAlertThatIsNotEphemeralStateClosesOnItsActionsAllTheSame() {
    let warnings = WarningLog()
    let harness = Harness(
      initialState: Confirming.State(), warnings: warnings.handler, reducer: Confirming())
    harness.send(.confirmTapped)
    harness.send(.alert(.presented(.yesTapped)))
    #expect(harness.state == Confirming.State(alert: nil, confirmed: 1))
    #expect(warnings.messages.isEmpty)
    harness.send(.alert(.presented(.yesTapped)))
    #expect(harness.state.confirmed == 1, "a second tap finds no alert")
    #expect(warnings.messages.count == 1)
    #expect(warnings.messages.first?.contains("yesTapped") == true)
  }

  @Test func aChildDismissedByAnAncestorHasItsEffectsEndedByThatAction() {
    let harness = Harness(initialState: Screen.State(), reducer: Screen(clock: clock))
    harness.send(.detail(.shown(.loadTapped)))
    harness.send(.close)  // out of the ifLet's sight
    #expect(clock.sleeperCount == 0)
    harness.send(.detail(.show(2)))
    #expect(clock.sleeperCount == 0)
    #expect(harness.core.runtime.runningCount == 0)
  }

  @Test func aChildReplacedByOneWithAnotherIDIsANewChild() {
    let harness = Harness(
      initialState: Detail.State(shown: Row.State(id: 1)), reducer: Detail(clock: clock))
    let first = harness.store.scope(state: \.shown, action: .shown)
    let presence = Tracker { _ = harness.store.scope(state: \.shown, action: .shown) }
    harness.send(.shown(.loadTapped))
    harness.send(.show(1))  // the same row: nothing changes
    #expect(clock.sleeperCount == 1)
    #expect(harness.store.scope(state: \.shown, action: .shown) === first)
    #expect(presence.firings == 0)
    harness.send(.show(2))  // another row: row 1's load must not land in row 2
    #expect(clock.sleeperCount == 0)
    #expect(presence.firings == 1)
    let second = harness.store.scope(state: \.shown, action: .shown)
    #expect(second != nil && second !== first)
    #expect(second?.id == 2)
  }

  @Test func aStoreKeptPastItsChildsReplacementNeitherReadsNorDrivesTheNewChild() {
    let warnings = WarningLog()
    let harness = Harness(
      initialState: Detail.State(shown: Row.State(id: 1, title: "one")),
      warnings: warnings.handler, reducer: Detail(clock: clock))
    let first = harness.store.scope(state: \.shown, action: .shown)
    harness.send(.show(2))
    #expect(first?.title == "one")  // its child's last state
    first?.send(.renamed("meant for row 1"))
    harness.settle()
    #expect(harness.state.shown == Row.State(id: 2))
    #expect(warnings.messages.count == 1)
    #expect(
      warnings.messages.first?.contains("id 1, but the child there now has another id") == true)
  }

  @Test func dismissFromAChildThatIsNotPresentedWarns() {
    let warnings = WarningLog()
    let harness = Harness(
      initialState: Editor.State(rowID: 1, title: ""),
      warnings: warnings.handler,
      reducer: Editor(clock: clock)
    )
    harness.send(.cancelTapped)
    #expect(warnings.messages.count == 1)
    #expect(warnings.messages.first?.contains("no presenting parent") == true)
  }

  /// Shows a row held two structs down, and reaches it either through stored properties
  /// alone (whose place in the state `ifLet` reads ids from in place) or through a computed
  /// property (read through the key path).
  struct Nested: Reducer {
    struct Inner: Equatable {
      var note = "stored before the row"
      var shown: Row.State?
    }
    struct Outer: Equatable {
      var count = 0
      var inner = Inner()
    }
    struct State: Equatable {
      var outer = Outer()
      var shownThroughComputed: Row.State? {
        get { outer.inner.shown }
        set { outer.inner.shown = newValue }
      }
    }
    enum Action: Sendable, Equatable {
      case shown(Row.Action)
      case show(Int)
      case hide
    }
    let clock: TestClock
    let throughComputed: Bool
    var body: some Reducer<State, Action> {
      let parent = Reduce<State, Action> { state, action in
        switch action {
        case .show(let id): state.outer.inner.shown = Row.State(id: id)
        case .hide: state.outer.inner.shown = nil
        case .shown: state.outer.count += 1
        }
        return .none
      }
      if throughComputed {
        parent.ifLet(\.shownThroughComputed, action: .shown) { Row(clock: clock) }
      } else {
        parent.ifLet(\.outer.inner.shown, action: .shown) { Row(clock: clock) }
      }
    }
  }

  @Test func aChildReachedThroughStoredPropertiesIsReadInPlace() {
    let parent = Reduce<Nested.State, Nested.Action> { _, _ in .none }
    let stored = parent.ifLet(\.outer.inner.shown, action: .shown) { Row(clock: clock) }
    let computed = parent.ifLet(\.shownThroughComputed, action: .shown) { Row(clock: clock) }
    #expect(stored.childOffset == MemoryLayout<Nested.State>.offset(of: \.outer.inner.shown))
    #expect(stored.childOffset != nil)
    #expect(computed.childOffset == nil)
  }

  @Test(arguments: [false, true])
  func aNestedChildIsFollowedThroughStoredAndComputedPathsAlike(throughComputed: Bool) {
    let harness = Harness(
      initialState: Nested.State(), reducer: Nested(clock: clock, throughComputed: throughComputed))
    harness.send(.show(1))
    harness.send(.shown(.loadTapped))
    #expect(clock.sleeperCount == 1)
    harness.send(.show(1))  // a new value with the same id: the same child
    #expect(clock.sleeperCount == 1)
    harness.send(.show(2))  // another id: row 1's load ends
    #expect(clock.sleeperCount == 0)
    harness.send(.shown(.loadTapped))
    #expect(clock.sleeperCount == 1)
    harness.send(.hide)
    #expect(clock.sleeperCount == 0)
    #expect(harness.core.runtime.runningCount == 0)
    #expect(harness.state.outer.count == 2)
    #expect(harness.state.outer.inner.note == "stored before the row")
  }
}

extension CaseKey<IfLetReducerTests.Detail.Action, Row.Action> {
  static var shown: Self {
    Self(IfLetReducerTests.Detail.Action.shown) { if case .shown(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<IfLetReducerTests.Screen.Action, IfLetReducerTests.Detail.Action> {
  static var detail: Self {
    Self(IfLetReducerTests.Screen.Action.detail) { if case .detail(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<IfLetReducerTests.Drafts.Action, Row.Action> {
  static var draft: Self {
    Self(IfLetReducerTests.Drafts.Action.draft) { if case .draft(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<IfLetReducerTests.Sheet.Action, PresentationAction<Editor.Action>> {
  static var editor: Self {
    Self(IfLetReducerTests.Sheet.Action.editor) { if case .editor(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<
  IfLetReducerTests.Drafting.Action, PresentationAction<IfLetReducerTests.DraftEditor.Action>
> {
  static var draft: Self {
    Self(IfLetReducerTests.Drafting.Action.draft) { if case .draft(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<
  IfLetReducerTests.Deleting.Action, PresentationAction<IfLetReducerTests.Deleting.AlertAction>
> {
  static var alert: Self {
    Self(IfLetReducerTests.Deleting.Action.alert) { if case .alert(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<IfLetReducerTests.Nested.Action, Row.Action> {
  static var shown: Self {
    Self(IfLetReducerTests.Nested.Action.shown) { if case .shown(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<IfLetReducerTests.Chooser.Destination.State, Editor.State> {
  static var editor: Self {
    Self(IfLetReducerTests.Chooser.Destination.State.editor) {
      if case .editor(let s) = $0 { s } else { nil }
    }
  }
}

extension CaseKey<IfLetReducerTests.Chooser.Destination.Action, Editor.Action> {
  static var editor: Self {
    Self(IfLetReducerTests.Chooser.Destination.Action.editor) {
      if case .editor(let a) = $0 { a } else { nil }
    }
  }
}

extension CaseKey<
  IfLetReducerTests.Chooser.Action, PresentationAction<IfLetReducerTests.Chooser.Destination.Action>
> {
  static var destination: Self {
    Self(IfLetReducerTests.Chooser.Action.destination) {
      if case .destination(let a) = $0 { a } else { nil }
    }
  }
}

extension CaseKey<
  IfLetReducerTests.Confirming.Action,
  PresentationAction<IfLetReducerTests.Confirming.AlertAction>
> {
  static var alert: Self {
    Self(IfLetReducerTests.Confirming.Action.alert) {
      if case .alert(let a) = $0 { a } else { nil }
    }
  }
}

extension CaseKey<IfLetReducerTests.SwipedDrafts.Action, PresentationAction<Row.Action>> {
  static var draft: Self {
    Self(IfLetReducerTests.SwipedDrafts.Action.draft) {
      if case .draft(let a) = $0 { a } else { nil }
    }
  }
}
