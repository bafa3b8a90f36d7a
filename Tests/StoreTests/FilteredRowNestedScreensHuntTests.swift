import Effects
import Testing

@testable import Store

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

/// The screens a row of a filtered view shows beyond one it presents: a stack's screen and an
/// item of the row's own list (or of a filtered view of it), their stores scoped from the
/// row's store, and an item of a sheet's own list (or of the sheet's filtered view). When the row leaves the view, the end of their tasks goes on
/// through the row's store, as a presented screen's does (ScreenLifecycle); shown again with
/// the row before the old task ended, the new task joins the old run.
@MainActor
@Suite struct FilteredRowNestedScreensHuntTests {
  let clock = TestClock()

  private typealias Screen = SubscribingRow
  private typealias NestingRows = FilteredRows<NestingRow>
  typealias Place = NestedScreenPlace

  /// A harness of nesting rows, and the store of row 1's screen at `place` as the list
  /// showing the view scopes it now.
  private func makeHarness(_ warnings: WarningLog, _ place: Place) -> (
    Harness<NestingRows>, @MainActor () -> Store<Screen.State, Screen.Action>?
  ) {
    let harness = Harness<NestingRows>(filteredRowsOn: clock, warnings: warnings)
    let screen: @MainActor () -> Store<Screen.State, Screen.Action>? = {
      let row = harness.shownRow()
      switch place {
      case .stack:
        return row?.scope(state: \.path, action: NestingRow.Action.pathKey)[id: 0]
      case .items:
        return row?.scope(state: \.items, action: NestingRow.Action.itemsKey)[id: 7]
      case .itemsView:
        return row?.scope(state: \.visibleItems, action: NestingRow.Action.itemsKey)[id: 7]
      case .sheetsItems:
        return row?.scope(state: \.sheet, action: NestingRow.Action.sheetKey)?
          .scope(state: \.items, action: ItemsSheet<Screen>.itemsKey)[id: 8]
      case .sheetsView:
        return row?.scope(state: \.sheet, action: NestingRow.Action.sheetKey)?
          .scope(state: \.visibleItems, action: ItemsSheet<Screen>.itemsKey)[id: 8]
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
    return harness.count(rowAction)
  }

  /// The row leaves the view while its screen's task runs: the task's end reaches the screen,
  /// hidden with its row (it was dropped: its subscription ran on while the row was hidden,
  /// and the task that showed it again was refused as a second one, with a warning).
  @Test(arguments: Place.allCases)
  func aRowsScreenEndsItsTaskWhenTheRowLeavesTheView(place: Place) async {
    let warnings = WarningLog()
    let (harness, screen) = makeHarness(warnings, place)
    let isRunning = { self.screen(at: place, in: harness.state)?.lifecycle.isTaskRunning }
    await harness.runTask(of: screen(), Screen.Action.lifecycleKey) {
      #expect(isRunning() == true)
      #expect(clock.sleeperCount == 1)
      harness.send(.hide(1))
    }
    #expect(isRunning() == false)
    #expect(clock.sleeperCount == 0, "the hidden row's screen's subscription ended")
    #expect(count(.taskEnded, at: place, in: harness) == 1)
    #expect(warnings.messages.isEmpty, "\(warnings.messages)")

    harness.send(.show(1))
    await harness.runTask(of: screen(), Screen.Action.lifecycleKey) {
      #expect(isRunning() == true)
    }
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
    let (newTask, newPhasesEnd) = await harness.runAnOldTaskStartingANewOne(
      screen, Screen.Action.lifecycleKey, sending: [.hide(1), .show(1)],
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
    await harness.runTask(of: screen(), Screen.Action.lifecycleKey) {
      harness.send(.rows(.element(id: 1, action: .removeScreens)))
      harness.send(.hide(1))
    }
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
    let (newTask, newPhasesEnd) = await harness.runAnOldTaskStartingANewOne(
      screen, Screen.Action.lifecycleKey,
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
