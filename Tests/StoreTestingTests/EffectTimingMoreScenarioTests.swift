// More of the effects runtime against time, from the same adversarial trial as
// EffectTimingScenarioTests.

import Effects
import Store
import Testing

@testable import StoreTesting

// MARK: - Timers, released stores, non-exhaustive receives

@MainActor
@Suite struct EffectTimingMoreScenarioTests {
  struct F: Reducer {
    struct State: Equatable { var n = 0 }
    enum Action: Equatable, Sendable {
      case go, a, b, c, nap, scrolled(Int), logged(Int), debounced
    }
    let clock: TestClock
    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .go:
        return .run { send in
          send(.a); send(.b); send(.c)
        }
      case .a, .b, .c:
        state.n += 1
        return .none
      case .nap:
        return .run { _ in try await clock.sleep(for: .seconds(1)) }
      case .scrolled(let n):
        return .run { send in send(.logged(n)) }
          .throttle(id: "s", for: .seconds(1), clock: clock, latest: true)
      case .logged:
        return .none
      case .debounced:
        return .run { send in send(.a) }.debounce(id: "d", for: .seconds(1), clock: clock)
      }
    }
  }

  @Test func nonExhaustiveReceiveSkipsAndUnreceivedShrinks() async {
    let store = TestStore(initialState: F.State()) { F(clock: TestClock()) }
    store.exhaustivity = .off
    await store.send(.go)
    #expect(store.unreceivedActions == [.a, .b, .c])
    await store.receive(.c) { $0.n = 3 }
    #expect(store.unreceivedActions.isEmpty)
    await store.send(.go)
    await store.send(.nap)
    #expect(store.unreceivedActions.isEmpty)
    await store.finish()
  }

  @Test func releasedWithOnlyAnIdleThrottleWindowIsFine() async {
    let clock = TestClock()
    do {
      let store = TestStore(initialState: F.State()) { F(clock: clock) }
      await store.send(.scrolled(1))
      await store.receive(.logged(1))
    }
    #expect(clock.sleeperCount == 0)
  }

  @Test func releasedWithAWaitingDebounceFails() async {
    let clock = TestClock()
    let messages = Messages()
    await withKnownIssue {
      let store = TestStore(initialState: F.State()) { F(clock: clock) }
      await store.send(.debounced)
    } matching: {
      messages.capture($0)
    }
    #expect(messages.last.contains("still running"), "\(messages.all)")
    #expect(clock.sleeperCount == 0)
  }

  @Test func taskFinishOnIdleThrottleReturnsAtOnce() async {
    let clock = TestClock()
    let store = TestStore(initialState: F.State()) { F(clock: clock) }
    store.timeout = .seconds(3600)
    let t = await store.send(.scrolled(1))
    await store.receive(.logged(1))
    await t.finish()
    #expect(!t.isRunning)
    let t2 = await store.send(.scrolled(2))
    let messages = Messages()
    await withKnownIssue {
      await t2.finish()
    } matching: {
      messages.capture($0)
    }
    #expect(messages.last.contains("asleep on a test clock"), "\(messages.all)")
    await clock.advance(by: .seconds(1))
    await store.receive(.logged(2))
    await store.finish()
  }
}

// MARK: - Sequences

@MainActor
@Suite struct EffectSequenceScenarioTests {
  struct Boom: Error {}
  final class Counter: Sendable {
    let value = Locked(0)
  }
  struct F: Reducer {
    struct State: Equatable {}
    enum Action: Equatable, Sendable { case go, caught, next, startAndCancel }
    let counter: Counter
    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .go:
        return .concatenate(
          .run { _ in
            throw Boom()
          } catch: { _ in
            .caught
          },
          .send(.next)
        )
      case .startAndCancel:
        return .merge(
          .run { [counter] _ in counter.value.withLock { $0 += 1 } }.cancellable(id: "x"),
          .cancel(id: "x")
        )
      case .caught, .next: return .none
      }
    }
  }

  @Test func aThrowingPartHandsOnToTheNext() async {
    let store = TestStore(initialState: F.State()) { F(counter: Counter()) }
    await store.send(.go)
    await store.receive(.caught)
    await store.receive(.next)
    await store.finish()
  }

  @Test func cancelledInTheSameStepNeverStarts() async {
    let counter = Counter()
    let store = TestStore(initialState: F.State()) { F(counter: counter) }
    let task = await store.send(.startAndCancel)
    #expect(!task.isRunning)
    #expect(counter.value.withLock { $0 } == 0)
    await store.finish()
  }
}
