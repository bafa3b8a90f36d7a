import Effects
import Testing

@testable import Store

@MainActor
@Suite struct EffectTimingTests {
  let clock = TestClock()

  nonisolated func debounced() -> LogFeature {
    LogFeature { [clock] query in
      Effect.send(.record("search \(query)"))
        .debounce(id: "search", for: .milliseconds(300), clock: clock)
    }
  }

  nonisolated func throttled(latest: Bool) -> LogFeature {
    LogFeature { [clock] value in
      Effect.send(.record("emit \(value)"))
        .throttle(id: "scroll", for: .seconds(1), clock: clock, latest: latest)
    }
  }

  @Test func debounceRunsOnlyTheLastOfABurst() async {
    let harness = Harness(initialState: LogFeature.State(), reducer: debounced())
    harness.send(.start("s"))
    await clock.advance(by: .milliseconds(200))
    harness.send(.start("sw"))
    await clock.advance(by: .milliseconds(200))
    harness.send(.start("swi"))
    await clock.advance(by: .milliseconds(299))
    #expect(harness.state.log == ["start s", "start sw", "start swi"])
    await clock.advance(by: .milliseconds(1))
    #expect(harness.state.log == ["start s", "start sw", "start swi", "search swi"])
    #expect(harness.core.runtime.runningCount == 0)
  }

  @Test func debounceAfterQuietRunsAgain() async {
    let harness = Harness(initialState: LogFeature.State(), reducer: debounced())
    harness.send(.start("a"))
    await clock.advance(by: .milliseconds(300))
    harness.send(.start("b"))
    await clock.advance(by: .milliseconds(300))
    #expect(harness.state.log == ["start a", "search a", "start b", "search b"])
  }

  @Test func throttleRunsTheFirstAtOnceAndTheLatestWhenTheWindowCloses() async {
    let harness = Harness(initialState: LogFeature.State(), reducer: throttled(latest: true))
    harness.send(.start("1"))
    harness.send(.start("2"))
    harness.send(.start("3"))
    #expect(harness.state.log == ["start 1", "emit 1", "start 2", "start 3"])
    await clock.advance(by: .seconds(1))
    #expect(harness.state.log.suffix(1) == ["emit 3"])
    // A new window opened when "3" ran: "4" waits for it.
    harness.send(.start("4"))
    #expect(harness.state.log.suffix(1) == ["start 4"])
    await clock.advance(by: .seconds(1))
    #expect(harness.state.log.suffix(1) == ["emit 4"])
    await clock.advance(by: .seconds(1))
    harness.send(.start("5"))
    #expect(harness.state.log.suffix(2) == ["start 5", "emit 5"])
  }

  @Test func throttleWithoutLatestKeepsTheFirstWaitingEffect() async {
    let harness = Harness(initialState: LogFeature.State(), reducer: throttled(latest: false))
    harness.send(.start("1"))
    harness.send(.start("2"))
    harness.send(.start("3"))
    await clock.advance(by: .seconds(1))
    #expect(harness.state.log == ["start 1", "emit 1", "start 2", "start 3", "emit 2"])
  }

  @Test func throttleWaitsForTheWindowInTheSendersTask() async {
    let harness = Harness(initialState: LogFeature.State(), reducer: throttled(latest: true))
    harness.send(.start("1"))
    let waiting = harness.send(.start("2"))
    #expect(waiting.isRunning)
    waiting.cancel()
    await clock.advance(by: .seconds(1))
    #expect(harness.state.log == ["start 1", "emit 1", "start 2"])
    #expect(harness.core.runtime.runningCount == 0)
  }

  @Test func aWindowWhoseWaitingEffectWasCancelledClosesWhenItsTimeIsUp() async {
    // The waiting effect was cancelled with its sender's task, not the window's timer: the
    // window must still close, or every later effect with the id would wait for good.
    let harness = Harness(initialState: LogFeature.State(), reducer: throttled(latest: true))
    harness.send(.start("1"))
    harness.send(.start("2")).cancel()
    await clock.advance(by: .seconds(1))
    harness.send(.start("3"))
    #expect(harness.state.log == ["start 1", "emit 1", "start 2", "start 3", "emit 3"])
    await clock.advance(by: .seconds(1))
    #expect(harness.core.runtime.runningCount == 0)
  }

  /// Work throttled inside a concatenation, followed by a `.send`: the next part must wait
  /// for the work, also when the work waited for its window.
  nonisolated func throttledWorkThenAfter() -> LogFeature {
    LogFeature { [clock] name in
      .concatenate(
        Effect.run { send in
          try await clock.sleep(for: .seconds(5))
          send(.record("work \(name)"))
        }
        .throttle(id: "work", for: .seconds(1), clock: clock, latest: true),
        .send(.record("after \(name)"))
      )
    }
  }

