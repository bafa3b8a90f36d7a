import Effects
import Testing

@testable import Store

/// A one-way gate an effect waits at, deaf to its task's cancellation: what an effect that
/// takes a while to wind down does (closing a file, a last write).
private final class WindDownGate: Sendable {
  private let state = Locked<(isOpen: Bool, waiter: CheckedContinuation<Void, Never>?)>(
    (false, nil))

  func wait() async {
    await withCheckedContinuation { continuation in
      let isOpen = state.withLock { state in
        if !state.isOpen { state.waiter = continuation }
        return state.isOpen
      }
      if isOpen { continuation.resume() }
    }
  }

  func open() {
    let waiter = state.withLock { state in
      state.isOpen = true
      defer { state.waiter = nil }
      return state.waiter
    }
    waiter?.resume()
  }
}

private struct Upload: Reducer {
  struct State: Equatable {}
  enum Action: Sendable { case start }

  let started: AsyncStream<Void>.Continuation
  let windDown: WindDownGate

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    .run { [started, windDown] _ in
      started.yield()
      try? await Task.sleep(for: .seconds(3_600))
      await windDown.wait()
    }
  }
}

/// `finish()` after `cancel()` returned at once, while the effects were still winding down
/// (concurrency adversary trial: 1 to 29 of 50 iterations). It waits for them now; only the
/// awaiting task's own cancellation returns at once.
@MainActor
@Suite struct FinishAfterCancelTests {
  /// A store whose upload has started, the upload's task, and the gate it winds down at.
  fileprivate func startedUpload() async -> (
    Store<Upload.State, Upload.Action>, StoreTask, WindDownGate
  ) {
    let (started, startedContinuation) = AsyncStream.makeStream(of: Void.self)
    let windDown = WindDownGate()
    let store = Store(initialState: Upload.State()) {
      Upload(started: startedContinuation, windDown: windDown)
    }
    let task = store.send(.start)
    for await _ in started { break }
    return (store, task, windDown)
  }

  @Test func finishAfterCancelWaitsForTheEffectsToWindDown() async {
    let (store, task, windDown) = await startedUpload()
    task.cancel()
    let finished = Locked(false)
    let waiting = Task { @MainActor in
      await task.finish()
      finished.withLock { $0 = true }
    }
    // The effect is held at its gate: however often the waiting task gets to run, it must
    // still be waiting.
    for _ in 0..<20 { await Task.yield() }
    #expect(!finished.withLock { $0 }, "finish() returned while the effect was winding down")
    #expect(task.isRunning)
    windDown.open()
    await waiting.value
    #expect(!task.isRunning)
    // The store runs the effects: it must outlive them.
    withExtendedLifetime(store) {}
  }

  @Test func cancellingTheAwaitingTaskReturnsAtOnce() async {
    let (store, task, windDown) = await startedUpload()
    let waiting = Task { @MainActor in await task.finish() }
    waiting.cancel()
    await waiting.value
    #expect(task.isCancelled)
    windDown.open()
    await task.finish()
    #expect(!task.isRunning)
    // The store runs the effects: it must outlive them.
    withExtendedLifetime(store) {}
  }
}
