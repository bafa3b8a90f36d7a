import Effects
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

  @Test func finishAfterCancelReturnsAtOnce() async {
    let clock = TestClock()
    let harness = Harness(
      initialState: LogFeature.State(),
      reducer: LogFeature { _ in .run { _ in try await clock.sleep(for: .seconds(9)) } }
    )
    let task = harness.send(.start("a"))
    task.cancel()
    await task.finish()
    #expect(task.isCancelled)
  }
}
