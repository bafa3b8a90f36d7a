import Effects
import Testing

@testable import Store

/// A store whose effects run only when the test settles it, so tests decide exactly when
/// effect work happens: no real sleeps, no timing.
@MainActor
final class Harness<R: Reducer> {
  let executor = ManualTaskExecutor()
  let core: RootCore<R>
  let store: Store<R.State, R.Action>
  private(set) var processed: [(action: R.Action, origin: ActionOrigin)] = []

  init(initialState: R.State, warnings: RuntimeWarningHandler = .current, reducer: R) {
    core = RootCore(
      initialState: initialState,
      reducer: reducer,
      executor: executor,
      warnings: warnings
    )
    store = Store(core: core)
    core.didReduce = { [unowned self] action, origin in
      self.processed.append((action, origin))
    }
    executor.onSettle { @MainActor [weak self] in
      self?.settle()
      return self != nil
    }
  }

  var state: R.State { core.untrackedState }

  /// Runs effect work and reduces what it reports until nothing is left to do.
  func settle() {
    core.runEffectsUntilIdle()
  }

  @discardableResult
  func send(_ action: R.Action) -> StoreTask {
    let task = store.send(action)
    settle()
    return task
  }
}

/// Collects runtime warnings for a test.
final class WarningLog: Sendable {
  private let warnings = Locked<[RuntimeWarning]>([])

  var handler: RuntimeWarningHandler {
    RuntimeWarningHandler { warning in self.warnings.withLock { $0.append(warning) } }
  }

  var messages: [String] {
    warnings.withLock { $0.map(\.message) }
  }

  var all: [RuntimeWarning] {
    warnings.withLock { $0 }
  }
}

/// A flag an effect sets when it sees its own cancellation.
final class Flag: Sendable {
  private let value = Locked(false)
  func set() { value.withLock { $0 = true } }
  var isSet: Bool { value.withLock { $0 } }
}

/// Parks a task until released, without timing: a continuation opened from outside.
final class Gate: Sendable {
  private struct State {
    var open = false
    var nextWaiter = 0
    var waiters: [Int: CheckedContinuation<Bool, Never>] = [:]
  }
  private let state = Locked(State())

  /// Waits until the gate opens, whatever happens to the waiting task (an effect that
  /// ignores cancellation waits here).
  func wait() async {
    await park(id: newWaiter(), cancellable: false)
  }

  /// Waits until the gate opens, or the waiting task is cancelled (a test's time limit ran
  /// out, say).
  ///
  /// - Returns: Whether the gate opened.
  @discardableResult
  func waitUnlessCancelled() async -> Bool {
    let id = newWaiter()
    return await withTaskCancellationHandler {
      await park(id: id, cancellable: true)
    } onCancel: {
      // Only this waiter has this id.
      let waiter = state.withLock { $0.waiters.removeValue(forKey: id) }
      waiter?.resume(returning: false)
    }
  }

  private func newWaiter() -> Int {
    state.withLock { state in
      defer { state.nextWaiter += 1 }
      return state.nextWaiter
    }
  }

  @discardableResult
  private func park(id: Int, cancellable: Bool) async -> Bool {
    await withCheckedContinuation { continuation in
      // Checked and registered under the lock, which the cancellation handler also takes.
      let outcome: Bool? = state.withLock { state in
        if state.open { return true }
        if cancellable, Task.isCancelled { return false }
        state.waiters[id] = continuation
        return nil
      }
      if let outcome { continuation.resume(returning: outcome) }
    }
  }

  func open() {
    let waiters = state.withLock { state in
      state.open = true
      defer { state.waiters = [:] }
      return state.waiters.values
    }
    for waiter in waiters { waiter.resume(returning: true) }
  }
}
