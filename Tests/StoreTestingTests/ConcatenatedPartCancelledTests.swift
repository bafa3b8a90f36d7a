import Effects
import Store
import StoreTesting
import Testing

/// A part of a concatenation cancelled by its own id has finished: the next part starts (as
/// for a part that throws), while cancelling the whole concatenation starts none of the rest.
/// Documented at `Effect.concatenate`; a new user's trial asked which.
@MainActor
@Suite struct ConcatenatedPartCancelledTests {
  struct Saver: Reducer {
    struct State: Equatable {
      var log: [String] = []
    }

    enum Action: Sendable, Equatable {
      case start
      case stopWait
      case waited
      case after
    }

    enum CancelID { case wait }

    let clock: TestClock

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .start:
        return .concatenate(
          .run { [clock] send in
            try await clock.sleep(for: .seconds(1))
            send(.waited)
          }
          .cancellable(id: CancelID.wait),
          .send(.after)
        )
      case .stopWait:
        return .cancel(id: CancelID.wait)
      case .waited:
        state.log.append("waited")
        return .none
      case .after:
        state.log.append("after")
        return .none
      }
    }
  }

  @Test func aPartCancelledByItsIDHasFinishedAndTheNextPartStarts() async {
    let clock = TestClock()
    let store = TestStore(initialState: Saver.State()) { Saver(clock: clock) }
    await store.send(.start)
    await store.send(.stopWait)
    await store.receive(.after) { $0.log = ["after"] }
    await clock.advance(by: .seconds(1))
    await store.finish()
  }

  @Test func cancellingTheConcatenationStartsNoneOfTheRest() async {
    let clock = TestClock()
    let store = TestStore(initialState: Saver.State()) { Saver(clock: clock) }
    let task = await store.send(.start)
    task.cancel()
    await clock.advance(by: .seconds(1))
    await store.finish()
    #expect(store.unreceivedActions.isEmpty)
  }
}
