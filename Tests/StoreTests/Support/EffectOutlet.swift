import Effects

/// Where a running effect hands its `Send` to the test, which can then send through it as
/// the effect would, from outside any reducer.
final class EffectOutlet<Action: Sendable>: Sendable {
  /// The running effect's `Send`, once it has handed it over.
  let send = Locked<Send<Action>?>(nil)
  /// Yields once the effect has handed its `Send` over.
  let started: AsyncStream<Void>
  private let startedContinuation: AsyncStream<Void>.Continuation

  init() { (started, startedContinuation) = AsyncStream.makeStream() }

  /// An effect that hands its `Send` over, then waits until it is cancelled.
  func effect() -> Effect<Action> {
    .run { [self] send in
      self.send.withLock { $0 = send }
      startedContinuation.yield()
      try await Task.sleep(for: .seconds(3_600))
    }
  }
}
