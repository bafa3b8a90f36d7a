import Effects
import Store

/// A store for tests that makes every step explicit: each action's state change, each action
/// an effect feeds back, and the end of every effect.
///
/// ```swift
/// @MainActor @Test func refresh() async {
///   let clock = TestClock()
///   let store = TestStore(initialState: Profile.State()) {
///     Profile(client: .preview, clock: clock)
///   }
///   await store.send(.refreshTapped) { $0.isLoading = true }
///   await clock.advance(by: .seconds(1))
///   await store.receive(.profileLoaded("Ada")) {
///     $0.isLoading = false
///     $0.name = "Ada"
///   }
///   await store.finish()
/// }
/// ```
///
/// Failures are reported as test failures of the running test, under Swift Testing or XCTest,
/// with a diff of only what differs (`-` expected, `+` actual).
///
/// ## Determinism
///
/// A test store runs every effect on a test executor that runs work only when the store asks:
/// at each `send`, `receive` and `finish`, and each time a `TestClock` wakes a sleeper. The
/// store then runs every ready job, reduces what the effects sent, and repeats until nothing
/// is left. Effects therefore run in one reproducible order, with no real sleeps and no yield
/// counting, however loaded the machine. The code of effects isolated to the main actor runs
/// there, in the order it was queued: the store yields the main actor until such work has
/// nothing new to do. Only work on other threads (a callback from a system API, or a
/// `Task {}` or `Task.detached` that an effect or a dependency starts, which leaves the test
/// executor) is waited for, up to ``timeout``. When such a task sleeps on a `TestClock`, wait
/// for its sleep (`await clock.waitForSleepers()`) before advancing the clock.
@MainActor
public final class TestStore<State: Equatable, Action: Sendable> {
  /// How strictly the store checks the test. ``Exhaustivity/on`` by default.
  public var exhaustivity: Exhaustivity = .on {
    didSet {
      ledger.exhaustivity = exhaustivity
      droppedBy = []
    }
  }

  /// How long the `receive` methods and ``finish(timeout:fileID:filePath:line:column:)``
  /// wait for work that runs outside the test executor before failing. Effects that run on
  /// the executor never wait on it, and neither `receive` nor `finish()` waits once every
  /// effect still running is asleep on a `TestClock`: only the test can wake those.
  public var timeout: Duration = .seconds(1)

  /// How many changes a diff in a failure message shows (of states, or of an unexpected action
  /// and the one expected): 50 by default, or `nil` for all of them.
  ///
  /// A change is a value that differs, or an element, entry or line of text removed or
  /// inserted. Past the limit (or past eight lines a change), the diff ends with a line
  /// counting the changes left out, so that a collection that changed throughout gives a
  /// short message, quickly. A line longer than 240 characters (a long string) shows only
  /// the region that changed, with 40 characters around it, or its start, and counts the
  /// characters left out: `…[999960 characters]…`. A limit of zero or less shows only that
  /// count, and one as large as `Int.max` every change, long lines shortened still. Set it to
  /// `nil` in a test to see a whole diff, long strings whole:
  ///
  /// ```swift
  /// store.diffChangeLimit = nil
  /// ```
  public var diffChangeLimit: Int? = StateDiff.defaultChangeLimit

  let root: any RootStoreCore<State, Action>
  let executor: ManualTaskExecutor
  /// The root's runtime, kept here too so `deinit` can read it off the main actor.
  let runtime: EffectRuntime<Action>
  let signal = EventSignal()
  let ledger: Ledger
  let origin: TestLocation
  /// The test clocks the feature holds in its stored properties, whose sleepers a failure
  /// message names when they belong to no effect.
  let testClocks: [TestClock]
  /// Where the feature holds a `ContinuousClock` or `SuspendingClock`, for a failure message.
  let realClocks: [String]

