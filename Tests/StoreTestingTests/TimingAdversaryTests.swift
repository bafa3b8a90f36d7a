import Effects
import Store
import StoreTesting
import Testing

/// A feature whose `.go(tag)` starts the effect a test gives it; each `.got(text)` an effect
/// feeds back is kept in the state.
private struct Lab: Reducer {
  struct State: Equatable { var got: [String] = [] }
  enum Action: Equatable, Sendable {
    case go(String)
    case got(String)
  }
  let effect: @Sendable (String) -> Effect<Action>

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .go(let tag):
      return effect(tag)
    case .got(let text):
      state.got.append(text)
      return .none
    }
  }
}

/// Found by an adversary's trial of clocks, timers and timing operators: a debounce that never
/// ran, timer ticks skipped by a rounding error, and a cancelled loop that hung its test.
@MainActor
@Suite struct TimingAdversaryTests {
  private func lab(_ effect: @escaping @Sendable (String) -> Effect<Lab.Action>) -> TestStore<
    Lab.State, Lab.Action
  > {
    TestStore(initialState: Lab.State()) { Lab(effect: effect) }
  }

  private func receive(_ text: String, in store: TestStore<Lab.State, Lab.Action>) async {
    await store.receive(.got(text)) { $0.got.append(text) }
  }

  // MARK: - A debounce of an effect cancellable in flight under the same id

  /// A search that cancels the request before it, debounced under the same id: the last of
  /// the burst runs. Its own cancellation in flight cancelled the debounce's sequence, which
  /// runs it, so it never ran, with no warning.
  @Test func aDebounceOfAnEffectCancellableInFlightUnderTheSameIDRunsTheLast() async {
    let clock = TestClock()
    let store = lab { tag in
      .run { send in send(.got("searched \(tag)")) }
        .cancellable(id: "search", cancelInFlight: true)
        .debounce(id: "search", for: .milliseconds(300), clock: clock)
    }
    await store.send(.go("a"))
    await store.send(.go("ab"))
    await clock.advance(by: .milliseconds(300))
    await receive("searched ab", in: store)
    await store.finish()
  }

  /// A debounced concatenation whose first part cancels in flight under the debounce's id:
  /// both parts run.
  @Test func aDebouncedConcatenationWhosePartCancelsInFlightRunsBothParts() async {
    let clock = TestClock()
    let store = lab { tag in
      Effect.concatenate(
        .run { send in send(.got("first \(tag)")) }
          .cancellable(id: "search", cancelInFlight: true),
        .run { send in send(.got("second \(tag)")) }
      )
      .debounce(id: "search", for: .milliseconds(300), clock: clock)
    }
    await store.send(.go("a"))
    await clock.advance(by: .milliseconds(300))
    await receive("first a", in: store)
    await receive("second a", in: store)
    await store.finish()
  }

  /// A part cancelling in flight still cancels what runs beside its sequence under the id:
  /// another sequence's part started earlier.
  @Test func aPartCancellingInFlightStillCancelsAnotherSequenceUnderTheID() async {
    let clock = TestClock()
    let store = lab { tag in
      Effect.concatenate(
        .run { _ in try await clock.sleep(for: .seconds(tag == "slow" ? 10 : 1)) },
        .run { send in
          try await clock.sleep(for: .seconds(5))
          send(.got("done \(tag)"))
        }
        .cancellable(id: "load", cancelInFlight: true)
      )
      .cancellable(id: "load")
    }
    await store.send(.go("first"))
    await clock.advance(by: .seconds(1))
    // The first sequence's second part is asleep; the next sequence's cancels it in flight.
    await store.send(.go("second"))
    await clock.advance(by: .seconds(1))
    await clock.advance(by: .seconds(5))
    await receive("done second", in: store)
    await store.finish()
  }

  /// A debounce nested in a debounce under the same id: the inner one's cancellation in
  /// flight spares the outer sequence it runs in, so the effect runs after both waits.
  @Test func aDebounceNestedInADebounceUnderTheSameIDRunsAfterBothWaits() async {
    let clock = TestClock()
    let store = lab { tag in
      .run { send in send(.got("searched \(tag)")) }
        .debounce(id: "search", for: .milliseconds(100), clock: clock)
        .debounce(id: "search", for: .milliseconds(200), clock: clock)
    }
    await store.send(.go("a"))
    await clock.advance(by: .milliseconds(200))
    await clock.advance(by: .milliseconds(100))
    await receive("searched a", in: store)
    await store.finish()
  }

  /// The same under a live store, with one action and no burst at all.
  @Test func aLiveStoresDebounceOfAnEffectCancellableInFlightUnderTheSameIDRuns() async {
    let clock = TestClock()
    let store = Store(initialState: Lab.State()) {
      Lab { tag in
        .run { send in send(.got("searched \(tag)")) }
          .cancellable(id: "search", cancelInFlight: true)
          .debounce(id: "search", for: .milliseconds(300), clock: clock)
      }
    }
    let task = store.send(.go("a"))
    #expect(await clock.waitForSleepers())
    await clock.advance(by: .milliseconds(300))
    await task.finish()
    #expect(store.got == ["searched a"])
  }

  // MARK: - Timer ticks

