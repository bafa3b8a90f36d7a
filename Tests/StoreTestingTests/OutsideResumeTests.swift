import Effects
import Store
import Testing

@testable import StoreTesting

/// A feature whose effects wait on something the test or the outside world resumes (a
/// stream, a client's callback), and then sleep on the test clock.
private struct Listener: Reducer {
  struct State: Equatable {
    var processed: [Int] = []
  }

  enum Action: Sendable, Equatable {
    case listen
    case processed(Int)
  }

  let clock: TestClock
  let messages: AsyncStream<Int>

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .listen:
      return .run { [clock, messages] send in
        for await message in messages {
          try await clock.sleep(for: .seconds(1))
          send(.processed(message))
        }
      }
    case .processed(let message):
      state.processed.append(message)
      return .none
    }
  }
}

/// An effect resumed from outside its store's executor waited there until the store's next
/// call ran it (flakiness trial): a test that fed a stream and advanced the clock moved time
/// before the effect reached its sleep, and failed every time; and `waitForSleepers()`, the
/// remedy the clock's documentation gives for work the store does not run, never returned.
/// A clock the feature holds now runs the store's effects first, and `waitForSleepers()` runs
/// them as they are resumed.
@MainActor
@Suite(.timeLimit(.minutes(30))) struct OutsideResumeTests {
  let clock = TestClock()

  @Test func aStreamTheTestFeedsReachesItsSleepBeforeTheClockMoves() async {
    let (messages, input) = AsyncStream.makeStream(of: Int.self)
    let store = TestStore(initialState: Listener.State()) {
      Listener(clock: clock, messages: messages)
    }
    await store.send(.listen)
    input.yield(1)
    await clock.advance(by: .seconds(1))
    await store.receive(.processed(1)) { $0.processed = [1] }
    input.yield(2)
    input.yield(3)
    await clock.advance(by: .seconds(2))
    await store.receive(.processed(2)) { $0.processed = [1, 2] }
    await store.receive(.processed(3)) { $0.processed = [1, 2, 3] }
    input.finish()
    await store.finish()
  }

  /// Fed from another thread, at a moment the test does not know: the test waits for the
  /// sleep, which the clock lets the effect reach.
  @Test func waitingForSleepersRunsAnEffectResumedFromAnotherThread() async {
    let (messages, input) = AsyncStream.makeStream(of: Int.self)
    let store = TestStore(initialState: Listener.State()) {
      Listener(clock: clock, messages: messages)
    }
    await store.send(.listen)
    Task.detached { input.yield(7) }
    #expect(await clock.waitForSleepers())
    await clock.advance(by: .seconds(1))
    await store.receive(.processed(7)) { $0.processed = [7] }
    input.finish()
    await store.finish()
  }

  /// Whatever task moves the clock (a child task of the test's, or another), and however
  /// (`advance`, `run()`).
  @Test func aClockMovedFromAnotherTaskOrByRunAlsoRunsTheStoresEffectsFirst() async {
    let (messages, input) = AsyncStream.makeStream(of: Int.self)
    let store = TestStore(initialState: Listener.State()) {
      Listener(clock: clock, messages: messages)
    }
    await store.send(.listen)
    input.yield(1)
    async let advanced: Void = clock.advance(by: .seconds(1))
    await advanced
    await store.receive(.processed(1)) { $0.processed = [1] }
    input.yield(2)
    await Task { [clock] in await clock.run() }.value
    await store.receive(.processed(2)) { $0.processed = [1, 2] }
    input.finish()
    await store.finish()
  }

  /// A store whose feature does not hold the clock is left alone: another test's store, say.
  @Test func aClockRunsOnlyTheStoresWhoseFeaturesHoldIt() async {
    let (messages, input) = AsyncStream.makeStream(of: Int.self)
    let other = TestClock()
    let store = TestStore(initialState: Listener.State()) {
      Listener(clock: other, messages: messages)
    }
    await store.send(.listen)
    input.yield(1)
    await clock.advance(by: .seconds(1))
    #expect(other.sleeperCount == 0, "the store's effect ran when an unrelated clock moved")
    await other.advance(by: .seconds(1))
    await store.receive(.processed(1)) { $0.processed = [1] }
    input.finish()
    await store.finish()
  }
}
