import Effects
import Store
import StoreTesting
import Testing

// The README's `Counter`, the Effects Getting Started article's `Search` with both of its
// tests, and the Store Getting Started article's `Counter`, `AppFeature` and
// `limitedCounter`, copied as written (each inside an enum, so that they compile with their
// unqualified type names), and run: an example that no longer compiles, or no longer does what
// its comment says, fails here.

enum ReadmeSnippet {
  struct Counter: Reducer {
    struct State: Equatable {
      var count = 0
      var fact: String?
    }

    enum Action: Sendable {
      case incrementTapped
      case factTapped
      case factResponse(String)
    }

    let fetchFact: @Sendable (Int) async throws -> String

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .incrementTapped:
        state.count += 1
        return .none

      case .factTapped:
        return .run { [count = state.count] send in
          send(.factResponse(try await fetchFact(count)))
        } catch: { error in
          .factResponse("No fact today (\(error)).")
        }

      case .factResponse(let fact):
        state.fact = fact
        return .none
      }
    }
  }
}

enum EffectsGuideSnippet {
  struct SearchClient: Sendable {
    var search: @Sendable (String) async throws -> [String]
  }

  struct Search: Reducer {
    struct State: Equatable {
      var query = ""
      var results: [String] = []
      var errorMessage: String?
    }

    enum Action: Sendable, Equatable {
      case queryChanged(String)
      case clearTapped
      case searchResponse([String])
      case searchFailed(String)
    }

    enum CancelID { case search }

    let client: SearchClient
    let clock: any Clock<Duration>

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .queryChanged(let query):
        state.query = query
        return .run { send in
          send(.searchResponse(try await client.search(query)))
        } catch: { error in
          .searchFailed("\(error)")
        }
        .debounce(id: CancelID.search, for: .milliseconds(300), clock: clock)

      case .clearTapped:
        state.query = ""
        state.results = []
        return .cancel(id: CancelID.search)

      case .searchResponse(let results):
        state.results = results
        return .none

      case .searchFailed(let message):
        state.errorMessage = message
        return .none
      }
    }
  }
}

enum StoreGuideSnippet {
  struct Counter: Reducer {
    struct State: Equatable {
      var count = 0
      var isTimerOn = false
    }

    enum Action: Sendable {
      case decrementTapped
      case incrementTapped
      case timerToggled
      case timerTicked
    }

    enum CancelID { case timer }

    let clock: any Clock<Duration>

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .decrementTapped:
        state.count -= 1
        return .none

      case .incrementTapped:
        state.count += 1
        return .none

      case .timerToggled:
        state.isTimerOn.toggle()
        guard state.isTimerOn else { return .cancel(id: CancelID.timer) }
        return .run { send in
          while true {
            try await clock.sleep(for: .seconds(1))
            send(.timerTicked)
          }
        }
        .cancellable(id: CancelID.timer, cancelInFlight: true)

      case .timerTicked:
        state.count += 1
        return .none
      }
    }
  }

  struct AppFeature: Reducer {
    struct State: Equatable {
      var counter = Counter.State()
      var favorites: [Int] = []
    }

    enum Action: Sendable {
      case counter(Counter.Action)
      case saveFavoriteTapped
    }

    let clock: any Clock<Duration>

    var body: some Reducer<State, Action> {
      Scope(state: \.counter, action: .counter) {
        Counter(clock: clock)
      }
      Reduce { state, action in
        switch action {
        case .counter:
          return .none
        case .saveFavoriteTapped:
          state.favorites.append(state.counter.count)
          return .none
        }
      }
    }
  }

  static func limitedCounter(
    to limit: Int, clock: any Clock<Duration>
  ) -> some Reducer<AppFeature.State, AppFeature.Action> {
    CombineReducers {
      Scope(state: \.counter, action: .counter) { Counter(clock: clock) }
      Reduce { state, _ in
        state.counter.count = min(state.counter.count, limit)
        return .none
      }
    }
  }
}

extension CaseKey<StoreGuideSnippet.AppFeature.Action, StoreGuideSnippet.Counter.Action> {
  static var counter: Self {
    Self(StoreGuideSnippet.AppFeature.Action.counter) {
      if case .counter(let a) = $0 { a } else { nil }
    }
  }
}

