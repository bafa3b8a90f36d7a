/// A clock whose time moves only when a test tells it to.
///
/// Inject it wherever a feature takes a clock. Sleepers wait until
/// ``advance(by:maxSteps:fileID:line:)``, ``advance(to:maxSteps:fileID:line:)`` or
/// ``run(maxSteps:fileID:line:)`` moves time past their deadline; they wake in deadline order
/// (ties in the order they went to sleep), and cancelling a sleep removes it at once.
///
/// ```swift
/// let clock = TestClock()
/// let store = TestStore(initialState: Timer.State()) { Timer(clock: clock) }
/// await store.send(.startTapped)
/// await clock.advance(by: .seconds(1))
/// await store.receive(.tick) { $0.elapsed = 1 }
/// ```
///
/// When the sleeping task runs under a test store, the clock lets the woken effect run, and the
/// store reduce what it sent, before it wakes the next sleeper; so a loop that sleeps twice
/// within one `advance` wakes twice, and a concatenation's next part starts and sleeps from
/// the right time, deterministically. That holds for effects isolated to the main actor too:
/// the clock waits for the woken task to resume before it moves on.
///
/// `advance`, `run` and `waitForSleepers(_:)` run on their caller's actor
/// (`nonisolated(nonsending)`). Called from a test isolated to the main actor, where a test
/// store settles its effects, waking an effect that runs on the store's executor does not
/// leave the main actor, so it does not wait for turns of a main actor that other tests keep
/// busy. (On the global executor, each wake hopped to the main actor and back: 3,000 timer
/// wakes under a test store took 0.41 to 0.83 seconds alone, 0.38 to 0.48 now.)
///
/// It does not hold for a task the store does not run: a `Task {}` or `Task.detached` that an
/// effect or a dependency starts runs on the global executor, and may reach its sleep after
/// the test advanced the clock. Wait for that sleep with ``waitForSleepers(_:)`` before each
/// advance.
///
/// Nor does it hold under a plain `Store`, whose effects run on the global executor too: one
/// `advance` wakes a debounce's sleep, but the request the woken effect then makes sleeps from
/// the time the advance reached, not from the debounce's deadline (an `advance(by: 2s)` over a
/// 300 ms debounce and a 1 s request leaves the request asleep until 3 s). Drive such a
/// feature with a `TestStore`, or advance one sleep at a time, with ``waitForSleepers(_:)``
/// between the advances.
public final class TestClock: Clock, Sendable {
  /// A point in a test clock's time: an offset from the moment the clock was created.
  public struct Instant: InstantProtocol, Hashable, Sendable, CustomStringConvertible {
    /// The time since the clock's start.
    public var offset: Duration

    /// Creates an instant at `offset` from the clock's start.
    ///
    /// - Parameter offset: The time since the clock's start.
    public init(offset: Duration = .zero) {
      self.offset = offset
    }

    /// The instant `duration` after this one.
    ///
    /// - Parameter duration: How far to move.
    /// - Returns: The later (or, for a negative duration, earlier) instant.
    public func advanced(by duration: Duration) -> Self {
      Self(offset: offset + duration)
    }

    /// The duration from this instant to `other`.
    ///
    /// - Parameter other: The other instant.
    /// - Returns: `other` minus this instant.
    public func duration(to other: Self) -> Duration {
      other.offset - offset
    }

    /// Whether `lhs` comes before `rhs`.
    public static func < (lhs: Self, rhs: Self) -> Bool {
      lhs.offset < rhs.offset
    }

    /// The instant's offset, such as `1.5 seconds`.
    public var description: String { "\(offset)" }
  }

  private struct Sleeper {
    var id: Int
    var deadline: Instant
    var continuation: UnsafeContinuation<Void, any Error>
    var executor: ManualTaskExecutor?
    /// Where the sleeping task reports warnings: an effect's, its store's.
    var warnings: RuntimeWarningHandler
    /// Whether the sleeping task runs on a test store's executor. One that does not (a
    /// `Task.detached`, or a `Task {}` that left the executor) may reach its next sleep only
    /// after the test has advanced the clock.
    var isOnTestExecutor: Bool
  }

