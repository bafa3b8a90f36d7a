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

@MainActor
@Suite struct EffectsHuntTests {
  let clock = TestClock()

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
