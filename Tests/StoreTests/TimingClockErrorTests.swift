import Effects
import Testing

@testable import Store

/// An error from a clock's sleep: the one of every sleep of a ``BrokenClock``.
private struct SleepBroke: Error {}

/// A clock whose every sleep throws ``SleepBroke`` at once.
private struct BrokenClock: Clock {
  let base = ImmediateClock()
  var now: ImmediateClock.Instant { base.now }
  var minimumResolution: Duration { .zero }

  func sleep(until deadline: ImmediateClock.Instant, tolerance: Duration?) async throws {
    throw SleepBroke()
  }
}

/// A clock whose sleep throws, under a throttle: the warning names the throttle and where it
/// was made (it named no place, and advised a `catch:` that cannot be passed), and the window
/// closes (the effects hunt).
@MainActor
@Suite struct TimingClockErrorTests {
  let warnings = WarningLog()

  @Test func aThrottlesClockErrorClosesTheWindowAndIsReportedWhereTheThrottleWasMade() {
    let clock = BrokenClock()
    let line: UInt = #line + 2
    let feature = LogFeature { name in
      Effect.send(.record(name)).throttle(id: "t", for: .seconds(1), clock: clock, latest: true)
    }
    let harness = Harness(
      initialState: LogFeature.State(), warnings: warnings.handler, reducer: feature)
    // Both before the window's timer runs: "2" waits in the window "1" opened.
    _ = harness.store.send(.start("1"))
    _ = harness.store.send(.start("2"))
    #expect(harness.state.log == ["start 1", "1", "start 2"])
    harness.settle()
    #expect(harness.state.log == ["start 1", "1", "start 2", "2"])
    #expect(
      warnings.messages == [
        """
        A throttle's clock threw an error from its sleep: SleepBroke(). Its window closed at \
        once, as if its interval had passed: the effect waiting in it, if any, ran then.
        """,
        // The window "2" opened, with nothing waiting in it.
        """
        A throttle's clock threw an error from its sleep: SleepBroke(). Its window closed at \
        once, as if its interval had passed: the effect waiting in it, if any, ran then.
        """,
      ])
    #expect(warnings.all.allSatisfy { $0.fileID == #fileID && $0.line == line })
    #expect(harness.core.runtime.runningCount == 0)
  }
}
