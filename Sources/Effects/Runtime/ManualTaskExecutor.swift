import Dispatch

/// A task executor whose jobs run only when asked, on the thread that asks.
///
/// Test stores start every effect task with this executor as its preference, so the
/// effect's nonisolated code (and that of default actors it calls) runs here rather than on
/// the global concurrent pool. ``runUntilIdle()`` then runs every job that is ready, in FIFO
/// order, until none is left: a deterministic schedule with no sleeps and no yield counting.
/// ``TestClock`` drives the executor of each sleeper it wakes, so that a woken effect runs to
/// its next suspension before the clock moves on.
@usableFromInline
package final class ManualTaskExecutor: TaskExecutor, Sendable {
  private struct State {
    var jobs: [UnownedJob] = []
    var head = 0
    var isRunning = false
    var onEnqueue: (@Sendable () -> Void)?
    var nextEnqueue: [Int: @Sendable () -> Void] = [:]
    var nextHandlerID = 0
    var settle: (@Sendable () async -> Bool)?
    /// Whether the owner is gone (see ``relinquish()``), and how many jobs went to the global
    /// queues since.
    var isRelinquished = false
    var handedOver = 0
    /// Where to say that jobs past ``handOverLimit`` were dropped: the handler current when
    /// the executor was let go.
    var warnings: RuntimeWarningHandler?
  }
  private let state = Locked(State())

  /// How many jobs a relinquished executor hands to the global queues: a cancelled effect
  /// winds down in a few; one that ignores cancellation and loops on `Task.yield()` would
  /// otherwise keep a thread busy for the rest of the test run.
  let handOverLimit: Int

  /// The executor that the current effect task prefers, when it runs under a test store.
  @TaskLocal package static var current: ManualTaskExecutor?

  /// Creates an executor.
  ///
  /// - Parameter handOverLimit: How many jobs it hands to the global queues once let go
  ///   (see ``relinquish()``).
  package init(handOverLimit: Int = 100_000) {
    self.handOverLimit = handOverLimit
  }

  /// Sets a handler called after every enqueued job, used to wake a waiting test store.
  package func onEnqueue(_ handler: @escaping @Sendable () -> Void) {
    state.withLock { $0.onEnqueue = handler }
  }

  /// Calls `handler` once, at the next enqueued job; at once if a job is waiting already.
  ///
  /// - Returns: What ``removeNextEnqueueHandler(_:)`` takes to drop the handler unused, or
  ///   `nil` when it was called at once.
  @discardableResult
  package func onNextEnqueue(_ handler: @escaping @Sendable () -> Void) -> Int? {
    let id = state.withLock { state -> Int? in
      if state.head < state.jobs.count { return nil }
      state.nextHandlerID += 1
      state.nextEnqueue[state.nextHandlerID] = handler
      return state.nextHandlerID
    }
    if id == nil { handler() }
    return id
  }

  /// Drops a handler ``onNextEnqueue(_:)`` registered, if it has not been called.
  package func removeNextEnqueueHandler(_ id: Int) {
    state.withLock { _ = $0.nextEnqueue.removeValue(forKey: id) }
  }

  @usableFromInline
  package func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    let taken = state.withLock { state -> Taken in
      if state.isRelinquished {
        state.handedOver += 1
        let isFirstDropped = state.handedOver == handOverLimit + 1
        return Taken(
          handOver: state.handedOver <= handOverLimit,
          dropped: isFirstDropped ? state.warnings : nil)
      }
      state.jobs.append(job)
      let next = state.nextEnqueue
      if !next.isEmpty { state.nextEnqueue = [:] }
      return Taken(handler: state.onEnqueue, next: Array(next.values))
    }
    if taken.handOver { hand(job) }
    if let warnings = taken.dropped {
      warnings(
        RuntimeWarning(
          message: """
            Effects of a test store released before they finished ran \(handOverLimit) \
            jobs after it was gone without ending: an effect that ignores cancellation (a \
            loop on Task.yield() with no check of Task.isCancelled) keeps running. Its later \
            jobs are not run, so its task never finishes; check for cancellation in the loop.
            """,
          fileID: "StoreTesting", line: 0))
    }
    taken.handler?()
    for handler in taken.next { handler() }
  }

  /// What ``enqueue(_:)`` does with a job, decided under the lock.
  private struct Taken {
    var handOver = false
    /// Where to report the first job dropped past ``handOverLimit``.
    var dropped: RuntimeWarningHandler?
    var handler: (@Sendable () -> Void)?
    var next: [@Sendable () -> Void] = []
  }

  /// Lets the executor go, once its owner (a test store) is gone: the jobs waiting, and every
  /// job enqueued later, run on the global queues, since nobody will ask for them any more.
  /// The effects of a test store released unfinished are cancelled; their tasks must still
  /// run to their end, or they, and everything they hold, stay in memory for the rest of the
  /// run. (Up to ``handOverLimit`` jobs; those past it are left, unrun, and the first one
  /// left is reported as a runtime warning, through the handler current here.)
  package func relinquish() {
    let warnings = RuntimeWarningHandler.current
    let waiting = state.withLock { state -> [UnownedJob] in
      state.isRelinquished = true
      state.warnings = warnings
      let waiting = Array(state.jobs[state.head...])
      state.jobs = []
      state.head = 0
      state.handedOver += waiting.count
      return waiting
    }
    for job in waiting { hand(job) }
  }

  private func hand(_ job: UnownedJob) {
    let executor = asUnownedTaskExecutor()
    DispatchQueue.global().async { job.runSynchronously(on: executor) }
  }

  /// Sets what ``settle()`` does: a test store runs jobs and reduces what they reported, until
  /// neither is left. The hook returns `false` when its owner is gone; the executor then just
  /// runs its jobs.
  package func onSettle(_ settle: @escaping @Sendable () async -> Bool) {
    state.withLock { $0.settle = settle }
  }

  /// Runs everything that is ready, and whatever the owner does with the results, until the
  /// system is quiet. Without an owner's hook, this is ``runUntilIdle()``.
  ///
  /// Asked from one of its own jobs while a run is running it (an effect that advances its
  /// store's test clock), it returns at once: that run goes on to the other jobs once this one
  /// suspends. The owner's hook would first wait for the main actor, a wait in real time that
  /// a loaded machine made longer than a test store's timeout.
  package nonisolated(nonsending) func settle() async {
    if isRunningCurrentTask { return }
    if let settle = state.withLock({ $0.settle }), await settle() { return }
    runUntilIdle()
  }

  /// Whether the calling task prefers this executor and a run is running: then the caller is
  /// one of the run's jobs.
  private var isRunningCurrentTask: Bool {
    guard state.withLock({ $0.isRunning }) else { return false }
    return withUnsafeCurrentTask { $0?.unownedTaskExecutor == asUnownedTaskExecutor() }
  }

  /// Whether a job is waiting to run.
  package var hasWork: Bool {
    state.withLock { $0.head < $0.jobs.count }
  }

  /// Runs ready jobs, including those they enqueue, until none is left, or until `limit` have
  /// run: an effect that loops on `Task.yield()` always has a job ready.
  ///
  /// Re-entrant calls (a job that advances a test clock, say) return at once: the outer call
  /// runs the jobs.
  ///
  /// - Parameters:
  ///   - limit: How many jobs to run at most; the others stay queued.
  ///   - stop: Asked after each job: `true` stops the run there, the others staying queued
  ///     (a store stops once a job sent an action, to reduce it before the next job runs).
  /// - Returns: How many jobs ran.
  @discardableResult
  package func runUntilIdle(limit: Int = .max, stopAfterJob stop: () -> Bool = { false }) -> Int {
    let owns = state.withLock { state -> Bool in
      if state.isRunning { return false }
      state.isRunning = true
      return true
    }
    guard owns else { return 0 }
    var count = 0
    var stoppedEarly = false
    while true {
      guard count < limit else {
        stoppedEarly = true
        break
      }
      // `next()` clears the flag, in its lock, when it finds the queue empty.
      guard let job = next() else { break }
      job.runSynchronously(on: asUnownedTaskExecutor())
      count += 1
      if stop() {
        stoppedEarly = true
        break
      }
    }
    // Stopped with the flag still set (at the limit, or asked to): cleared here. Cleared
    // after `next()` did, it could be another caller's, which began in between.
    if stoppedEarly { state.withLock { $0.isRunning = false } }
    return count
  }

  private func next() -> UnownedJob? {
    state.withLock { state in
      guard state.head < state.jobs.count else {
        state.jobs.removeAll(keepingCapacity: true)
        state.head = 0
        state.isRunning = false
        return nil
      }
      defer {
        state.head += 1
        // Work that never pauses keeps a job queued, so the queue never empties: the jobs
        // run so far are dropped once they are half of it.
        if state.head >= 1_024, state.head * 2 >= state.jobs.count {
          state.jobs.removeFirst(state.head)
          state.head = 0
        }
      }
      return state.jobs[state.head]
    }
  }
}
