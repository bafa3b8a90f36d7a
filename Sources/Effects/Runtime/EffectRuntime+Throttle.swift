extension EffectRuntime {
  // A throttled effect runs at once and opens a window on its clock; effects with the same id
  // that arrive while the window is open wait (the latest or the first), and the one kept runs
  // when the window closes, opening the next.

  @MainActor
  func startThrottled(
    _ effect: Effect<Action>,
    _ throttle: Effect<Action>.Throttle,
    _ context: Context
  ) {
    let key = CancelKey(namespace: context.cancelNamespace, id: throttle.id)
    // A window whose timer was cancelled (its id cancelled, its lifetime ended) is closed
    // from then on, though the timer has not reported back yet: the effect it kept is dropped.
    let timer = state.withLock { $0.throttles[key]?.timer }
    if let timer, timer.isCancelled { closeWindow(key, timer: timer) }
    let opened = state.withLock { state in
      guard state.throttles[key] == nil else { return false }
      state.throttles[key] = ThrottleWindow()
      return true
    }
    guard !opened else {
      start(effect, context)
      openWindow(key, throttle, context)
      return
    }
    let current = state.withLock { $0.throttles[key]?.pending }
    // Without `latest`, the first waiting effect stays, unless it was cancelled meanwhile.
    if let current, !current.record.isCancelled, !throttle.latest { return }
    // The waiting effect belongs to its group, ids and lifetime like any other, through a
    // placeholder that stands for it until the window closes.
    let placeholder = register(.sequence, site: nil, context, owner: context.group)
    let windowTimer = state.withLock { state in
      state.throttles[key]?.pending = Pending(
        effect: effect, throttle: throttle, context: context, record: placeholder)
      return state.throttles[key]?.timer
    }
    // For a test store's list of what still runs: which effect the window holds back.
    windowTimer?.holdBack(context.origin)
    // Cancelled while it waits (with its sender's task, say), it has nothing left to do: it
    // ends then, not when the window closes, so its task stops running at once.
    let inbox = self.inbox
    placeholder.whenCancelled { [weak placeholder] in
      if let placeholder { inbox.push(.finished(placeholder, nil)) }
    }
    if let current { finish(current.record, error: nil) }
  }

  @MainActor
  private func openWindow(
    _ key: CancelKey,
    _ throttle: Effect<Action>.Throttle,
    _ context: Context
  ) {
    var windowContext = context
    // Filed under its own id alone: not under the cancellation ids around the throttle (a
    // `.cancellable(id:cancelInFlight:)` wrapped around it would close the window each time an
    // effect arrives, and nothing would ever be throttled). The running effect and the one
    // waiting keep those ids.
    windowContext.cancelKeys = [key]
    // The window belongs to the namespace of its id, not to the lifetime of the effect that
    // opened it: a screen task's hook shares the screen's ids, and the end of its task must
    // not close a window in which the screen's own effect waits (which was dropped with it).
    // Its id's cancellation, and the end of the namespace's lifetime, still close it. That
    // namespace ends with the innermost identity that does not share its ids: only the
    // sharing identities after it are cut. (A row inside an enum's case keeps its window in
    // its own lifetime, and a row added back with its id starts with none.)
    let kept =
      context.namespace.lastIndex(where: { !($0.base is any SharesCancellationIDs) })
      .map { $0 + 1 } ?? 0
    if kept < context.namespace.count {
      windowContext.namespace.removeSubrange(kept...)
      windowContext.tokens.removeSubrange(kept...)
    }
    let timer = register(.timer, site: nil, windowContext, owner: nil)
    state.withLock {
      $0.throttles[key]?.timer = timer
      $0.records[timer.id]?.onFinish = { [weak self] in
        self?.closeWindow(key, timer: timer)
      }
    }
    let clock = throttle.clock
    let interval = throttle.interval
    let site = throttle.site
    // Which throttle, and which window of it: the warnings of two windows read alike else.
    let id = throttle.id
    let origin = context.origin
    spawn(
      timer, priority: nil,
      body: { _ in
        do {
          try await clock.sleep(for: interval)
        } catch {
          // Cancelled with its id or its lifetime: the window closes quietly.
          if Task.isCancelled, Self.meansCancellation(error) { return }
          // The clock failed: the window closes now, as if its interval had passed, rather
          // than hold the waiting effect back for good. Said here, where the warning can name
          // the throttle (the timer is no `.run` a `catch:` could be passed to).
          let outcome =
            Task.isCancelled
            ? "Its window was closed already, with its id or its lifetime."
            : """
            Its window closed at once, as if its interval had passed: the effect waiting in \
            it, if any, ran then.
            """
          let thrown = describeError(error)
          let named = """
            The throttle has id \(describe(effectID: id)); the effect that opened the window \
            was started by action \(describe(origin)).
            """
          RuntimeWarningHandler.current(
            RuntimeWarning(
              message: """
                A throttle's clock threw an error from its sleep: \(thrown). \(outcome) \(named)
                """,
              fileID: site.fileID, line: site.line))
        }
      }, catchAction: nil)
  }

  /// Closes the window `timer` kept open, if it still is, running its waiting effect (which
  /// opens the next window) unless the window or the effect was cancelled.
  @MainActor
  private func closeWindow(_ key: CancelKey, timer: EffectRecord) {
    let pending = state.withLock { state -> Pending? in
      // Closed already (its timer was found cancelled when the id was used again), perhaps
      // with another window open now.
      guard let window = state.throttles[key], window.timer === timer else { return nil }
      let pending = window.pending
      // The window stays open only for a waiting effect that will run now and open the next;
      // one cancelled meanwhile (with its sender's task, say) leaves it closed.
      if timer.isCancelled || !window.holdsBack {
        state.throttles[key] = nil
      } else {
        state.throttles[key] = ThrottleWindow()
      }
      return pending
    }
    guard let pending else { return }
    if !timer.isCancelled, !pending.record.isCancelled {
      var context = pending.context
      context.isDeferred = true
      startingLate {
        // Always an effect and a throttle of this runtime's action type: only
        // `startThrottled` keeps them.
        start(pending.effect as! Effect<Action>, context)
        // The next window is the waiting effect's own: its interval, on its clock (not those
        // of the effect that opened the first window).
        openWindow(key, pending.throttle as! Effect<Action>.Throttle, pending.context)
      }
    } else {
      // Cancelled from another thread since the look under the lock (a `StoreTask` cancelled,
      // say), after the window was kept open for it: close that window, which no timer
      // would close, or every later effect with the id would wait in it for good. Nothing
      // else ran on the main actor meanwhile, so it is still the empty window kept above.
      state.withLock { state in
        if let window = state.throttles[key], window.timer == nil, window.pending == nil {
          state.throttles[key] = nil
        }
      }
    }
    // Only now that the effect runs in its group (and what it sent was reduced) does its
    // placeholder leave it: finishing first could empty the group, ending a concatenation's
    // part or a `finish()` too soon.
    finish(pending.record, error: nil)
  }
}
