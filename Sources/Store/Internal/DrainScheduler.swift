import Dispatch

/// Where a live store runs its drains of what effects report: as jobs on the main queue, the
/// main actor's executor.
///
/// Tests substitute jobs they run one at a time, to see what each drain reduces without
/// depending on when a test's own task gets back to the main actor. (The main queue runs jobs
/// in the order they were queued, but on Linux a task resumed from a continuation or a
/// `Task.yield()` passes through the global pool first: on a loaded machine, thousands of
/// drain jobs ran before it was queued again.)
@usableFromInline
package struct DrainScheduler: Sendable {
  /// Arranges for `job` to run later on the main actor, in a job of its own.
  package let schedule: @Sendable (_ job: @escaping @Sendable @MainActor () -> Void) -> Void

  /// Creates a scheduler that hands each job to `schedule`.
  package init(
    schedule: @escaping @Sendable (_ job: @escaping @Sendable @MainActor () -> Void) -> Void
  ) {
    self.schedule = schedule
  }

  /// Jobs on the main queue: a job there costs less than a task, and `assumeIsolated` checks
  /// that the main queue is the main actor's executor.
  @usableFromInline package static let mainQueue = DrainScheduler { job in
    DispatchQueue.main.async { MainActor.assumeIsolated { job() } }
  }
}
