import Effects
import Observation
import Testing

@testable import Store

/// Getting Started's observer that sends from `onChange`, as written there: `onChange` is a
/// `@Sendable` closure, not isolated, and `send` returns a `StoreTask`, which the closure
/// drops (without `_ =`, the closure's type conflicts with `assumeIsolated`'s result).
@MainActor
@Suite struct OnChangeSnippetTests {
  struct Counter: Reducer {
    struct State: Equatable {
      var count = 0
    }
    enum Action: Sendable {
      case incrementTapped
    }
    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      state.count += 1
      return .none
    }
  }

  @Test func anObserverSendsFromOnChangeAsGettingStartedShows() {
    let counterStore = Store(initialState: Counter.State()) { Counter() }
    withObservationTracking {
      _ = counterStore.count
    } onChange: {
      MainActor.assumeIsolated { _ = counterStore.send(.incrementTapped) }
    }
    counterStore.send(.incrementTapped)
    #expect(counterStore.count == 2, "the observer's action is reduced before the send returns")
  }
}