  /// The state as of the last assertion, which the next one starts from.
  var baseline: State
  /// Actions effects fed back that the test has not received yet, with the state after each.
  /// Changed only through `receive(_:)`, `removeReceived(at:)` and `removeAllReceived()`,
  /// which keep the ledger's copy of the actions in step.
  private(set) var received: [(action: Action, state: State)] = []
  private var isSending = false
  /// Whether effect work that never pauses was reported: once per store.
  private var reportedEndlessWork = false
  private var sentState: State?
  /// In non-exhaustive mode, the received actions that steps dropped unasserted (the last 16
  /// such steps): each `send` since the last `receive`, and each `receive` that skipped actions
  /// to reach its match since the last failing one. A `receive` that then finds nothing names
  /// the steps that dropped what it expected.
  var droppedBy: [Drop] = []
  /// Where the last `receive` failed because the action it expected arrived after another,
  /// until a `receive` passes or a `send` comes: the next `receive` that fails most likely
  /// fails for that reason, and says so.
  var swappedReceive: TestLocation?

  /// Where the last `send` was of an action for a child that changed nothing and started no
  /// effect, a hint that the operator handing it on may be missing, for a `receive` that then
  /// finds nothing; empty otherwise.
  var inertChildSend = ""

  /// What the test's last few `cancel()`s of a task ended (4 at most), until a `receive`
  /// that finds nothing names them: one of those effects may be what would have sent it.
  var cancels: [TaskCancel] = []

  /// Notes that a task's `cancel()` at `location` ended `effects`, of the chain of `action`.
  func noteCancel(of action: String, effects: [String], at location: TestLocation) {
    cancels.append(TaskCancel(action: action, effects: effects, location: location))
    if cancels.count > 4 { cancels.removeFirst() }
  }

  /// Received actions that one step dropped unasserted, in non-exhaustive mode.
  struct Drop {
    /// The step, such as `` `send(Feature.Action.noop)` ``.
    var step: String
    /// Whether the step is a `receive`, which skipped the actions before its match.
    var isReceive: Bool
    /// Whether the step is a `receive` that failed, which dropped every received action.
    var isFailedReceive = false
    var actions: [Action]
  }

  /// Creates a test store that runs `reducer` on `initialState`.
  ///
  /// Failures found when the store is released (effects still running, actions not
  /// received) are reported where it was created. A helper that makes stores for several
  /// tests can pass its caller's place on, so those failures point at the test:
  ///
  /// ```swift
  /// @MainActor
  /// func makeStore(client: SearchClient, clock: TestClock,
  ///                fileID: StaticString = #fileID, filePath: StaticString = #filePath,
  ///                line: UInt = #line, column: UInt = #column) -> TestStoreOf<Search> {
  ///   TestStore(initialState: Search.State(), reducer: { Search(client: client, clock: clock) },
  ///             fileID: fileID, filePath: filePath, line: line, column: column)
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - initialState: The state to start from.
  ///   - reducer: The feature's reducer, with test dependencies injected.
  ///   - fileID: The file of the test, for failures found when the store is released.
  ///   - filePath: The path of the test file.
  ///   - line: The line where the store is created.
  ///   - column: The column where the store is created.
  public init<R: Reducer>(
    initialState: State,
    @ReducerBuilder<State, Action> reducer: () -> R,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) where R.State == State, R.Action == Action {
    let executor = ManualTaskExecutor()
    let ledger = Ledger()
    let feature = reducer()
    let core = RootCore(
      initialState: initialState,
      reducer: feature,
      executor: executor,
      warnings: RuntimeWarningHandler { ledger.record($0) },
      // Effects of elements an ancestor removed end with the action, whatever other tests do.
      walksAfterEveryAction: true,
      // An effect that throws a failed `#require`'s error, or an `unimplemented` stub's, with
      // no `catch:` fails the test once, where the check or the call did.
      isReportedByItsThrower: wasRecordedByItsThrower
    )
    self.root = core
    self.executor = executor
    self.runtime = core.runtime
    self.ledger = ledger
    self.baseline = consume initialState
    self.origin = TestLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    let clocks = TestClockFinder.search(feature)
    self.testClocks = clocks.testClocks
    self.realClocks = clocks.realClocks
    core.didReduce = { [unowned self] action, origin in
      self.didReduce(action, origin: origin)
    }
    let signal = self.signal
    executor.onEnqueue { signal.fire() }
    // A test clock the feature holds runs the store's effects before it moves time.
    for clock in testClocks { clock.attach(executor, owner: self) }
    // Under XCTest, the checks run when the test ends, even if a property keeps the store.
    XCTestEnd.onEndOfCurrentTest { [weak self] in self?.endOfTestChecks() }
    core.runtime.inbox.onWake { signal.fire() }
    executor.onSettle { @MainActor [weak self] in
      guard let self else { return false }
      await self.settleIncludingMainActor()
      return true
    }
    core.runtime.onDismiss { origin in ledger.recordDismissal(by: origin) }
  }

