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

  /// The current time: the sum of every sleep so far.
  public var now: Instant {
    current.withLock { $0 }
  }

  /// The smallest step the clock can measure: any duration.
  public var minimumResolution: Duration { .zero }

  /// Returns at once, moving ``now`` to `deadline` if it is later.
  ///
  /// - Parameters:
  ///   - deadline: The time the caller wants to wake at.
  ///   - tolerance: Ignored.
  /// - Throws: `CancellationError` when the calling task is cancelled.
  public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
    try Task.checkCancellation()
    current.withLock { $0 = max($0, deadline) }
  }
}
