// A very long test store timeout, found by an adversarial trial to stop the test process.

import Effects
import Store
import Testing

@testable import StoreTesting

/// A feature whose effect waits on work outside the test executor (a gate the test opens).
struct OutsideGatedFeature: Reducer {
  struct State: Equatable {}
  enum Action: Equatable, Sendable { case start, done }
  let gate: Gate
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .start:
      .run { send in
        await gate.wait()
        send(.done)
      }
    case .done: .none
    }
  }
}

/// A feature whose effect answers at once.
struct ImmediateAnswerFeature: Reducer {
  struct State: Equatable {}
  enum Action: Equatable, Sendable { case start, done }
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .start: .run { send in send(.done) }
    case .done: .none
    }
  }
}

@MainActor
@Suite struct LongTimeoutTests {
  #if EXIT_TESTS
    /// A "wait as long as it takes" timeout such as `.seconds(Int64.max)` is a valid
    /// `Duration`, and `TestStore.timeout` documents no upper bound. The store handed the time
    /// left to `Task.sleep(for:)`, which stops the program for a duration past about 292 years
    /// ("Not enough bits to represent the passed value"): the whole test run died the first
    /// time a store waited for outside work. An exit test, so that a regression stops only it.
    @Test func aVeryLongTimeoutWaitsInsteadOfTrapping() async {
      await #expect(processExitsWith: .success) {
        await MainActor.run {}
        let gate = Gate()
        let store = await TestStore(initialState: OutsideGatedFeature.State()) {
          OutsideGatedFeature(gate: gate)
        }
        await MainActor.run { store.timeout = .seconds(Int64.max) }
        await store.send(.start)
        // Opens the gate only after the store has gone through its main-actor turns and
        // started to wait for outside work.
        Task { @MainActor in
          for _ in 0..<50 { await Task.yield() }
          gate.open()
        }
        await store.receive(.done)
        await store.finish()
      }
    }

    /// Found in review: the deadline `now + timeout` overflowed for `Duration(attoseconds:
    /// .max)`, the natural "forever" (`Duration` has no `.max`).
    @Test func aMaximalTimeoutDoesNotTrapInReceive() async {
      await #expect(processExitsWith: .success) {
        let store = await TestStore(initialState: ImmediateAnswerFeature.State()) {
          ImmediateAnswerFeature()
        }
        await MainActor.run { store.timeout = Duration(attoseconds: .max) }
        await store.send(.start)
        await store.receive(.done)
        await store.finish()
      }
    }

    @Test func aMaximalTimeoutDoesNotTrapInATasksFinish() async {
      await #expect(processExitsWith: .success) {
        let store = await TestStore(initialState: ImmediateAnswerFeature.State()) {
          ImmediateAnswerFeature()
        }
        await store.send(.start).finish(timeout: Duration(attoseconds: .max))
        await store.receive(.done)
        await store.finish()
      }
    }
  #endif
}