  deinit {
    // Effects still running end with the store: their sleeps leave a shared test clock, which
    // would otherwise wait on tasks that nobody runs any more.
    defer { Self.endEffects(runtime) }
    Self.checkAtEnd(ledger, runtime, origin, context: "The test store was released with")
  }

  /// Cancels the effects still running, and lets them wind down: what a cancelled effect
  /// does next runs on the test executor, which nobody runs once the store is gone, so its
  /// task, and whatever it holds, would stay in memory for the rest of the run. Its next jobs
  /// run here (up to 10,000 of them), and any later ones on the global queues (an effect that
  /// hops to the main actor to wind down comes back to the executor after the store is gone).
  private nonisolated static func endEffects(_ runtime: EffectRuntime<Action>) {
    runtime.cancelAll()
    guard let executor = runtime.executor else { return }
    executor.runUntilIdle(limit: 10_000)
    executor.relinquish()
  }

  /// The checks of a store that the test did not `finish()`, when its XCTest test ends: the
  /// test case object, and a store its property holds, live until the whole run ends, long
  /// after the test whose failures these are.
  func endOfTestChecks() {
    Self.checkAtEnd(ledger, runtime, origin, context: "The test ended with")
    ledger.isFinished = true
    Self.endEffects(runtime)
  }

  /// The checks `finish()` makes, without waiting, for a store the test did not finish:
  /// reported at the line that created it.
  private nonisolated static func checkAtEnd(
    _ ledger: Ledger, _ runtime: EffectRuntime<Action>, _ origin: TestLocation, context: String
  ) {
    // Runtime warnings are failures whenever they were raised: after `finish()` too (an
    // effect that `finish()` cancelled, winding down on the main actor after it returned).
    var problems = ledger.takeWarnings().map(Messages.warning)
    // The checks `finish()` makes, unless it made them: in non-exhaustive mode, only the
    // warnings. A test that cancelled itself (`Test.cancel()`, or its task cancelled) asserts
    // nothing more: what it left running or unreceived is not its failure.
    if !ledger.isFinished, ledger.exhaustivity == .on, !Task.isCancelled {
      let running = Self.stillRunning(runtime, ledger)
      if !running.isEmpty { problems.append(Messages.stillRunning(running)) }
      let unreceived = ledger.unreceived
      if !unreceived.isEmpty {
        problems.append(Messages.unreceived(unreceived.map(Messages.action), context: context))
      }
      if let origin = ledger.takeUncheckedDismissal() {
        problems.append(Messages.uncheckedDismissal(by: origin))
      }
    }
    for problem in problems { reportFailure(problem, at: origin) }
  }

  /// The store's current state.
  public var state: State {
    root.untrackedState
  }

  /// The actions effects fed back that the test has not received yet, oldest first.
  ///
  /// An action an effect sends waits for the test's `receive`, and the store reports an
  /// unasserted one only at the next `send` or at `finish()`. To time an effect that no task
  /// of the test follows (one marked `outlivingSendersTask()`, such as a debounced save), check
  /// that nothing came early:
  ///
  /// ```swift
  /// await clock.advance(by: .milliseconds(999))
  /// #expect(store.unreceivedActions.isEmpty)  // the save waits for a second of quiet
  /// await clock.advance(by: .milliseconds(1))
  /// await store.receive(.saved)
  /// ```
  ///
  /// Reading it asserts nothing, and runs no effect work.
  public var unreceivedActions: [Action] {
    received.map(\.action)
  }