  /// A consumer busy for exactly k intervals asks again exactly when a tick is due, and gets
  /// that tick at once, for an interval that is a fraction of a second too (counted as a
  /// `Double` quotient, 15 intervals of a third of a second came to just over 15, and the due
  /// tick was skipped for the next).
  @Test(arguments: [
    Duration.seconds(1), .seconds(1.0 / 3.0), .seconds(1.0 / 60.0), .milliseconds(16.7),
    .seconds(0.7), .seconds(0.1),
  ])
  func aConsumerBackExactlyOnATickGetsThatTick(interval: Duration) async throws {
    var wrong: [String] = []
    for k in 2...40 {
      let clock = ImmediateClock()
      var iterator = clock.timer(interval: interval).makeAsyncIterator()
      let first = await iterator.next()
      try await clock.sleep(for: interval * k)
      let second = await iterator.next()
      if first != interval || second != interval * (k + 1) {
        wrong.append("k=\(k): \(String(describing: first)), \(String(describing: second))")
      }
    }
    #expect(wrong.isEmpty, "interval \(interval): \(wrong)")
  }

  /// The same under a test store and a test clock.
  @Test func aSlowConsumerOnAFractionalIntervalGetsTheTickDueOnItsReturn() async {
    let clock = TestClock()
    let interval = Duration.seconds(1.0 / 3.0)
    let store = lab { _ in
      .run { send in
        var isFirst = true
        for await tick in clock.timer(interval: interval) {
          send(.got("tick \(tick)"))
          if isFirst { try await clock.sleep(for: interval * 16) }
          isFirst = false
        }
      }
      .cancellable(id: "timer")
    }
    let timer = await store.send(.go("timer"))
    await clock.advance(by: interval)
    await receive("tick \(interval)", in: store)
    await clock.advance(by: interval * 16)
    await receive("tick \(interval * 17)", in: store)
    timer.cancel()
    await store.finish()
  }

  /// A timer far behind on a tiny interval skips the ticks it missed: the count of them does
  /// not fit an `Int`, which stopped the program.
  @Test func aTimerFarBehindOnATinyIntervalSkipsToTheNextTick() async throws {
    let clock = ImmediateClock()
    let attosecond = Duration(secondsComponent: 0, attosecondsComponent: 1)
    var iterator = clock.timer(interval: attosecond).makeAsyncIterator()
    #expect(await iterator.next() == attosecond)
    try await clock.sleep(for: .seconds(20))
    #expect(await iterator.next() == .seconds(20) + attosecond)
  }

  // MARK: - TestClock.run() on an endless timer

  /// `run()`'s guard against a loop that always sleeps again is reached, and reported, for an
  /// endless timer: at its default of 100,000 wakes it had not been reached after 400 seconds
  /// under a test store (each step cost more than the one before, as the store keeps each
  /// received action with its state); the default is 10,000 now. The timer runs on an
  /// executor of its own, as `TestClockAdvanceGuardTests` does, since under a test store each
  /// wake waits for the main actor, which a full parallel run keeps busy (this test took 100
  /// seconds there, and 580 under ThreadSanitizer). That the warning fails a store's test is
  /// `TestStoreFailureTests.aTestClockRunThatNeverEndsFailsTheTestOfTheStoreWhoseEffectSleeps`.
  @Test func runOnAnEndlessTimerStopsAtItsDefaultGuardAndSaysSo() async {
    let clock = TestClock()
    let warnings = WarningMessages()
    let (timer, executor) = startOnItsOwnExecutor(warnings: warnings) {
      var ticks = 0
      for await _ in clock.timer(interval: .seconds(1)) { ticks += 1 }
      return ticks
    }
    await clock.run()
    #expect(clock.now.offset == .seconds(10_000))
    let reported = warnings.all
    #expect(reported.count == 1, "\(reported)")
    #expect(
      reported.first?.hasPrefix("TestClock.run() woke 10000 sleepers and sleepers remain") == true,
      "\(reported)")
    timer.cancel()
    executor.runUntilIdle()
    #expect(await timer.value == 10_000)
  }

  // MARK: - A cancelled loop that swallows its sleep's error

  /// A loop that swallows its sleep's error (`try?`) never ends once cancelled. A clock's
  /// sleep threw at once then, so the loop never paused: one job that never ends, out of the
  /// store's reach, and the test hung with no message. The sleep yields first now: the loop
  /// is a job per turn, which the store stops and reports as work that never pauses.
  @Test(arguments: [false, true])
  func aCancelledLoopThatSwallowsItsSleepErrorsIsStoppedAndReported(immediate: Bool) async {
    let clock = TestClock()
    let immediateClock = ImmediateClock()
    let store = lab { tag in
      if tag == "stop" { return .cancel(id: "timer") }
      return .run { send in
        var turns = 0
        while true {
          if immediate {
            try? await immediateClock.sleep(for: .seconds(1))
          } else {
            try? await clock.sleep(for: .seconds(1))
          }
          turns += 1
          if turns == 1 { send(.got("tick")) }
        }
      }
      .cancellable(id: "timer")
    }
    store.exhaustivity = .off
    store.timeout = .milliseconds(100)
    let messages = Messages()
    await withKnownIssue {
      await store.send(.go("start"))
      await clock.advance(by: .seconds(1))
      await store.send(.go("stop"))
      await store.finish()
    } matching: {
      messages.capture($0)
    }
    #expect(
      messages.all.contains { $0.contains("without coming to a pause") }, "\(messages.all)")
  }
}
