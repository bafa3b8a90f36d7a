import Effects
import Store
import StoreTesting
import Testing

/// A feature whose every action starts an effect that sleeps for the seconds it carries.
private struct Sleeper: Reducer {
  struct State: Equatable {}
  enum Action: Equatable, Sendable { case sleep(Int) }
  let clock: TestClock

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .sleep(let seconds):
      .run { [clock] _ in try await clock.sleep(for: .seconds(seconds)) }
    }
  }
}

/// The failure for effects left running at `finish()` speaks of one effect as "it" and of
/// several as "them": with three effects listed it read "Cancel it from the feature (for
/// example when its screen goes away), advance the test clock past it, ... if it does not
/// matter to this test" (the effects hunt).
@MainActor
@Suite struct StillRunningMessageTests {
  let clock = TestClock()
  let messages = Messages()

  /// Effects that sleep for each of `sleeps`, left running, and the end of `finish()`'s
  /// failure for them.
  func finishFailure(leaving sleeps: [Int]) async -> String {
    let store = TestStore(initialState: Sleeper.State()) { Sleeper(clock: clock) }
    for seconds in sleeps { await store.send(.sleep(seconds)) }
    await withKnownIssue {
      await store.finish()
    } matching: {
      messages.capture($0)
    }
    return messages.last
  }

  @Test func oneEffectLeftIsIt() async {
    let failure = await finishFailure(leaving: [1])
    #expect(
      failure.hasSuffix(
        """
        Effects must finish or be cancelled before a test ends. Cancel it from the feature (for \
        example when its screen goes away), advance the test clock past it, or call \
        `await store.skipInFlightEffects()` if it does not matter to this test.
        """), "\(failure)")
  }

  @Test func severalEffectsLeftAreThem() async {
    let failure = await finishFailure(leaving: [1, 2])
    #expect(
      failure.hasSuffix(
        """
        Effects must finish or be cancelled before a test ends. Cancel them from the feature \
        (for example when their screen goes away), advance the test clock past them, or call \
        `await store.skipInFlightEffects()` if they do not matter to this test.
        """), "\(failure)")
  }
}