  /// Whether the feature asked to be dismissed: its reducer returned `Effect.dismiss`, itself
  /// or through one of its parts that a presenter treats as the feature (a `Scope` child, a
  /// case of an enum feature run by `ifCaseLet`, a lifecycle hook).
  ///
  /// A screen that closes itself (an editor's save or cancel) is usually tested alone,
  /// without the parent that presents it. A live store reports such a `.dismiss` as a runtime
  /// warning; a test store records it here instead, so the test states it. A `.dismiss` from
  /// one of the feature's children that is not presented (a `forEach` row, an `ifLet` child)
  /// still fails the test as a runtime warning: it would do nothing in the app.
  ///
  /// ```swift
  /// await store.send(.saveTapped)
  /// await store.receive(.delegate(.saved("Weekend")))
  /// #expect(store.isDismissed)
  /// ```
  ///
  /// In an exhaustive test, the dismissal is part of what the test must state: `finish()` (or
  /// the store's release, or the end of an XCTest test) fails when the feature asked to be
  /// dismissed in an exhaustive step and the test did not read this property since. One read
  /// is enough: a later dismissal needs no second. (A feature that nothing presents, such as
  /// an app's root, closes nothing with its `.dismiss`: a live store warns.)
  public var isDismissed: Bool {
    ledger.readDismissal()
  }

