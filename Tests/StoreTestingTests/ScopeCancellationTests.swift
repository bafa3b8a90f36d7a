import Effects
import Store
import StoreTesting
import Testing

/// A parent cancels an effect of a `Scope`'s child by the child's cancellation id with
/// `.cancel(id:inScope:action:)`; its own `.cancel(id:)` does not reach the child, whose ids
/// are its own.
@MainActor
@Suite struct ScopeCancellationTests {
  struct Search: Reducer {
    enum CancelID: Hashable, Sendable { case query }
    struct State: Equatable, Sendable { var results: [String] = [] }
    enum Action: Equatable, Sendable {
      case queryChanged(String)
      case answered(String)
    }
    let clock: TestClock

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .queryChanged(let query):
        return .run { [clock] send in
          try await clock.sleep(for: .seconds(1))
          send(.answered(query))
        }
        .cancellable(id: CancelID.query, cancelInFlight: true)
      case .answered(let query):
        state.results.append(query)
        return .none
      }
    }
  }

  struct Parent: Reducer {
    struct State: Equatable, Sendable {
      var search = Search.State()
      var other = Search.State()
    }
    enum Action: Equatable, Sendable {
      case search(Search.Action)
      case other(Search.Action)
      case clearTapped
      case clearWithOwnCancelTapped
    }
    let clock: TestClock

    var body: some Reducer<State, Action> {
      Scope(state: \.search, action: .scSearch) { Search(clock: clock) }
      Scope(state: \.other, action: .scOther) { Search(clock: clock) }
      Reduce { state, action in
        switch action {
        case .clearTapped:
          return .cancel(id: Search.CancelID.query, inScope: \State.search, action: .scSearch)
        case .clearWithOwnCancelTapped:
          return .cancel(id: Search.CancelID.query)
        case .search, .other:
          return .none
        }
      }
    }
  }

  let clock = TestClock()

  @Test func aParentCancelsOneScopesEffectAndNotASiblingScopesWithTheSameID() async {
    let store = TestStore(initialState: Parent.State()) { Parent(clock: clock) }
    await store.send(.search(.queryChanged("ada")))
    await store.send(.other(.queryChanged("bob")))
    await store.send(.clearTapped)
    await clock.advance(by: .seconds(1))
    await store.receive(.other(.answered("bob"))) { $0.other.results = ["bob"] }
    await store.finish()
  }

  @Test func aParentsOwnCancelDoesNotReachTheScopesEffect() async {
    let store = TestStore(initialState: Parent.State()) { Parent(clock: clock) }
    await store.send(.search(.queryChanged("ada")))
    await store.send(.clearWithOwnCancelTapped)
    await clock.advance(by: .seconds(1))
    await store.receive(.search(.answered("ada"))) { $0.search.results = ["ada"] }
    await store.finish()
  }

  @Test func aLiveStoreDropsWhatTheCancelledEffectWouldHaveSent() async {
    let store = Store(initialState: Parent.State()) { Parent(clock: clock) }
    let search = store.send(.search(.queryChanged("ada")))
    store.send(.clearTapped)
    await search.finish()
    #expect(store.search.results.isEmpty)
    #expect(!search.isRunning)
  }
}

extension CaseKey<ScopeCancellationTests.Parent.Action, ScopeCancellationTests.Search.Action> {
  fileprivate static var scSearch: Self {
    Self(ScopeCancellationTests.Parent.Action.search) {
      if case .search(let action) = $0 { action } else { nil }
    }
  }

  fileprivate static var scOther: Self {
    Self(ScopeCancellationTests.Parent.Action.other) {
      if case .other(let action) = $0 { action } else { nil }
    }
  }
}