extension ReadmeSnippet {
  @MainActor
  @Suite struct ReadmeCounterTests {
    @Test func theQuickStartPrintsWhatItsCommentSays() async {
      let store = Store(initialState: Counter.State()) {
        Counter(fetchFact: { n in "\(n) is the loneliest number." })
      }
      store.send(.incrementTapped)
      await store.send(.factTapped).finish()
      #expect(store.count == 1)
      #expect(store.fact == "1 is the loneliest number.")
    }

    @Test func aFailedFactBecomesTheCatchHandlersAction() async {
      struct Offline: Error {}
      let store = Store(initialState: Counter.State()) {
        Counter(fetchFact: { _ in throw Offline() })
      }
      await store.send(.factTapped).finish()
      #expect(store.fact == "No fact today (Offline()).")
    }
  }
}

extension EffectsGuideSnippet {
  // The article's two tests, as written.
  @MainActor
  @Suite struct SearchGuideTests {
    @Test func searchWaitsForTypingToPause() async {
      let clock = TestClock()
      let store = TestStore(initialState: Search.State()) {
        Search(client: SearchClient { query in ["\(query)!"] }, clock: clock)
      }
      await store.send(.queryChanged("s")) { $0.query = "s" }
      let search = await store.send(.queryChanged("sw")) { $0.query = "sw" }

      await clock.advance(by: .milliseconds(299))
      #expect(search.isRunning)  // still waiting for the pause: nothing searched yet
      await clock.advance(by: .milliseconds(1))
      await store.receive(.searchResponse(["sw!"])) { $0.results = ["sw!"] }
      await store.finish()
    }

    @Test func searchFailureBecomesAnAction() async {
      struct Offline: Error {}
      let store = TestStore(initialState: Search.State()) {
        Search(client: SearchClient { _ in throw Offline() }, clock: ImmediateClock())
      }
      await store.send(.queryChanged("sw")) { $0.query = "sw" }
      await store.receive(.searchFailed("Offline()")) { $0.errorMessage = "Offline()" }
    }
  }
}

extension StoreGuideSnippet {
  @MainActor
  @Suite struct StoreGuideTests {
    @Test func sendingAndReadingPrintWhatTheCommentsSay() {
      let store: StoreOf<AppFeature> = Store(initialState: AppFeature.State()) {
        AppFeature(clock: TestClock())
      }
      store.send(.counter(.incrementTapped))
      store.send(.saveFavoriteTapped)
      #expect(store.counter.count == 1)
      #expect(store.favorites == [1])

      let counterStore = store.scope(state: \.counter, action: .counter)
      counterStore.send(.incrementTapped)  // the root reduces .counter(.incrementTapped)
      #expect(counterStore.count == store.counter.count)
      #expect(store.counter.count == 2)
    }

    @Test func theTimerTicksUntilItIsToggledOff() async {
      let clock = TestClock()
      let store = TestStore(initialState: AppFeature.State()) { AppFeature(clock: clock) }
      let isTick: (AppFeature.Action) -> Bool = {
        if case .counter(.timerTicked) = $0 { true } else { false }
      }
      let timer = await store.send(.counter(.timerToggled)) { $0.counter.isTimerOn = true }
      #expect(timer.isRunning)
      await clock.advance(by: .seconds(1))
      await store.receive(isTick) { $0.counter.count = 1 }
      await clock.advance(by: .seconds(1))
      await store.receive(isTick) { $0.counter.count = 2 }
      await store.send(.counter(.timerToggled)) { $0.counter.isTimerOn = false }
      #expect(!timer.isRunning)
      await clock.advance(by: .seconds(3))
      await store.finish()
    }

    @Test func theLimitedCounterKeepsTheCountAtItsLimit() {
      let store = Store(initialState: AppFeature.State()) {
        limitedCounter(to: 1, clock: TestClock())
      }
      store.send(.counter(.incrementTapped))
      store.send(.counter(.incrementTapped))
      #expect(store.counter.count == 1)
      store.send(.counter(.decrementTapped))
      #expect(store.counter.count == 0)
    }
  }
}
