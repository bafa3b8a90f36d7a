import Effects
import Testing

@testable import Store

/// Rows that subscribe while their screen's task runs, shown through a filtered view that a
/// row can leave and come back to.
private struct ToggledRows: Reducer {
  typealias Row = SubscribingRow

  struct State: Equatable {
    var rows: IdentifiedArrayOf<Row.State> = [Row.State(id: 1), Row.State(id: 2)]
    var visibleRows: IdentifiedArrayOf<Row.State> { rows.filter(\.isShown) }
    /// A child state built from the view: a view of a view.
    var panel: Panel { Panel(rows: visibleRows) }
  }
  struct Panel: Equatable {
    var rows: IdentifiedArrayOf<Row.State>
  }
  enum Action: Sendable, Equatable {
    case rows(IdentifiedAction<Int, Row.Action>)
    case hide(Int)
    case show(Int)
    case delete(Int)
    case addShown(Int)

    /// The panel's actions are the list's own.
    static var wholeKey: CaseKey<Self, Self> { CaseKey({ $0 }) { $0 } }

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
      case .delete(let id): state.rows.remove(id: id)
      case .addShown(let id): state.rows.append(Row.State(id: id))
      case .rows: break
      }
      return .none
    }
    .forEach(\.rows, action: Action.rowsKey) { Row(clock: clock) }
  }
}

/// A row of a filtered view that presents a screen of its own, whose task subscribes while it
/// runs.
private struct PresentingRow: Reducer {
  typealias Detail = SubscribingRow

  struct State: Equatable, Identifiable {
    let id: Int
    var isShown = true
    var detail: Detail.State? = Detail.State(id: 0)
  }
  enum Action: Sendable, Equatable {
    case detail(Detail.Action)
    case closeDetail
    case replaceDetail(Int)

    /// The row's actions, for a store of the whole row scoped as a part of it.
    static var wholeKey: CaseKey<Self, Self> { CaseKey({ $0 }) { $0 } }

    static var detailKey: CaseKey<Self, Detail.Action> {
      CaseKey(Self.detail) { if case .detail(let action) = $0 { action } else { nil } }
    }
  }
  let clock: TestClock

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .closeDetail: state.detail = nil
      case .replaceDetail(let id): state.detail = Detail.State(id: id)
      case .detail: break
      }
      return .none
    }
    .ifLet(\.detail, action: Action.detailKey) { Detail(clock: clock) }
  }
}

/// Presenting rows shown through a filtered view.
private struct PresentingRows: Reducer {
  typealias Row = PresentingRow

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

/// The task of a row's new store, started while the old store's task still runs.
@MainActor
private final class NewTask {
  var task: Task<Void, Never>?
}

/// A row of a filtered view that leaves it and comes back before the task of its old store
/// has ended (SwiftUI cancels that task when the row goes, and the task sees it later): the
/// view hands out a new store for the row, and both stores' tasks drive the row's one
/// lifecycle. They are one run, as overlapping tasks of one store are.
@MainActor
@Suite struct FilteredRowReshownHuntTests {
  let clock = TestClock()

  private typealias Feature = ToggledRows
  private typealias Row = SubscribingRow

  private func makeHarness(_ warnings: WarningLog) -> Harness<Feature> {
    Harness(
      initialState: Feature.State(), warnings: warnings.handler, reducer: Feature(clock: clock))
  }

  /// Row 1's store, as the list showing the view scopes it now.
  private func row(of harness: Harness<Feature>) -> Store<Row.State, Row.Action>? {
    harness.store.scope(state: \.visibleRows, action: Feature.Action.rowsKey)[id: 1]
  }

  /// Runs a task of row 1's store, during which `changes` are sent, then a task of the store
  /// the view hands out for row 1 runs to its end: `whileNewRuns` checks the harness while the
  /// new task runs, `afterNewEnds` once it ended (the old task still running). Returns once
  /// the old task's end was reduced.
  private func runANewTaskWithinTheOld(
    _ harness: Harness<Feature>, sending changes: [Feature.Action],
    whileNewRuns: @escaping @MainActor @Sendable () -> Void,
    afterNewEnds: @escaping @MainActor @Sendable () -> Void
  ) async {
    let old = row(of: harness)
    let oldPhases = scripted([
      {
        harness.settle()
        for change in changes { harness.send(change) }
        let newPhases = scripted([
          {
            harness.settle()
            whileNewRuns()
            return nil
          }
        ])
        await row(of: harness)?.runScreen(
          lifecycle: Row.Action.lifecycleKey, currentPhase: .active, scenePhases: newPhases)
        harness.settle()
        afterNewEnds()
        return nil
      }
    ])
    await old?.runScreen(
      lifecycle: Row.Action.lifecycleKey, currentPhase: .active, scenePhases: oldPhases)
    harness.settle()
  }

