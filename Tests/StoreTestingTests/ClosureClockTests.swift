import Effects
import Store
import Testing

@testable import StoreTesting

/// A feature whose clock is captured in a closure (a dependency's `sleep`), out of the test
/// store's search of the reducer's stored properties.
struct Relay: Reducer {
  struct State: Equatable { var relayed: [Int] = [] }
  enum Action: Equatable, Sendable {
    case listen
    case noop
    case relayed(Int)
  }
  let sleep: @Sendable (Duration) async throws -> Void
  let messages: AsyncStream<Int>

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .listen:
      return .run { [messages, sleep] send in
        for await message in messages {
          try await sleep(.seconds(1))
          send(.relayed(message))
        }
      }
    case .noop:
      return .none
    case .relayed(let message):
      state.relayed.append(message)
      return .none
    }
  }
}

/// Once an effect of a test store sleeps on a test clock, the clock runs that store's effects
/// before it moves, as for a clock the feature holds: a stream the test feeds resumes the
/// effect on the store's executor, and the advance that follows finds it asleep. (With the
/// clock in a closure, the store never ran it: the advance woke nothing, and the receive
/// failed after its timeout; flakiness adversary trial.)
@MainActor
@Suite(.timeLimit(.minutes(30))) struct ClosureClockTests {
  @Test func aClockAnEffectSleptOnRunsTheStoreBeforeItMoves() async {
    let clock = TestClock()
    let (messages, input) = AsyncStream.makeStream(of: Int.self)
    let store = TestStore(initialState: Relay.State()) {
      Relay(sleep: { try await clock.sleep(for: $0) }, messages: messages)
    }
    store.timeout = .seconds(3600)
    #expect(store.testClocks.isEmpty, "the store does not find the clock")
    await store.send(.listen)
    // The first message: a step of the store runs the effect to its sleep.
    input.yield(1)
    await store.send(.noop)
    #expect(clock.sleeperCount == 1)
    await clock.advance(by: .seconds(1))
    await store.receive(.relayed(1)) { $0.relayed = [1] }
    // From now on the clock knows the store.
    input.yield(2)
    await clock.advance(by: .seconds(1))
    await store.receive(.relayed(2)) { $0.relayed = [1, 2] }
    input.yield(3)
    #expect(await clock.waitForSleepers())
    await clock.advance(by: .seconds(1))
    await store.receive(.relayed(3)) { $0.relayed = [1, 2, 3] }
    // Not counted among the stores that hold the clock: an executor can outlive its store.
    #expect(clock.storeCount == 0)
    input.finish()
    await store.finish()
  }
}
