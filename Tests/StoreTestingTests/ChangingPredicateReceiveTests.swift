import Effects
import Store
import StoreTesting
import Testing

/// Answers a ping with a pong, through an effect.
private struct Pinger: Reducer {
  struct State: Equatable {
    var pongs = 0
  }

  enum Action: Sendable, Equatable {
    case ping
    case pong
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .ping: return .send(.pong)
    case .pong:
      state.pongs += 1
      return .none
    }
  }
}

/// A non-exhaustive `receive` with a predicate that answers otherwise when asked again (here,
/// one that matches on its first call only): the store found the match while waiting, looked
/// for it again, found none, and stopped the program on a force-unwrap. It now reports that
/// nothing matching arrived.
@MainActor
@Suite struct ChangingPredicateReceiveTests {
  let messages = Messages()

  @Test func aPredicateThatStopsMatchingFailsTheStepInsteadOfStoppingTheProgram() async {
    let store = TestStore(initialState: Pinger.State()) { Pinger() }
    store.exhaustivity = .off
    await store.send(.ping)
    var calls = 0
    await withKnownIssue {
      await store.receive { _ in
        calls += 1
        return calls == 1
      }
    } matching: {
      messages.capture($0)
    }
    #expect(
      messages.last.hasPrefix("Expected to receive an action matching the predicate, but"),
      "\(messages.last)")
  }
}
