import Effects
import Store
import StoreTesting
import Synchronization
import Testing

@MainActor
@Suite struct TestStoreTests {
  let clock = TestClock()

  /// The Effects guide's debounce test: an action an effect sends early waits for `receive`
  /// (no step before it reports it), so the test times the debounce by the task of the last
  /// keystroke, which runs until the pause ends and the search has answered.
  @Test func aDebouncedSearchsTaskRunsUntilThePauseHasEnded() async {
    let store = makeStore()
    let first = await store.send(.searchTyped("A"))
    let search = await store.send(.searchTyped("Ad"))
    #expect(!first.isRunning)  // restarted by the second keystroke: ended by id
    #expect(!first.isCancelled)
    await clock.advance(by: .milliseconds(999))
    #expect(search.isRunning)
    await clock.advance(by: .milliseconds(1))
    #expect(!search.isRunning)  // searched, and sent what it found: it waits for `receive`
    await store.receive(.loaded("Ad")) { $0.user.name = "Ad" }
    await store.finish()
  }

  /// A task prints as its action and what its effects do, not as its stored closures (a
  /// failed `#expect(task.isCancelled)` printed eight fields of internals).
  @Test func aTaskDescribesItsActionAndWhatItsEffectsDo() async {
    let store = makeStore()
    let quiet = await store.send(.noop)
    #expect(String(describing: quiet) == "TestStoreTask(Profile.Action.noop: no effects)")
    let timer = await store.send(.startTimer)
    #expect(String(describing: timer) == "TestStoreTask(Profile.Action.startTimer: running)")
    #expect(String(describing: timer.task) == "StoreTask(running)")
    // Ended by id, it is not cancelled: it finished.
    await store.send(.stopTimer)
    #expect(!timer.isCancelled)
    #expect(String(describing: timer) == "TestStoreTask(Profile.Action.startTimer: finished)")
    let second = await store.send(.startTimer)
    second.cancel()
    #expect(second.isCancelled)
    #expect(String(describing: second) == "TestStoreTask(Profile.Action.startTimer: cancelled)")
    await store.finish()
  }

  func makeStore(load: @escaping @Sendable () async throws -> String = { "Ada" })
    -> TestStoreOf<Profile>
  {
    let store = TestStore(initialState: Profile.State()) {
      Profile(load: load, clock: clock)
    }
    store.timeout = .milliseconds(100)
    return store
  }

  // MARK: - Passing paths

  @Test func sendAndReceiveAssertEveryChange() async {
    let store = makeStore()
    await store.send(.refreshTapped) { $0.isLoading = true }
    await store.receive(.loaded("Ada")) {
      $0.isLoading = false
      $0.user.name = "Ada"
    }
    await store.finish()
  }

  @Test func aThrownErrorArrivesAsTheCatchAction() async {
    let store = makeStore(load: { throw LoadError() })
    await store.send(.refreshTapped) { $0.isLoading = true }
    await store.receive(.failed("offline")) {
      $0.isLoading = false
      $0.error = "offline"
    }
    await store.finish()
  }

  @Test func aTimerIsDrivenByTheTestClock() async {
    let store = makeStore()
    await store.send(.startTimer)
    await clock.advance(by: .seconds(2))
    await store.receive(.tick) { $0.ticks = 1 }
    await store.receive(.tick) { $0.ticks = 2 }
    await store.send(.stopTimer)
    await store.finish()
  }

  @Test func aMainActorTimerIsDrivenByTheTestClockTickForTick() async {
    let store = makeStore()
    await store.send(.startMainActorTimer)
    await clock.advance(by: .seconds(3))
    await store.receive(.tick) { $0.ticks = 1 }
    await store.receive(.tick) { $0.ticks = 2 }
    await store.receive(.tick) { $0.ticks = 3 }
    await clock.advance(by: .seconds(1))
    await store.receive(.tick) { $0.ticks = 4 }
    await store.send(.stopTimer)
    await store.finish()
  }

