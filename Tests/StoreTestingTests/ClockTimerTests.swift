import Effects
import Store
import StoreTesting
import Testing

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

  #if EXIT_TESTS
    @Test func aTimerWithoutAPositiveIntervalStopsTheProgram() async {
      await #expect(processExitsWith: .failure) {
        _ = ImmediateClock().timer(interval: .zero)
      }
    }
  #endif
}
