import Effects
import Store
import StoreTesting
import Testing

/// Two effects started together, each sleeping 10 seconds on one immediate clock.
private struct TwoSleepers: Reducer {
  struct State: Equatable { var woken = 0 }

  enum Action: Sendable, Equatable {
    case started
    case woke
  }

  let clock: ImmediateClock

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .started:
      return .merge(
        .run { [clock] send in
          try await clock.sleep(for: .seconds(10))
          send(.woke)
        },
        .run { [clock] send in
          try await clock.sleep(for: .seconds(10))
          send(.woke)
        }
      )
    case .woke:
      state.woken += 1
      return .none
    }
  }
}

/// `ImmediateClock.now`'s doc said that the sleeps of several tasks at once do not add up
/// ("two sleeps of 10 seconds side by side leave it at 10"). They do: each sleep counts from
/// `now` when it starts, and the first had moved it by then, so a test that read `now` after a
/// `.merge` of delays expecting the longest found the sum (docs audit). The doc now says so.
@MainActor
@Suite struct ImmediateClockTimeTests {
  @Test func sleepsOfAMergeThatStartOneAfterAnotherAddUp() async {
    let clock = ImmediateClock()
    let store = TestStore(initialState: TwoSleepers.State()) { TwoSleepers(clock: clock) }
    await store.send(.started)
    await store.receive(.woke) { $0.woken = 1 }
    await store.receive(.woke) { $0.woken = 2 }
    await store.finish()
    #expect(clock.now.offset == .seconds(20))
  }

  @Test func aSleepUntilAPassedInstantLeavesTheClockWhereItIs() async throws {
    let clock = ImmediateClock()
    try await clock.sleep(for: .seconds(10))
    try await clock.sleep(until: clock.now.advanced(by: .seconds(-4)))
    #expect(clock.now.offset == .seconds(10))
    try await clock.sleep(for: .seconds(1))
    #expect(clock.now.offset == .seconds(11))
  }
}
