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
  /// It takes a clock of any type, `any Clock<Duration>` included, as a feature stores it.
  ///
  /// The ticks fall at fixed times, `interval`, twice `interval` and so on after the first
  /// ``ClockTimer/Iterator/next()``: a slow consumer does not push the later ones back. One
  /// that falls behind skips the ticks it missed, and gets the next one due: an app that comes
  /// back after ten minutes in the background gets one tick, not six hundred at once. With a
  /// ``TestClock``, advancing it by five intervals under a test store delivers five ticks
  /// (the clock wakes each sleeper at its deadline, so none is missed). The sequence ends when
  /// the task iterating it is cancelled, so the loop above ends with its effect. It also ends
  /// if the clock's sleep throws another error than cancellation (a clock of your own may):
  /// that error is reported as a runtime warning naming it and where the timer was made (to
  /// the handler of the store whose effect iterates it; a test store fails the test), never
  /// dropped in silence.
  ///
  /// - Parameters:
  ///   - interval: The time between two ticks; it must be positive.
  ///   - tolerance: The leeway each sleep allows the clock, as in `sleep(until:tolerance:)`.
  ///   - fileID: The file of the call, named in the warning for an error the clock throws.
  ///   - line: The line of the call, named in that warning.
  /// - Returns: The ticks: each one how long after the first `next()` it was due (`interval`,
  ///   twice `interval`, ...).
  public func timer(
    interval: Duration, tolerance: Duration? = nil, fileID: String = #fileID, line: UInt = #line
  ) -> ClockTimer<Duration> {
    precondition(interval > .zero, "Clock.timer(interval:): the interval must be positive.")
    // Times are kept as offsets from one instant of this clock, so that the sequence's type
    // names the clock's duration alone: a method whose result named the clock's own type
    // could not be called on `any Clock<Duration>`.
    let origin = now
    return ClockTimer(
      interval: interval,
      site: (fileID, line),
      elapsed: { origin.duration(to: self.now) },
      sleep: { try await self.sleep(until: origin.advanced(by: $0), tolerance: tolerance) }
    )
  }
}

/// The ticks of a clock, at a fixed interval: made by
/// `Clock.timer(interval:tolerance:fileID:line:)`.
public struct ClockTimer<Duration: DurationProtocol>: AsyncSequence, Sendable {
  /// How long after the first `next()` a tick was due.
  public typealias Element = Duration
  /// The sequence ends, rather than throws, when its task is cancelled (or when the clock
  /// throws another error, which is reported as a runtime warning).
  public typealias Failure = Never

  let interval: Duration
  /// Where the timer was made, for the warning about an error the clock throws.
  let site: (fileID: String, line: UInt)
  /// The time since the clock's instant the offsets count from.
  let elapsed: @Sendable () -> Duration
  /// Sleeps until that offset from the instant.
  let sleep: @Sendable (Duration) async throws -> Void

  /// The smallest whole number of intervals at least as long as `gap`, both positive, counted
  /// exactly: in attoseconds for a `Swift.Duration`, and with the type's own multiplication
  /// for another duration type. (As a `Double` quotient alone, 15 intervals of a third of a
  /// second came to just over 15, and a tick due exactly on a consumer's return was skipped;
  /// a count past `Int.max` stopped the program.)
  static func wholeIntervals(_ interval: Duration, toCover gap: Duration) -> Duration {
    if let interval = interval as? Swift.Duration, let gap = gap as? Swift.Duration {
      let step = interval.attoseconds
      let (count, remainder) = gap.attoseconds.quotientAndRemainder(dividingBy: step)
      let whole = remainder == 0 ? count : count + 1
      // At most one interval past the gap: fits, unless the gap is within an interval of the
      // largest duration; then the gap itself, so that the tick is due at once.
      let (covered, overflow) = step.multipliedReportingOverflow(by: whole)
      return Swift.Duration(attoseconds: overflow ? gap.attoseconds : covered) as! Duration
    }
    // Another duration type: its own division, a `Double`, with the count kept within
    // `Int`; then made exact with the type's own multiplication and comparison. (Past 2^53
    // units the quotient rounds: a tick due exactly on the consumer's return was taken for
    // missed.) The correction moves the count by at most the quotient's error, bounded here.
    var count = Int(Swift.max(1, Swift.min((gap / interval).rounded(.up), Double(Int.max / 2))))
    var covers = false
    var steps = 0
    while steps < 1_024, count > 1, interval * (count - 1) >= gap {
      count -= 1
      covers = true
      steps += 1
    }
    while !covers, steps < 1_024, interval * count < gap {
      count += 1
      steps += 1
    }
    return interval * count
  }

  /// Starts the ticks: the first is due `interval` after the first call to `next()`.
  public func makeAsyncIterator() -> Iterator {
    Iterator(timer: self)
  }

  /// Waits for each tick in turn.
  public struct Iterator: AsyncIteratorProtocol, Sendable {
    let timer: ClockTimer
    /// When the first call to ``next()`` was made, and when the last tick was due.
    var start: Duration?
    var deadline: Duration?
    /// Whether the sequence ended (its task was cancelled, or the clock threw): it stays
    /// ended.
    var isFinished = false

    /// Waits for the next tick and returns how long after the first call it was due, or
    /// `nil` once the task is cancelled, or once the clock's sleep threw another error than
    /// cancellation, which is reported as a runtime warning (to
    /// ``RuntimeWarningHandler/current``, the store's handler inside its effects), also when
    /// it is thrown once the task was cancelled.
    public mutating func next() async -> Duration? {
      // Ended with its task, whether or not the clock's sleep throws for the cancellation (a
      // clock of one's own may just return): checked here, the ticks stop on any clock.
      guard !isFinished, !Task.isCancelled else {
        isFinished = true
        return nil
      }
      let now = timer.elapsed()
      let start = self.start ?? now
      self.start = start
      var due = (deadline ?? start) + timer.interval
      if due < now {
        // Ticks missed while the consumer was busy, or the app suspended: skipped, to the
        // next one due from now on, counted in whole intervals so as not to drift.
        due += ClockTimer.wholeIntervals(timer.interval, toCover: now - due)
      }
      do {
        try await timer.sleep(due)
      } catch {
        isFinished = true
        // Cancellation ends the ticks with their task; any other error the clock threw is
        // said, as an effect's error is, since the sequence cannot throw it: also one thrown
        // once the task was cancelled, as a `.run`'s, a debounce's or a throttle's is.
        if !EffectRuntime<Never>.meansCancellation(error) {
          let ending =
            Task.isCancelled
            ? "Its task had been cancelled: the timer ended, as it would have anyway."
            : "The timer ended before the tick due \(due - start) after the first, as if its task had been cancelled."
          RuntimeWarningHandler.current(
            RuntimeWarning(
              message: """
                A timer's clock threw an error from its sleep: \(describeError(error)). \(ending)
                """,
              fileID: timer.site.fileID,
              line: timer.site.line))
        }
        return nil
      }
      // Cut short by the cancellation of its task, on a clock whose sleep returns for it: no
      // tick is due.
      if Task.isCancelled {
        isFinished = true
        return nil
      }
      deadline = due
      return due - start
    }

    /// Waits for the next tick; the sequence never throws.
    public mutating func next(isolation actor: isolated (any Actor)?) async -> Duration? {
      await next()
    }
  }
}
