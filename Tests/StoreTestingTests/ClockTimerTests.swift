import Effects
import Store
import StoreTesting
import Testing

/// What a clock of one's own may throw from its sleep.
private struct ClockBroke: Error {}

/// A clock whose sleeps end at once, time jumping to their deadline, but for the one with
/// the number `failing`, which throws ``ClockBroke``.
private final class BreakingClock: Clock, Sendable {
  let base = ImmediateClock()
  let sleeps = Locked(0)
  let failing: Int

  init(failing: Int) { self.failing = failing }

  var now: ImmediateClock.Instant { base.now }
  var minimumResolution: Duration { .zero }

  func sleep(until deadline: ImmediateClock.Instant, tolerance: Duration?) async throws {
    let count = sleeps.withLock {
      $0 += 1
      return $0
    }
    if count == failing { throw ClockBroke() }
    try await base.sleep(until: deadline, tolerance: tolerance)
  }
}

/// A feature that counts the ticks of a timer, and can dawdle after the first one.
private struct Metronome: Reducer {
  struct State: Equatable {
    var ticks: [Duration] = []
  }

  enum Action: Equatable, Sendable {
    case started(dawdle: Duration)
    case ticked(Duration)
    case stopped
  }

  enum CancelID { case timer }

  /// As a feature stores its clock: the timer takes an existential too.
  let clock: any Clock<Duration>

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .started(let dawdle):
      return .run { [clock] send in
        var isFirst = true
        for await instant in clock.timer(interval: .seconds(1)) {
          send(.ticked(instant))
          if isFirst, dawdle > .zero { try await clock.sleep(for: dawdle) }
          isFirst = false
        }
      }
      .cancellable(id: CancelID.timer)
    case .ticked(let instant):
      state.ticks.append(instant)
      return .none
    case .stopped:
      return .cancel(id: CancelID.timer)
    }
  }
}

@MainActor
@Suite struct ClockTimerTests {
  let clock = TestClock()

  func at(_ seconds: Double) -> Duration {
    .seconds(seconds)
  }

  /// Advancing a test clock by three intervals delivers three ticks, each the instant it was
  /// due; cancelling the effect ends the sequence, and the effect with it.
  @Test func aTimerTicksOncePerIntervalAndEndsWithItsEffect() async {
    let store = TestStore(initialState: Metronome.State()) { Metronome(clock: clock) }
    await store.send(.started(dawdle: .zero))
    await clock.advance(by: .seconds(3))
    await store.receive(.ticked(at(1))) { $0.ticks = [at(1)] }
    await store.receive(.ticked(at(2))) { $0.ticks.append(at(2)) }
    await store.receive(.ticked(at(3))) { $0.ticks.append(at(3)) }
    await store.send(.stopped)
    await store.finish()
  }

  /// A consumer that falls behind skips the ticks it missed, and gets the next one due, on
  /// the same schedule: ticks at 1 s, then (busy until 3.5 s) at 4 s and 5 s.
  @Test func aSlowConsumerSkipsTheMissedTicksWithoutDrift() async {
    let store = TestStore(initialState: Metronome.State()) { Metronome(clock: clock) }
    await store.send(.started(dawdle: .milliseconds(2_500)))
    await clock.advance(by: .seconds(1))
    await store.receive(.ticked(at(1))) { $0.ticks = [at(1)] }
    await clock.advance(by: .milliseconds(2_500))
    await clock.advance(by: .milliseconds(500))
    await store.receive(.ticked(at(4))) { $0.ticks.append(at(4)) }
    await clock.advance(by: .seconds(1))
    await store.receive(.ticked(at(5))) { $0.ticks.append(at(5)) }
    await store.send(.stopped)
    await store.finish()
  }

  /// A sequence whose task was cancelled stays ended: the next call returns `nil` too, without
  /// sleeping.
  @Test func aCancelledTimerStaysEnded() async {
    let clock = ImmediateClock()
    let (first, iterator) = await Task {
      var iterator = clock.timer(interval: .seconds(1)).makeAsyncIterator()
      withUnsafeCurrentTask { $0?.cancel() }
      return (await iterator.next(), iterator)
    }.value
    #expect(first == nil)
    // Asked again from a task that is not cancelled: still ended.
    var ended = iterator
    #expect(await ended.next() == nil)
    #expect(clock.now.offset == .zero)
  }

  @Test func anImmediateClocksTimerTicksWithoutWaiting() async {
    let clock = ImmediateClock()
    var ticks: [Duration] = []
    for await instant in clock.timer(interval: .milliseconds(250)) {
      ticks.append(instant)
      if ticks.count == 3 { break }
    }
    #expect(ticks == [.milliseconds(250), .milliseconds(500), .milliseconds(750)])
    #expect(clock.now.offset == .milliseconds(750))
  }

  /// An error the clock's sleep throws, other than cancellation, ends the ticks and is
  /// reported, naming the error and where the timer was made: the sequence cannot throw it,
  /// and it ended the loop in silence, as if its task had been cancelled (the effects hunt).
  @Test func anErrorTheClockThrowsEndsTheTimerAndIsReportedWhereTheTimerWasMade() async {
    let warnings = Locked<[RuntimeWarning]>([])
    let handler = RuntimeWarningHandler { warning in warnings.withLock { $0.append(warning) } }
    let clock = BreakingClock(failing: 3)
    var ticks: [Duration] = []
    let line: UInt = #line + 2
    await RuntimeWarningHandler.$current.withValue(handler) {
      for await tick in clock.timer(interval: .seconds(1)) { ticks.append(tick) }
    }
    #expect(ticks == [at(1), at(2)])
    let reported = warnings.withLock { $0 }
    #expect(reported.count == 1)
    #expect(reported.first?.fileID == #fileID)
    #expect(reported.first?.line == line)
    #expect(
      reported.first?.message
        == """
        A timer's clock threw an error from its sleep: ClockBroke(). The timer ended before the \
        tick due 3.0 seconds after the first, as if its task had been cancelled.
        """)
  }

  /// The tick is named as the sequence counts it, from the first `next()`, not from when the
  /// timer was made (the review: 1.000057157 seconds, for a timer made a moment before).
  @Test func theWarningCountsTheTickFromTheFirstNext() async throws {
    let warnings = Locked<[String]>([])
    let handler = RuntimeWarningHandler { warning in
      warnings.withLock { $0.append(warning.message) }
    }
    let clock = BreakingClock(failing: 2)
    let timer = clock.timer(interval: .seconds(1))
    try await clock.sleep(for: .seconds(5))
    await RuntimeWarningHandler.$current.withValue(handler) {
      for await _ in timer {}
    }
    let reported = warnings.withLock { $0 }
    #expect(reported.count == 1)
    #expect(reported.first?.contains("before the tick due 1.0 seconds after the first") == true)
  }

  /// In an effect, the store's handler gets it: a test store fails the test.
  @Test func anErrorTheClockThrowsInAnEffectFailsTheTest() async {
    let store = TestStore(initialState: Metronome.State()) {
      Metronome(clock: BreakingClock(failing: 2))
    }
    await withKnownIssue {
      await store.send(.started(dawdle: .zero))
      await store.receive(.ticked(at(1))) { $0.ticks = [at(1)] }
      await store.finish()
    } matching: { issue in
      issue.comments.contains { $0.rawValue.contains("A timer's clock threw") }
    }
  }

  #if EXIT_TESTS
    @Test func aTimerWithoutAPositiveIntervalStopsTheProgram() async {
      await #expect(processExitsWith: .failure) {
        _ = ImmediateClock().timer(interval: .zero)
      }
    }
  #endif
}
