extension Clock {
  /// A sequence that ticks every `interval`, for an effect that acts on a schedule:
  ///
  /// ```swift
  /// return .run { send in
  ///   for await _ in clock.timer(interval: .seconds(1)) { send(.timerTicked) }
  /// }
  /// .cancellable(id: CancelID.timer, cancelInFlight: true)
  /// ```
  ///
  /// The ticks fall at fixed times, `interval`, twice `interval` and so on after the first
  /// ``ClockTimer/Iterator/next()``: a slow consumer does not push the later ones back. One
  /// that falls behind skips the ticks it missed, and gets the next one due: an app that comes
  /// back after ten minutes in the background gets one tick, not six hundred at once. With a
  /// ``TestClock``, advancing it by five intervals under a test store delivers five ticks
  /// (the clock wakes each sleeper at its deadline, so none is missed). The sequence ends when
  /// the task iterating it is cancelled, so the loop above ends with its effect.
  ///
  /// - Parameters:
  ///   - interval: The time between two ticks; it must be positive.
  ///   - tolerance: The leeway each sleep allows the clock, as in `sleep(until:tolerance:)`.
  /// - Returns: The ticks: each one the instant it was due.
  public func timer(interval: Duration, tolerance: Duration? = nil) -> ClockTimer<Self> {
    ClockTimer(clock: self, interval: interval, tolerance: tolerance)
  }
}

/// The ticks of a clock, at a fixed interval: made by `Clock.timer(interval:tolerance:)`.
public struct ClockTimer<C: Clock>: AsyncSequence, Sendable {
  /// The instant a tick was due.
  public typealias Element = C.Instant
  /// The sequence ends, rather than throws, when its task is cancelled.
  public typealias Failure = Never

  let clock: C
  let interval: C.Duration
  let tolerance: C.Duration?

  init(clock: C, interval: C.Duration, tolerance: C.Duration?) {
    precondition(interval > .zero, "Clock.timer(interval:): the interval must be positive.")
    self.clock = clock
    self.interval = interval
    self.tolerance = tolerance
  }

  /// Starts the ticks: the first is due `interval` after the first call to `next()`.
  public func makeAsyncIterator() -> Iterator {
    Iterator(timer: self)
  }

  /// Waits for each tick in turn.
  public struct Iterator: AsyncIteratorProtocol, Sendable {
    let timer: ClockTimer
    /// When the last tick was due; `nil` before the first call to ``next()``.
    var deadline: C.Instant?
    /// Whether the sequence ended (its task was cancelled): it stays ended.
    var isFinished = false

    /// Waits for the next tick and returns the instant it was due, or `nil` once the task is
    /// cancelled.
    public mutating func next() async -> C.Instant? {
      guard !isFinished else { return nil }
      let now = timer.clock.now
      var due = (deadline ?? now).advanced(by: timer.interval)
      if due < now {
        // Ticks missed while the consumer was busy, or the app suspended: skipped, to the
        // next one due from now on, counted in whole intervals so as not to drift.
        let missed = (due.duration(to: now) / timer.interval).rounded(.up)
        due = due.advanced(by: timer.interval * Int(missed))
      }
      do {
        try await timer.clock.sleep(until: due, tolerance: timer.tolerance)
      } catch {
        // Only cancellation stops a clock's sleep.
        isFinished = true
        return nil
      }
      deadline = due
      return due
    }

    /// Waits for the next tick; the sequence never throws.
    public mutating func next(isolation actor: isolated (any Actor)?) async -> C.Instant? {
      await next()
    }
  }
}
