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
    let key = CancelKey(namespace: context.namespace, id: throttle.id)
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
    if current != nil && !throttle.latest { return }
    // The waiting effect belongs to its group, ids and lifetime like any other, through a
    // placeholder that stands for it until the window closes.
    let placeholder = register(.sequence, site: nil, context, owner: context.group)
    state.withLock {
      $0.throttles[key]?.pending = Pending(effect: effect, context: context, record: placeholder)
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
    windowContext.cancelKeys.append(key)
    let timer = register(.timer, site: nil, windowContext, owner: nil)
    state.withLock {
      $0.records[timer.id]?.onFinish = { [weak self] in
        self?.closeWindow(key, throttle, timer: timer)
      }
    }
    let clock = throttle.clock
    let interval = throttle.interval
    spawn(
      timer, priority: nil, body: { _ in try await clock.sleep(for: interval) }, catchAction: nil)
  }

  @MainActor
  private func closeWindow(
    _ key: CancelKey,
    _ throttle: Effect<Action>.Throttle,
    timer: EffectRecord
  ) {
    let pending = state.withLock { state -> Pending? in
      let pending = state.throttles[key]?.pending
      // The window stays open only for a waiting effect that will run now and open the next;
      // one cancelled meanwhile (with its sender's task, say) leaves it closed.
      if timer.isCancelled || pending == nil || pending?.record.isCancelled == true {
        state.throttles[key] = nil
      } else {
        state.throttles[key]?.pending = nil
      }
      return pending
    }
    guard let pending else { return }
    finish(pending.record, error: nil)
    guard !timer.isCancelled, !pending.record.isCancelled else { return }
    var context = pending.context
    context.isDeferred = true
    start(pending.effect, context)
    openWindow(key, throttle, pending.context)
  }
}
