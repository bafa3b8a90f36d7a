import Effects
import Testing

@testable import Store

/// What ``InterruptedClock`` throws for a sleep cut short.
private struct SleepInterrupted: Error {}

/// A test clock whose sleep, cut short by its task's cancellation, throws an error of its own
/// rather than `CancellationError`, as a clock wrapping another may.
private struct InterruptedClock: Clock {
  let base: TestClock
  var now: TestClock.Instant { base.now }
  var minimumResolution: Duration { .zero }

  func sleep(until deadline: TestClock.Instant, tolerance: Duration?) async throws {
    do {
      try await base.sleep(until: deadline, tolerance: tolerance)
    } catch {
      throw SleepInterrupted()
    }
  }
}

/// A test clock whose sleep, cut short by its task's cancellation, returns rather than throw
/// (a clock of one's own written with `try?`), and, called once its task is cancelled, returns
/// at once: a loop over its sleeps must check for cancellation itself. It counts those calls,
/// and throws at the hundredth, so that a loop that never checks still ends.
private final class CancellationSwallowingClock: Clock, Sendable {
  let base: TestClock
  let sleepsOnceCancelled = Locked(0)

  init(base: TestClock) { self.base = base }

  var now: TestClock.Instant { base.now }
  var minimumResolution: Duration { .zero }

  func sleep(until deadline: TestClock.Instant, tolerance: Duration?) async throws {
    if Task.isCancelled {
      let count = sleepsOnceCancelled.withLock {
        $0 += 1
        return $0
      }
      if count >= 100 { throw CancellationError() }
      return
    }
    try? await base.sleep(until: deadline, tolerance: tolerance)
  }
}

@MainActor
@Suite struct EffectsHuntTests {
  let clock = TestClock()

  /// A timer ends when its task is cancelled, as its documentation says, also on a clock
  /// whose sleep does not throw for the cancellation: it ticks no more, and sleeps no more.
  /// (It went on ticking, each sleep returning at once, for as long as the clock let it: for
  /// good, with the effect never ending, on a clock that never throws.)
  @Test func aTimerEndsWithItsTaskOnAClockThatDoesNotThrowForCancellation() async {
    let timerClock = CancellationSwallowingClock(base: clock)
    let harness = Harness(
      initialState: LogFeature.State(),
      reducer: LogFeature { _ in
        .run { send in
          for await tick in timerClock.timer(interval: .seconds(1)) {
            send(.record("tick \(tick)"))
          }
        }
        .cancellable(id: "timer")
      })
    harness.send(.start("t"))
    await clock.advance(by: .seconds(2))
    #expect(harness.state.log == ["start t", "tick 1.0 seconds", "tick 2.0 seconds"])
    harness.send(.stop("timer"))
    harness.settle()
    #expect(harness.core.runtime.runningCount == 0)
    #expect(timerClock.sleepsOnceCancelled.withLock { $0 } == 0)
  }

  /// A timer whose clock throws another error than cancellation once its task is cancelled:
  /// the error is reported, as a `.run`'s, a debounce's or a throttle's would be. (The timer
  /// ended in silence, the error lost.)
  @Test func aTimersClockErrorAfterCancellationIsReported() async {
    let warnings = WarningLog()
    let timerClock = InterruptedClock(base: clock)
    let harness = Harness(
      initialState: LogFeature.State(), warnings: warnings.handler,
      reducer: LogFeature { _ in
        .run { send in
          for await tick in timerClock.timer(interval: .seconds(1)) {
            send(.record("tick \(tick)"))
          }
        }
        .cancellable(id: "timer")
      })
    harness.send(.start("t"))
    await clock.advance(by: .seconds(1))
    harness.send(.stop("timer"))
    harness.settle()
    #expect(harness.state.log == ["start t", "tick 1.0 seconds", "stop timer"])
    #expect(harness.core.runtime.runningCount == 0)
    #expect(warnings.messages.count == 1)
    #expect(warnings.messages.first?.contains("SleepInterrupted()") == true)
  }
}
