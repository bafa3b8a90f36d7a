import Effects
import Store
import Testing

@testable import StoreTesting

/// A feature whose effect polls until it is cancelled, yielding between looks, and one that
/// yields a bounded number of times.
private struct Poller: Reducer {
  struct State: Equatable {
    var finished = false
  }

  enum Action: Sendable, Equatable {
    case startPolling
    case startCountedYields
    case startTicking
    case ticked
    case finished
  }

  /// Counts the polling loop's turns.
  final class Turns: Sendable {
    let count = Locked(0)
  }

  var turns = Turns()
  var clock = TestClock()

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .startPolling:
      return .run { [turns] _ in
        while !Task.isCancelled {
          turns.count.withLock { $0 += 1 }
          await Task.yield()
        }
      }
    case .startTicking:
      return .run { [clock] send in
        for await _ in clock.timer(interval: .seconds(1)) { send(.ticked) }
      }
    case .ticked:
      return .none
    case .startCountedYields:
      return .run { send in
        for _ in 0..<10_000 { await Task.yield() }
        send(.finished)
      }
    case .finished:
      state.finished = true
      return .none
    }
  }
}

@MainActor
@Suite struct EndlessWorkTests {
  let messages = Messages()

  /// An effect that loops on `Task.yield()` always has a job ready: `send` ran jobs until none
  /// was left, and never returned, whatever the store's timeout; the test could not reach
  /// its `cancel()`. The store now stops after a bound, reports the effect once, and returns.
  @Test func anEffectThatNeverPausesIsReportedAndTheTestGoesOn() async {
    let store = TestStore(initialState: Poller.State()) { Poller() }
    await withKnownIssue {
      let task = await store.send(.startPolling)
      task.cancel()
      await store.finish()
    } matching: {
      messages.capture($0)
    }
    #expect(messages.all.count == 1, "\(messages.all)")
    #expect(
      messages.last.hasPrefix(
        "Runtime warning: Effects ran 200000 jobs without coming to a pause, so the store "
          + "stopped running them for now. Running:\n  • an effect started by "
          + "Poller.Action.startPolling (created at StoreTestingTests/EndlessWorkTests.swift:"),
      "\(messages.all)")
  }

  /// Left running, such an effect is still reported by `finish` once its timeout is over,
  /// and a `receive` waiting for an action from it gives up: neither hangs.
  @Test func waitingOnAnEffectThatNeverPausesEndsAtTheTimeout() async {
    let store = TestStore(initialState: Poller.State()) { Poller() }
    store.timeout = .milliseconds(50)
    await withKnownIssue {
      await store.send(.startPolling)
      await store.receive(.finished) { $0.finished = true }
      await store.finish()
    } matching: {
      messages.capture($0)
    }
    #expect(messages.all.count == 3, "\(messages.all)")
    #expect(messages.all.first?.hasPrefix("Runtime warning: Effects ran") == true)
    #expect(messages.last.hasPrefix("1 effect still running at the end of the test:"))
  }

  /// Once reported, the effect still runs at each later step, but briefly: each of a test
  /// clock's wakes ran it for another 200,000 jobs, so ten ticks took seconds and a long
  /// `clock.run()` as good as hung.
  @Test func onceReportedItRunsBrieflyAtLaterSteps() async {
    let poller = Poller()
    let store = TestStore(initialState: Poller.State()) { poller }
    await withKnownIssue {
      await store.send(.startPolling)
    } matching: {
      messages.capture($0)
    }
    let ticking = await store.send(.startTicking)
    await poller.clock.advance(by: .seconds(10))
    for _ in 0..<10 { await store.receive(.ticked) }
    ticking.cancel()
    await store.skipInFlightEffects()
    let turns = poller.turns.count.withLock { $0 }
    #expect(turns < 300_000, "the polling loop ran \(turns) times")
    #expect(messages.all.count == 1)
  }

  /// Work that yields often but ends is run to its end, as before.
  @Test func anEffectThatYieldsManyTimesAndEndsIsRunToItsEnd() async {
    let store = TestStore(initialState: Poller.State()) { Poller() }
    await store.send(.startCountedYields)
    await store.receive(.finished) { $0.finished = true }
    await store.finish()
  }
}
