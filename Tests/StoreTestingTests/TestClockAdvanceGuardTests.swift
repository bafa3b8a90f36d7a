import Effects
import Store
import StoreTesting
import Testing

/// A poller that sleeps again and again for a nanosecond, as one given a tiny interval from
/// settings would.
private struct TightPoller: Reducer {
  struct State: Equatable {}
  enum Action: Sendable, Equatable {
    case started
    case startedFivePolls
  }
  let clock: TestClock

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .started:
      return .run { [clock] _ in
        while true { try await clock.sleep(for: .nanoseconds(1)) }
      }
    case .startedFivePolls:
      return .run { [clock] _ in
        for _ in 0..<5 { try await clock.sleep(for: .nanoseconds(1)) }
      }
    }
  }
}

/// `advance(by:)` over a loop that sleeps for a nanosecond woke it once per nanosecond of the
/// advance, with no guard: `advance(by: .seconds(1))` was 10^9 wakes, and the test hung with
/// no message. It stops after `maxSteps` wakes with a warning that fails the test, as
/// `run()` does.
@MainActor
@Suite struct TestClockAdvanceGuardTests {
  @Test(.timeLimit(.minutes(30)))
  func anAdvanceOverATightLoopStopsAtItsGuardWithAWarning() async {
    let clock = TestClock()
    let store = TestStore(initialState: TightPoller.State()) { TightPoller(clock: clock) }
    let messages = Messages()
    await store.send(.started)
    await clock.advance(by: .seconds(1), maxSteps: 50)
    #expect(clock.now.offset == .nanoseconds(50), "time stops at the last sleeper woken")
    await withKnownIssue {
      await store.skipInFlightEffects()
    } matching: {
      messages.capture($0)
    }
    #expect(messages.all.count == 1, "\(messages.all)")
    #expect(
      messages.all.first?.contains(
        """
        TestClock.advance(by: 1.0 seconds) woke 50 sleepers and stopped at 5e-08 seconds, \
        with sleepers left before 1.0 seconds
        """) == true, "\(messages.all)")
  }

  /// The default guard, 10,000 wakes. The loop runs on an executor of its own, which the
  /// clock runs to its next sleep at each wake without the main actor: under a test store
  /// each wake waits for the main actor, which a full parallel run keeps busy (10,000 wakes
  /// took 100 seconds there, and 490 under ThreadSanitizer).
  @Test func theDefaultGuardStopsANanosecondLoopUnderASecondsAdvance() async {
    let clock = TestClock()
    let warnings = WarningMessages()
    let (loop, executor) = startOnItsOwnExecutor(warnings: warnings) {
      while !Task.isCancelled { try? await clock.sleep(for: .nanoseconds(1)) }
    }
    await clock.advance(to: TestClock.Instant(offset: .seconds(1)))
    #expect(clock.now.offset == .nanoseconds(10_000))
    let reported = warnings.all
    #expect(reported.count == 1, "\(reported)")
    #expect(
      reported.first?.hasPrefix("TestClock.advance(to: 1.0 seconds) woke 10000 sleepers") == true,
      "\(reported)")
    loop.cancel()
    executor.runUntilIdle()
    await loop.value
  }

  /// A guard of zero, or less, wakes nothing and says so; time does not move. For `run()`
  /// too, which said "woke -3 sleepers".
  @Test(arguments: [0, -3], [true, false])
  func aGuardOfZeroOrLessWakesNothingAndSaysSo(maxSteps: Int, runs: Bool) async {
    let clock = TestClock()
    let store = TestStore(initialState: TightPoller.State()) { TightPoller(clock: clock) }
    let messages = Messages()
    await store.send(.startedFivePolls)
    if runs {
      await clock.run(maxSteps: maxSteps)
    } else {
      await clock.advance(by: .seconds(1), maxSteps: maxSteps)
    }
    #expect(clock.now.offset == .zero)
    await withKnownIssue {
      await store.skipInFlightEffects()
    } matching: {
      messages.capture($0)
    }
    let expected =
      runs
      ? "TestClock.run() woke 0 sleepers and sleepers remain"
      : "TestClock.advance(by: 1.0 seconds) woke 0 sleepers"
    #expect(messages.all.first?.contains(expected) == true, "\(messages.all)")
  }

  /// Exactly `maxSteps` wakes that leave nothing before the deadline are no warning, and time
  /// reaches the deadline.
  @Test func anAdvanceThatWakesExactlyItsGuardsStepsEndsQuietly() async {
    let clock = TestClock()
    let store = TestStore(initialState: TightPoller.State()) { TightPoller(clock: clock) }
    await store.send(.startedFivePolls)
    await clock.advance(by: .seconds(1), maxSteps: 5)
    #expect(clock.now.offset == .seconds(1))
    await store.finish()
  }
}

/// The messages of the runtime warnings raised under ``handler``.
final class WarningMessages: Sendable {
  private let messages = Locked<[String]>([])

  var handler: RuntimeWarningHandler {
    RuntimeWarningHandler { warning in self.messages.withLock { $0.append(warning.message) } }
  }

  var all: [String] { messages.withLock { $0 } }
}

/// Starts `operation` on an executor of its own, with its warnings going to `warnings`, and
/// runs it to its first suspension. A test clock runs such a task to its next sleep at each
/// wake without the main actor, which a full parallel run keeps busy: a test of thousands of
/// wakes takes a fraction of a second, not minutes.
func startOnItsOwnExecutor<Success: Sendable>(
  warnings: WarningMessages, _ operation: @escaping @Sendable () async -> Success
) -> (task: Task<Success, Never>, executor: ManualTaskExecutor) {
  let executor = ManualTaskExecutor()
  let task = ManualTaskExecutor.$current.withValue(executor) {
    RuntimeWarningHandler.$current.withValue(warnings.handler) {
      Task(executorPreference: executor) { await operation() }
    }
  }
  executor.runUntilIdle()
  return (task, executor)
}
