import Effects
import Testing

@testable import Store

/// A row of a filtered view with screens of its own beyond a presented one: a navigation
/// stack, a list of items, and a sheet holding a filtered list of its own.
private struct NestingRow: Reducer {
  typealias Screen = SubscribingRow

  struct State: Equatable, Identifiable {
    let id: Int
    var isShown = true
    var path = StackState<Screen.State>([Screen.State(id: 0)])
    var items: IdentifiedArrayOf<Screen.State> = [Screen.State(id: 7)]
    var sheet: Sheet? = Sheet()
    var visibleItems: IdentifiedArrayOf<Screen.State> { items.filter(\.isShown) }
  }
  /// A sheet whose items are shown through a filtered view of its own.
  struct Sheet: Equatable, Sendable {
    var items: IdentifiedArrayOf<Screen.State> = [Screen.State(id: 8)]
    var visibleItems: IdentifiedArrayOf<Screen.State> { items.filter(\.isShown) }
  }
  enum Action: Sendable, Equatable {
    case path(StackAction<Screen.State, Screen.Action>)
    case items(IdentifiedAction<Int, Screen.Action>)
    case sheet(IdentifiedAction<Int, Screen.Action>)
    case replaceStack
    /// Pops the stack's screen, removes the item, and the sheet's.
    case removeScreens

    static var pathKey: CaseKey<Self, StackAction<Screen.State, Screen.Action>> {
      CaseKey(Self.path) { if case .path(let action) = $0 { action } else { nil } }
    }
    static var itemsKey: CaseKey<Self, IdentifiedAction<Int, Screen.Action>> {
      CaseKey(Self.items) { if case .items(let action) = $0 { action } else { nil } }
    }
    static var sheetKey: CaseKey<Self, IdentifiedAction<Int, Screen.Action>> {
      CaseKey(Self.sheet) { if case .sheet(let action) = $0 { action } else { nil } }
    }
  }
  let clock: TestClock

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .replaceStack: state.path = StackState([Screen.State(id: 0)])
      case .removeScreens:
        state.path.removeAll()
        state.items.removeAll()
        state.sheet?.items.removeAll()
      case .path, .items, .sheet: break
      }
      return .none
    }
    .navigationStack(\.path, action: Action.pathKey) { Screen(clock: clock) }
    .forEach(\.items, action: Action.itemsKey) { Screen(clock: clock) }
    .ifLet(\.sheet, action: SheetKey.sheet) {
      EmptyReducer<Sheet, IdentifiedAction<Int, Screen.Action>>()
        .forEach(\.items, action: SheetKey.whole) { Screen(clock: clock) }
    }
  }

  /// The sheet's case keys: its actions are its items'.
  enum SheetKey {
    static var sheet: CaseKey<Action, IdentifiedAction<Int, Screen.Action>> { Action.sheetKey }
    static var whole:
      CaseKey<IdentifiedAction<Int, Screen.Action>, IdentifiedAction<Int, Screen.Action>>
    {
      CaseKey({ $0 }) { $0 }
    }
  }
}

/// Nesting rows shown through a filtered view.
private struct NestingRows: Reducer {
  typealias Row = NestingRow

  struct State: Equatable {
    var rows: IdentifiedArrayOf<Row.State> = [Row.State(id: 1), Row.State(id: 2)]
    var visibleRows: IdentifiedArrayOf<Row.State> { rows.filter(\.isShown) }
  }
  enum Action: Sendable, Equatable {
    case rows(IdentifiedAction<Int, Row.Action>)
    case hide(Int)
    case show(Int)

    static var rowsKey: CaseKey<Self, IdentifiedAction<Int, Row.Action>> {
      CaseKey(Self.rows) { if case .rows(let action) = $0 { action } else { nil } }
    }
  }
  let clock: TestClock

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .hide(let id): state.rows[id: id]?.isShown = false
      case .show(let id): state.rows[id: id]?.isShown = true
      case .rows: break
      }
      return .none
    }
    .forEach(\.rows, action: Action.rowsKey) { Row(clock: clock) }
  }
}

/// Where a screen of row 1 of `NestingRows` lies: on the row's stack, in its items (or a
/// filtered view of them), or in its sheet's items (or the sheet's filtered view).
enum NestedScreenPlace: String, CustomTestStringConvertible, CaseIterable, Sendable {
  case stack
  case items
  case itemsView
  case sheetsItems
  case sheetsView

  var testDescription: String { rawValue }
}

/// The task of a screen's new store, started while the old store's task still runs.
@MainActor
private final class LaterTask {
  var task: Task<Void, Never>?
}

/// The screens a row of a filtered view shows beyond one it presents: a stack's screen and an
/// item of the row's own list (or of a filtered view of it), their stores scoped from the
/// row's store, and an item of a sheet's own list (or of the sheet's filtered view). When the row leaves the view, the end of their tasks goes on
/// through the row's store, as a presented screen's does (ScreenLifecycle); shown again with
/// the row before the old task ended, the new task joins the old run.
@MainActor
@Suite struct FilteredRowNestedScreensHuntTests {
  let clock = TestClock()

