import Effects
import Testing

@testable import Store

/// An error from a clock's sleep: the one of every sleep of a ``BrokenClock``.
private struct SleepBroke: Error {}

/// An enum id, named with its type in a warning.
private enum ClockErrorID: Hashable, Sendable { case refresh }

/// A clock whose every sleep throws ``SleepBroke`` at once.
private struct BrokenClock: Clock {
  let base = ImmediateClock()
  var now: ImmediateClock.Instant { base.now }
  var minimumResolution: Duration { .zero }

  func sleep(until deadline: ImmediateClock.Instant, tolerance: Duration?) async throws {
    throw SleepBroke()
  }
}

/// A clock whose sleep throws, under a throttle and a debounce: the warning names the throttle
/// or debounce, its id, and where it was made (it named no place, and advised a `catch:` that
/// cannot be passed; then named neither the id nor, for a throttle, the action whose effect
/// opened the window, so two windows' warnings read the same), and a debounce drops its work
/// rather than run it without the wait (the effects hunt).
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
        once, as if its interval had passed: the effect waiting in it, if any, ran then. The \
        throttle has id "t"; the effect that opened the window was started by action \
        LogFeature.Action.start("1").
        """,
        // The window "2" opened, with nothing waiting in it.
        """
        A throttle's clock threw an error from its sleep: SleepBroke(). Its window closed at \
        once, as if its interval had passed: the effect waiting in it, if any, ran then. The \
        throttle has id "t"; the effect that opened the window was started by action \
        LogFeature.Action.start("2").
        """,
      ])
    #expect(warnings.all.allSatisfy { $0.fileID == #fileID && $0.line == line })
    #expect(harness.core.runtime.runningCount == 0)
  }

  @Test func aDebouncesClockErrorDropsTheWorkAndIsReportedWhereTheDebounceWasMade() {
    let clock = BrokenClock()
    let line: UInt = #line + 2
    let feature = LogFeature { name in
      Effect.send(.record("search \(name)")).debounce(id: "d", for: .seconds(1), clock: clock)
    }
    let harness = Harness(
      initialState: LogFeature.State(), warnings: warnings.handler, reducer: feature)
    harness.send(.start("a"))
    #expect(harness.state.log == ["start a"])
    #expect(
      warnings.messages == [
        """
        A debounce's clock threw an error from its sleep: SleepBroke(). The debounced effect \
        was dropped without running, as if a later one had come. The debounce has id "d".
        """
      ])
    #expect(warnings.all.first?.fileID == #fileID)
    #expect(warnings.all.first?.line == line)
    #expect(harness.core.runtime.runningCount == 0)
  }

  /// An id that is an enum's case is named with its type, as a test writes it.
  @Test func aThrottlesClockErrorNamesAnEnumIDWithItsType() {
    let clock = BrokenClock()
    let feature = LogFeature { name in
      Effect.send(.record(name)).throttle(
        id: ClockErrorID.refresh, for: .seconds(1), clock: clock, latest: false)
    }
    let harness = Harness(
      initialState: LogFeature.State(), warnings: warnings.handler, reducer: feature)
    _ = harness.store.send(.start("1"))
    harness.settle()
    let named = warnings.messages.contains {
      $0.hasSuffix(
        """
        The throttle has id ClockErrorID.refresh; the effect that opened the window was \
        started by action LogFeature.Action.start("1").
        """)
    }
    #expect(named, "\(warnings.messages)")
  }

  /// A child's debounce, mapped to its parent's actions, drops its work the same way.
  @Test func aMappedDebouncesClockErrorDropsTheWork() {
    let clock = BrokenClock()
    let feature = LogFeature { name in
      Effect<String>.send("search \(name)")
        .debounce(id: "d", for: .seconds(1), clock: clock)
        .map { LogFeature.Action.record($0) }
    }
    let harness = Harness(
      initialState: LogFeature.State(), warnings: warnings.handler, reducer: feature)
    harness.send(.start("a"))
    #expect(harness.state.log == ["start a"])
    #expect(warnings.messages.count == 1)
    #expect(warnings.messages.first?.hasPrefix("A debounce's clock threw") == true)
    #expect(harness.core.runtime.runningCount == 0)
  }

  /// The debounce's own work is dropped, not what follows the debounce in a concatenation
  /// around it, as with an error any other effect of the concatenation throws.
  @Test func aDebouncesClockErrorLeavesTheConcatenationAroundItGoingOn() {
    let clock = BrokenClock()
    let feature = LogFeature { name in
      .concatenate(
        Effect.send(.record("search \(name)")).debounce(id: "d", for: .seconds(1), clock: clock),
        .send(.record("after \(name)"))
      )
    }
    let harness = Harness(
      initialState: LogFeature.State(), warnings: warnings.handler, reducer: feature)
    let task = harness.send(.start("a"))
    #expect(harness.state.log == ["start a", "after a"])
    #expect(warnings.messages.count == 1)
    #expect(!task.isRunning)
    #expect(harness.core.runtime.runningCount == 0)
  }
}
