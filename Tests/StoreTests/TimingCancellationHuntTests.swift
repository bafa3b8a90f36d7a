import Effects
import Testing

@testable import Store

/// Debounce, throttle, timers and cancellation mixed on one id, against their docs.
@MainActor
@Suite struct TimingCancellationHuntTests {
  let clock = TestClock()

  /// `"d:1"` debounces, `"t:1"` throttles (latest), `"f:1"` throttles (first), `"c:1"` is
  /// plain cancellable work, `"ci:1"` is cancellable in flight, all under id `"k"`.
  nonisolated func mixed(interval: Duration = .seconds(1)) -> LogFeature {
    LogFeature { [clock] name in
      let parts = name.split(separator: ":")
      let kind = parts.first.map(String.init) ?? ""
      let emit = Effect<LogFeature.Action>.send(.record("emit \(name)"))
      switch kind {
      case "d":
        return emit.debounce(id: "k", for: interval, clock: clock)
      case "t":
        return emit.throttle(id: "k", for: interval, clock: clock, latest: true)
      case "f":
        return emit.throttle(id: "k", for: interval, clock: clock, latest: false)
      case "c", "ci":
        return .run { send in
          try await clock.sleep(for: .seconds(5))
          send(.record("emit \(name)"))
        }
        .cancellable(id: "k", cancelInFlight: kind == "ci")
      case "timer":
        return .run { send in
          for await _ in clock.timer(interval: interval) { send(.record("tick")) }
        }
        .cancellable(id: "k")
      default:
        return .none
      }
    }
  }

  @Test func aThrottleOnADebouncesIDRunsAtOnceAndTheDebounceStillRuns() async {
    let harness = Harness(initialState: LogFeature.State(), reducer: mixed())
    harness.send(.start("d:1"))
    await clock.advance(by: .milliseconds(500))
    harness.send(.start("t:2"))
    #expect(harness.state.log == ["start d:1", "start t:2", "emit t:2"])
    await clock.advance(by: .milliseconds(500))
    #expect(harness.state.log.suffix(1) == ["emit d:1"])
    harness.send(.start("t:3"))
    #expect(harness.state.log.suffix(1) == ["start t:3"])
    await clock.advance(by: .milliseconds(500))
    #expect(harness.state.log.suffix(1) == ["emit t:3"])
    await clock.run()
    #expect(harness.core.runtime.runningCount == 0)
  }

