import Effects
import Testing

@testable import Store

/// A list of rows that subscribe to a ticking stream while their screen's task runs, shown
/// through a filtered view: the rows whose `isShown` is set.
private typealias FlaggedTickers = FilteredRows<SubscribingRow>

/// The filtered list in a sheet, which can be presented anew with another id.
private struct SheetOfTickers: Reducer {
  struct State: Equatable { var sheet: FlaggedTickers.State? = FlaggedTickers.State(id: 1) }
  enum Action: Sendable, Equatable {
    case sheet(FlaggedTickers.Action)
    case present(Int)

    static var sheetKey: CaseKey<Self, FlaggedTickers.Action> {
      CaseKey(Self.sheet) { if case .sheet(let action) = $0 { action } else { nil } }
    }
  }
  let clock: TestClock

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      if case .present(let id) = action { state.sheet = FlaggedTickers.State(id: id) }
      return .none
    }
    .ifLet(\.sheet, action: Action.sheetKey) { FlaggedTickers(clock: clock) }
  }
}

/// The screen lifecycle of a row whose store is scoped from a filtered view of the rows
/// (`\.visibleRows`), as a list showing that view scopes it, when the row leaves the view.
@MainActor
@Suite struct FilteredRowLifecycleHuntTests {
  let clock = TestClock()

  private typealias Feature = FlaggedTickers
  private typealias Row = SubscribingRow

  /// Runs row 1's screen from its store in `rows` (the view's, or the stored collection's),
  /// ticks once, then sends `leave` while the task runs; the task ends after it, as SwiftUI
  /// cancels a row's task once the row is gone from the list.
  private func runRow(
    of harness: Harness<Feature>,
    in rows: KeyPath<Feature.State, IdentifiedArrayOf<Row.State>>,
    leavingWith leave: Feature.Action
  ) async {
    let row = harness.store.scope(state: rows, action: Feature.Action.rowsKey)[id: 1]
    #expect(row != nil)
    await harness.runTask(of: row, Row.Action.lifecycleKey) {
      await clock.advance(by: .seconds(1))
      harness.settle()
      harness.send(leave)
    }
  }

  /// A row hidden by the filter, still in `rows`: its task's end reaches it, its subscription
  /// ends, and the task that shows it again starts it again; no warning.
  @Test func aRowThatLeavesTheFilterEndsItsTask() async {
    let warnings = WarningLog()
    let harness = Harness<Feature>(filteredRowsOn: clock, warnings: warnings)
    await runRow(of: harness, in: \.visibleRows, leavingWith: .hide(1))
    #expect(harness.state.rows[id: 1]?.ticks == 1)
    #expect(harness.state.rows[id: 1]?.lifecycle.isTaskRunning == false)
    #expect(clock.sleeperCount == 0, "the hidden row's subscription ended with its task")
    #expect(harness.processed.last?.action == .rows(.element(id: 1, action: .lifecycle(.teardown))))
    #expect(warnings.messages.isEmpty, "\(warnings.messages)")

    // Shown again: a task of its own, on the store the view hands out now, starts it.
    harness.send(.show(1))
    let row = harness.store.scope(state: \.visibleRows, action: Feature.Action.rowsKey)[id: 1]
    await harness.runTask(of: row, Row.Action.lifecycleKey) {
      #expect(harness.state.rows[id: 1]?.lifecycle.isTaskRunning == true)
    }
    #expect(harness.state.rows[id: 1]?.lifecycle.isTaskRunning == false)
    #expect(warnings.messages.isEmpty, "\(warnings.messages)")
  }

  /// A row deleted from `rows` while its task runs: as for a row of the stored collection,
  /// nothing reaches it, and nothing is reported (no action for a missing element).
  @Test func aRowDeletedWhileShownThroughTheFilterEndsQuietly() async {
    let warnings = WarningLog()
    let harness = Harness<Feature>(filteredRowsOn: clock, warnings: warnings)
    await runRow(of: harness, in: \.visibleRows, leavingWith: .delete(1))
    #expect(harness.state.rows.ids == [2])
    #expect(clock.sleeperCount == 0, "the deleted row's subscription ended with it")
    #expect(warnings.messages.isEmpty, "\(warnings.messages)")
  }

  /// The stored collection's rows, for comparison: a deleted row's task ends with nothing
  /// sent (ScreenLifecycle); a row hidden by the filter, still in `rows`, ends its task.
  @Test(arguments: [true, false])
  func aRowOfTheStoredCollectionEndsAsDocumented(deleted: Bool) async {
    let leave = deleted ? Feature.Action.delete(1) : .hide(1)
    let warnings = WarningLog()
    let harness = Harness<Feature>(filteredRowsOn: clock, warnings: warnings)
    await runRow(of: harness, in: \.rows, leavingWith: leave)
    #expect(clock.sleeperCount == 0)
    #expect(harness.state.rows[id: 1]?.lifecycle.isTaskRunning != true)
    let ended = harness.processed.contains {
      $0.action == .rows(.element(id: 1, action: .lifecycle(.taskEnded)))
    }
    #expect(ended == !deleted)
    #expect(warnings.messages.isEmpty, "\(warnings.messages)")
  }