  @Test func receiveByCaseOrPredicate() async {
    let store = makeStore()
    await store.send(.refreshTapped) { $0.isLoading = true }
    await store.receive(.loaded) {
      $0.isLoading = false
      $0.user.name = "Ada"
    }
    await store.send(.refreshTapped) { $0.isLoading = true }
    await store.receive({ $0 == .loaded("Ada") }) { $0.isLoading = false }
  }

  @Test func effectsRunInTheOrderTheyStartedEveryTime() async {
    for _ in 0..<50 {
      let store = makeStore()
      await store.send(.echo(["a", "b", "c", "d"]))
      for word in ["a", "b", "c", "d"] {
        await store.receive(.loaded(word)) { $0.user.name = word }
      }
      await store.finish()
    }
  }

  @Test func aTaskCanBeAwaitedOrCancelled() async {
    let store = makeStore()
    let timer = await store.send(.startTimer)
    await clock.advance(by: .seconds(1))
    await store.receive(.tick) { $0.ticks = 1 }
    timer.cancel()
    #expect(timer.isCancelled)
    await store.send(.refreshTapped) { $0.isLoading = true }
    await store.receive(.loaded("Ada")) {
      $0.isLoading = false
      $0.user.name = "Ada"
    }
    let refresh = await store.send(.noop)
    await refresh.finish()
    await store.finish()
  }

  @Test func nonExhaustiveModeChecksOnlyWhatIsAsserted() async {
    let store = makeStore()
    store.exhaustivity = .off
    await store.send(.refreshTapped)
    await store.send(.startTimer)
    await clock.advance(by: .seconds(3))
    // Skips the refresh's response; asserts the first tick, as of when it arrived.
    await store.receive(.tick) { $0.ticks = 1 }
    await store.send(.moveTapped("Lyon")) { $0.user.address.city = "Lyon" }
    #expect(store.state.user.name == "Ada")
    await store.finish()
  }

  @Test func skipHelpersLetATestEndEarly() async {
    let store = makeStore()
    await store.send(.startTimer)
    await clock.advance(by: .seconds(1))
    store.skipReceivedActions()
    await store.skipInFlightEffects()
    await store.finish()
  }

  /// An action type that is not `Equatable` is received by key or predicate; `receive(.saved)`
  /// takes the key, not the case of the same name (`receive` by value, unavailable for such a
  /// type, is there only to say why a value does not compile).
  @Test func anActionThatIsNotEquatableIsReceivedByKeyOrPredicate() async {
    let store = TestStore(initialState: Saver.State()) { Saver() }
    await store.send(.saveTapped)
    await store.receive(.saved)
    await store.receive(.count) { $0.count = 1 }
    await store.send(.saveTapped)
    await store.receive { if case .saved = $0 { true } else { false } }
    await store.receive {
      if case .count(2) = $0 { true } else { false }
    } assert: {
      $0.count = 2
    }
    await store.finish()
  }
}

/// A feature whose action type is not `Equatable`, with a case and a key named alike.
struct Saver: Reducer {
  struct State: Equatable { var count = 0 }
  enum Action: Sendable {
    case saveTapped, saved, count(Int)
  }
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .saveTapped: return .send(.saved)
    case .saved: return .send(.count(state.count + 1))
    case .count(let count):
      state.count = count
      return .none
    }
  }
}

extension CaseKey<Saver.Action, Void> {
  static var saved: Self { Self({ .saved }) { if case .saved = $0 { () } else { nil } } }
}

extension CaseKey<Saver.Action, Int> {
  static var count: Self {
    Self(Saver.Action.count) { if case .count(let v) = $0 { v } else { nil } }
  }
}

extension CaseKey<Profile.Action, String> {
  static var loaded: Self {
    Self(Profile.Action.loaded) { if case .loaded(let v) = $0 { v } else { nil } }
  }
}