  @Test func anEffectThatWaitedForItsWindowKeepsTheNextPartOfItsConcatenationWaiting() async {
    let harness = Harness(initialState: LogFeature.State(), reducer: throttledWorkThenAfter())
    harness.send(.start("1"))
    let second = harness.send(.start("2"))
    await clock.advance(by: .seconds(1))
    // "2" has just started its work: "after 2" waits for it.
    #expect(harness.state.log == ["start 1", "start 2"])
    #expect(second.isRunning)
    await clock.advance(by: .seconds(4))
    #expect(harness.state.log == ["start 1", "start 2", "work 1", "after 1"])
    await clock.advance(by: .seconds(1))
    #expect(
      harness.state.log == ["start 1", "start 2", "work 1", "after 1", "work 2", "after 2"])
    #expect(!second.isRunning)
  }

  @Test func anEffectThatWaitedForItsWindowIsCancelledWithItsSendersTask() async {
    let harness = Harness(initialState: LogFeature.State(), reducer: throttledWorkThenAfter())
    harness.send(.start("1"))
    let second = harness.send(.start("2"))
    await clock.advance(by: .seconds(1))
    second.cancel()
    await clock.advance(by: .seconds(10))
    #expect(harness.state.log == ["start 1", "start 2", "work 1", "after 1"])
    #expect(harness.core.runtime.runningCount == 0)
  }

  @Test func aThrottledEffectRightAfterItsIDWasCancelledRunsAtOnce() async {
    // No settling between the sends: the cancelled window's timer has not reported back.
    let harness = Harness(initialState: LogFeature.State(), reducer: throttled(latest: true))
    harness.send(.start("1"))
    harness.send(.start("2"))
    harness.store.send(.stop("scroll"))
    harness.store.send(.start("3"))
    harness.settle()
    #expect(
      harness.state.log == ["start 1", "emit 1", "start 2", "stop scroll", "start 3", "emit 3"])
    // "3" opened a window of its own, which the old timer does not close.
    harness.send(.start("4"))
    #expect(harness.state.log.suffix(1) == ["start 4"])
    await clock.advance(by: .seconds(1))
    #expect(harness.state.log.suffix(1) == ["emit 4"])
  }

  @Test func withoutLatestACancelledWaitingEffectGivesWayToTheNext() async {
    let harness = Harness(initialState: LogFeature.State(), reducer: throttled(latest: false))
    harness.send(.start("1"))
    harness.send(.start("2")).cancel()
    harness.send(.start("3"))
    await clock.advance(by: .seconds(1))
    #expect(harness.state.log == ["start 1", "emit 1", "start 2", "start 3", "emit 3"])
  }

  @Test func cancellingTheThrottleIDClosesTheWindow() async {
    let harness = Harness(initialState: LogFeature.State(), reducer: throttled(latest: true))
    harness.send(.start("1"))
    harness.send(.start("2"))
    harness.send(.stop("scroll"))
    harness.send(.start("3"))
    #expect(
      harness.state.log == ["start 1", "emit 1", "start 2", "stop scroll", "start 3", "emit 3"])
  }

  /// Throttled work wrapped in an id of its own, as a screen files all its work.
  nonisolated func throttledUnderScreenID(cancelInFlight: Bool) -> LogFeature {
    LogFeature { [clock] value in
      Effect.send(.record("emit \(value)"))
        .throttle(id: "scroll", for: .seconds(1), clock: clock, latest: true)
        .cancellable(id: "screen", cancelInFlight: cancelInFlight)
    }
  }

  @Test func aCancellableInFlightAroundAThrottleDoesNotCloseItsWindow() async {
    let harness = Harness(
      initialState: LogFeature.State(), reducer: throttledUnderScreenID(cancelInFlight: true))
    harness.send(.start("1"))
    harness.send(.start("2"))
    harness.send(.start("3"))
    // Each start cancels the one waiting before it, not the window "1" opened.
    #expect(harness.state.log == ["start 1", "emit 1", "start 2", "start 3"])
    await clock.advance(by: .seconds(1))
    #expect(harness.state.log == ["start 1", "emit 1", "start 2", "start 3", "emit 3"])
  }

  @Test func cancellingAnIDAroundAThrottleLeavesItsWindowOpen() async {
    let harness = Harness(
      initialState: LogFeature.State(), reducer: throttledUnderScreenID(cancelInFlight: false))
    harness.send(.start("1"))
    harness.send(.stop("screen"))
    await clock.advance(by: .milliseconds(500))
    harness.send(.start("2"))
    #expect(harness.state.log == ["start 1", "emit 1", "stop screen", "start 2"])
    await clock.advance(by: .milliseconds(500))
    #expect(harness.state.log.suffix(1) == ["emit 2"])
  }

  @Test func cancellingAnIDAroundAThrottleDropsTheEffectWaitingInIt() async {
    let harness = Harness(
      initialState: LogFeature.State(), reducer: throttledUnderScreenID(cancelInFlight: false))
    harness.send(.start("1"))
    harness.send(.start("2"))
    harness.send(.stop("screen"))
    await clock.advance(by: .seconds(1))
    #expect(harness.state.log == ["start 1", "emit 1", "start 2", "stop screen"])
    // The window closed when its time was up: the next effect runs at once.
    harness.send(.start("3"))
    #expect(harness.state.log.suffix(2) == ["start 3", "emit 3"])
  }

  /// Throttled work whose interval the test names: `"1@10"` emits 1 under a 10 s window.
  nonisolated func throttledForNamedIntervals() -> LogFeature {
    LogFeature { [clock] name in
      let seconds = Int(name.split(separator: "@").last ?? "") ?? 1
      return Effect.send(.record("emit \(name)"))
        .throttle(id: "scroll", for: .seconds(seconds), clock: clock, latest: true)
    }
  }

  @Test func theWindowAWaitingEffectOpensHasThatEffectsInterval() async {
    let harness = Harness(
      initialState: LogFeature.State(), reducer: throttledForNamedIntervals())
    harness.send(.start("1@10"))
    harness.send(.start("2@1"))
    await clock.advance(by: .seconds(10))
    #expect(harness.state.log.suffix(1) == ["emit 2@1"])
    // "2" opened a window of 1 s, not of the 10 s of the window before it.
    harness.send(.start("3@1"))
    await clock.advance(by: .seconds(1))
    #expect(harness.state.log.suffix(2) == ["start 3@1", "emit 3@1"])
  }

  @Test func theWindowAWaitingEffectOpensIsMeasuredOnThatEffectsClock() async {
    let other = TestClock()
    let harness = Harness(
      initialState: LogFeature.State(),
      reducer: LogFeature { [clock] name in
        Effect.send(.record("emit \(name)"))
          .throttle(
            id: "scroll", for: .seconds(1), clock: name == "1" ? clock : other, latest: true)
      })
    harness.send(.start("1"))
    harness.send(.start("2"))
    await clock.advance(by: .seconds(1))
    #expect(harness.state.log.suffix(1) == ["emit 2"])
    harness.send(.start("3"))
    // "2" opened its window on the other clock: this one moving does not close it.
    await clock.advance(by: .seconds(1))
    #expect(harness.state.log.suffix(1) == ["start 3"])
    await other.advance(by: .seconds(1))
    #expect(harness.state.log.suffix(1) == ["emit 3"])
  }

  /// A search that does nothing for an empty query, debounced or throttled whatever it is.
  nonisolated func searchOrNothing(throttled: Bool) -> LogFeature {
    LogFeature { [clock] query in
      let search: Effect<LogFeature.Action> =
        query.isEmpty ? .none : .send(.record("search \(query)"))
      return throttled
        ? search.throttle(id: "search", for: .seconds(1), clock: clock, latest: true)
        : search.debounce(id: "search", for: .milliseconds(300), clock: clock)
    }
  }

  @Test func aDebounceOfNothingLeavesNothingRunningAndDropsTheSearchWaiting() async {
    let harness = Harness(
      initialState: LogFeature.State(), reducer: searchOrNothing(throttled: false))
    harness.send(.start("a"))
    harness.send(.start(""))
    #expect(harness.core.runtime.runningCount == 0)
    #expect(clock.sleeperCount == 0)
    await clock.advance(by: .seconds(1))
    #expect(harness.state.log == ["start a", "start "])
  }

  @Test func aThrottleOfNothingOpensNoWindow() async {
    let harness = Harness(
      initialState: LogFeature.State(), reducer: searchOrNothing(throttled: true))
    harness.send(.start(""))
    #expect(harness.core.runtime.runningCount == 0)
    harness.send(.start("a"))
    #expect(harness.state.log == ["start ", "start a", "search a"])
  }

  @Test func aThrottleOfNothingDoesNotReplaceTheEffectWaiting() async {
    let harness = Harness(
      initialState: LogFeature.State(), reducer: searchOrNothing(throttled: true))
    harness.send(.start("a"))
    harness.send(.start("b"))
    harness.send(.start(""))
    await clock.advance(by: .seconds(1))
    #expect(harness.state.log == ["start a", "search a", "start b", "start ", "search b"])
  }
}
