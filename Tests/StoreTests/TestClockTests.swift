import Effects
import Synchronization
import Testing

@testable import Store

@MainActor
@Suite struct TestClockTests {
  let clock = TestClock()

  nonisolated func sleepers() -> LogFeature {
    LogFeature { [clock] name in
      .run { send in
        try await clock.sleep(for: .seconds(Int(name)!))
        send(.record("woke \(name) at \(clock.now)"))
      }
      .cancellable(id: name)
    }
  }

  // A regression would hang: the time limit turns that into a failure (generous, as main-actor
  // tests queue behind each other in a full run).
  @Test(.timeLimit(.minutes(30))) func aLiveStoreTestWaitsForItsEffectToSleepBeforeAdvancing()
    async
  {
    let store = Store(initialState: LogFeature.State()) { sleepers() }
    store.send(.start("2"))
    store.send(.start("1"))
    // The effects run on the global executor: they may not have reached their sleeps yet.
    let ready = await clock.waitForSleepers(2)
    #expect(ready)
    #expect(clock.sleeperCount == 2)
    #expect(await clock.waitForSleepers(1), "enough sleepers already: returns at once")
    await clock.advance(by: .seconds(2))
    // Both woke; what they sent reaches the store on the main actor, after this test yields.
    let waiting = Task { await clock.waitForSleepers() }
    waiting.cancel()
    #expect(await waiting.value == false, "a cancelled wait gives up")
    #expect(clock.sleeperCount == 0)
  }

  /// A live store's effect that never ends (a timer) cannot be awaited to settle: after
  /// each `advance`, waiting for its next sleep is what tells the test it sent its tick and
  /// went back to sleep, and the tick is reduced by then (its drain was queued on the main
  /// actor before the wait's own resumption). A trial's test that read the state right after
  /// `advance` saw no tick in one run of twelve.
  @Test(.timeLimit(.minutes(30))) func aLiveStoresTimerIsSeenAfterWaitingForItsNextSleep()
    async
  {
    let store = Store(initialState: LogFeature.State()) {
      LogFeature { [clock] _ in
        .run { send in
          for await instant in clock.timer(interval: .seconds(1)) {
            send(.record("tick at \(instant)"))
          }
        }
      }
    }
    let task = store.send(.start("timer"))
    #expect(await clock.waitForSleepers())
    for second in 1...40 {
      await clock.advance(by: .seconds(1))
      #expect(await clock.waitForSleepers())
      #expect(store.log.count == second + 1, "tick \(second)")
    }
    task.cancel()
  }

  @Test func timeMovesOnlyWhenTold() async {
    #expect(clock.now == TestClock.Instant())
    await clock.advance(by: .seconds(3))
    #expect(clock.now.offset == .seconds(3))
    await clock.advance(to: TestClock.Instant(offset: .seconds(1)))
    #expect(clock.now.offset == .seconds(3), "advancing to the past does not move time")
  }