  private struct State {
    var now = Instant()
    var nextID = 0
    var sleepers: [Sleeper] = []
    /// For each sleeper being woken, what its task signals once it has resumed.
    var wakeUps: [Int: WakeUp] = [:]
    /// The executors of the test stores whose features hold this clock.
    var stores: [WeakExecutor] = []
    /// Tasks in ``waitForSleepers(_:)``, with the count each waits for, and what resumes each.
    var sleeperWaiters: [Int: (count: Int, resume: @Sendable () -> Void)] = [:]

    /// Removes and returns the waiters of ``TestClock/waitForSleepers(_:)`` whose count the
    /// sleepers now reach.
    mutating func takeSatisfiedWaiters() -> [@Sendable () -> Void] {
      guard !sleeperWaiters.isEmpty else { return [] }
      let ready = sleeperWaiters.filter { $0.value.count <= sleepers.count }
      for id in ready.keys { sleeperWaiters[id] = nil }
      return ready.values.map(\.resume)
    }
  }
  private let state = Locked(State())

  /// Creates a clock at time zero.
  public init() {}

  /// The current time. It moves only when the test advances the clock.
  public var now: Instant {
    state.withLock { $0.now }
  }

  /// The smallest step the clock can measure: any duration.
  public var minimumResolution: Duration { .zero }

  /// The number of sleeps waiting for time to move.
  public var sleeperCount: Int {
    state.withLock { $0.sleepers.count }
  }

