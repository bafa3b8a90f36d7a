import Effects
import Observation
import Testing

@testable import Store

@MainActor
@Suite struct StoreTaskTests {
  @Test func handlesOfTheSameActionAreEqual() {
    let harness = Harness(
      initialState: LogFeature.State(),
      reducer: LogFeature { _ in .run { _ in } }
    )
    let first = harness.store.send(.start("a"))
    let second = harness.store.send(.start("b"))
    #expect(first == first)
    #expect(first != second)
    #expect(Set([first, first, second]).count == 2)
    #expect(StoreTask(group: nil) == StoreTask(group: nil))
  }

  @Test func aTaskIsRunningUntilItsEffectsFinish() {
    let harness = Harness(
      initialState: LogFeature.State(),
      reducer: LogFeature { _ in .run { send in send(.record("done")) } }
    )
    let task = harness.store.send(.start("a"))
    #expect(task.isRunning)
    harness.settle()
    #expect(!task.isRunning)
    #expect(!task.isCancelled)
  }

  /// After `cancel()`, `finish()` waits for the effects to wind down (it returned at once,
  /// with the effects still running: `FinishAfterCancelTests`). On the harness's manual
  /// executor, winding down is a job to run.
  @Test func finishAfterCancelReturnsOnceTheEffectsHaveWoundDown() async {
    let clock = TestClock()
    let harness = Harness(
      initialState: LogFeature.State(),
      reducer: LogFeature { _ in .run { _ in try await clock.sleep(for: .seconds(9)) } }
    )
    let task = harness.send(.start("a"))
    task.cancel()
    #expect(task.isRunning)
    harness.settle()
    await task.finish()
    #expect(task.isCancelled)
    #expect(!task.isRunning)
  }

  @MainActor final class Handle { var task: StoreTask? }

  /// An action sent while the store reduces another (from an observer told of a change) is
  /// queued, with its handle made before it is reduced: one that starts no effect reports
  /// so, as one sent to an idle store does, and is not cancelled by `cancel()` (it said it
  /// was).
  @Test(arguments: [false, true])
  func aQueuedActionThatStartsNothingReportsNoEffects(startsEffect: Bool) {
    let harness = Harness(
      initialState: LogFeature.State(),
      reducer: LogFeature { name in
        startsEffect && name == "queued" ? .run { send in send(.record("done")) } : .none
      }
    )
    let queued = Handle()
    withObservationTracking {
      _ = harness.store.log
    } onChange: {
      MainActor.assumeIsolated { queued.task = harness.store.send(.start("queued")) }
    }
    let direct = harness.store.send(.start("direct"))
    #expect(harness.state.log == ["start direct", "start queued"])
    let task = queued.task!
    #expect(direct.description == "StoreTask(no effects)")
    #expect(task.description == (startsEffect ? "StoreTask(running)" : "StoreTask(no effects)"))
    direct.cancel()
    task.cancel()
    harness.settle()
    #expect(!direct.isCancelled)
    #expect(task.isCancelled == startsEffect)
    #expect(task.description == (startsEffect ? "StoreTask(cancelled)" : "StoreTask(no effects)"))
  }
}
