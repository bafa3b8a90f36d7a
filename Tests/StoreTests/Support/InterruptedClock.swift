import Effects

/// What ``InterruptedClock`` throws for a sleep cut short.
struct SleepInterrupted: Error {}

/// A test clock whose sleep, cut short by its task's cancellation, throws an error of its own
/// rather than `CancellationError`, as a clock wrapping another may.
struct InterruptedClock: Clock {
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
