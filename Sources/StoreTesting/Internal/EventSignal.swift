import Effects

/// Wakes a waiting test store when effect work arrives from outside its executor (a hop to the
/// main actor, a callback from another thread), with a timeout that bounds only the failure
/// path: a test whose effects run on the test executor never waits on it.
final class EventSignal: Sendable {
  private struct State {
    var generation = 0
    var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
    var nextWaiter = 0
  }
  private let state = Locked(State())

  /// How many events have fired so far.
  var generation: Int {
    state.withLock { $0.generation }
  }

  /// Records an event and wakes every waiter.
  func fire() {
    let waiters = state.withLock { state in
      state.generation += 1
      defer { state.waiters = [:] }
      return Array(state.waiters.values)
    }
    for waiter in waiters { waiter.resume() }
  }

  /// The longest one wait sleeps: `Task.sleep(for:)` stops the program for a duration past
  /// about 292 years (it counts nanoseconds in 64 bits), and a test store's timeout can be
  /// longer (`.seconds(Int64.max)`, to wait as long as it takes). The caller's loop waits
  /// again until its deadline.
  static let longestWait = Duration.seconds(86_400)

  /// Waits until an event fires after `generation`, or `timeout` of real time passes (at
  /// most ``longestWait``).
  ///
  /// - Returns: Whether an event fired.
  func wait(after generation: Int, timeout: Duration) async -> Bool {
    await withTaskGroup(of: Bool.self) { group in
      group.addTask { await self.waitForEvent(after: generation) }
      group.addTask {
        try? await Task.sleep(for: min(timeout, Self.longestWait))
        return false
      }
      let fired = await group.next() ?? false
      group.cancelAll()
      return fired || self.generation > generation
    }
  }

  private func waitForEvent(after generation: Int) async -> Bool {
    let id = state.withLock { state in
      state.nextWaiter += 1
      return state.nextWaiter
    }
    await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        let ready = state.withLock { state in
          if state.generation > generation || Task.isCancelled { return true }
          state.waiters[id] = continuation
          return false
        }
        if ready { continuation.resume() }
      }
    } onCancel: {
      let waiter = state.withLock { $0.waiters.removeValue(forKey: id) }
      waiter?.resume()
    }
    return self.generation > generation
  }
}