  /// Sends an action and asserts how it changes the state.
  ///
  /// In exhaustive mode, `assert` must turn the state before the action into the state after
  /// it: the test fails when the result differs, when the state changed and no closure was
  /// given, or when a closure was given and nothing changed. A closure that throws (to unwrap a
  /// value, say) fails the step, naming the error; a `try #require(...)` (or `XCTUnwrap`) in it
  /// that fails has failed the test at its own line already, and the step adds no second
  /// failure. Sending fails too while actions that effects fed back are still unasserted; in
  /// non-exhaustive mode it drops them.
  ///
  /// - Parameters:
  ///   - action: The action to send.
  ///   - assert: Changes the expected state to match the state after the action.
  ///   - fileID: The file of the call, where failures are reported.
  ///   - filePath: The path of the file of the call.
  ///   - line: The line of the call.
  ///   - column: The column of the call.
  /// - Returns: A handle on the effects the action started.
  @discardableResult
  public func send(
    _ action: Action,
    assert: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async -> TestStoreTask {
    let location = TestLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    settle()
    reportWarnings(at: location)
    swappedReceive = nil
    if !received.isEmpty {
      if exhaustivity == .on {
        reportFailure(
          Messages.unreceived(
            received.map { Messages.action($0.action) },
            context: "Must assert received actions before sending \(Messages.action(action)):"
          ) + Messages.sharedClocks(testClocks),
          at: location
        )
      } else {
        noteDrop(
          Drop(
            step: "`send(\(Messages.action(action)))`", isReceive: false,
            actions: received.map(\.action)))
      }
      removeAllReceived()
      baseline = root.untrackedState
    }
    let before = exhaustivity == .on ? baseline : root.untrackedState
    // A test that goes on after `finish()` is checked again when the store is released: what
    // this action starts or feeds back is as much the test's as anything before.
    ledger.isFinished = false
    sentState = nil
    isSending = true
    let task = root.send(action)
    isSending = false
    let after = sentState ?? root.untrackedState
    // A warning of the action's own (an action for a row that is not there) already says
    // why it did nothing.
    let warned = ledger.hasWarnings
    // An action for a child that did nothing at all: a `receive` that then finds nothing says
    // that the operator handing it on may be missing. The action is looked at before the
    // states are compared, which costs more for a large state.
    inertChildSend =
      if task.group == nil, !warned, let route = Messages.childRoute(of: action),
        before == after
      {
        Messages.unroutedChildAction(
          route: route,
          lead: """
            The `send` of \(Messages.action(action)) at \(location.fileID):\(location.line) \
            changed nothing and started no effect
            """)
      } else {
        ""
      }
    await settleIncludingMainActor()
    checkState(
      before: before,
      after: after,
      assert: assert,
      step: Messages.step("send", action),
      action: action,
      warned: warned,
      at: location
    )
    baseline = after
    reportWarnings(at: location)
    return TestStoreTask(task: task, store: self, action: action)
  }

  /// Runs ready effect work and reduces what it sends, until neither is left.
  ///
  /// An effect that never pauses on anything the test controls (a loop on `Task.yield()`,
  /// polling a flag) always has work ready: after ``jobLimit`` jobs without a pause the store
  /// stops running it and reports it, once, so that the test goes on (and can cancel it)
  /// rather than hanging with no message. From then on each step runs at most
  /// ``jobLimitOnceReported`` jobs: enough for the effect to see a cancellation and end, and
  /// little enough that a test clock waking sleepers a thousand times does not run it for
  /// minutes.
  ///
  /// - Returns: Whether the work came to a pause.
  @discardableResult
  func settle() -> Bool {
    let limit = reportedEndlessWork ? Self.jobLimitOnceReported : Self.jobLimit
    if root.runEffects(jobLimit: limit) { return true }
    reportEndlessWork { Messages.endlessWork(jobs: Self.jobLimit, running: $0) }
    return false
  }

  /// Reports, once per store, effect work that never pauses, with the message `describe`
  /// makes from the effects still running.
  private func reportEndlessWork(_ describe: ([EffectRecord]) -> String) {
    guard !reportedEndlessWork else { return }
    reportedEndlessWork = true
    ledger.record(
      RuntimeWarning(
        message: describe(Self.stillRunning(runtime, ledger)), fileID: "StoreTesting", line: 0))
  }

  /// How many jobs of effect work one settling runs without a pause at most: far more than a
  /// test's effects run between two pauses (a job runs an effect from one suspension to the
  /// next), and a fifth of a second of a loop on `Task.yield()` in a debug build.
  static var jobLimit: Int { 200_000 }

  /// The same, once work that never pauses was reported.
  static var jobLimitOnceReported: Int { 1_000 }

  /// Settles, and lets the work of effects isolated to the main actor run too, until a round
  /// leaves nothing new to do and every effect sleeps on a test clock, or, while one may not,
  /// until ``quietRoundLimit`` rounds in all have left nothing new.
  ///
  /// Such work is not on the test executor: it is queued on the main actor, behind the test.
  /// The store yields the main actor, which runs what was queued before the yield (in order),
  /// then settles what that work started or sent, and goes on while there was any. A round
  /// can also leave nothing the store sees while main-actor work remains: an effect on the
  /// main actor that awaits a function doing nothing that needs another executor (a stub
  /// client returning a value) runs it in place, but comes back to the main actor queued
  /// behind the store's yield, not on the test executor (its task prefers that executor, and
  /// the runtime queues its return to the main actor rather than continue at once). So a
  /// quiet round ends the settling only when every effect is known to wait for the test, or
  /// once there were enough of them for such calls in a row; counted in all, not in a row, so
  /// that work coming back in real time (an effect on a real clock) cannot keep it going.
  func settleIncludingMainActor() async {
    // Work that never pauses was stopped: running it more rounds would only take longer.
    guard settle() else { return }
    // With no effect running, nothing can be queued on the main actor for this store.
    guard runtime.runningCount > 0 else { return }
    let limit = reportedEndlessWork ? Self.roundLimitOnceReported : Self.roundLimit
    var quietRounds = 0
    for _ in 0..<limit {
      await Task.yield()
      let progressed = executor.hasWork || !runtime.inbox.isEmpty
      guard settle() else { return }
      if progressed { continue }
      quietRounds += 1
      if quietRounds >= Self.quietRoundLimit || runtime.allRunningAreAsleepOnTestClocks {
        return
      }
    }
    // Still going: an effect on the main actor that never waits on anything the test
    // controls. Reported once, as work that never pauses on the test executor is.
    reportEndlessWork { Messages.endlessMainActorWork(rounds: limit, running: $0) }
  }

  /// How many times one settling yields the main actor at most, while effects isolated to
  /// it keep making progress: far more than a test's effects hop between two pauses (a
  /// `@MainActor` effect that awaits a client once per page of a list hops twice a page; 64
  /// rounds once stopped such an effect at its 32nd page, silently), and about a tenth of a
  /// second of a loop that never pauses, in a debug build.
  static var roundLimit: Int { 10_000 }

  /// The same, once work that never pauses was reported.
  static var roundLimitOnceReported: Int { 64 }

  /// How many rounds that leave nothing new end the settling while an effect may not be
  /// waiting for the test (it waits on a stream, say, or is queued on the main actor behind a
  /// stub client's call; see ``settleIncludingMainActor()``): each such call takes a round or
  /// two (8 calls in a row ran before the step returned in 200 runs of 200; 16 came back late
  /// in about 1 run in 13).
  /// A round on an idle main actor takes about 10 us in a debug build, and a feature with a
  /// stream listener running pays them at every step, up to twice for each sleeper a clock
  /// wakes.
  static var quietRoundLimit: Int { 16 }

  /// Reports the warnings raised since the last report, at `location`; returns whether
  /// there were any.
  @discardableResult
  func reportWarnings(at location: TestLocation) -> Bool {
    let warnings = ledger.takeWarnings()
    for warning in warnings {
      reportFailure(Messages.warning(warning), at: location)
    }
    return !warnings.isEmpty
  }

  /// Keeps the state after an action: the one sent, or one an effect fed back.
  ///
  /// Each branch copies the state from where the root keeps it, in a frame of its own: a
  /// debug build reserves stack for every temporary of a generic value in a frame for the
  /// whole call, whichever branch runs, and reading `untrackedState` here held eight copies of
  /// the state (8 MiB of stack for a 1 MiB state, past the end of the main actor's thread's).
  private func didReduce(_ action: Action, origin: ActionOrigin) {
    if isSending && origin == .user && sentState == nil {
      keepSentState()
    } else {
      keepReceived(action)
    }
  }

  /// Keeps the state after the action sent, copied from the root's own.
  @inline(never)
  private func keepSentState() {
    root.withState { sentState = $0.pointee }
  }

  /// Keeps an action an effect fed back, with the state after it, copied from the root's own.
  @inline(never)
  private func keepReceived(_ action: Action) {
    root.withState { received.append((action, $0.pointee)) }
    ledger.received(action)
  }

  /// Notes received actions a step dropped unasserted, keeping the last 16 such steps.
  func noteDrop(_ drop: Drop) {
    droppedBy.append(drop)
    if droppedBy.count > 16 { droppedBy.removeFirst() }
  }

  /// Drops the received action at `position`: asserted, or skipped.
  @discardableResult
  func removeReceived(at position: Int) -> (action: Action, state: State) {
    ledger.removeUnreceived(at: position)
    return received.remove(at: position)
  }

  /// Drops every received action.
  func removeAllReceived() {
    ledger.removeAllUnreceived()
    received.removeAll()
  }

  /// The effects still running, but for those the test cancelled itself: their code winding
  /// down on the main actor, which the store no longer waits for, is not left over. (An
  /// effect the feature cancelled that never ends is.) With `afterWaiting`, for `finish()`,
  /// which waited for them, the effects a task's `cancel()` cancelled count: one still
  /// running then ignores cancellation, and would outlive its screen in the app.
  nonisolated static func stillRunning(
    _ runtime: EffectRuntime<Action>, _ ledger: Ledger, afterWaiting: Bool = false
  ) -> [EffectRecord] {
    runtime.runningWork.filter {
      !ledger.isExcused($0.id) && (afterWaiting || !ledger.isCancelledByTest($0.id))
    }
  }
}

/// A test store for the reducer `R`.
public typealias TestStoreOf<R: Reducer> = TestStore<R.State, R.Action> where R.State: Equatable

/// Effects a test ended with a task's `cancel()`.
struct TaskCancel {
  /// The action whose task was cancelled, described.
  var action: String
  /// The effects it ended, described.
  var effects: [String]
  /// Where the test cancelled them.
  var location: TestLocation
}