  @Test func sleepersResumeInDeadlineOrderAtTheirDeadline() async {
    let harness = Harness(initialState: LogFeature.State(), reducer: sleepers())
    for name in ["3", "1", "2"] { harness.send(.start(name)) }
    #expect(clock.sleeperCount == 3)
    await clock.advance(by: .seconds(3))
    #expect(
      harness.state.log.suffix(3) == [
        "woke 1 at 1.0 seconds", "woke 2 at 2.0 seconds", "woke 3 at 3.0 seconds",
      ]
    )
  }

  @Test func sleepersWithTheSameDeadlineWakeInTheOrderTheySlept() async {
    let harness = Harness(
      initialState: LogFeature.State(),
      reducer: LogFeature { [clock] name in
        .run { send in
          try await clock.sleep(for: .seconds(1))
          send(.record(name))
        }
      }
    )
    for name in ["b", "a", "c"] { harness.send(.start(name)) }
    await clock.advance(by: .seconds(1))
    #expect(harness.state.log.suffix(3) == ["b", "a", "c"])
  }

  @Test func advanceStopsAtTheTargetAndLeavesLaterSleepers() async {
    let harness = Harness(initialState: LogFeature.State(), reducer: sleepers())
    harness.send(.start("1"))
    harness.send(.start("5"))
    await clock.advance(by: .seconds(2))
    #expect(harness.state.log.last == "woke 1 at 1.0 seconds")
    #expect(clock.sleeperCount == 1)
    #expect(clock.now.offset == .seconds(2))
  }

  @Test func aCancelledSleepIsRemovedAtOnce() async {
    let harness = Harness(initialState: LogFeature.State(), reducer: sleepers())
    harness.send(.start("1"))
    harness.send(.start("2"))
    #expect(clock.sleeperCount == 2)
    harness.send(.stop("1"))
    #expect(clock.sleeperCount == 1)
    await clock.advance(by: .seconds(2))
    #expect(harness.state.log == ["start 1", "start 2", "stop 1", "woke 2 at 2.0 seconds"])
  }

  @Test func aLoopThatSleepsRepeatedlyWakesOncePerInterval() async {
    let harness = Harness(
      initialState: LogFeature.State(),
      reducer: LogFeature { [clock] _ in
        .run { send in
          for tick in 1...3 {
            try await clock.sleep(for: .seconds(1))
            send(.record("tick \(tick)"))
          }
        }
      }
    )
    harness.send(.start("timer"))
    await clock.advance(by: .milliseconds(2500))
    #expect(harness.state.log == ["start timer", "tick 1", "tick 2"])
    await clock.run()
    #expect(harness.state.log == ["start timer", "tick 1", "tick 2", "tick 3"])
    #expect(clock.now.offset == .seconds(3))
  }

  @Test func runStopsAnEndlessLoopWithAWarningToTheStoreOfTheSleepingEffect() async {
    let warnings = WarningLog()
    let harness = Harness(
      initialState: LogFeature.State(),
      warnings: warnings.handler,
      reducer: LogFeature { [clock] _ in
        .run { _ in
          while true { try await clock.sleep(for: .seconds(1)) }
        }
      }
    )
    harness.send(.start("forever"))
    await clock.run(maxSteps: 10)
    #expect(clock.now.offset == .seconds(10))
    #expect(warnings.messages.count == 1)
    #expect(warnings.messages.first?.contains("endless loop") == true)
    harness.core.runtime.cancelAll()
    #expect(clock.sleeperCount == 0)
  }

  @Test func aSleepThatIsAlreadyDueOrCancelledReturnsAtOnce() async throws {
    try await clock.sleep(until: clock.now)
    let task = Task {
      withUnsafeCurrentTask { $0?.cancel() }
      try await clock.sleep(for: .seconds(1))
    }
    await #expect(throws: CancellationError.self) { try await task.value }
    #expect(clock.sleeperCount == 0)
  }

  @Test func aSleeperOutsideAStoreWakesToo() async throws {
    let task = Task { try await clock.sleep(for: .seconds(1)) }
    while clock.sleeperCount == 0 { await Task.yield() }
    await clock.advance(by: .seconds(1))
    try await task.value
  }

  @Test func instantArithmetic() {
    let start = TestClock.Instant()
    let later = start.advanced(by: .seconds(2))
    #expect(start.duration(to: later) == .seconds(2))
    #expect(start < later)
    #expect(later.description == "2.0 seconds")
  }
}

@Suite struct ImmediateClockTests {
  @Test func sleepReturnsAtOnceAndMovesTime() async throws {
    let clock = ImmediateClock()
    try await clock.sleep(for: .seconds(5))
    try await clock.sleep(for: .seconds(1))
    #expect(clock.now.offset == .seconds(6))
  }

  @Test func sleepThrowsWhenCancelled() async {
    let clock = ImmediateClock()
    let task = Task {
      withUnsafeCurrentTask { $0?.cancel() }
      try await clock.sleep(for: .seconds(1))
    }
    await #expect(throws: CancellationError.self) { try await task.value }
    #expect(clock.now.offset == .zero)
  }
}