  private typealias Screen = SubscribingRow
  typealias Place = NestedScreenPlace

  /// A harness of nesting rows, and the store of row 1's screen at `place` as the list
  /// showing the view scopes it now.
  private func makeHarness(_ warnings: WarningLog, _ place: Place) -> (
    Harness<NestingRows>, @MainActor () -> Store<Screen.State, Screen.Action>?
  ) {
    let harness = Harness(
      initialState: NestingRows.State(), warnings: warnings.handler,
      reducer: NestingRows(clock: clock))
    let screen: @MainActor () -> Store<Screen.State, Screen.Action>? = {
      let row = harness.store.scope(state: \.visibleRows, action: NestingRows.Action.rowsKey)[
        id: 1]
      switch place {
      case .stack:
        return row?.scope(state: \.path, action: NestingRow.Action.pathKey)[id: 0]
      case .items:
        return row?.scope(state: \.items, action: NestingRow.Action.itemsKey)[id: 7]
      case .itemsView:
        return row?.scope(state: \.visibleItems, action: NestingRow.Action.itemsKey)[id: 7]
      case .sheetsItems:
        return row?.scope(state: \.sheet, action: NestingRow.SheetKey.sheet)?
          .scope(state: \.items, action: NestingRow.SheetKey.whole)[id: 8]
      case .sheetsView:
        return row?.scope(state: \.sheet, action: NestingRow.SheetKey.sheet)?
          .scope(state: \.visibleItems, action: NestingRow.SheetKey.whole)[id: 8]
      }
    }
    return (harness, screen)
  }

  /// Row 1's screen at `place`, in `state`.
  private func screen(at place: Place, in state: NestingRows.State) -> Screen.State? {
    let row = state.rows[id: 1]
    switch place {
    case .stack: return row?.path[id: 0]
    case .items, .itemsView: return row?.items[id: 7]
    case .sheetsItems, .sheetsView: return row?.sheet?.items[id: 8]
    }
  }

  /// Row 1's screen's lifecycle actions `action` that the harness reduced.
  private func count(
    _ action: ScreenLifecycleAction, at place: Place, in harness: Harness<NestingRows>
  ) -> Int {
    let screenAction = Screen.Action.lifecycle(action)
    let rowAction: NestingRow.Action =
      switch place {
      case .stack: .path(.element(id: 0, action: screenAction))
      case .items, .itemsView: .items(.element(id: 7, action: screenAction))
      case .sheetsItems, .sheetsView: .sheet(.element(id: 8, action: screenAction))
      }
    return harness.processed.filter { $0.action == .rows(.element(id: 1, action: rowAction)) }
      .count
  }

  /// Runs a task of row 1's screen; while it runs, `changes` are sent, then a task of the
  /// screen's store as the list scopes it now starts (a new store), and the old task ends
  /// once `started` holds. Returns, once the old task's end was reduced, the new task and the
  /// end of its phases.
  private func runAnOldTaskStartingANewOne(
    _ harness: Harness<NestingRows>,
    _ screen: @escaping @MainActor () -> Store<Screen.State, Screen.Action>?,
    sending changes: [NestingRows.Action],
    until started: @escaping @MainActor @Sendable () -> Bool
  ) async -> (LaterTask, AsyncStream<ScreenLifecycleAction.ScenePhase>.Continuation) {
    let old = screen()
    let newTask = LaterTask()
    let (newPhases, newPhasesEnd) = AsyncStream.makeStream(
      of: ScreenLifecycleAction.ScenePhase.self)
    let oldPhases = scripted([
      {
        harness.settle()
        for change in changes { harness.send(change) }
        let new = screen()
        #expect(new != nil && new !== old, "the row's new store scopes a new one for the screen")
        newTask.task = Task {
          await new?.runScreen(
            lifecycle: Screen.Action.lifecycleKey, currentPhase: .active, scenePhases: newPhases)
        }
        var yields = 0
        while !started() {
          yields += 1
          guard yields <= 10_000 else {
            Issue.record("the new store's task never started (10,000 yields)")
            return nil
          }
          await Task.yield()
        }
        return nil
      }
    ])
    await old?.runScreen(
      lifecycle: Screen.Action.lifecycleKey, currentPhase: .active, scenePhases: oldPhases)
    harness.settle()
    return (newTask, newPhasesEnd)
  }