  /// Suspends until the clock has been advanced to `deadline`.
  ///
  /// Does not wait when `deadline` is not after ``now``, but yields once, as
  /// ``ImmediateClock`` does: a loop that sleeps for zero (or until a time already past) still
  /// pauses at each turn, a job per turn, which a test store stops and reports as work that
  /// never pauses. Had it returned at once, the loop would be one job that never ends, and the
  /// test would hang with no message.
  ///
  /// - Parameters:
  ///   - deadline: When to wake.
  ///   - tolerance: Ignored; a test clock is exact.
  /// - Throws: `CancellationError` when the sleeping task is cancelled. The sleep is removed
  ///   from the clock at once. A task cancelled before it calls this yields once first, so
  ///   that a loop that ignores the error (`try? await clock.sleep(for:)`) still pauses.
  public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
    try await checkCancellationPausing()
    let id = state.withLock { state in
      state.nextID += 1
      return state.nextID
    }
    let executor = ManualTaskExecutor.current
    let isOnTestExecutor = executor.map(Self.currentTaskPrefers) ?? false
    // A test store whose effect sleeps here is one this clock runs from now on, as one whose
    // feature holds the clock in a stored property: the store cannot find a clock captured in
    // a closure, or held by an object.
    if let executor, isOnTestExecutor { attachIfAbsent(executor) }
    // The clock never goes back: a deadline not after `now` here is not after it later.
    if state.withLock({ deadline <= $0.now }) {
      await Task.yield()
      try Task.checkCancellation()
      return
    }
    let warnings = RuntimeWarningHandler.current
    // Inside an effect: a test store that waits in vain names what the effect sleeps on.
    let record = EffectRecord.current
    let sleep = record?.beginSleep(on: self, until: deadline)
    defer { if let record, let sleep { record.endSleep(sleep) } }
    try await withTaskCancellationHandler {
      try await withUnsafeThrowingContinuation {
        (continuation: UnsafeContinuation<Void, any Error>) in
        // Checking cancellation under the lock pairs with the handler below: either it sees
        // this sleeper and removes it, or this check sees the cancellation.
        let (outcome, satisfied) = state.withLock {
          state -> (Result<Void, any Error>?, [@Sendable () -> Void]) in
          if Task.isCancelled { return (.failure(CancellationError()), []) }
          if deadline <= state.now { return (.success(()), []) }
          state.sleepers.append(
            Sleeper(
              id: id, deadline: deadline, continuation: continuation, executor: executor,
              warnings: warnings, isOnTestExecutor: isOnTestExecutor)
          )
          return (nil, state.takeSatisfiedWaiters())
        }
        if let outcome { continuation.resume(with: outcome) }
        for resume in satisfied { resume() }
      }
      // Resumed by `wake`: tell it this task runs again (see `wake`).
      state.withLock { $0.wakeUps.removeValue(forKey: id) }?.signal()
    } onCancel: {
      let sleeper = state.withLock { state -> Sleeper? in
        guard let index = state.sleepers.firstIndex(where: { $0.id == id }) else { return nil }
        return state.sleepers.remove(at: index)
      }
      sleeper?.continuation.resume(throwing: CancellationError())
    }
  }

  /// The deadlines of the sleeps whose tasks no test store runs, soonest first, for a test
  /// store's failure message.
  ///
  /// Such a task (a `Task.detached` a dependency starts, say) runs on the global executor,
  /// so the test store cannot run it to its sleep before the test advances the clock.
  package var sleepsOffTestExecutors: [Instant] {
    state.withLock { $0.sleepers.filter { !$0.isOnTestExecutor }.map(\.deadline) }.sorted()
  }

  /// Whether the current task prefers `executor`: the test store started it, or it is a
  /// child task of one it started. A task-local such as ``ManualTaskExecutor/current`` is
  /// inherited by a `Task {}` too, but the preference is not.
  private static func currentTaskPrefers(_ executor: ManualTaskExecutor) -> Bool {
    withUnsafeCurrentTask { task in
      task?.unownedTaskExecutor == executor.asUnownedTaskExecutor()
    }
  }

  /// Suspends until at least `count` sleeps wait on this clock, or the calling task is
  /// cancelled.
  ///
  /// For a test that drives a live `Store`, whose effects run on the global executor: an
  /// effect may not have reached its sleep yet when the test goes on, and advancing the clock
  /// before it does would move time past a sleep not yet begun. Wait for it first:
  ///
  /// ```swift
  /// store.send(.startTapped)
  /// await clock.waitForSleepers()
  /// await clock.advance(by: .seconds(1))
  /// ```
  ///
  /// Under a test store there is no need for the effects themselves: the store runs them
  /// until they suspend before `send` returns, and a woken effect until it sleeps again before
  /// `advance` returns. A task the store does not run is the exception: an unstructured
  /// `Task {}` or a `Task.detached` started inside an effect or a dependency (a client that
  /// polls on a task of its own) escapes the test store's executor and runs on the global
  /// one, where it may reach its sleep only after the test advanced the clock, and that
  /// advance wakes nothing. Wait for its sleep before each advance:
  ///
  /// ```swift
  /// await store.send(.onAppear)  // subscribes to a client that polls on `Task.detached`
  /// for _ in 1...3 {
  ///   await clock.waitForSleepers()
  ///   await clock.advance(by: .seconds(1))
  ///   await store.receive(.updateReceived) { $0.updateCount += 1 }
  /// }
  /// ```
  ///
  /// A test store whose `receive` waits in vain names such sleeps on a clock the feature holds.
  ///
  /// An effect the store runs can also be resumed from outside it: by a stream the test feeds
  /// from another task, or by a client whose answer takes real time. It then waits for the
  /// store to run it. When the test store's feature holds this clock (as a stored property of
  /// its reducer), this method runs the store's effects as they are resumed, until the
  /// sleepers are there.
  ///
  /// - Parameter count: How many sleepers to wait for.
  /// - Returns: Whether they are there: `false` when the task was cancelled first (by a
  ///   test's time limit, say).
  @discardableResult
  public nonisolated(nonsending) func waitForSleepers(_ count: Int = 1) async -> Bool {
    while true {
      let executors = await settleStores()
      // One with work still ready after settling was resumed from outside meanwhile, or runs
      // something that never pauses (its store reported it, and runs a bounded number of its
      // jobs a settling): either way it is settled again, after letting other tasks run. Left
      // out of the wait, a job enqueued just now would never run.
      if executors.contains(where: \.hasWork) {
        if state.withLock({ $0.sleepers.count >= count }) { return true }
        if Task.isCancelled { return false }
        await Task.yield()
        continue
      }
      switch await waitForSleepersOrWork(count, on: executors) {
      case .sleepers: return true
      case .cancelled: return false
      case .work: continue
      }
    }
  }

  private enum Wait {
    case sleepers
    case work
    case cancelled
  }

  /// Suspends until at least `count` sleeps wait on this clock, a job is enqueued on one of
  /// `executors`, or the calling task is cancelled.
  private nonisolated(nonsending) func waitForSleepersOrWork(
    _ count: Int, on executors: [ManualTaskExecutor]
  ) async -> Wait {
    let id = state.withLock { state in
      state.nextID += 1
      return state.nextID
    }
    let once = ResumeOnce<Wait>()
    return await withTaskCancellationHandler {
      await withUnsafeContinuation { (continuation: UnsafeContinuation<Wait, Never>) in
        once.set(continuation)
        let ready = state.withLock { state -> Wait? in
          if state.sleepers.count >= count { return .sleepers }
          if Task.isCancelled { return .cancelled }
          state.sleeperWaiters[id] = (count, { once.resume(returning: .sleepers) })
          return nil
        }
        if let ready {
          once.resume(returning: ready)
          return
        }
        for executor in executors {
          let handler = executor.onNextEnqueue {
            self.state.withLock { _ = $0.sleeperWaiters.removeValue(forKey: id) }
            once.resume(returning: .work)
          }
          if let handler { once.onFinish { executor.removeNextEnqueueHandler(handler) } }
        }
      }
    } onCancel: {
      state.withLock { _ = $0.sleeperWaiters.removeValue(forKey: id) }
      once.resume(returning: .cancelled)
    }
  }

  /// Moves time forward by `duration`, waking every sleeper whose deadline it passes.
  ///
  /// - Parameters:
  ///   - duration: How far to move. A negative duration does nothing.
  ///   - maxSteps: How many sleepers to wake at most, a guard against a loop that sleeps
  ///     again for so short a time that it would wake more often than a test could take
  ///     (every nanosecond for a second: 10^9 times). When it is reached with sleepers left
  ///     before the end, time stops at the last one woken, and the clock reports a runtime
  ///     warning as ``run(maxSteps:fileID:line:)`` does: where the first sleeper left reports
  ///     its warnings (a test store's effect to its store, which fails the test; another task
  ///     through the ``RuntimeWarningHandler`` it slept under). The default, 10,000, is `run`'s (a
  ///     timer that ticks every millisecond can run for 10 seconds of the clock's time); pass
  ///     more for a test whose effects wake that often.
  ///   - fileID: The file the warning is attributed to.
  ///   - line: The line the warning is attributed to.
  public nonisolated(nonsending) func advance(
    by duration: Duration = .zero, maxSteps: Int = 10_000, fileID: StaticString = #fileID,
    line: UInt = #line
  ) async {
    await advance(
      to: now.advanced(by: duration), maxSteps: maxSteps, named: "advance(by: \(duration))",
      fileID: fileID, line: line)
  }

  /// Moves time forward to `deadline`, waking every sleeper whose deadline is not after it.
  ///
  /// It first runs the effects of the test stores whose features hold this clock (as a stored
  /// property of their reducers), or whose effects have slept on it, that were resumed from
  /// outside the store since its last step (by a stream the test fed, say), so that one on its
  /// way to a sleep reaches it before time moves.
  ///
  /// Sleepers wake one at a time in deadline order, with ``now`` set to each one's deadline
  /// as it wakes, so a woken task that sleeps again measures from the right time. When
  /// `deadline` is before ``now``, time does not move.
  ///
  /// - Parameters:
  ///   - deadline: The time to move to.
  ///   - maxSteps: How many sleepers to wake at most; see
  ///     ``advance(by:maxSteps:fileID:line:)``.
  ///   - fileID: The file the warning is attributed to.
  ///   - line: The line the warning is attributed to.
  public nonisolated(nonsending) func advance(
    to deadline: Instant, maxSteps: Int = 10_000, fileID: StaticString = #fileID,
    line: UInt = #line
  ) async {
    await advance(
      to: deadline, maxSteps: maxSteps, named: "advance(to: \(deadline))", fileID: fileID,
      line: line)
  }

  private nonisolated(nonsending) func advance(
    to deadline: Instant, maxSteps: Int, named call: String, fileID: StaticString, line: UInt
  ) async {
    await settleStores()
    let maxSteps = max(maxSteps, 0)
    var steps = 0
    while steps < maxSteps, let sleeper = popFirstSleeper(notAfter: deadline) {
      await wake(sleeper)
      steps += 1
    }
    // Stopped by the guard, time stays at the last sleeper woken: those left are not late.
    // (Only then: a sleeper that arrived after the last look, from a task no store runs, sleeps
    // on past the deadline, as it would have had it arrived after the advance.)
    let left = state.withLock { state -> Sleeper? in
      if steps == maxSteps,
        let first = state.sleepers.filter({ $0.deadline <= deadline }).min(by: {
          $0.deadline < $1.deadline
        })
      {
        return first
      }
      state.now = max(state.now, deadline)
      return nil
    }
    guard let left else { return }
    left.warnings(
      RuntimeWarning(
        message: """
          TestClock.\(call) woke \(maxSteps) sleepers and stopped at \(now), with sleepers \
          left before \(deadline); an effect probably sleeps again and again for a very short \
          time (an interval of a nanosecond from settings, say). Pass a larger maxSteps if the \
          test means it.
          """,
        fileID: "\(fileID)",
        line: line
      )
    )
  }

  /// Moves time forward until no sleeper is left.
  ///
  /// - Parameters:
  ///   - maxSteps: How many sleepers to wake at most, a guard against a loop that always
  ///     sleeps again. When it is reached with sleepers left, the clock reports a runtime
  ///     warning where the first sleeper left reports its warnings: for an effect, to its
  ///     store (a test store fails the test); otherwise through
  ///     ``RuntimeWarningHandler/current``. The default, 10,000, catches an endless timer
  ///     that sends an action at each tick in a few seconds in a debug build (a test store
  ///     keeps each received action with the state after it, so each step costs more than the
  ///     one before: 100,000 steps had not ended after 400 seconds); pass more for a test
  ///     whose effects sleep that many times.
  ///   - fileID: The file the warning is attributed to.
  ///   - line: The line the warning is attributed to.
  public nonisolated(nonsending) func run(
    maxSteps: Int = 10_000, fileID: StaticString = #fileID, line: UInt = #line
  ) async {
    await settleStores()
    let maxSteps = max(maxSteps, 0)
    var steps = 0
    while steps < maxSteps, let sleeper = popFirstSleeper(notAfter: nil) {
      await wake(sleeper)
      steps += 1
    }
    // Only when the guard stopped it: a sleeper from a task no store runs may arrive after
    // the last look, with fewer wakes.
    guard steps == maxSteps, let report = state.withLock({ $0.sleepers.first?.warnings }) else {
      return
    }
    report(
      RuntimeWarning(
        message: """
          TestClock.run() woke \(maxSteps) sleepers and sleepers remain; an effect probably \
          sleeps in an endless loop. Advance the clock by a fixed amount instead.
          """,
        fileID: "\(fileID)",
        line: line
      )
    )
  }

  /// Notes that a test store (`owner`) whose feature holds this clock runs its effects on
  /// `executor`: ``advance(to:maxSteps:fileID:line:)``, ``run(maxSteps:fileID:line:)`` and
  /// ``waitForSleepers(_:)`` run that store's effects first.
  package func attach(_ executor: ManualTaskExecutor, owner: AnyObject & Sendable) {
    state.withLock { state in
      state.stores.removeAll { $0.executor == nil || $0.executor === executor }
      state.stores.append(WeakExecutor(executor: executor, owner: owner))
    }
  }

  /// Notes that effects of the test store running on `executor` sleep on this clock, unless
  /// the store is noted already: from then on, the clock runs the store's effects first, as
  /// for a store whose feature holds it.
  private func attachIfAbsent(_ executor: ManualTaskExecutor) {
    state.withLock { state in
      guard !state.stores.contains(where: { $0.executor === executor }) else { return }
      state.stores.removeAll { $0.executor == nil }
      // With no owner: the store is not known here, and an executor can outlive its store
      // (winding down effects the store cancelled), so it is not counted among the live
      // stores that hold the clock (`storeCount`).
      state.stores.append(WeakExecutor(executor: executor, owner: nil))
    }
  }

  /// How many live test stores have features that hold this clock.
  package var storeCount: Int {
    state.withLock { $0.stores.count { $0.owner != nil } }
  }

  /// Runs the effects of the test stores whose features hold this clock that were resumed
  /// from outside their store (a stream the test fed, a dependency's own latency) to their
  /// next suspension: perhaps a sleep on this clock, which the caller then wakes or waits for.
  ///
  /// - Returns: The stores' executors.
  @discardableResult
  private nonisolated(nonsending) func settleStores() async -> [ManualTaskExecutor] {
    let executors = state.withLock { $0.stores.compactMap(\.executor) }
    for executor in executors { await executor.settle() }
    return executors
  }

  private func popFirstSleeper(notAfter limit: Instant?) -> Sleeper? {
    state.withLock { state in
      var best: Int?
      for index in state.sleepers.indices {
        let deadline = state.sleepers[index].deadline
        if let limit, deadline > limit { continue }
        if let current = best, state.sleepers[current].deadline <= deadline { continue }
        best = index
      }
      guard let best else { return nil }
      let sleeper = state.sleepers.remove(at: best)
      state.now = max(state.now, sleeper.deadline)
      return sleeper
    }
  }

  /// Resumes a sleeper and lets it run to its next suspension, and the store reduce what it
  /// sent, before the clock moves on.
  ///
  /// A sleeper under a test store resumes on the store's manual executor, which `settle` runs;
  /// but one whose code is isolated to an actor (a `@MainActor` effect) resumes on that
  /// actor's executor, which `settle` does not run. So the clock also waits for the sleeper's
  /// own signal that it resumed: it comes from the sleeper's task, which then runs on to its
  /// next suspension before the actor runs anything else, this clock included.
  private nonisolated(nonsending) func wake(_ sleeper: Sleeper) async {
    let wakeUp = WakeUp()
    state.withLock { $0.wakeUps[sleeper.id] = wakeUp }
    sleeper.continuation.resume()
    await sleeper.executor?.settle()
    guard await wakeUp.wait() else { return }
    await sleeper.executor?.settle()
  }
}

