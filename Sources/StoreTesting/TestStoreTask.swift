import Effects
import Store

/// The effects started by one action sent to a ``TestStore``: wait for them, or cancel them.
@MainActor
public struct TestStoreTask: Sendable {
  /// The handle the store returned for the action.
  public let task: StoreTask

  /// Whether effects of the action's chain are still at work: started, and neither finished
  /// nor cancelled, as of the last step the store ran (it runs no work to answer).
  public var isRunning: Bool { task.isRunning }
  private let waitUntil: @MainActor (_ isDone: () -> Bool, _ timeout: Duration?) async -> Bool
  private let settle: @MainActor () -> Void
  /// Whether every effect of the store still at work is asleep on a test clock.
  private let isAsleepOnTestClocks: @MainActor () -> Bool
  /// Where the store notes what the test excused or cancelled (a task may outlive its store).
  private let ledger: Ledger
  /// The records the action's chain started and that still run, parts of concatenations
  /// included.
  private let chainRecords: @MainActor (EffectGroup?) -> [EffectRecord]
  /// The effects of the action's chain still at work, a line each, for a failure message.
  private let unfinished: @MainActor (EffectGroup?) -> [String]
  /// The action, described only for a failure message.
  private let describeAction: @Sendable () -> String
  /// Tells the store which effects a `cancel()` ended, and where, for a `receive` that then
  /// finds nothing.
  private let noteCancel: @MainActor (_ effects: [String], _ location: TestLocation) -> Void

  init<State, Action>(task: StoreTask, store: TestStore<State, Action>, action: Action) {
    self.task = task
    self.describeAction = { Messages.action(action) }
    self.waitUntil = { [weak store] isDone, timeout in
      guard let store else { return isDone() }
      // Effects asleep on a test clock stay asleep however long the store waits: only the
      // test advances the clock, and it is waiting here.
      return await store.settle(
        until: isDone, timeout: timeout ?? store.timeout, stopAtTestClocks: true)
    }
    self.settle = { [weak store] in store?.settle() }
    self.isAsleepOnTestClocks = { [weak store] in store?.isWaitingOnlyForTestClocks ?? false }
    self.ledger = store.ledger
    self.chainRecords = { [weak store] group in
      guard let store, let group else { return [] }
      return store.runtime.running.filter { $0.feedbackGroup === group }
    }
    self.unfinished = { [weak store] group in
      guard let store, let group else { return [] }
      return Messages.describeRunning(
        store.runtime.runningWork.filter { $0.feedbackGroup === group })
    }
    self.noteCancel = { [weak store] effects, location in
      store?.noteCancel(of: Messages.action(action), effects: effects, at: location)
    }
  }

  /// Runs the effects until they have all finished, failing the test if they do not finish
  /// within `timeout` of waiting for work outside the test executor.
  ///
  /// Effects asleep on a `TestClock` are not waited for once nothing else is left to run:
  /// only the test can wake them, by advancing the clock, so the test fails at once, naming
  /// them and how far the clock must advance. Effects named in such a failure are not named
  /// again by the test store's `finish()` when still running then: it cancels them.
  ///
  /// - Parameters:
  ///   - timeout: How long to wait; the test store's ``TestStore/timeout`` by default.
  ///   - fileID: The file of the call, where failures are reported.
  ///   - filePath: The path of the file of the call.
  ///   - line: The line of the call.
  ///   - column: The column of the call.
  public func finish(
    timeout: Duration? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    let task = self.task
    guard await waitUntil({ !task.isRunning }, timeout) else {
      let running = unfinished(task.group)
      let listed = running.isEmpty ? "" : " Still running:\n\(Messages.bulleted(running))"
      let ending =
        if Task.isCancelled {
          "had not finished when the test's task was cancelled, and the store stopped waiting."
        } else if isAsleepOnTestClocks() {
          """
          have not finished, and every effect still running is asleep on a test clock, which \
          only the test can advance.
          """
        } else {
          "did not finish in time."
        }
      reportFailure(
        "The effects started by \(describeAction()) \(ending)\(listed)",
        at: TestLocation(fileID: fileID, filePath: filePath, line: line, column: column)
      )
      // Reported here: the store's `finish()` (or its release) does not list them again.
      ledger.excuse(chainRecords(task.group))
      return
    }
  }

  /// Cancels the effects, as when the screen that started them goes away.
  ///
  /// The store's `finish()` waits for them to end, and reports those still running then:
  /// an effect that ignores cancellation would outlive its screen in the app. A `receive`
  /// that then finds nothing names the effects this ended: work that must outlive the
  /// screen (a save its actions set off, say) is returned with `.outlivingSendersTask()`.
  /// A throttle window the action's chain opened is not one of them: it belongs to no task,
  /// stays open, and when it closes runs the effect it holds back (another action's, say).
  ///
  /// Runtime warnings the cancellation raises fail the test at the store's next step, as they
  /// would show in the app: an effect that throws something other than `CancellationError`
  /// once cancelled, or whose `catch:` handler sends once cancelled.
  ///
  /// - Parameters:
  ///   - fileID: The file of the call, which a later failure names.
  ///   - filePath: The path of the file of the call.
  ///   - line: The line of the call.
  ///   - column: The column of the call.
  public func cancel(
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    // Not a throttle window the chain opened (a record no group owns): it belongs to no
    // task, and stays open, to close when its time is up and run the effect it holds back.
    // Counted, it was said to ignore the cancellation, and named as what the cancel ended.
    let records = chainRecords(task.group).filter { $0.owner != nil }
    if !records.isEmpty {
      noteCancel(
        Messages.describeRunning(records),
        TestLocation(fileID: fileID, filePath: filePath, line: line, column: column))
    }
    ledger.noteCancelledByTest(records)
    task.cancel()
    settle()
  }

  /// Whether the effects were cancelled: by ``cancel(fileID:filePath:line:column:)``, or
  /// through ``task``.
  ///
  /// Effects that end with their identity (a row removed, a sheet dismissed, a screen popped)
  /// or by `Effect.cancel(id:)` (a debounce that a later keystroke restarts, say) do not make
  /// this `true`: check ``isRunning`` for those, which turns `false` once they have wound
  /// down. An action that started no effect has nothing to cancel, and reports `false`.
  public var isCancelled: Bool {
    task.isCancelled
  }
}

extension TestStoreTask: CustomStringConvertible {
  /// The action and what its effects are doing, as a failed expectation prints the task:
  /// `TestStoreTask(Search.Action.queryChanged("s"): running)`; `finished`, `cancelled`,
  /// `cancelled, winding down` or `no effects` in other cases.
  public nonisolated var description: String {
    "TestStoreTask(\(describeAction()): \(task.state))"
  }
}
