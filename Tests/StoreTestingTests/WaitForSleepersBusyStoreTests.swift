import Effects
import Store
import StoreTesting
import Testing

/// A feature with an effect that never pauses (a loop on `Task.yield()`), and one that waits
/// on a stream the test feeds, then sleeps on the test clock it holds.
private struct BusyListener: Reducer {
  struct State: Equatable {
    var processed: [Int] = []
  }

  enum Action: Equatable, Sendable {
    case poll
    case stopPolling
    case listen
    case processed(Int)
  }

  enum CancelID { case poll }

  let clock: TestClock
  let messages: AsyncStream<Int>

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .poll:
      return .run { _ in
        while !Task.isCancelled { await Task.yield() }
      }
      .cancellable(id: CancelID.poll)
    case .stopPolling:
      return .cancel(id: CancelID.poll)
    case .listen:
      return .run { [clock, messages] send in
        for await message in messages {
          try await clock.sleep(for: .seconds(1))
          send(.processed(message))
        }
      }
    case .processed(let message):
      state.processed.append(message)
      return .none
    }
  }
}

/// `waitForSleepers()` over a test store whose executor always has work ready (an effect
/// that never pauses, reported): it settles the store, which runs the effect the test
/// resumed to its sleep, settling it again while it has work, and returns once the sleeper is
/// there, rather than waiting on the busy executor's next job.
@MainActor
@Suite(.timeLimit(.minutes(30))) struct WaitForSleepersBusyStoreTests {
  let clock = TestClock()
  let messages = Messages()

  /// A test store whose effect never pauses (its runtime warning captured in `messages`), and
  /// the input of the stream its listener reads once sent `.listen`.
  private func storeRunningAnEffectThatNeverPauses() async -> (
    store: TestStoreOf<BusyListener>, input: AsyncStream<Int>.Continuation
  ) {
    let (stream, input) = AsyncStream.makeStream(of: Int.self)
    let store = TestStore(initialState: BusyListener.State()) {
      BusyListener(clock: clock, messages: stream)
    }
    await withKnownIssue {
      await store.send(.poll)
    } matching: {
      messages.capture($0)
    }
    return (store, input)
  }

  @Test func waitingForSleepersSettlesAStoreWhoseEffectNeverPausesOnceAndReturns() async {
    let (store, input) = await storeRunningAnEffectThatNeverPauses()
    #expect(messages.last.hasPrefix("Runtime warning: Effects ran 200000 jobs without coming"))
    await store.send(.listen)
    // Resumed before the wait: the wait's settling runs it to its sleep.
    input.yield(1)
    #expect(await clock.waitForSleepers())
    #expect(clock.sleeperCount == 1)
    await clock.advance(by: .seconds(1))
    await store.receive(.processed(1)) { $0.processed = [1] }
    input.finish()
    await store.send(.stopPolling)
    await store.finish()
    #expect(messages.all.count == 1, "\(messages.all)")
  }

  /// Fed once the wait may have begun (the busy store's executor then has a job ready when
  /// the wait looks): the wait settles that store again and runs the effect to its sleep.
  /// It used to leave a store with work out of the wait for good, and hang.
  @Test func waitingForSleepersRunsAnEffectResumedDuringTheWaitBesideOneThatNeverPauses() async {
    let (store, input) = await storeRunningAnEffectThatNeverPauses()
    await store.send(.listen)
    async let waited = clock.waitForSleepers()
    for _ in 0..<50 { await Task.yield() }
    input.yield(1)
    #expect(await waited)
    await clock.advance(by: .seconds(1))
    await store.receive(.processed(1)) { $0.processed = [1] }
    input.finish()
    await store.send(.stopPolling)
    await store.finish()
  }
}