  private func count(_ action: ScreenLifecycleAction, in harness: Harness<Feature>) -> Int {
    harness.processed.filter { $0.action == .rows(.element(id: 1, action: .lifecycle(action))) }
      .count
  }

  /// The new store's task starts, then the old one ends: the new start joins the run the old
  /// one started (it was refused as a second task, with a warning), and the old end leaves it
  /// running; the new task's end ends it.
  @Test(.timeLimit(.minutes(30)))
  func aRowShownAgainBeforeItsOldTaskEndsKeepsOneRun() async {
    let warnings = WarningLog()
    let harness = makeHarness(warnings)
    let old = row(of: harness)
    let newTask = NewTask()
    let (newPhases, newPhasesEnd) = AsyncStream.makeStream(
      of: ScreenLifecycleAction.ScenePhase.self)
    let oldPhases = scripted([
      {
        harness.settle()
        harness.send(.hide(1))
        harness.send(.show(1))
        let new = row(of: harness)
        #expect(new != nil && new !== old, "the view hands out a new store for the row")
        newTask.task = Task {
          await new?.runScreen(
            lifecycle: Row.Action.lifecycleKey, currentPhase: .active, scenePhases: newPhases)
        }
        var yields = 0
        while count(.scenePhaseChanged(.active), in: harness) < 2 {
          yields += 1
          guard yields <= 10_000 else {
            Issue.record("the new store's scenePhaseChanged(.active) never came (10,000 yields)")
            return nil
          }
          await Task.yield()
        }
        return nil
      }
    ])
    await old?.runScreen(
      lifecycle: Row.Action.lifecycleKey, currentPhase: .active, scenePhases: oldPhases)
    harness.settle()
    #expect(warnings.messages.isEmpty, "\(warnings.messages)")
    #expect(harness.state.rows[id: 1]?.lifecycle.isTaskRunning == true)
    #expect(clock.sleeperCount == 1, "the row's subscription runs on")
    #expect(count(.taskEnded, in: harness) == 0)

    newPhasesEnd.finish()
    await newTask.task?.value
    harness.settle()
    #expect(harness.state.rows[id: 1]?.lifecycle.isTaskRunning == false)
    #expect(clock.sleeperCount == 0, "the new task's end ended the row's subscription")
    #expect(count(.taskStarted, in: harness) == 1, "one run, started once")
    #expect(harness.processed.last?.action == .rows(.element(id: 1, action: .lifecycle(.teardown))))
    #expect(warnings.messages.isEmpty, "\(warnings.messages)")
  }

  /// The new store's task starts and ends while the old one runs: the row's run goes on
  /// until the old task ends it, though the row is in the view with another store.
  @Test func aRowShownAgainIsEndedByTheLastOfItsStoresTasks() async {
    let warnings = WarningLog()
    let harness = makeHarness(warnings)
    await runANewTaskWithinTheOld(
      harness, sending: [.hide(1), .show(1)],
      whileNewRuns: { #expect(harness.state.rows[id: 1]?.lifecycle.isTaskRunning == true) },
      afterNewEnds: {
        #expect(
          harness.state.rows[id: 1]?.lifecycle.isTaskRunning == true,
          "the old task still runs the row")
        #expect(clock.sleeperCount == 1)
      })
    #expect(harness.state.rows[id: 1]?.lifecycle.isTaskRunning == false)
    #expect(clock.sleeperCount == 0, "the old task's end ended the row's subscription")
    #expect(count(.taskStarted, in: harness) == 1)
    #expect(count(.taskEnded, in: harness) == 1)
    #expect(warnings.messages.isEmpty, "\(warnings.messages)")
  }

