import Effects
import Store
import StoreTesting
import Synchronization
import Testing

@MainActor
@Suite struct TestStoreTests {
  let clock = TestClock()

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
}

extension CaseKey<Profile.Action, String> {
  static var loaded: Self {
    Self(Profile.Action.loaded) { if case .loaded(let v) = $0 { v } else { nil } }
  }
}