/// Resumes a continuation with the first value it is given, even one given before the
/// continuation (by a cancellation handler that ran first), and ignores the later ones.
private final class ResumeOnce<Value: Sendable>: Sendable {
  private struct State {
    var continuation: UnsafeContinuation<Value, Never>?
    var value: Value?
    var isResumed = false
    var onFinish: [@Sendable () -> Void] = []
  }
  private let state = Locked(State())

  init() {}

  /// Runs `cleanup` once the continuation is resumed (at once if it was).
  func onFinish(_ cleanup: @escaping @Sendable () -> Void) {
    let resumed = state.withLock { state in
      if !state.isResumed { state.onFinish.append(cleanup) }
      return state.isResumed
    }
    if resumed { cleanup() }
  }

  func set(_ continuation: UnsafeContinuation<Value, Never>) {
    let value = state.withLock { state -> Value? in
      guard let value = state.value, !state.isResumed else {
        state.continuation = continuation
        return nil
      }
      state.isResumed = true
      return value
    }
    if let value { finish(continuation, value) }
  }

  private func finish(_ continuation: UnsafeContinuation<Value, Never>, _ value: Value) {
    let cleanups = state.withLock { state in
      defer { state.onFinish = [] }
      return state.onFinish
    }
    for cleanup in cleanups { cleanup() }
    continuation.resume(returning: value)
  }

