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

  @Test func aChildReplacedAboveItsScopeByOneWithAnotherIDHasItsEffectsEnded() async {
    let harness = makeHarness { $0.detail.shown = Ticker.State(id: 1) }
    harness.send(.detail(.shown(.start)))
    harness.send(.ancestor(.showInDetail(1)))  // the same ticker: its tick goes on
    #expect(clock.sleeperCount == 1)
    harness.send(.ancestor(.showInDetail(2)))  // another: ticker 1's tick must not land in it
    #expect(clock.sleeperCount == 0)
    harness.send(.detail(.shown(.start)))
    harness.send(.ancestor(.addRow(3)))
    #expect(clock.sleeperCount == 1, "ticker 2's own tick goes on")
    await clock.advance(by: .seconds(1))
    harness.settle()
    #expect(harness.state.detail.shown?.ticks == 1)
  }

  @Test func aChildReplacedBeforeItsOwnActionRunsKeepsOnlyTheNewChildsEffects() async {
    // A reducer above the scope, run before it, replaces the child in the child's own action:
    // the child that then runs (ticker 2) starts a tick, and ticker 1's ends.
    let harness = makeHarness { $0.detail.shown = Ticker.State(id: 1) }
    harness.send(.detail(.shown(.start)))
    harness.send(.ancestor(.replaceDetail(.beforeItsAction)))
    harness.send(.detail(.shown(.start)))
    #expect(harness.state.detail.shown?.id == 2)
    #expect(clock.sleeperCount == 1)
    await clock.advance(by: .seconds(1))
    harness.settle()
    #expect(harness.state.detail.shown?.ticks == 1)
  }

  @Test func aChildReplacedAfterItsOwnActionRanHasThatActionsEffectsEnded() {
    // A reducer above the scope, run after it, replaces the child in the child's own action:
    // the tick ticker 1 started in that action must not land in ticker 2.
    let harness = makeHarness { $0.detail.shown = Ticker.State(id: 1) }
    harness.send(.ancestor(.replaceDetail(.afterItsAction)))
    harness.send(.detail(.shown(.start)))
    #expect(harness.state.detail.shown?.id == 2)
    #expect(clock.sleeperCount == 0)
  }

  @Test func aStackMadeBeforeTheActionThatSetsItStillEndsTheOldScreens() {
    let harness = makeHarness { $0.todos.path = StackState([Row.State(id: 7)]) }
    let screen = harness.state.todos.path.id(at: 0)
    harness.send(.todos(.path(.element(id: screen, action: .loadTapped))))
    let deepLink = StackState([Row.State(id: 8)])  // made outside any action
    harness.send(.ancestor(.setPath(deepLink)))
    #expect(clock.sleeperCount == 0)
  }

  @Test func anActionFromAReplacedScreenNeverReachesTheScreenThatTookItsID() async {
    // The new stack was made in an earlier action, so no array changes its ids in the action
    // that sets it; the store reads the stack's stamp where the state keeps it, and walks (a
    // stack the root reaches through stored properties). Where no walk would see it, the old
    // screen's action is checked against the stack it started in when its load finishes, and
    // dropped: either way it never reaches the screen that took its id.
    let warnings = WarningLog()
    let harness = makeHarness(
      { $0.todos.path = StackState([Row.State(id: 7)]) }, warnings: warnings)
    let screen = harness.state.todos.path.id(at: 0)
    harness.send(.todos(.path(.element(id: screen, action: .loadTapped))))
    harness.send(.ancestor(.stagePath(8)))
    harness.send(.ancestor(.applyStagedPath))
    #expect(harness.state.todos.path.id(at: 0) == screen)
    await clock.advance(by: .seconds(1))
    harness.settle()
    #expect(harness.state.todos.path.map(\.loads) == [0])
    #expect(harness.core.runtime.runningCount == 0)
    #expect(warnings.messages.isEmpty)
  }

  @Test func aDelayedSendFromAReplacedScreenNeverReachesTheScreenThatTookItsID() async {
    // The same, for an action a debounce sends once its delay is over: a `.send` started
    // after its action was reduced is checked like an action from a task.
    let harness = makeHarness { $0.todos.path = StackState([Row.State(id: 7)]) }
    let screen = harness.state.todos.path.id(at: 0)
    harness.send(.todos(.path(.element(id: screen, action: .renameLater("late")))))
    harness.send(.ancestor(.stagePath(8)))
    harness.send(.ancestor(.applyStagedPath))
    await clock.advance(by: .seconds(1))
    harness.settle()
    #expect(harness.state.todos.path.map(\.title) == [""])
  }

  @Test func anActionLetGoAfterADispatchMaySendFromItsDeinit() {
    // The queue skips exclusivity checks: it lets go of the actions it reduced only once it
    // is in order, so a send from a `deinit` they trigger (the queue holds the last
    // reference) is reduced normally.
    let box = StoreBox()
    let store = Store(initialState: Farewells.State()) {
      Farewells { box.store?.send(.bye) }
    }
    box.store = store
    store.send(.start)
    #expect(store.state.log == ["start", "carried", "bye"])
  }

  /// Sends itself an action carrying an object that sends `.bye` when let go.
  struct Farewells: Reducer {
    struct State: Equatable { var log: [String] = [] }
    enum Action: Sendable, Equatable {
      case start
      case carry(Farewell)
      case bye
    }
    let onBye: @MainActor @Sendable () -> Void
    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .start:
        state.log.append("start")
        return .send(.carry(Farewell(onBye)))
      case .carry:
        state.log.append("carried")
        return .none
      case .bye:
        state.log.append("bye")
        return .none
      }
    }
  }

  /// Holds the store the farewell sends to.
  @MainActor
  final class StoreBox {
    var store: Store<Farewells.State, Farewells.Action>?
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

  @Test func aStackReplacedAboveItsScopeEndsTheOldScreensEvenWhereIDsRepeat() async {
    let harness = makeHarness { $0.todos.path = StackState([Row.State(id: 7)]) }
    let old = harness.state.todos.path.id(at: 0)
    harness.send(.todos(.path(.element(id: old, action: .loadTapped))))
    harness.send(.ancestor(.replacePath(8)))  // a deep link: its first screen has id 0 again
    #expect(harness.state.todos.path.id(at: 0) == old)
    #expect(clock.sleeperCount == 0, "the old screen's load must not land in the new screen")
    harness.send(.todos(.path(.element(id: old, action: .loadTapped))))
    harness.send(.ancestor(.addRow(3)))
    #expect(clock.sleeperCount == 1, "the new screen's own load goes on")
    await clock.advance(by: .seconds(1))
    harness.settle()
    #expect(harness.state.todos.path.map(\.loads) == [1])
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

  /// Sections whose editors each run an autosave: every section is a branch the store looks
  /// below after each action, since an editor goes without a stamp changing.
  func sectionsWithEditorsSaving(_ count: Int) -> Harness<Home> {
    let harness = makeHarness {
      for section in 1...count {
        $0.sections.append(Home.Section(id: section, todos: Todos.State(rows: [Row.State(id: 1)])))
      }
    }
    for section in 1...count {
      harness.send(.sections(.element(id: section, action: .editTapped(1))))
      harness.send(.sections(.element(id: section, action: .editor(.presented(.autosaveTapped)))))
    }
    #expect(clock.sleeperCount == count)
    return harness
  }

  /// After an action for one section, the store looked below every section with a running
  /// editor, to see whether its editor was gone: the cost of any action grew with the number
  /// of such sections (identity trial: 2,000 rows with sheets, 76 to 110 times 10 rows). Only
  /// the sections that changed since the last look are looked below now.
  @Test func anActionForOneOfManySectionsLooksBelowThatSectionAlone() {
    let harness = sectionsWithEditorsSaving(40)
    harness.send(.sections(.element(id: 7, action: .editor(.presented(.titleChanged("a"))))))
    // The one section that changed, and the places below it; not the 39 others (120
    // places before).
    #expect(harness.core.runtime.placesLookedUpByLastWalk <= 3)
    harness.send(.ancestor(.renameRow(1, "unrelated")))
    #expect(harness.core.runtime.placesLookedUpByLastWalk == 0)
    #expect(clock.sleeperCount == 40)
  }

  @Test func anEditorClosedAboveItsScopeInOneOfManySectionsEndsOnlyItsEffects() async {
    let harness = sectionsWithEditorsSaving(40)
    harness.send(.ancestor(.closeSectionEditors([7])))
    #expect(clock.sleeperCount == 39)
    #expect(harness.state.sections[id: 7]?.todos.editor == nil)
    await clock.advance(by: .seconds(5))
    harness.settle()
    let autosaved = harness.processed.compactMap { processed -> Int? in
      guard case .sections(.element(let id, .editor(.presented(.autosaved)))) = processed.action
      else { return nil }
      return id
    }
    #expect(autosaved.sorted() == Array(1...40).filter { $0 != 7 })
  }

  /// More sections changed in one action than the arrays' short record of changes holds:
  /// the store looks below every section, and finds each closed editor.
  @Test func editorsClosedInMoreSectionsThanTheRecordHoldsAllHaveTheirEffectsEnded() {
    let harness = sectionsWithEditorsSaving(40)
    harness.send(.ancestor(.closeSectionEditors(Array(1...30))))
    #expect(clock.sleeperCount == 10)
  }

  /// Sections set back to a copy from before the editors opened: no record links the copy's
  /// content to what the store last saw, so it looks below every section.
  @Test func sectionsSetBackToAnOlderCopyEndTheEditorsTheCopyLacks() {
    let harness = makeHarness {
      $0.sections = [
        Home.Section(id: 1, todos: Todos.State(rows: [Row.State(id: 1)])),
        Home.Section(id: 2, todos: Todos.State(rows: [Row.State(id: 1)])),
      ]
    }
    let before = harness.state.sections
    for section in [1, 2] {
      harness.send(.sections(.element(id: section, action: .editTapped(1))))
      harness.send(.sections(.element(id: section, action: .editor(.presented(.autosaveTapped)))))
    }
    #expect(clock.sleeperCount == 2)
    harness.send(.ancestor(.setSections(before)))
    #expect(clock.sleeperCount == 0)
  }

  /// Rows set back to a copy saved before a row was added: the copy was made before the
  /// store last looked, so no new stamp says that the ids changed, yet the added row is gone.
  /// The store reads the stamps of the arrays it reaches through stored properties after every
  /// action, and finds it (its effect ran on until it sent).
  @Test func rowsSetBackToACopyFromBeforeARowWasAddedEndThatRowsEffects() async {
    let harness = makeHarness { $0.todos.rows = [Row.State(id: 1)] }
    let before = harness.state.todos.rows
    harness.send(.ancestor(.addRow(2)))
    harness.send(.todos(.rows(.element(id: 2, action: .loadTapped))))
    harness.send(.todos(.rows(.element(id: 1, action: .loadTapped))))
    #expect(clock.sleeperCount == 2)
    harness.send(.ancestor(.setRows(before)))
    #expect(clock.sleeperCount == 1, "row 1's load goes on, row 2's ended")
    await clock.advance(by: .seconds(1))
    harness.settle()
    #expect(harness.state.todos.rows.map(\.loads) == [1])
  }

  /// Rows set back to a copy that holds the same rows: the stamp moved, the walk looks, and
  /// every row is still there.
  @Test func rowsSetBackToACopyWithTheSameRowsEndNothing() async {
    let harness = makeHarness { $0.todos.rows = [Row.State(id: 1), Row.State(id: 2)] }
    let before = harness.state.todos.rows
    harness.send(.todos(.rows(.element(id: 1, action: .loadTapped))))
    harness.send(.ancestor(.renameRow(2, "renamed")))
    harness.send(.ancestor(.setRows(before)))
    #expect(clock.sleeperCount == 1)
    await clock.advance(by: .seconds(1))
    harness.settle()
    #expect(harness.state.todos.rows[id: 1]?.loads == 1)
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

  @Test func aRecursiveChildRunByHandKeepsItsSheetsEffects() {
    // The child folder has the root's type: a walk that took the hand-made namespace for the
    // root's level would find the root's (absent) preview and end the child's effect.
    var state = Folder.State()
    state.subfolders = [Folder.State(id: 1, preview: Row.State(id: 9))]
    let harness = Harness(initialState: state, reducer: Folder(clock: clock))
    harness.send(.subfolder(id: 1, .preview(.loadTapped)))
    harness.send(.rename("root"))
    #expect(clock.sleeperCount == 1)
  }

  @Test func aScopeThroughAComputedPropertyIsNotReadOutOfTurn() {
    // `home` traps when the state is not home; the walk, which runs after every action while
    // the editor's effect runs, must not read it once an ancestor has left home.
    var todos = Todos.State()
    todos.rows = [Row.State(id: 1)]
    let harness = Harness(
      initialState: Modes.State(mode: .home(todos)), reducer: Modes(clock: clock))
    harness.send(.home(.editTapped(1)))
    harness.send(.home(.editor(.presented(.autosaveTapped))))
    harness.send(.leave)
    harness.send(.leave)
    #expect(harness.state.mode == .away)
  }

  @Test func twoCasesDeclaredAtOneSiteKeepTheirOwnEffects() {
    // Told apart by their case keys, not only by the site: otherwise they share one lifetime,
    // and the walk could look for one case with the other's key.
    let site = SourceSite(fileID: "Forms", line: 1)
    #expect(
      EffectID(CaseIdentity(site: site, toCase: CaseKey<Forms.State, Row.State>.add))
        != EffectID(CaseIdentity(site: site, toCase: CaseKey<Forms.State, Row.State>.edit)))
    let harness = Harness(
      initialState: Forms.State.edit(Row.State(id: 1)), reducer: Forms(clock: clock))
    harness.send(.edit(.loadTapped))
    harness.send(.noop)
    #expect(clock.sleeperCount == 1, "the edit case is there: its load goes on")
    harness.send(.close)
    #expect(clock.sleeperCount == 0)
  }

  @Test func aForceUnwrappedChildPathIsNotReadOutOfTurn() {
    // `\.holder!.sheet` traps once `holder` is nil: the walk, which runs after every action
    // while the sheet's effect runs, must not read it after an ancestor removed the holder.
    let harness = Harness(initialState: Outer.State(), reducer: Outer(clock: clock))
    harness.send(.inner(.sheet(.start)))
    harness.send(.dropHolder)
    harness.send(.dropHolder)
    #expect(harness.state.inner.holder == nil)
  }

  /// Holds `Inner` below a scope, and can drop the holder `Inner`'s sheet is reached through.
  struct Outer: Reducer {
    struct Holder: Equatable { var sheet: Ticker.State? = Ticker.State(id: 1) }
    struct Inner: Reducer {
      struct State: Equatable { var holder: Holder? = Holder() }
      enum Action: Sendable, Equatable { case sheet(Ticker.Action) }
      let clock: TestClock
      var body: some Reducer<State, Action> {
        EmptyReducer<State, Action>().ifLet(\.holder!.sheet, action: .sheet) {
          Ticker(clock: clock)
        }
      }
    }
    struct State: Equatable { var inner = Inner.State() }
    enum Action: Sendable, Equatable {
      case inner(Inner.Action)
      case dropHolder
    }
    let clock: TestClock
    var body: some Reducer<State, Action> {
      Scope(state: \.inner, action: .inner) { Inner(clock: clock) }
      Reduce { state, action in
        if action == .dropHolder { state.inner.holder = nil }
        return .none
      }
    }
  }

  /// A folder that runs its subfolders by hand, with a namespace of its own per subfolder.
  struct Folder: Reducer {
    struct State: Equatable, Identifiable {
      var id = 0
      var name = ""
      var preview: Row.State?
      var subfolders: [State] = []
    }
    indirect enum Action: Sendable, Equatable {
      case preview(Row.Action)
      case subfolder(id: Int, Action)
      case rename(String)
    }
    let clock: TestClock
    var body: some Reducer<State, Action> {
      Reduce { state, action in
        switch action {
        case .rename(let name):
          state.name = name
          return .none
        case .subfolder(let id, let action):
          guard let index = state.subfolders.firstIndex(where: { $0.id == id }) else {
            return .none
          }
          return Folder(clock: clock).reduce(into: &state.subfolders[index], action: action)
            .map { .subfolder(id: id, $0) }
            .scoped(to: id)
        case .preview:
          return .none
        }
      }
      .ifLet(\.preview, action: .preview) { Row(clock: clock) }
    }
  }

  /// Reaches its list through a computed property that traps when the state is elsewhere.
  struct Modes: Reducer {
    enum Mode: Equatable {
      case home(Todos.State)
      case away
    }
    struct State: Equatable {
      var mode: Mode
      var home: Todos.State {
        get {
          guard case .home(let todos) = mode else { fatalError("not home") }
          return todos
        }
        set { mode = .home(newValue) }
      }
    }
    enum Action: Sendable, Equatable {
      case home(Todos.Action)
      case leave
    }
    let clock: TestClock
    var body: some Reducer<State, Action> {
      Scope(state: \.home, action: .home) { Todos(clock: clock) }
      Reduce { state, action in
        if action == .leave { state.mode = .away }
        return .none
      }
    }
  }

  /// Two cases with the same payload type, run by `ifCaseLet`s given the same site (as a
  /// helper that does not pass its caller's site through would).
  struct Forms: Reducer {
    enum State: Equatable {
      case add(Row.State)
      case edit(Row.State)
      case closed
    }
    enum Action: Sendable, Equatable {
      case add(Row.Action)
      case edit(Row.Action)
      case noop
      case close
    }
    let clock: TestClock
    var body: some Reducer<State, Action> {
      Reduce { state, action in
        if action == .close { state = .closed }
        return .none
      }
      .ifCaseLet(.add, action: .add, fileID: "Forms", line: 1) { Row(clock: clock) }
      .ifCaseLet(.edit, action: .edit, fileID: "Forms", line: 1) { Row(clock: clock) }
    }
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
      var detail = Viewer.State()
      var replacesDetail: When?
      /// A stack made in one action and set in a later one.
      var staged: StackState<Row.State>?
    }
    /// When a reducer above the detail's scope replaces the detail's row with the next one,
    /// in an action for the row that starts a load.
    enum When: Equatable, Sendable {
      case beforeItsAction
      case afterItsAction
    }
    enum Change: Sendable, Equatable {
      case dropRow(Int)
      case renameRow(Int, String)
      case addRow(Int)
      case closeEditor
      case clearPath
      case replacePath(Int)
      case setPath(StackState<Row.State>)
      case stagePath(Int)
      case applyStagedPath
      case replaceDetail(When?)
      case showInDetail(Int)
      case dropNestedRow(section: Int, row: Int)
      case closeSectionEditors([Int])
      case setSections(IdentifiedArrayOf<Section>)
      case setRows(IdentifiedArrayOf<Row.State>)
      case leave
    }
    enum Action: Sendable, Equatable {
      case todos(Todos.Action)
      case sections(IdentifiedAction<Int, Todos.Action>)
      case shell(Shell.Action)
      case detail(Viewer.Action)
      case ancestor(Change)
    }
    let clock: TestClock
    var body: some Reducer<State, Action> {
      Reduce { state, action in
        if state.replacesDetail == .beforeItsAction { Self.replaceDetail(&state, on: action) }
        return .none
      }
      Scope(state: \.todos, action: .todos) { Todos(clock: clock) }
      Scope(state: \.shell, action: .shell) { Shell(clock: clock) }
      Scope(state: \.detail, action: .detail) { Viewer(clock: clock) }
      Reduce { state, action in
        if state.replacesDetail == .afterItsAction { Self.replaceDetail(&state, on: action) }
        guard case .ancestor(let change) = action else { return .none }
        switch change {
        case .dropRow(let id): state.todos.rows.remove(id: id)
        case .renameRow(let id, let title): state.todos.rows[id: id]?.title = title
        case .addRow(let id): state.todos.rows.append(Row.State(id: id))
        case .closeEditor: state.todos.editor = nil
        case .clearPath: state.todos.path.removeAll()
        case .replacePath(let row): state.todos.path = StackState([Row.State(id: row)])
        case .setPath(let path): state.todos.path = path
        case .stagePath(let row): state.staged = StackState([Row.State(id: row)])
        case .applyStagedPath: if let staged = state.staged { state.todos.path = staged }
        case .replaceDetail(let when): state.replacesDetail = when
        case .showInDetail(let row):
          if state.detail.shown?.id != row { state.detail.shown = Ticker.State(id: row) }
        case .dropNestedRow(let section, let row):
          state.sections[id: section]?.todos.rows.remove(id: row)
        case .closeSectionEditors(let sections):
          for section in sections { state.sections[id: section]?.todos.editor = nil }
        case .setSections(let sections): state.sections = sections
        case .setRows(let rows): state.todos.rows = rows
        case .leave: state.shell = .away
        }
        return .none
      }
      .forEach(\.sections, action: .sections) {
        Scope(state: \Section.todos, action: .todos) { Todos(clock: clock) }
      }
    }

    static func replaceDetail(_ state: inout State, on action: Action) {
      guard action == .detail(.shown(.start)), let ticker = state.detail.shown else { return }
      state.detail.shown = Ticker.State(id: ticker.id + 1)
    }
  }

  /// A child with an id, whose effect (unlike a row's load) does not cancel its earlier one.
  struct Ticker: Reducer {
    struct State: Equatable, Identifiable, Sendable {
      let id: Int
      var ticks = 0
    }
    enum Action: Sendable, Equatable {
      case start
      case tick
    }
    let clock: TestClock
    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .start:
        return .run { [clock] send in
          try await clock.sleep(for: .seconds(1))
          send(.tick)
        }
      case .tick:
        state.ticks += 1
        return .none
      }
    }
  }

  /// Shows a ticker, when there is one.
  struct Viewer: Reducer {
    struct State: Equatable { var shown: Ticker.State? }
    enum Action: Sendable, Equatable { case shown(Ticker.Action) }
    let clock: TestClock
    var body: some Reducer<State, Action> {
      EmptyReducer<State, Action>().ifLet(\.shown, action: .shown) { Ticker(clock: clock) }
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

extension CaseKey<AncestorRemovalTests.Folder.Action, Row.Action> {
  static var preview: Self {
    Self(AncestorRemovalTests.Folder.Action.preview) {
      if case .preview(let a) = $0 { a } else { nil }
    }
  }
}

extension CaseKey<AncestorRemovalTests.Modes.Action, Todos.Action> {
  static var home: Self {
    Self(AncestorRemovalTests.Modes.Action.home) { if case .home(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<AncestorRemovalTests.Forms.State, Row.State> {
  static var add: Self {
    Self(AncestorRemovalTests.Forms.State.add) { if case .add(let s) = $0 { s } else { nil } }
  }
  static var edit: Self {
    Self(AncestorRemovalTests.Forms.State.edit) { if case .edit(let s) = $0 { s } else { nil } }
  }
}

extension CaseKey<AncestorRemovalTests.Forms.Action, Row.Action> {
  static var add: Self {
    Self(AncestorRemovalTests.Forms.Action.add) { if case .add(let a) = $0 { a } else { nil } }
  }
  static var edit: Self {
    Self(AncestorRemovalTests.Forms.Action.edit) { if case .edit(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<AncestorRemovalTests.Home.Action, AncestorRemovalTests.Viewer.Action> {
  static var detail: Self {
    Self(AncestorRemovalTests.Home.Action.detail) { if case .detail(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<AncestorRemovalTests.Viewer.Action, AncestorRemovalTests.Ticker.Action> {
  static var shown: Self {
    Self(AncestorRemovalTests.Viewer.Action.shown) { if case .shown(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<AncestorRemovalTests.Outer.Inner.Action, AncestorRemovalTests.Ticker.Action> {
  static var sheet: Self {
    Self(AncestorRemovalTests.Outer.Inner.Action.sheet) {
      if case .sheet(let a) = $0 { a } else { nil }
    }
  }
}

extension CaseKey<AncestorRemovalTests.Outer.Action, AncestorRemovalTests.Outer.Inner.Action> {
  static var inner: Self {
    Self(AncestorRemovalTests.Outer.Action.inner) { if case .inner(let a) = $0 { a } else { nil } }
  }
}

/// Calls `onDeinit` on the main actor when let go.
final class Farewell: Equatable, @unchecked Sendable {
  // Only made, held and let go on the main actor, by the test above.
  let onDeinit: @MainActor () -> Void

  init(_ onDeinit: @escaping @MainActor () -> Void) {
    self.onDeinit = onDeinit
  }

  deinit {
    let onDeinit = self.onDeinit
    MainActor.assumeIsolated { onDeinit() }
  }

  static func == (lhs: Farewell, rhs: Farewell) -> Bool { lhs === rhs }
}
