import Effects
import Store
import Testing

@testable import StoreTesting

/// A poller whose interval comes from settings, and may be zero.
private struct Poller: Reducer {
  struct State: Equatable { var polls = 0 }
  enum Action: Sendable, Equatable {
    case startedEndless
    case startedThreePolls
    case polled
  }
  let clock: TestClock
  let interval: Duration

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .startedEndless:
      return .run { [clock, interval] _ in
        while true { try await clock.sleep(for: interval) }
      }
    case .startedThreePolls:
      return .run { [clock, interval] send in
        for _ in 0..<3 {
          try await clock.sleep(for: interval)
          send(.polled)
        }
      }
    case .polled:
      state.polls += 1
      return .none
    }
  }
}

/// A test clock's sleep until a time not after `now` (a zero interval, a negative one)
/// returned without suspending, so an endless loop of them under a `TestStore` was one job
/// that never ended: `send` never returned and the test hung with no message, where the same
/// loop on an `ImmediateClock` was reported (a bug hunt of the effects).
@MainActor
@Suite struct TestClockPastDeadlineLoopTests {
  @Test(arguments: [Duration.zero, .seconds(-1)])
  func anEndlessLoopOfSleepsThatNeedNoWaitIsReportedAndTheTestGoesOn(interval: Duration) async {
    let store = TestStore(initialState: Poller.State()) {
      Poller(clock: TestClock(), interval: interval)
    }
    let messages = Messages()
    await withKnownIssue {
      let task = await store.send(.startedEndless)
      task.cancel()
      await store.finish()
    } matching: {
      messages.capture($0)
    }
    #expect(
      messages.all.first?.contains("Effects ran 200000 jobs without coming to a pause") == true,
      "\(messages.all)")
  }

  @Test func aBoundedLoopOfSleepsThatNeedNoWaitRunsThrough() async {
    let clock = TestClock()
    let store = TestStore(initialState: Poller.State()) { Poller(clock: clock, interval: .zero) }
    await store.send(.startedThreePolls)
    for count in 1...3 {
      await store.receive(.polled) { $0.polls = count }
    }
    await store.finish()
    #expect(clock.now.offset == .zero)
  }
}
