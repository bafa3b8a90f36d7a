import Effects
import Testing

@testable import Store

/// Checks that throttles, debounces and concatenations started by a row end with the row, and
/// that a row added back later with the same id starts afresh: no throttle window, waiting
/// action or remaining part of the old row reaches it.
@MainActor
@Suite struct RowTimedEffectTests {
  struct Pinger: Reducer {
    struct State: Equatable, Identifiable, Sendable {
      let id: Int
      var pings = 0
      var steps: [String] = []
    }
    enum Action: Sendable, Equatable {
      case tap
      case tapUnderScreenID
      case ping
      case debounced
      case chain
      case step(String)
    }
    let clock: TestClock
    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .tap:
        return Effect.send(.ping).throttle(id: "t", for: .seconds(1), clock: clock, latest: false)
      case .tapUnderScreenID:
        return Effect.send(.ping).throttle(id: "t", for: .seconds(1), clock: clock, latest: false)
          .cancellable(id: "screen", cancelInFlight: true)
      case .ping:
        state.pings += 1
        return .none
      case .debounced:
        return Effect.send(.step("debounced")).debounce(id: "d", for: .seconds(1), clock: clock)
      case .chain:
        return .concatenate(
          .run { [clock] send in
            try await clock.sleep(for: .seconds(1))
            send(.step("first"))
          },
          .run { send in send(.step("second")) }
        )
      case .step(let name):
        state.steps.append(name)
        return .none
      }
    }
  }

  struct List: Reducer {
    struct State: Equatable {
      var rows: IdentifiedArrayOf<Pinger.State> = []
    }
    enum Action: Sendable, Equatable {
      case rows(IdentifiedActionOf<Pinger>)
      case add(Int)
      case remove(Int)
    }
    let clock: TestClock
    var body: some ReducerOf<Self> {
      Reduce { state, action in
        switch action {
        case .add(let id): state.rows.append(Pinger.State(id: id))
        case .remove(let id): state.rows.remove(id: id)
        case .rows: break
        }
        return .none
      }
      .forEach(\.rows, action: .rows) { Pinger(clock: clock) }
    }
  }

  let clock = TestClock()

  func makeHarness(_ warnings: WarningLog = WarningLog()) -> Harness<List> {
    let harness = Harness(
      initialState: List.State(), warnings: warnings.handler, reducer: List(clock: clock))
    harness.send(.add(1))
    harness.send(.add(2))
    return harness
  }

  @Test func aRowAddedBackStartsWithNoThrottleWindowOfTheOldRow() async {
    let warnings = WarningLog()
    let harness = makeHarness(warnings)
    harness.send(.rows(.element(id: 1, action: .tap)))
    harness.send(.rows(.element(id: 1, action: .tap)))  // waits in the window
    #expect(harness.state.rows[id: 1]?.pings == 1)
    harness.send(.remove(1))
    harness.send(.add(1))
    harness.send(.rows(.element(id: 1, action: .tap)))
    #expect(harness.state.rows[id: 1]?.pings == 1, "a fresh row's first tap runs at once")
    await clock.advance(by: .seconds(1))
    harness.settle()
    #expect(harness.state.rows[id: 1]?.pings == 1, "the old row's waiting ping never lands")
    #expect(warnings.messages.isEmpty)
  }

  @Test func aRowAddedBackStartsWithNoThrottleWindowOfTheOldRowUnderAnotherID() async {
    // The window is not filed under the id around the throttle: the end of the row's
    // lifetime must still close it.
    let warnings = WarningLog()
    let harness = makeHarness(warnings)
    harness.send(.rows(.element(id: 1, action: .tapUnderScreenID)))
    harness.send(.rows(.element(id: 1, action: .tapUnderScreenID)))  // waits in the window
    #expect(harness.state.rows[id: 1]?.pings == 1)
    harness.send(.remove(1))
    harness.send(.add(1))
    harness.send(.rows(.element(id: 1, action: .tapUnderScreenID)))
    #expect(harness.state.rows[id: 1]?.pings == 1, "a fresh row's first tap runs at once")
    await clock.advance(by: .seconds(1))
    harness.settle()
    #expect(harness.state.rows[id: 1]?.pings == 1, "the old row's waiting ping never lands")
    #expect(clock.sleeperCount == 0)
    #expect(warnings.messages.isEmpty)
  }

  @Test func aRemovedRowsDebounceNeverReachesTheRowAddedBack() async {
    let warnings = WarningLog()
    let harness = makeHarness(warnings)
    harness.send(.rows(.element(id: 1, action: .debounced)))
    harness.send(.remove(1))
    harness.send(.add(1))
    await clock.advance(by: .seconds(2))
    harness.settle()
    #expect(harness.state.rows[id: 1]?.steps == [])
    #expect(clock.sleeperCount == 0)
    #expect(warnings.messages.isEmpty)
  }

  @Test func aRemovedRowsConcatenationNeverRunsItsLaterParts() async {
    let warnings = WarningLog()
    let harness = makeHarness(warnings)
    harness.send(.rows(.element(id: 1, action: .chain)))
    harness.send(.rows(.element(id: 2, action: .chain)))
    harness.send(.remove(1))
    harness.send(.add(1))
    await clock.advance(by: .seconds(2))
    harness.settle()
    #expect(harness.state.rows[id: 1]?.steps == [])
    #expect(harness.state.rows[id: 2]?.steps == ["first", "second"])
    #expect(harness.core.runtime.runningCount == 0)
    #expect(warnings.messages.isEmpty)
  }

  @Test func theSendersTaskOfARemovedRowsEffectEndsWithTheRow() async {
    let harness = makeHarness()
    let task = harness.send(.rows(.element(id: 1, action: .chain)))
    #expect(task.isRunning)
    harness.send(.remove(1))
    #expect(!task.isRunning)
  }
}

extension CaseKey<RowTimedEffectTests.List.Action, IdentifiedActionOf<RowTimedEffectTests.Pinger>> {
  static var rows: Self {
    Self(RowTimedEffectTests.List.Action.rows) { if case .rows(let a) = $0 { a } else { nil } }
  }
}