  /// The old store's task ends once the row is back in the view, before any new task
  /// started: its end still reaches the row (it was dropped, and the row's subscription ran
  /// on with no task, until a new task's start was refused as a second one). The next task
  /// starts the row again.
  @Test func aRowShownAgainIsEndedByItsOldTaskWhenNoOtherRuns() async {
    let warnings = WarningLog()
    let harness = makeHarness(warnings)
    let old = row(of: harness)
    let oldPhases = scripted([
      {
        harness.settle()
        harness.send(.hide(1))
        harness.send(.show(1))
        #expect(row(of: harness) !== old)
        return nil
      }
    ])
    await old?.runScreen(
      lifecycle: Row.Action.lifecycleKey, currentPhase: .active, scenePhases: oldPhases)
    harness.settle()
    #expect(harness.state.rows[id: 1]?.lifecycle.isTaskRunning == false)
    #expect(clock.sleeperCount == 0, "the old task's end ended the row's subscription")
    #expect(harness.processed.last?.action == .rows(.element(id: 1, action: .lifecycle(.teardown))))
    #expect(warnings.messages.isEmpty, "\(warnings.messages)")

    let newPhases = scripted([
      {
        harness.settle()
        #expect(harness.state.rows[id: 1]?.lifecycle.isTaskRunning == true)
        #expect(clock.sleeperCount == 1)
        return nil
      }
    ])
    await row(of: harness)?.runScreen(
      lifecycle: Row.Action.lifecycleKey, currentPhase: .active, scenePhases: newPhases)
    harness.settle()
    #expect(count(.taskStarted, in: harness) == 2)
    #expect(harness.state.rows[id: 1]?.lifecycle.isTaskRunning == false)
    #expect(warnings.messages.isEmpty, "\(warnings.messages)")
  }

