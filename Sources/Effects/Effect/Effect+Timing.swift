extension Effect {
  /// Delays this effect until `duration` has passed on `clock` without another effect being
  /// started under the same `id`.
  ///
  /// Each new debounced effect with `id` cancels the previous one under `id`, whether it is
  /// still waiting or already running, so only the last of a burst runs. Inject the clock so
  /// tests can drive it with ``TestClock``.
  ///
  /// ```swift
  /// case .queryChanged(let query):
  ///   state.query = query
  ///   return .run { send in send(.results(try await client.search(query))) }
  ///     .debounce(id: CancelID.search, for: .milliseconds(300), clock: clock)
  /// ```
  ///
  /// A debounce of `.none` is the last of its burst too: it cancels the effect waiting or
  /// running under `id`, and leaves nothing running itself. A search whose query was cleared
  /// drops the search still waiting for the typing to pause, so stale results never arrive:
  ///
  /// ```swift
  /// let search: Effect<Action> =
  ///   query.isEmpty ? .none : .run { send in send(.results(try await client.search(query))) }
  /// return search.debounce(id: CancelID.search, for: .milliseconds(300), clock: clock)
  /// ```
  ///
  /// The effect runs only once the wait is over: if `clock`'s sleep throws an error other than
  /// cancellation (a clock of your own may), the effect is dropped, as if a later one had
  /// come, and the error is reported as a runtime warning naming it, `id` and this call. One
  /// thrown for a wait cancelled already (a later effect came, say) is reported too, and the
  /// warning says so.
  ///
  /// A `duration` of zero or less asks `clock` to sleep until a deadline not after its `now`,
  /// which the package's clocks and the standard ones return from at once. The effect runs as soon as its wait's task has run; only an effect started under
  /// `id` before then replaces it.
  ///
  /// - Parameters:
  ///   - id: The cancellation id shared by the burst.
  ///   - duration: How long to wait for quiet; zero or less waits for no time.
  ///   - clock: The clock to wait on.
  ///   - fileID: The file of the call, named while the effect waits (in a test's report of
  ///     the effects still running, say), and in the warning for an error the clock throws.
  ///   - line: The line of the call.
  /// - Returns: The debounced effect; for `.none`, one that only cancels the effect under `id`.
  public func debounce(
    id: some Hashable & Sendable,
    for duration: Duration,
    clock: any Clock<Duration>,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> Self {
    // Debouncing work that outlives the sender's task: the wait outlives it too, or
    // cancelling the task during the wait would drop the work.
    if case .outlivingSendersTask(let effect) = operation {
      return effect.debounce(id: id, for: duration, clock: clock, fileID: fileID, line: line)
        .outlivingSendersTask()
    }
    // Nothing to wait for: a wait would be left running, for no work (a test store's
    // `finish()` would wait for it), yet the burst still ends here.
    if isNone { return cancellable(id: id, cancelInFlight: true) }
    let delay = Self.run(fileID: fileID, line: line) { _ in
      do {
        try await clock.sleep(for: duration)
      } catch {
        // Cut short by a later effect under `id` (or the end of its lifetime): quietly.
        if Task.isCancelled, EffectRuntime<Action>.meansCancellation(error) { throw error }
        // The clock failed: the work is not to run without its wait, which would run every
        // effect of a burst. Said here, where the warning can name the debounce; the
        // concatenation ends without running the work, and without another warning. Thrown
        // for a wait cancelled already (a clock of one's own may throw its own error then),
        // it is said as a throttle's and a timer's are: the clock did not drop the effect.
        let outcome =
          Task.isCancelled
          ? """
          Its wait had been cancelled already (by a later effect under its id, or with its id, \
          its lifetime or its sender's task): the debounced effect was dropped, as it would \
          have been anyway.
          """
          : "The debounced effect was dropped without running, as if a later one had come."
        RuntimeWarningHandler.current(
          RuntimeWarning(
            message: """
              A debounce's clock threw an error from its sleep: \(describeError(error)). \
              \(outcome) The debounce has id \(describe(effectID: EffectID(id))).
              """,
            fileID: "\(fileID)", line: line))
        throw EndsSequenceReported()
      }
    }
    return delay.concatenate(with: self).cancellable(id: id, cancelInFlight: true)
  }

  /// Runs at most one effect with `id` per `interval` on `clock`.
  ///
  /// The first effect runs at once and opens a window of `interval`. Effects started with
  /// the same `id` while the window is open wait; when it closes, one of them runs (the latest
  /// when `latest` is true, otherwise the first) and opens a new window, of its own `interval`
  /// on its own `clock`. The rest are dropped.
  /// Cancelling `id` closes the window and drops the waiting effect. A window is open from
  /// when its effect starts, not from when that effect ends.
  ///
  /// The window belongs to `id` alone: cancelling another id wrapped around the throttle
  /// (`.cancellable(id:cancelInFlight:)`, `.cancel(id:)`) cancels the effect running and the one
  /// waiting, but leaves the window open, so the next effect still waits for it to close. The
  /// window also closes when the lifetime its `id` is namespaced in ends (its row removed,
  /// say).
  ///
  /// A window with no effect waiting in it does no work: a `TestStore`'s `finish()` does not
  /// wait for it to close, and its store task (the one `send` returned) does not either.
  ///
  /// A throttle of `.none` is `.none`: it opens no window, and does not replace the effect
  /// waiting in an open one.
  ///
  /// If `clock`'s sleep throws an error other than cancellation (a clock of your own may),
  /// the window closes at once, as if its interval had passed: the effect waiting in it, if
  /// any, runs then and opens the next window (effects are never held back for good, though
  /// they may run more often than `interval` allows). The error is reported as a runtime
  /// warning naming it, this call, `id`, and the action that started the effect that opened
  /// the window.
  ///
  /// An `interval` of zero or less asks `clock` to sleep until a deadline not after its
  /// `now`, which the package's clocks and the standard ones return from at once. Each window closes as soon as its timer's task has run: an effect started before
  /// then waits in it, as in any other window, and runs when it closes.
  ///
  /// - Parameters:
  ///   - id: The id the throttle is keyed by, namespaced like a cancellation id.
  ///   - interval: The shortest time between two effects that run; zero or less waits for no
  ///     time.
  ///   - clock: The clock that measures the interval.
  ///   - latest: Whether to keep the latest waiting effect rather than the first.
  ///   - fileID: The file of the call, named in the warning for an error the clock throws.
  ///   - line: The line of the call, named in that warning.
  /// - Returns: The throttled effect.
  public func throttle(
    id: some Hashable & Sendable,
    for interval: Duration,
    clock: any Clock<Duration>,
    latest: Bool,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> Self {
    // Nothing to run: no window to open, nothing to hold back.
    if isNone { return self }
    // Throttling work that outlives the sender's task: the work the window holds back
    // outlives it too.
    if case .outlivingSendersTask(let effect) = operation {
      return effect.throttle(
        id: id, for: interval, clock: clock, latest: latest, fileID: fileID, line: line
      )
      .outlivingSendersTask()
    }
    return Self(
      operation: .throttle(
        Throttle(
          id: EffectID(id), interval: interval, clock: clock, latest: latest,
          site: SourceSite(fileID: fileID, line: line)),
        self
      )
    )
  }
}