  @Test(arguments: ["t", "f"])
  func aDebounceOnAThrottlesIDClosesItsWindowAndDropsTheWaitingEffect(kind: String) async {
    let harness = Harness(initialState: LogFeature.State(), reducer: mixed())
    harness.send(.start("\(kind):1"))
    harness.send(.start("\(kind):2"))
    harness.send(.start("d:3"))
    // The debounce cancelled the id: the window closed, "2" was dropped.
    harness.send(.start("\(kind):4"))
    #expect(
      harness.state.log == [
        "start \(kind):1", "emit \(kind):1", "start \(kind):2", "start d:3", "start \(kind):4",
        "emit \(kind):4",
      ])
    await clock.advance(by: .seconds(1))
    #expect(harness.state.log.suffix(1) == ["emit d:3"])
    await clock.run()
    #expect(!harness.state.log.contains("emit \(kind):2"))
    #expect(harness.core.runtime.runningCount == 0)
  }

  @Test func plainCancellableWorkUnderADebouncesIDLeavesItWaiting() async {
    let harness = Harness(initialState: LogFeature.State(), reducer: mixed())
    harness.send(.start("d:1"))
    harness.send(.start("c:2"))
    await clock.advance(by: .seconds(1))
    #expect(harness.state.log.suffix(1) == ["emit d:1"])
    // A new debounce cancels the work running under its id too.
    harness.send(.start("d:3"))
    await clock.advance(by: .seconds(10))
    #expect(harness.state.log == ["start d:1", "start c:2", "emit d:1", "start d:3", "emit d:3"])
    #expect(harness.core.runtime.runningCount == 0)
  }

  @Test func workCancellableInFlightUnderADebouncesIDDropsTheWaitingDebounce() async {
    let harness = Harness(initialState: LogFeature.State(), reducer: mixed())
    harness.send(.start("d:1"))
    harness.send(.start("ci:2"))
    await clock.advance(by: .seconds(10))
    #expect(harness.state.log == ["start d:1", "start ci:2", "emit ci:2"])
    #expect(harness.core.runtime.runningCount == 0)
  }

  @Test(arguments: ["t", "f"])
  func workCancellableInFlightUnderAThrottlesIDClosesItsWindow(kind: String) async {
    let harness = Harness(initialState: LogFeature.State(), reducer: mixed())
    harness.send(.start("\(kind):1"))
    harness.send(.start("\(kind):2"))
    harness.send(.start("ci:3"))
    harness.send(.start("\(kind):4"))
    #expect(harness.state.log.suffix(2) == ["start \(kind):4", "emit \(kind):4"])
    await clock.advance(by: .seconds(10))
    #expect(!harness.state.log.contains("emit \(kind):2"))
    #expect(harness.state.log.suffix(1) == ["emit ci:3"])
    #expect(harness.core.runtime.runningCount == 0)
  }

  @Test(arguments: ["t", "f"])
  func aWindowSpanningACancellationOfItsIDThrottlesFromTheNextEffect(kind: String) async {
    let harness = Harness(initialState: LogFeature.State(), reducer: mixed())
    harness.send(.start("\(kind):1"))
    harness.send(.start("\(kind):2"))
    await clock.advance(by: .milliseconds(400))
    harness.send(.stop("k"))
    await clock.advance(by: .milliseconds(200))
    // At 0.6 s: the window closed with its id, the next effect runs at once and opens one
    // until 1.6 s; the old window's end at 1 s does not close it.
    harness.send(.start("\(kind):3"))
    harness.send(.start("\(kind):4"))
    harness.send(.start("\(kind):5"))
    await clock.advance(by: .milliseconds(500))
    #expect(
      harness.state.log == [
        "start \(kind):1", "emit \(kind):1", "start \(kind):2", "stop k", "start \(kind):3",
        "emit \(kind):3", "start \(kind):4", "start \(kind):5",
      ])
    await clock.advance(by: .milliseconds(499))
    #expect(harness.state.log.count == 8)
    await clock.advance(by: .milliseconds(1))
    #expect(harness.state.log.suffix(1) == [kind == "t" ? "emit \(kind):5" : "emit \(kind):4"])
    await clock.run()
    #expect(harness.core.runtime.runningCount == 0)
  }

  @Test func aTimerCancelledBetweenTicksTicksNoMore() async {
    let harness = Harness(initialState: LogFeature.State(), reducer: mixed())
    harness.send(.start("timer"))
    await clock.advance(by: .seconds(2))
    await clock.advance(by: .milliseconds(500))
    harness.send(.stop("k"))
    #expect(clock.sleeperCount == 0)
    await clock.advance(by: .seconds(10))
    #expect(harness.state.log == ["start timer", "tick", "tick", "stop k"])
    #expect(harness.core.runtime.runningCount == 0)
  }

  @Test func aTimerRestartedBetweenTicksCountsFromItsRestart() async {
    let harness = Harness(initialState: LogFeature.State(), reducer: mixed())
    harness.send(.start("timer"))
    await clock.advance(by: .milliseconds(1500))
    harness.send(.stop("k"))
    harness.send(.start("timer"))
    await clock.advance(by: .milliseconds(999))
    #expect(harness.state.log == ["start timer", "tick", "stop k", "start timer"])
    await clock.advance(by: .milliseconds(1))
    #expect(harness.state.log.suffix(1) == ["tick"])
    harness.send(.stop("k"))
    #expect(harness.core.runtime.runningCount == 0)
  }

  @Test func aNegativeThrottleIntervalThrottlesNothingOnceTheWindowsTimerRan() async {
    let harness = Harness(
      initialState: LogFeature.State(), reducer: mixed(interval: .seconds(-1)))
    harness.send(.start("t:1"))
    harness.send(.start("t:2"))
    harness.send(.start("f:3"))
    #expect(
      harness.state.log == [
        "start t:1", "emit t:1", "start t:2", "emit t:2", "start f:3", "emit f:3",
      ])
    #expect(harness.core.runtime.runningCount == 0)
  }

  @Test func aThrottleUnderAnImmediateClockLetsTheWaitingEffectThroughAtTheNextStep() async {
    let immediate = ImmediateClock()
    let harness = Harness(
      initialState: LogFeature.State(),
      reducer: LogFeature { name in
        .merge(
          Effect.send(.record("emit \(name) a"))
            .throttle(id: "k", for: .seconds(1), clock: immediate, latest: true),
          Effect.send(.record("emit \(name) b"))
            .throttle(id: "k", for: .seconds(1), clock: immediate, latest: true)
        )
      })
    harness.send(.start("1"))
    #expect(harness.state.log == ["start 1", "emit 1 a", "emit 1 b"])
    #expect(immediate.now == TestClock.Instant(offset: .seconds(2)))
    #expect(harness.core.runtime.runningCount == 0)
  }

  @Test func aDebounceUnderAnImmediateClockRunsAtOnce() async {
    let immediate = ImmediateClock()
    let harness = Harness(
      initialState: LogFeature.State(),
      reducer: LogFeature { name in
        Effect.send(.record("emit \(name)"))
          .debounce(id: "k", for: .seconds(1), clock: immediate)
      })
    harness.send(.start("1"))
    harness.send(.start("2"))
    #expect(harness.state.log == ["start 1", "emit 1", "start 2", "emit 2"])
  }

  @Test func aDebounceMergedTwiceInOneEffectRunsTheSecond() async {
    let harness = Harness(
      initialState: LogFeature.State(),
      reducer: LogFeature { [clock] name in
        .merge(
          Effect.send(.record("emit \(name) a")).debounce(id: "k", for: .seconds(1), clock: clock),
          Effect.send(.record("emit \(name) b")).debounce(id: "k", for: .seconds(1), clock: clock)
        )
      })
    let task = harness.send(.start("1"))
    await clock.advance(by: .seconds(1))
    #expect(harness.state.log == ["start 1", "emit 1 b"])
    #expect(!task.isRunning)
  }

  @Test func aReplacedWaitingEffectsTaskEndsAndTheLatestsRunsOn() async {
    let harness = Harness(initialState: LogFeature.State(), reducer: mixed())
    let first = harness.send(.start("t:1"))
    let second = harness.send(.start("t:2"))
    let third = harness.send(.start("t:3"))
    #expect(!first.isRunning)
    #expect(!second.isRunning)
    #expect(third.isRunning)
    await clock.advance(by: .seconds(1))
    #expect(!third.isRunning)
    #expect(harness.state.log.suffix(1) == ["emit t:3"])
  }

  @Test func firstKeptWaitingEffectsTaskRunsOnAndTheLaterOnesEnd() async {
    let harness = Harness(initialState: LogFeature.State(), reducer: mixed())
    harness.send(.start("f:1"))
    let second = harness.send(.start("f:2"))
    let third = harness.send(.start("f:3"))
    #expect(second.isRunning)
    #expect(!third.isRunning)
    await clock.advance(by: .seconds(1))
    #expect(!second.isRunning)
    #expect(harness.state.log.suffix(1) == ["emit f:2"])
  }

  // MARK: - A live store

  /// A live store's throttle: its window's timer runs on the global executor, closes the
  /// window on the main actor, and runs the waiting effect then.
  @Test(.timeLimit(.minutes(30)), arguments: [true, false])
  func aLiveStoresThrottleRunsTheKeptEffectWhenTheWindowCloses(latest: Bool) async {
    let store = Store(initialState: LogFeature.State()) { mixed() }
    let kind = latest ? "t" : "f"
    store.send(.start("\(kind):1"))
    let second = store.send(.start("\(kind):2"))
    let third = store.send(.start("\(kind):3"))
    #expect(await clock.waitForSleepers())
    await clock.advance(by: .seconds(1))
    await (latest ? third : second).finish()
    #expect(
      store.log == [
        "start \(kind):1", "emit \(kind):1", "start \(kind):2", "start \(kind):3",
        "emit \(kind):\(latest ? 3 : 2)",
      ])
    // The next window, opened by the kept effect, holds the next one back.
    let fourth = store.send(.start("\(kind):4"))
    #expect(store.log.suffix(1) == ["start \(kind):4"])
    #expect(await clock.waitForSleepers())
    await clock.advance(by: .seconds(1))
    await fourth.finish()
    #expect(store.log.suffix(1) == ["emit \(kind):4"])
  }

  @Test(.timeLimit(.minutes(30)), arguments: [true, false])
  func aLiveStoresThrottleRightAfterItsIDWasCancelledRunsAtOnce(latest: Bool) async {
    let store = Store(initialState: LogFeature.State()) { mixed() }
    let kind = latest ? "t" : "f"
    store.send(.start("\(kind):1"))
    let second = store.send(.start("\(kind):2"))
    store.send(.stop("k"))
    store.send(.start("\(kind):3"))
    await second.finish()
    #expect(
      store.log == [
        "start \(kind):1", "emit \(kind):1", "start \(kind):2", "stop k", "start \(kind):3",
        "emit \(kind):3",
      ])
    let fourth = store.send(.start("\(kind):4"))
    #expect(await clock.waitForSleepers())
    #expect(clock.sleeperCount == 1, "the cancelled window's sleep was removed")
    await clock.advance(by: .seconds(1))
    await fourth.finish()
    #expect(store.log.suffix(2) == ["start \(kind):4", "emit \(kind):4"])
  }

  @Test(.timeLimit(.minutes(30))) func aLiveStoresDebounceRunsTheLastOfABurst() async {
    let store = Store(initialState: LogFeature.State()) { mixed() }
    store.send(.start("d:1"))
    store.send(.start("d:2"))
    let last = store.send(.start("d:3"))
    #expect(await clock.waitForSleepers())
    await clock.advance(by: .seconds(1))
    await last.finish()
    #expect(store.log == ["start d:1", "start d:2", "start d:3", "emit d:3"])
  }

  // MARK: - Concatenations

  /// Throttled work in a concatenation: the next part waits for it, and runs once it ran.
  nonisolated func throttledThenAfter(latest: Bool) -> LogFeature {
    LogFeature { [clock] name in
      .concatenate(
        Effect.send(.record("emit \(name)"))
          .throttle(id: "k", for: .seconds(1), clock: clock, latest: latest),
        .send(.record("after \(name)"))
      )
    }
  }

  @Test func aConcatenationsThrottledPartThatWaitsRunsItsNextPartAfterIt() async {
    let harness = Harness(
      initialState: LogFeature.State(), reducer: throttledThenAfter(latest: true))
    harness.send(.start("1"))
    let second = harness.send(.start("2"))
    #expect(second.isRunning)
    await clock.advance(by: .seconds(1))
    #expect(
      harness.state.log == ["start 1", "emit 1", "after 1", "start 2", "emit 2", "after 2"])
    #expect(!second.isRunning)
  }

  // MARK: - A clock that throws its own error for a cancelled sleep

  /// A debounce cut short by a later one, on a clock that throws its own error for that: the
  /// warning said the effect was dropped "as if a later one had come", when one had, as if
  /// the clock had failed in the wait; it says the wait had been cancelled, as a throttle's
  /// and a timer's do.
  @Test func aDebouncesClockErrorOnceALaterOneCameSaysTheWaitHadBeenCancelled() async {
    let warnings = WarningLog()
    let cutShort = InterruptedClock(base: clock)
    let harness = Harness(
      initialState: LogFeature.State(), warnings: warnings.handler,
      reducer: LogFeature { name in
        Effect.send(.record("emit \(name)")).debounce(id: "k", for: .seconds(1), clock: cutShort)
      })
    harness.send(.start("1"))
    harness.send(.start("2"))
    await clock.advance(by: .seconds(1))
    #expect(harness.state.log == ["start 1", "start 2", "emit 2"])
    #expect(
      warnings.messages == [
        """
        A debounce's clock threw an error from its sleep: SleepInterrupted(). Its wait had been \
        cancelled already (by a later effect under its id, or with its id, its lifetime or its \
        sender's task): the debounced effect was dropped, as it would have been anyway. The \
        debounce has id "k".
        """
      ])
    #expect(harness.core.runtime.runningCount == 0)
  }

  /// The same for a throttle's window closed with its id: the warning says it was closed
  /// already.
  @Test func aThrottlesClockErrorOnceItsIDWasCancelledSaysTheWindowWasClosedAlready() async {
    let warnings = WarningLog()
    let cutShort = InterruptedClock(base: clock)
    let harness = Harness(
      initialState: LogFeature.State(), warnings: warnings.handler,
      reducer: LogFeature { name in
        Effect.send(.record("emit \(name)"))
          .throttle(id: "k", for: .seconds(1), clock: cutShort, latest: true)
      })
    harness.send(.start("1"))
    harness.send(.start("2"))
    harness.send(.stop("k"))
    await clock.advance(by: .seconds(1))
    #expect(harness.state.log == ["start 1", "emit 1", "start 2", "stop k"])
    #expect(warnings.messages.count == 1)
    #expect(
      warnings.messages.first?.hasPrefix(
        """
        A throttle's clock threw an error from its sleep: SleepInterrupted(). Its window was \
        closed already, with its id or its lifetime.
        """) == true, "\(warnings.messages)")
    #expect(harness.core.runtime.runningCount == 0)
  }
}