  /// Documented edge: a row removed, then added again with its id but hidden, before the old
  /// task ended, is taken for the hidden row: it gets the `taskEnded`, and warns that no task
  /// was running (ScreenLifecycle).
  @Test func aRowAddedBackHiddenWithItsIDGetsTheOldTasksEnd() async {
    let warnings = WarningLog()
    let harness = Harness<Feature>(filteredRowsOn: clock, warnings: warnings)
    let row = harness.store.scope(state: \.visibleRows, action: Feature.Action.rowsKey)[id: 1]
    await harness.runTask(of: row, Row.Action.lifecycleKey) {
      harness.send(.delete(1))
      harness.send(.addHidden(1))
    }
    #expect(
      harness.processed.last?.action == .rows(.element(id: 1, action: .lifecycle(.taskEnded))))
    #expect(warnings.messages.count == 1)
    #expect(warnings.messages.first?.contains("says no task was running") == true)
  }

  /// Sent while the root's state is being read, the end waits in the root's queue: the
  /// hidden row's task ends when it is reduced, and a removed row's end passes quietly, while
  /// an ordinary send to the removed row after it still warns.
  @Test func anEndQueuedBehindAReadIsQuietForARemovedRowAlone() async {
    let warnings = WarningLog()
    let harness = Harness<Feature>(filteredRowsOn: clock, warnings: warnings)
    let rows = harness.store.scope(state: \.visibleRows, action: Feature.Action.rowsKey)
    let first = rows[id: 1]
    let second = rows[id: 2]
    for id in [1, 2] {
      harness.send(.rows(.element(id: id, action: .lifecycle(.taskStarted))))
    }
    harness.send(.hide(1))
    harness.send(.delete(2))
    #expect(first?.core.isPresent == false)
    #expect(second?.core.isPresent == false)
    let sent = harness.core.withState { _ in
      [first, second].map { $0?.core.sendLeavingView(.lifecycle(.taskEnded)) }
    }
    harness.settle()
    #expect(sent == [true, true])
    #expect(harness.state.rows[id: 1]?.lifecycle.isTaskRunning == false)
    #expect(warnings.messages.isEmpty, "\(warnings.messages)")

    harness.send(.rows(.element(id: 2, action: .tick)))
    #expect(warnings.messages.count == 1)
    #expect(warnings.messages.first?.contains("no element has that id") == true)
  }

  /// A queued end that its sheet's store drops (the sheet presented anew, with another id,
  /// before it was reduced) left its quiet behind, and the next action reduced had its
  /// missing row's warning silenced (the session's diff reviewer).
  @Test func anEndDroppedWithItsTakenOverSheetLeavesNoQuietBehind() {
    let warnings = WarningLog()
    let harness = Harness(
      initialState: SheetOfTickers.State(), warnings: warnings.handler,
      reducer: SheetOfTickers(clock: clock))
    let sheet = harness.store.scope(state: \.sheet, action: SheetOfTickers.Action.sheetKey)
    let row = sheet?.scope(state: \.visibleRows, action: FlaggedTickers.Action.rowsKey)[id: 2]
    harness.send(.sheet(.delete(2)))
    #expect(row?.core.isPresent == false)
    let sent = harness.core.withState { _ in
      // Queued behind the read: the sheet presented anew, the old sheet's row's end, and an
      // action for a row the new sheet does not have.
      harness.store.send(.present(2))
      let sent = row?.core.sendLeavingView(.lifecycle(.taskEnded))
      harness.store.send(.sheet(.rows(.element(id: 7, action: .tick))))
      return sent
    }
    harness.settle()
    #expect(sent == true)
    #expect(harness.state.sheet?.id == 2)
    #expect(warnings.messages.count == 2, "\(warnings.messages)")
    #expect(warnings.messages.first?.contains("The action was ignored.") == true)
    #expect(warnings.messages.last?.contains("id 7") == true, "\(warnings.messages)")
  }

  /// A row still in the view, and a row of the stored collection, send nothing this way.
  @Test func onlyARowOutOfTheViewSendsItsEndOn() {
    let harness = Harness(initialState: Feature.State(), reducer: Feature(clock: clock))
    let shown = harness.store.scope(state: \.visibleRows, action: Feature.Action.rowsKey)[id: 1]
    let stored = harness.store.scope(state: \.rows, action: Feature.Action.rowsKey)[id: 2]
    harness.send(.delete(2))
    #expect(shown?.core.sendLeavingView(.lifecycle(.taskEnded)) == false)
    #expect(stored?.core.sendLeavingView(.lifecycle(.taskEnded)) == false)
    #expect(harness.processed.map(\.action) == [.delete(2)])
  }
}