  /// Documented edge (ScreenLifecycle): a row removed, then added back with its id and shown,
  /// while the old row's task runs, is taken for the old row (the view cannot tell a removed
  /// row from a hidden one): a task started for it joins the old run, and does not start
  /// it; the last task's end warns that no task was running.
  @Test func aRowAddedBackWithItsIDWhileTheOldTaskRunsIsTakenForTheOldRow() async {
    let warnings = WarningLog()
    let harness = makeHarness(warnings)
    await runANewTaskWithinTheOld(
      harness, sending: [.delete(1), .addShown(1)],
      whileNewRuns: { #expect(harness.state.rows[id: 1]?.lifecycle.isTaskRunning == false) },
      afterNewEnds: { #expect(warnings.messages.isEmpty, "\(warnings.messages)") })
    #expect(count(.taskStarted, in: harness) == 1, "the old row's start alone")
    #expect(
      harness.processed.last?.action == .rows(.element(id: 1, action: .lifecycle(.taskEnded))))
    #expect(warnings.messages.count == 1)
    #expect(warnings.messages.first?.contains("says no task was running") == true)
  }

  /// A view of a view: the rows of a child state that a computed property builds from the
  /// filtered rows (`\.panel`, then its `rows`). A row shown again before its old task ends
  /// joins its run there too, with no warning, and the last task's end ends it.
  @Test func aRowOfAComputedChildsViewShownAgainKeepsOneRun() async {
    let warnings = WarningLog()
    let harness = makeHarness(warnings)
    let row = {
      harness.store.scope(state: \.panel, action: Feature.Action.wholeKey)
        .scope(state: \.rows, action: Feature.Action.rowsKey)[id: 1]
    }
    let old = row()
    let oldPhases = scripted([
      {
        harness.settle()
        harness.send(.hide(1))
        harness.send(.show(1))
        let newPhases = scripted([
          {
            harness.settle()
            #expect(harness.state.rows[id: 1]?.lifecycle.isTaskRunning == true)
            return nil
          }
        ])
        #expect(row() !== old)
        await row()?.runScreen(
          lifecycle: Row.Action.lifecycleKey, currentPhase: .active, scenePhases: newPhases)
        harness.settle()
        #expect(harness.state.rows[id: 1]?.lifecycle.isTaskRunning == true)
        return nil
      }
    ])
    await old?.runScreen(
      lifecycle: Row.Action.lifecycleKey, currentPhase: .active, scenePhases: oldPhases)
    harness.settle()
    #expect(harness.state.rows[id: 1]?.lifecycle.isTaskRunning == false)
    #expect(clock.sleeperCount == 0)
    #expect(count(.taskStarted, in: harness) == 1)
    #expect(warnings.messages.isEmpty, "\(warnings.messages)")
  }

  /// The screen a row presents, its store scoped from the row's store: when the row leaves
  /// the view, the end of the screen's task goes on through the row's store, as the row's own
  /// does (it was dropped: the screen's subscription ran on while the row was hidden, and the
  /// task that showed it again was refused as a second one, with a warning).
  @Test func aScreenScopedFromARowThatLeavesTheViewEndsItsTask() async {
    let warnings = WarningLog()
    let harness = Harness(
      initialState: PresentingRows.State(), warnings: warnings.handler,
      reducer: PresentingRows(clock: clock))
    let detail = {
      harness.store.scope(state: \.visibleRows, action: PresentingRows.Action.rowsKey)[id: 1]?
        .scope(state: \.detail, action: PresentingRow.Action.detailKey)
    }
    let isRunning = { harness.state.rows[id: 1]?.detail?.lifecycle.isTaskRunning }
    let phases = scripted([
      {
        harness.settle()
        #expect(isRunning() == true)
        #expect(clock.sleeperCount == 1)
        harness.send(.hide(1))
        return nil
      }
    ])
    await detail()?.runScreen(
      lifecycle: Row.Action.lifecycleKey, currentPhase: .active, scenePhases: phases)
    harness.settle()
    #expect(isRunning() == false)
    #expect(clock.sleeperCount == 0, "the hidden row's screen's subscription ended")
    #expect(warnings.messages.isEmpty, "\(warnings.messages)")

    harness.send(.show(1))
    let shownAgain = scripted([
      {
        harness.settle()
        #expect(isRunning() == true)
        return nil
      }
    ])
    await detail()?.runScreen(
      lifecycle: Row.Action.lifecycleKey, currentPhase: .active, scenePhases: shownAgain)
    harness.settle()
    #expect(isRunning() == false)
    #expect(warnings.messages.isEmpty, "\(warnings.messages)")
  }

  /// A screen closed while its row was in the view is sent nothing when its task ends after
  /// the row left the view, as a closed screen is not (ScreenLifecycle): its closing ended
  /// its hooks' work.
  @Test func aScreenClosedBeforeItsRowLeftTheViewIsSentNothing() async {
    let warnings = WarningLog()
    let harness = Harness(
      initialState: PresentingRows.State(), warnings: warnings.handler,
      reducer: PresentingRows(clock: clock))
    let row = harness.store.scope(state: \.visibleRows, action: PresentingRows.Action.rowsKey)[
      id: 1]
    let detail = row?.scope(state: \.detail, action: PresentingRow.Action.detailKey)
    let phases = scripted([
      {
        harness.settle()
        harness.send(.rows(.element(id: 1, action: .closeDetail)))
        harness.send(.hide(1))
        return nil
      }
    ])
    await detail?.runScreen(
      lifecycle: Row.Action.lifecycleKey, currentPhase: .active, scenePhases: phases)
    harness.settle()
    #expect(clock.sleeperCount == 0)
    #expect(
      !harness.processed.contains {
        $0.action == .rows(.element(id: 1, action: .detail(.lifecycle(.taskEnded))))
      })
    #expect(warnings.messages.isEmpty, "\(warnings.messages)")
  }

  /// A harness of presenting rows, and the store of row 1's screen as the list showing the
  /// view scopes it now: from the row's store, or from a part of it (the whole row).
  private func makePresentingHarness(_ warnings: WarningLog, throughAPart: Bool = false) -> (
    Harness<PresentingRows>, () -> Store<Row.State, Row.Action>?
  ) {
    let harness = Harness(
      initialState: PresentingRows.State(), warnings: warnings.handler,
      reducer: PresentingRows(clock: clock))
    let detail = {
      let row = harness.store.scope(state: \.visibleRows, action: PresentingRows.Action.rowsKey)[
        id: 1]
      let part =
        throughAPart ? row?.scope(state: \.self, action: PresentingRow.Action.wholeKey) : row
      return part?.scope(state: \.detail, action: PresentingRow.Action.detailKey)
    }
    return (harness, detail)
  }

  private func countDetail(
    _ action: ScreenLifecycleAction, in harness: Harness<PresentingRows>
  ) -> Int {
    harness.processed.filter {
      $0.action == .rows(.element(id: 1, action: .detail(.lifecycle(action))))
    }.count
  }

  /// The screen a row presents, shown again with its row before the old screen store's task
  /// ends: the new screen store's task joins the old run, as the row's own does (it was
  /// refused as a second task, with a warning, and the old end, passed on through the old
  /// row's store, ended the run the new task showed). Scoped from a part of the row too.
  @Test(.timeLimit(.minutes(30)), arguments: [false, true])
  func aRowsScreenShownAgainBeforeItsOldTaskEndsKeepsOneRun(throughAPart: Bool) async {
    let warnings = WarningLog()
    let (harness, detail) = makePresentingHarness(warnings, throughAPart: throughAPart)
    let isRunning = { harness.state.rows[id: 1]?.detail?.lifecycle.isTaskRunning }
    let old = detail()
    let newTask = NewTask()
    let (newPhases, newPhasesEnd) = AsyncStream.makeStream(
      of: ScreenLifecycleAction.ScenePhase.self)
    let oldPhases = scripted([
      {
        harness.settle()
        harness.send(.hide(1))
        harness.send(.show(1))
        let new = detail()
        #expect(new != nil && new !== old, "the row's new store scopes a new one for the screen")
        newTask.task = Task {
          await new?.runScreen(
            lifecycle: Row.Action.lifecycleKey, currentPhase: .active, scenePhases: newPhases)
        }
        while countDetail(.scenePhaseChanged(.active), in: harness) < 2 { await Task.yield() }
        return nil
      }
    ])
    await old?.runScreen(
      lifecycle: Row.Action.lifecycleKey, currentPhase: .active, scenePhases: oldPhases)
    harness.settle()
    #expect(warnings.messages.isEmpty, "\(warnings.messages)")
    #expect(isRunning() == true)
    #expect(clock.sleeperCount == 1, "the screen's subscription runs on")
    #expect(countDetail(.taskEnded, in: harness) == 0)

    newPhasesEnd.finish()
    await newTask.task?.value
    harness.settle()
    #expect(isRunning() == false)
    #expect(clock.sleeperCount == 0, "the new task's end ended the screen's subscription")
    #expect(countDetail(.taskStarted, in: harness) == 1, "one run, started once")
    #expect(countDetail(.taskEnded, in: harness) == 1)
    #expect(warnings.messages.isEmpty, "\(warnings.messages)")
  }

  /// The screen a row presents, replaced by one with another id while the row was out of the
  /// view: the old screen's task, ending once the row is back, ends nothing of the new
  /// screen's, whose task runs (its end went on to the new screen, and ended that run).
  @Test(.timeLimit(.minutes(30)))
  func aRowsScreenReplacedWhileTheRowWasOutOfTheViewIsNotEndedByTheOldTask() async {
    let warnings = WarningLog()
    let (harness, detail) = makePresentingHarness(warnings)
    let isRunning = { harness.state.rows[id: 1]?.detail?.lifecycle.isTaskRunning }
    let old = detail()
    let newTask = NewTask()
    let (newPhases, newPhasesEnd) = AsyncStream.makeStream(
      of: ScreenLifecycleAction.ScenePhase.self)
    let oldPhases = scripted([
      {
        harness.settle()
        harness.send(.hide(1))
        harness.send(.rows(.element(id: 1, action: .replaceDetail(2))))
        harness.send(.show(1))
        let new = detail()
        newTask.task = Task {
          await new?.runScreen(
            lifecycle: Row.Action.lifecycleKey, currentPhase: .active, scenePhases: newPhases)
        }
        while countDetail(.taskStarted, in: harness) < 2 { await Task.yield() }
        return nil
      }
    ])
    await old?.runScreen(
      lifecycle: Row.Action.lifecycleKey, currentPhase: .active, scenePhases: oldPhases)
    harness.settle()
    #expect(harness.state.rows[id: 1]?.detail?.id == 2)
    #expect(isRunning() == true, "the new screen's run goes on")
    #expect(clock.sleeperCount == 1, "the new screen's subscription runs on")
    #expect(countDetail(.taskEnded, in: harness) == 0)
    #expect(warnings.messages.isEmpty, "\(warnings.messages)")

    newPhasesEnd.finish()
    await newTask.task?.value
    harness.settle()
    #expect(isRunning() == false)
    #expect(clock.sleeperCount == 0)
    #expect(countDetail(.taskEnded, in: harness) == 1)
    #expect(warnings.messages.isEmpty, "\(warnings.messages)")
  }

  /// Documented edge (ScreenLifecycle): the screen a row presents, replaced by one with
  /// another id while the row is out of the view, whose old task ends before the row is back:
  /// the view cannot read the hidden row, so the end goes on, and reaches the new screen, with
  /// the warning that no task was running.
  @Test func aRowsScreenReplacedWhileTheRowIsOutOfTheViewGetsTheOldEndThere() async {
    let warnings = WarningLog()
    let (harness, detail) = makePresentingHarness(warnings)
    let phases = scripted([
      {
        harness.settle()
        harness.send(.hide(1))
        harness.send(.rows(.element(id: 1, action: .replaceDetail(2))))
        return nil
      }
    ])
    await detail()?.runScreen(
      lifecycle: Row.Action.lifecycleKey, currentPhase: .active, scenePhases: phases)
    harness.settle()
    #expect(countDetail(.taskEnded, in: harness) == 1)
    #expect(warnings.messages.count == 1)
    #expect(warnings.messages.first?.contains("says no task was running") == true)
  }
}
