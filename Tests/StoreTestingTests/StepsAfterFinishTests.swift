import Effects
import Store
import StoreTesting
import Testing

private struct Timer: Reducer {
  struct State: Equatable { var ticks = 0 }
  enum Action: Equatable, Sendable { case start, tick, ping, pong }
  let clock: TestClock
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .start:
      return .run { [clock] send in
        try await clock.sleep(for: .seconds(10))
        send(.tick)
      }
    case .tick:
      state.ticks += 1
      return .none
    case .ping:
      return .send(.pong)
    case .pong:
      state.ticks += 100
      return .none
    }
  }
}

/// What a test leaves after `finish()`, and what the test itself cancelled, is still checked
/// (an adversary trial: each of these passed silently).
@MainActor
@Suite struct StepsAfterFinishTests {
  let messages = Messages()

  /// `finish()` marked the store finished for good, so its release checked nothing that
  /// later steps left.
  @Test func anEffectStartedAfterFinishIsReportedWhenTheStoreIsReleased() async {
    let clock = TestClock()
    await withKnownIssue {
      let store = TestStore(initialState: Timer.State()) { Timer(clock: clock) }
      await store.finish()
      await store.send(.start)
    } matching: {
      messages.capture($0)
    }
    #expect(messages.last.contains("1 effect still running at the end of the test"))
  }

  @Test func anActionReceivedAfterFinishIsReportedWhenTheStoreIsReleased() async {
    await withKnownIssue {
      let store = TestStore(initialState: Timer.State()) { Timer(clock: TestClock()) }
      await store.finish()
      await store.send(.ping)
    } matching: {
      messages.capture($0)
    }
    #expect(messages.last.contains("Timer.Action.pong"))
  }

  /// A task's `cancel()` is "as when the screen that started them goes away": an effect
  /// that ignores it would keep running in the app, and was excused for good.
  @Test func anEffectTheTestCancelledThatNeverEndsIsStillLeftOver() async {
    let gate = Gate()
    let store = TestStore(initialState: Stubborn.State()) { Stubborn(gate: gate) }
    store.timeout = .milliseconds(50)
    let task = await store.send(.start)
    task.cancel()
    await withKnownIssue {
      await store.finish()
    } matching: {
      messages.capture($0)
    }
    #expect(messages.last.contains("1 effect still running at the end of the test"))
    #expect(
      messages.last.contains(
        "The test cancelled one of them (a task's `cancel()`, or `skipInFlightEffects()`), and it does not end"
      ))
    gate.open()
  }

  /// An effect `finish()` reported as still running is not reported again when the store is
  /// released, after a step the test took next (a review of the change above: it was).
  @Test func anEffectFinishReportedIsNotReportedAgainAtRelease() async {
    let gate = Gate()
    await withKnownIssue {
      let store = TestStore(initialState: Stubborn.State()) { Stubborn(gate: gate) }
      store.timeout = .milliseconds(50)
      await store.send(.start)
      await store.finish()
      await store.send(.stop)
    } matching: {
      messages.capture($0)
    }
    gate.open()
    #expect(messages.all.count == 1, "\(messages.all)")
  }

  /// One that ends when cancelled is not left over.
  @Test func anEffectTheTestCancelledThatEndsIsNotLeftOver() async {
    let clock = TestClock()
    let store = TestStore(initialState: Timer.State()) { Timer(clock: clock) }
    let task = await store.send(.start)
    task.cancel()
    await store.finish()
  }

}