  /// The row leaves the view while its screen's task runs: the task's end reaches the screen,
  /// hidden with its row (it was dropped: its subscription ran on while the row was hidden,
  /// and the task that showed it again was refused as a second one, with a warning).
  @Test(arguments: Place.allCases)
  func aRowsScreenEndsItsTaskWhenTheRowLeavesTheView(place: Place) async {
    let warnings = WarningLog()
    let (harness, screen) = makeHarness(warnings, place)
    let isRunning = { self.screen(at: place, in: harness.state)?.lifecycle.isTaskRunning }
    let phases = scripted([
      {
        harness.settle()
        #expect(isRunning() == true)
        #expect(clock.sleeperCount == 1)
        harness.send(.hide(1))
        return nil
      }
    ])
    await screen()?.runScreen(
      lifecycle: Screen.Action.lifecycleKey, currentPhase: .active, scenePhases: phases)
    harness.settle()
    #expect(isRunning() == false)
    #expect(clock.sleeperCount == 0, "the hidden row's screen's subscription ended")
    #expect(count(.taskEnded, at: place, in: harness) == 1)
    #expect(warnings.messages.isEmpty, "\(warnings.messages)")

    harness.send(.show(1))
    let shownAgain = scripted([
      {
        harness.settle()
        #expect(isRunning() == true)
        return nil
      }
    ])
    await screen()?.runScreen(
      lifecycle: Screen.Action.lifecycleKey, currentPhase: .active, scenePhases: shownAgain)
    harness.settle()
    #expect(isRunning() == false)
    #expect(count(.taskStarted, at: place, in: harness) == 2)
    #expect(warnings.messages.isEmpty, "\(warnings.messages)")
  }

  /// The screen shown again with its row before the old screen store's task ends: the new
  /// store's task joins the old run, and the last task's end ends it.
  @Test(.timeLimit(.minutes(30)), arguments: Place.allCases)
  func aRowsScreenShownAgainBeforeItsOldTaskEndsKeepsOneRun(place: Place) async {
    let warnings = WarningLog()
    let (harness, screen) = makeHarness(warnings, place)
    let isRunning = { self.screen(at: place, in: harness.state)?.lifecycle.isTaskRunning }
    let (newTask, newPhasesEnd) = await runAnOldTaskStartingANewOne(
      harness, screen, sending: [.hide(1), .show(1)],
      until: { count(.scenePhaseChanged(.active), at: place, in: harness) >= 2 })
    #expect(warnings.messages.isEmpty, "\(warnings.messages)")
    #expect(isRunning() == true)
    #expect(clock.sleeperCount == 1, "the screen's subscription runs on")
    #expect(count(.taskEnded, at: place, in: harness) == 0)

    newPhasesEnd.finish()
    await newTask.task?.value
    harness.settle()
    #expect(isRunning() == false)
    #expect(clock.sleeperCount == 0, "the new task's end ended the screen's subscription")
    #expect(count(.taskStarted, at: place, in: harness) == 1, "one run, started once")
    #expect(count(.taskEnded, at: place, in: harness) == 1)
    #expect(warnings.messages.isEmpty, "\(warnings.messages)")
  }

  /// A screen popped, or an item removed, before its row left the view gets nothing when its
  /// task ends after the row left it: its removal ended its hooks' work (ScreenLifecycle). A
  /// popped screen is sent nothing; an item's end is sent, as the row's store (built with the
  /// view) cannot tell its removal from a filter's, and reaches no item, quietly.
  @Test(arguments: Place.allCases)
  func aScreenRemovedBeforeItsRowLeftTheViewGetsNothing(place: Place) async {
    let warnings = WarningLog()
    let (harness, screen) = makeHarness(warnings, place)
    let phases = scripted([
      {
        harness.settle()
        harness.send(.rows(.element(id: 1, action: .removeScreens)))
        harness.send(.hide(1))
        return nil
      }
    ])
    await screen()?.runScreen(
      lifecycle: Screen.Action.lifecycleKey, currentPhase: .active, scenePhases: phases)
    harness.settle()
    #expect(clock.sleeperCount == 0)
    #expect(self.screen(at: place, in: harness.state) == nil)
    #expect(count(.taskEnded, at: place, in: harness) == (place == .stack ? 0 : 1))
    #expect(warnings.messages.isEmpty, "\(warnings.messages)")
  }

  /// A stack replaced (its first screen's id taken by a new screen) while the row was out of
  /// the view: the old screen's task, ending once the row is back, ends nothing of the new
  /// screen's, whose task runs.
  @Test(.timeLimit(.minutes(30)))
  func aStackReplacedWhileTheRowWasOutOfTheViewIsNotEndedByTheOldTask() async {
    let warnings = WarningLog()
    let (harness, screen) = makeHarness(warnings, .stack)
    let isRunning = { self.screen(at: .stack, in: harness.state)?.lifecycle.isTaskRunning }
    let (newTask, newPhasesEnd) = await runAnOldTaskStartingANewOne(
      harness, screen,
      sending: [.hide(1), .rows(.element(id: 1, action: .replaceStack)), .show(1)],
      until: { count(.taskStarted, at: .stack, in: harness) >= 2 })
    #expect(isRunning() == true, "the new screen's run goes on")
    #expect(clock.sleeperCount == 1, "the new screen's subscription runs on")
    #expect(count(.taskEnded, at: .stack, in: harness) == 0)
    #expect(warnings.messages.isEmpty, "\(warnings.messages)")

    newPhasesEnd.finish()
    await newTask.task?.value
    harness.settle()
    #expect(isRunning() == false)
    #expect(clock.sleeperCount == 0)
    #expect(count(.taskEnded, at: .stack, in: harness) == 1)
    #expect(warnings.messages.isEmpty, "\(warnings.messages)")
  }
}
