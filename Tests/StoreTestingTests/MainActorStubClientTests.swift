import Effects
import Store
import StoreTesting
import Testing

/// A stub client: it does nothing that needs an executor, so a main-actor caller runs it in
/// place, and, as its task prefers the test executor, comes back to the main actor queued
/// behind the test rather than on that executor.
private nonisolated func stubFetch(_ value: Int) async -> Int { value }

/// The same stub as a client's closure property, as a test builds one.
private let stubClosure: @Sendable (Int) async -> Int = { $0 }

/// Effects on the main actor that call stub clients and sleep on a test clock.
private struct Ticker: Reducer {
  struct State: Equatable {
    var ticks: [Duration] = []
    var loaded = 0
  }

  enum Action: Sendable, Equatable {
    case startTimer
    case startPolling
    case load(calls: Int)
    case loaded(Int)
    case tick(Duration)
    case pollInRealTime
    case noop
  }

  let clock: TestClock

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .startTimer:
      return .run { @MainActor [clock] send in
        for await tick in clock.timer(interval: .seconds(1)) { send(.tick(tick)) }
      }
    case .startPolling:
      return .run { @MainActor [clock] send in
        let start = clock.now
        while true {
          try await clock.sleep(for: .seconds(1))
          let elapsed = await stubClosure(Int(start.duration(to: clock.now).components.seconds))
          send(.tick(.seconds(elapsed)))
        }
      }
    case .load(let calls):
      return .run { @MainActor send in
        var total = 0
        for call in 0..<calls { total += await stubFetch(call) }
        send(.loaded(total))
      }
    case .loaded(let total):
      state.loaded = total
      return .none
    case .tick(let tick):
      state.ticks.append(tick)
      return .none
    case .pollInRealTime:
      // Off the main actor, on a real clock: its work comes back in real time, between the
      // store's rounds.
      return .run { _ in
        while !Task.isCancelled { try? await Task.sleep(for: .microseconds(200)) }
      }
    case .noop:
      return .none
    }
  }
}

/// A main-actor effect that calls a stub client comes back to the main actor behind the test,
/// where a round of the store's settling saw nothing new: a test clock advanced past five
/// ticks of a main-actor timer woke the first, and moved on before the effect slept again,
/// so the others were skipped as missed (1 to 4 of 5 ticks, differing from run to run), and
/// a `send` returned before the effect's action came (found by a new user's trial). Each test
/// runs its scenario 20 times: one run alone passed now and then. The store runs a few such
/// calls in a row, 8 here (see `TestingFeatures`).
@MainActor
@Suite struct MainActorStubClientTests {
  static let runs = 20

  @Test func aMainActorTimerTicksAtEveryIntervalOfOneAdvance() async {
    for _ in 0..<Self.runs {
      let clock = TestClock()
      let store = TestStore(initialState: Ticker.State()) { Ticker(clock: clock) }
      let timer = await store.send(.startTimer)
      await clock.advance(by: .seconds(5))
      #expect(store.unreceivedActions == (1...5).map { .tick(.seconds($0)) })
      for second in 1...5 {
        await store.receive(.tick(.seconds(second))) { $0.ticks.append(.seconds(second)) }
      }
      timer.cancel()
      await store.finish()
    }
  }

  @Test func aMainActorPollThroughAStubClientWakesAtEveryInterval() async {
    for _ in 0..<Self.runs {
      let clock = TestClock()
      let store = TestStore(initialState: Ticker.State()) { Ticker(clock: clock) }
      let polling = await store.send(.startPolling)
      await clock.advance(by: .seconds(3))
      #expect(store.unreceivedActions == (1...3).map { .tick(.seconds($0)) })
      for second in 1...3 {
        await store.receive(.tick(.seconds(second))) { $0.ticks.append(.seconds(second)) }
      }
      polling.cancel()
      await store.finish()
    }
  }

  @Test func aMainActorEffectCallingAStubClientSendsBeforeSendReturns() async {
    for _ in 0..<Self.runs {
      let store = TestStore(initialState: Ticker.State()) { Ticker(clock: TestClock()) }
      await store.send(.load(calls: 8))
      #expect(store.unreceivedActions == [.loaded(28)], "the effect ran to its end")
      await store.receive(.loaded(28)) { $0.loaded = 28 }
      await store.finish()
    }
  }

  /// Work that comes back in real time keeps bringing something new; the rounds that leave
  /// nothing new are counted in all, so the settling ends, and is not taken for main-actor
  /// work that never pauses (a review found a count of quiet rounds in a row reset by it,
  /// running every step to the 10,000-round limit and failing the test).
  @Test func anEffectOnARealClockIsNotTakenForWorkThatNeverPauses() async {
    let store = TestStore(initialState: Ticker.State()) { Ticker(clock: TestClock()) }
    let polling = await store.send(.pollInRealTime)
    for _ in 0..<5 { await store.send(.noop) }
    polling.cancel()
    await store.finish()
  }
}
