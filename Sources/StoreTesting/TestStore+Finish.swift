import Effects
import Store

extension TestStore {
  /// Ends the test: waits for running effects to finish, then fails once listing the effects
  /// still running and once listing the received actions not asserted (in exhaustive mode),
  /// and cancels what is left.
  ///
  /// Call it at the end of a test. A test store that is released without it makes the same
  /// checks, without waiting; it then cancels the effects still running, but cannot see the
  /// runtime warnings that cancellation raises (an effect that throws another error once
  /// cancelled), which come on the main actor after the release. `finish()` waits for them
  /// and fails the test with them, in either exhaustivity.
  ///
  /// It waits only for work the store cannot run itself (on another thread, say), up to the
  /// timeout, and stops waiting as soon as every effect still at work is asleep on a
  /// `TestClock`: only the test can wake those, by advancing the clock. A throttle window
  /// that holds no effect back is not left over: it is cancelled with the rest.
  ///
  /// In a test whose task is cancelled, it stops waiting at once, and the failure listing the
  /// effects still running says so. A test store released in a cancelled test (one that
  /// called `Test.cancel()`) checks only for runtime warnings: the test asserts nothing more.
  ///
  /// A test store looks for children an ancestor removed after every action, so the effects
  /// of a row set back to an older copy of its list end with that action. A live store may
  /// notice only later (see "Identity and navigation" in the Store documentation), though
  /// nothing those effects send reaches a reducer: a test that passes here does not prove
  /// such an effect stops at once in the app.
  ///
  /// - Parameters:
  ///   - timeout: How long to wait for work outside the test executor; ``timeout`` by default.
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
    let location = TestLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    // Effects asleep on a test clock stay asleep however long the store waits: only the test
    // advances the clock, and it is waiting here.
    _ = await settle(
      until: { runtime.runningWork.isEmpty }, timeout: timeout ?? self.timeout,
      stopAtTestClocks: true)
    reportWarnings(at: location)
    if exhaustivity == .on {
      let running = Self.stillRunning(runtime, ledger, afterWaiting: true)
      // Reported here: the store's release, after steps the test may take next, does not
      // report them again.
      ledger.excuse(running)
      if !running.isEmpty {
        // Said only when the cancellation stopped the wait: effects all asleep on a test
        // clock stop it too, and the list says how far to advance for each.
        let note =
          (isWaitingOnlyForTestClocks ? "" : Messages.cancellationNote(waitingFor: "them"))
          + Messages.ignoresCancellation(
            Messages.listed(running).filter { ledger.isCancelledByTest($0.id) }.count)
        let offTestExecutors = Messages.sleepsOffTestExecutors(
          on: testClocks, realClocks: realClocks, running: running)
        reportFailure(
          Messages.stillRunning(running) + note + offTestExecutors
            + Messages.sharedClocks(testClocks),
          at: location)
      }
      if !received.isEmpty {
        reportFailure(
          Messages.unreceived(
            received.map { Messages.action($0.action) }, context: "The test ended with")
            + Messages.sharedClocks(testClocks),
          at: location
        )
      }
      if let origin = ledger.takeUncheckedDismissal() {
        reportFailure(Messages.uncheckedDismissal(by: origin), at: location)
      }
    }
    runtime.cancelAll()
    // Main actor rounds too: an effect isolated to it winds down there.
    await settleIncludingMainActor()
    // Raised by that cancellation (an effect that throws another error once cancelled): the
    // app would print them when its screen went away, so they fail the test too.
    reportWarnings(at: location)
    removeAllReceived()
    // What those actions changed was reported with them: a later step is not charged with it.
    baseline = root.untrackedState
    ledger.isFinished = true
  }

  /// Drops the received actions not yet asserted, so the test can go on without them.
  ///
  /// Synchronous, unlike ``skipInFlightEffects(fileID:filePath:line:column:)``: write
  /// `store.skipReceivedActions()`, without `await`. Runtime warnings raised since the last
  /// step (a `TestClock.run()` that reached its guard, say) fail the test here, as at any step.
  ///
  /// - Parameters:
  ///   - fileID: The file of the call, where failures are reported.
  ///   - filePath: The path of the file of the call.
  ///   - line: The line of the call.
  ///   - column: The column of the call.
  public func skipReceivedActions(
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    settle()
    reportWarnings(
      at: TestLocation(fileID: fileID, filePath: filePath, line: line, column: column))
    removeAllReceived()
    baseline = root.untrackedState
  }

  /// Cancels every effect still running, so the test can end without waiting for them.
  ///
  /// An effect that ignores the cancellation and keeps running is still reported by
  /// ``finish(timeout:fileID:filePath:line:column:)``, as after a task's
  /// ``TestStoreTask/cancel(fileID:filePath:line:column:)``: it would outlive its screen in
  /// the app.
  ///
  /// Runtime warnings raised since the last step (a `TestClock.run()` that reached its guard,
  /// say) fail the test here, as at any step, and so do those the cancellation itself raises,
  /// as it would in the app: an effect that throws something other than `CancellationError`
  /// once cancelled, or whose `catch:` handler sends once cancelled (one that backs off with
  /// `try? await clock.sleep(for:)` and then sends a retry, say).
  ///
  /// - Parameters:
  ///   - fileID: The file of the call, where failures are reported.
  ///   - filePath: The path of the file of the call.
  ///   - line: The line of the call.
  ///   - column: The column of the call.
  public func skipInFlightEffects(
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    let location = TestLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    // The warnings already raised; work still queued is cancelled, not run first.
    reportWarnings(at: location)
    // As a task's `cancel()` does: `finish()` waits for these effects to end and reports
    // those that do not (they ignore cancellation, and would keep running in the app).
    ledger.noteCancelledByTest(runtime.running)
    runtime.cancelAll()
    await settleIncludingMainActor()
    reportWarnings(at: location)
  }
}
