import Effects
import Store
import Testing

@testable import StoreTesting

/// A meeting timer on an immediate clock, as TCA's SyncUps tests one: it ticks until the
/// meeting's time is up, then ends the meeting. And one that never stops.
private struct Meeting: Reducer {
  struct State: Equatable {
    var secondsElapsed = 0
    var isOver = false
  }

  enum Action: Sendable, Equatable {
    case started
    case timerTicked
    case startedEndless
  }

  let clock: ImmediateClock
  static let length = 6

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .started:
      return .run { [clock] send in
        while true {
          try await clock.sleep(for: .seconds(1))
          send(.timerTicked)
        }
      }
      .cancellable(id: "timer")
    case .timerTicked:
      state.secondsElapsed += 1
      guard state.secondsElapsed == Self.length else { return .none }
      state.isOver = true
      return .cancel(id: "timer")
    case .startedEndless:
      return .run { [clock] _ in
        while true { try await clock.sleep(for: .seconds(1)) }
      }
    }
  }
}

/// An immediate clock's sleep returned without suspending, so a timer loop on it under a
/// `TestStore` was one job that never ended: `send` never returned, the store's guard against
/// endless work never ran, and the test process hung with no message (TCA-migrant trial).
@MainActor
@Suite struct ImmediateClockLoopTests {
  @Test func aTimerOnAnImmediateClockTicksUntilItsFeatureStopsIt() async {
    let clock = ImmediateClock()
    let store = TestStore(initialState: Meeting.State()) { Meeting(clock: clock) }
    await store.send(.started)
    for second in 1...Meeting.length {
      await store.receive(.timerTicked) {
        $0.secondsElapsed = second
        $0.isOver = second == Meeting.length
      }
    }
    await store.finish()
    // The seventh sleep had begun, and moved the clock, when the sixth tick's reduction
    // cancelled the timer during its yield.
    #expect(clock.now.offset == .seconds(Meeting.length + 1))
  }

  @Test func aSleepLoopOnAnImmediateClockThatNeverEndsIsReportedAndTheTestGoesOn() async {
    let store = TestStore(initialState: Meeting.State()) { Meeting(clock: ImmediateClock()) }
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
}
