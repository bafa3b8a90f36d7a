/// A clock whose sleeps return at once, moving its time forward by the amount slept.
///
/// Use it where a test does not care about timing, such as a feature that waits before a
/// retry: the effect runs through without waiting and the clock records how long it would
/// have slept.
public final class ImmediateClock: Clock, Sendable {
  /// A point in an immediate clock's time: an offset from the moment the clock was created.
  public typealias Instant = TestClock.Instant

  private let current = Locked(Instant())

  /// Creates a clock at time zero.
  public init() {}

  /// The current time: the latest deadline slept until so far.
  ///
  /// A sleep for a duration counts from `now` as it is when the sleep starts, and moves `now`
  /// before it returns, so sleeps that start one after another add up, one task's or several
  /// tasks': the two effects of a `.merge` that each sleep 10 seconds leave it at 20, since the
  /// second starts its sleep after the first moved the clock. A sleep until an instant already
  /// passed leaves it where it is. Each sleep moves time for every user of the clock: a timer
  /// on it, beside a 10-second sleep, takes its ticks for missed and skips them.
  public var now: Instant {
    current.withLock { $0 }
  }

  /// The smallest step the clock can measure: any duration.
  public var minimumResolution: Duration { .zero }

  /// Moves ``now`` to `deadline` if it is later, and returns after one yield, without waiting.
  ///
  /// The yield lets other work run before the caller goes on, as a real sleep does: a loop of
  /// sleeps (a timer, a polling loop) is a job per turn, not one job that never ends. Without
  /// it, a timer on an immediate clock under a `TestStore` ran forever in one job, out of the
  /// store's reach, and the test hung with no message; now a bounded loop runs through, and
  /// an endless one is stopped and reported.
  ///
  /// - Parameters:
  ///   - deadline: The time the caller wants to wake at.
  ///   - tolerance: Ignored.
  /// - Throws: `CancellationError` when the calling task is cancelled, before or during the
  ///   yield (after the yield, either way: a loop that ignores the error still pauses).
  public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
    try await checkCancellationPausing()
    current.withLock { $0 = max($0, deadline) }
    await Task.yield()
    try Task.checkCancellation()
  }
}

/// Throws `CancellationError` when the current task is cancelled, after one yield: a loop that
/// swallows a cancelled sleep's error (`try? await clock.sleep(for:)`) still pauses at each
/// turn, a job per turn, which a test store stops and reports as work that never pauses. Had
/// it thrown at once, the loop would be one job that never ends, which nothing can stop: the
/// test hung with no message.
package func checkCancellationPausing() async throws {
  guard Task.isCancelled else { return }
  await Task.yield()
  throw CancellationError()
}