  func resume(returning value: Value) {
    let continuation = state.withLock { state -> UnsafeContinuation<Value, Never>? in
      guard !state.isResumed, state.value == nil else { return nil }
      guard let continuation = state.continuation else {
        state.value = value
        return nil
      }
      state.isResumed = true
      return continuation
    }
    if let continuation { finish(continuation, value) }
  }
}

/// A test store and its executor, held weakly: the clock keeps neither alive. The executor
/// can outlive its store while the store's cancelled effects wind down.
private struct WeakExecutor {
  weak var executor: ManualTaskExecutor?
  weak var owner: (AnyObject & Sendable)?
}

/// A one-shot signal from a woken sleeper to the clock that woke it.
private final class WakeUp: Sendable {
  private let state = Locked<(signaled: Bool, waiter: UnsafeContinuation<Void, Never>?)>(
    (false, nil))

  func signal() {
    let waiter = state.withLock { state in
      state.signaled = true
      defer { state.waiter = nil }
      return state.waiter
    }
    waiter?.resume()
  }

  /// Waits for the signal, or for the waiting task's cancellation.
  ///
  /// - Returns: Whether it had to wait: `false` when the signal had already come.
  nonisolated(nonsending) func wait() async -> Bool {
    if state.withLock({ $0.signaled }) { return false }
    await withTaskCancellationHandler {
      await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
        let signaled = state.withLock { state in
          if !state.signaled { state.waiter = continuation }
          return state.signaled
        }
        if signaled { continuation.resume() }
      }
    } onCancel: {
      signal()
    }
    return true
  }
}
