import Effects
import Testing

@testable import Store

/// A row of a filtered view that leaves it and comes back before the task of its old store
/// has ended (SwiftUI cancels that task when the row goes, and the task sees it later): the
/// view hands out a new store for the row, and both stores' tasks drive the row's one
/// lifecycle. They are one run, as overlapping tasks of one store are.
@MainActor
@Suite struct FilteredRowReshownHuntTests {
  let clock = TestClock()

  private typealias Feature = FilteredRows<SubscribingRow>
  private typealias Row = SubscribingRow
  private typealias PresentingRows = FilteredRows<DetailRow>

  private func makeHarness(_ warnings: WarningLog) -> Harness<Feature> {
    Harness(filteredRowsOn: clock, warnings: warnings)
  }

  /// Row 1's store, as the list showing the view scopes it now.
  private func row(of harness: Harness<Feature>) -> Store<Row.State, Row.Action>? {
    harness.shownRow()
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
    await harness.runTask(of: row(of: harness), Row.Action.lifecycleKey) {
      for change in changes { harness.send(change) }
      await harness.runTask(of: row(of: harness), Row.Action.lifecycleKey) { whileNewRuns() }
      afterNewEnds()
    }
  }

  private func count(_ action: ScreenLifecycleAction, in harness: Harness<Feature>) -> Int {
    harness.count(.lifecycle(action))
  }

  /// The new store's task starts, then the old one ends: the new start joins the run the old
  /// one started (it was refused as a second task, with a warning), and the old end leaves it
  /// running; the new task's end ends it.
  @Test(.timeLimit(.minutes(30)))
  func aRowShownAgainBeforeItsOldTaskEndsKeepsOneRun() async {
    let warnings = WarningLog()
    let harness = makeHarness(warnings)
    let (newTask, newPhasesEnd) = await harness.runAnOldTaskStartingANewOne(
      { row(of: harness) }, Row.Action.lifecycleKey, sending: [.hide(1), .show(1)],
      expectingANewStore: "the view hands out a new store for the row",
      until: { count(.scenePhaseChanged(.active), in: harness) >= 2 },
      neverStarted: "the new store's scenePhaseChanged(.active) never came (10,000 yields)")
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
    await harness.runTask(of: old, Row.Action.lifecycleKey) {
      harness.send(.hide(1))
      harness.send(.show(1))
      #expect(row(of: harness) !== old)
    }
    #expect(harness.state.rows[id: 1]?.lifecycle.isTaskRunning == false)
    #expect(clock.sleeperCount == 0, "the old task's end ended the row's subscription")
    #expect(harness.processed.last?.action == .rows(.element(id: 1, action: .lifecycle(.teardown))))
    #expect(warnings.messages.isEmpty, "\(warnings.messages)")

    await harness.runTask(of: row(of: harness), Row.Action.lifecycleKey) {
      #expect(harness.state.rows[id: 1]?.lifecycle.isTaskRunning == true)
      #expect(clock.sleeperCount == 1)
    }
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
    await harness.runTask(of: old, Row.Action.lifecycleKey) {
      harness.send(.hide(1))
      harness.send(.show(1))
      #expect(row() !== old)
      await harness.runTask(of: row(), Row.Action.lifecycleKey) {
        #expect(harness.state.rows[id: 1]?.lifecycle.isTaskRunning == true)
      }
      #expect(harness.state.rows[id: 1]?.lifecycle.isTaskRunning == true)
    }
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
    let harness = Harness<PresentingRows>(filteredRowsOn: clock, warnings: warnings)
    let detail = {
      harness.shownRow()?.scope(state: \.detail, action: DetailRow.Action.detailKey)
    }
    let isRunning = { harness.state.rows[id: 1]?.detail?.lifecycle.isTaskRunning }
    await harness.runTask(of: detail(), Row.Action.lifecycleKey) {
      #expect(isRunning() == true)
      #expect(clock.sleeperCount == 1)
      harness.send(.hide(1))
    }
    #expect(isRunning() == false)
    #expect(clock.sleeperCount == 0, "the hidden row's screen's subscription ended")
    #expect(warnings.messages.isEmpty, "\(warnings.messages)")

    harness.send(.show(1))
    await harness.runTask(of: detail(), Row.Action.lifecycleKey) {
      #expect(isRunning() == true)
    }
    #expect(isRunning() == false)
    #expect(warnings.messages.isEmpty, "\(warnings.messages)")
  }

  /// A screen closed while its row was in the view is sent nothing when its task ends after
  /// the row left the view, as a closed screen is not (ScreenLifecycle): its closing ended
  /// its hooks' work.
  @Test func aScreenClosedBeforeItsRowLeftTheViewIsSentNothing() async {
    let warnings = WarningLog()
    let harness = Harness<PresentingRows>(filteredRowsOn: clock, warnings: warnings)
    let detail = harness.shownRow()?.scope(state: \.detail, action: DetailRow.Action.detailKey)
    await harness.runTask(of: detail, Row.Action.lifecycleKey) {
      harness.send(.rows(.element(id: 1, action: .closeDetail)))
      harness.send(.hide(1))
    }
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
    Harness<PresentingRows>, @MainActor () -> Store<Row.State, Row.Action>?
  ) {
    let harness = Harness<PresentingRows>(filteredRowsOn: clock, warnings: warnings)
    let detail: @MainActor () -> Store<Row.State, Row.Action>? = {
      let row = harness.shownRow()
      let part = throughAPart ? row?.scope(state: \.self, action: DetailRow.Action.wholeKey) : row
      return part?.scope(state: \.detail, action: DetailRow.Action.detailKey)
    }
    return (harness, detail)
  }

  private func countDetail(
    _ action: ScreenLifecycleAction, in harness: Harness<PresentingRows>
  ) -> Int {
    harness.count(.detail(.lifecycle(action)))
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
    let (newTask, newPhasesEnd) = await harness.runAnOldTaskStartingANewOne(
      detail, Row.Action.lifecycleKey, sending: [.hide(1), .show(1)],
      until: { countDetail(.scenePhaseChanged(.active), in: harness) >= 2 })
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
    let (newTask, newPhasesEnd) = await harness.runAnOldTaskStartingANewOne(
      detail, Row.Action.lifecycleKey,
      sending: [.hide(1), .rows(.element(id: 1, action: .replaceDetail(2))), .show(1)],
      expectingANewStore: nil, until: { countDetail(.taskStarted, in: harness) >= 2 })
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
    await harness.runTask(of: detail(), Row.Action.lifecycleKey) {
      harness.send(.hide(1))
      harness.send(.rows(.element(id: 1, action: .replaceDetail(2))))
    }
    #expect(countDetail(.taskEnded, in: harness) == 1)
    #expect(warnings.messages.count == 1)
    #expect(warnings.messages.first?.contains("says no task was running") == true)
  }
}
