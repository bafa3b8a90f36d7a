import Effects
import Testing

@testable import Store

/// The rows of `RowTimedEffectTests` one level down: the list is the payload of an enum case
/// (a screen of a `Path` enum, a mode), run with `ifCaseLet`. A row removed and added back
/// should start with no throttle window of the old row, as it does when the list is not in an
/// enum (`RowTimedEffectTests.aRowAddedBackStartsWithNoThrottleWindowOfTheOldRow`).
@MainActor
@Suite struct ThrottleWindowUnderEnumCaseTests {
  typealias Pinger = RowTimedEffectTests.Pinger

  /// The list of `RowTimedEffectTests`, as the payload of a case.
  typealias Rows = RowTimedEffectTests.List

  struct Mode: Reducer {
    enum State: Equatable, Sendable {
      case list(Rows.State)
      case empty
    }
    enum Action: Sendable, Equatable {
      case list(Rows.Action)
    }
    let clock: TestClock
    var body: some ReducerOf<Self> {
      EmptyReducer()
        .ifCaseLet(.list, action: .list) { Rows(clock: clock) }
    }
  }

  struct Root: Reducer {
    struct State: Equatable, Sendable {
      var mode = Mode.State.list(Rows.State())
    }
    enum Action: Sendable, Equatable {
      case mode(Mode.Action)
    }
    let clock: TestClock
    var body: some ReducerOf<Self> {
      Scope(state: \.mode, action: .mode) { Mode(clock: clock) }
    }
  }

  let clock = TestClock()

  func row(_ id: Int, _ action: Pinger.Action) -> Root.Action {
    .mode(.list(.rows(.element(id: id, action: action))))
  }

  func pings(_ harness: Harness<Root>, _ id: Int) -> Int? {
    guard case .list(let list) = harness.state.mode else { return nil }
    return list.rows[id: id]?.pings
  }

  @Test func aRowUnderAnEnumCaseAddedBackStartsWithNoThrottleWindowOfTheOldRow() async {
    let warnings = WarningLog()
    let harness = Harness(
      initialState: Root.State(), warnings: warnings.handler, reducer: Root(clock: clock))
    harness.send(.mode(.list(.add(1))))
    harness.send(row(1, .tap))
    harness.send(row(1, .tap))  // waits in the window
    #expect(pings(harness, 1) == 1)
    harness.send(.mode(.list(.remove(1))))
    harness.send(.mode(.list(.add(1))))
    harness.send(row(1, .tap))
    // The old row's window ended with the row (its timer was once placed in the namespace
    // around the case, which cut the row's identity too, and the new row's tap waited in it).
    #expect(pings(harness, 1) == 1, "a fresh row's first tap runs at once")
    await clock.advance(by: .seconds(1))
    harness.settle()
    #expect(pings(harness, 1) == 1, "the old row's waiting ping never lands")
    #expect(warnings.messages.isEmpty)
  }

  @Test func aRemovedRowUnderAnEnumCaseLeavesNoTimerRunning() async {
    let harness = Harness(initialState: Root.State(), reducer: Root(clock: clock))
    harness.send(.mode(.list(.add(1))))
    harness.send(row(1, .tap))
    harness.send(.mode(.list(.remove(1))))
    // The row is gone: nothing of it should still be running (its throttle window's timer
    // included), as for a row not under an enum case.
    #expect(harness.core.runtime.runningCount == 0)
    #expect(clock.sleeperCount == 0)
  }

  /// The control: the same list, not under an enum case, leaves nothing running (passes).
  @Test func controlARemovedRowNotUnderAnEnumCaseLeavesNoTimerRunning() async {
    let harness = Harness(
      initialState: RowTimedEffectTests.List.State(),
      reducer: RowTimedEffectTests.List(clock: clock))
    harness.send(.add(1))
    harness.send(.rows(.element(id: 1, action: .tap)))
    harness.send(.remove(1))
    #expect(harness.core.runtime.runningCount == 0)
    #expect(clock.sleeperCount == 0)
  }
}

extension CaseKey<
  ThrottleWindowUnderEnumCaseTests.Mode.State, ThrottleWindowUnderEnumCaseTests.Rows.State
> {
  static var list: Self {
    Self(ThrottleWindowUnderEnumCaseTests.Mode.State.list) {
      if case .list(let s) = $0 { s } else { nil }
    }
  }
}

extension CaseKey<
  ThrottleWindowUnderEnumCaseTests.Mode.Action, ThrottleWindowUnderEnumCaseTests.Rows.Action
> {
  static var list: Self {
    Self(ThrottleWindowUnderEnumCaseTests.Mode.Action.list) {
      if case .list(let a) = $0 { a } else { nil }
    }
  }
}

extension CaseKey<
  ThrottleWindowUnderEnumCaseTests.Root.Action, ThrottleWindowUnderEnumCaseTests.Mode.Action
> {
  static var mode: Self {
    Self(ThrottleWindowUnderEnumCaseTests.Root.Action.mode) {
      if case .mode(let a) = $0 { a } else { nil }
    }
  }
}

/// A variant: a sheet (`ifLet`) under an enum case, dismissed and presented again.
@MainActor
@Suite struct ThrottleWindowOfASheetUnderEnumCaseTests {
  typealias Pinger = RowTimedEffectTests.Pinger

  struct Screen: Reducer {
    struct State: Equatable, Sendable {
      var sheet: Pinger.State?
    }
    enum Action: Sendable, Equatable {
      case sheet(Pinger.Action)
      case present
      case dismiss
    }
    let clock: TestClock
    var body: some ReducerOf<Self> {
      Reduce { state, action in
        switch action {
        case .present: state.sheet = Pinger.State(id: 1)
        case .dismiss: state.sheet = nil
        case .sheet: break
        }
        return .none
      }
      .ifLet(\.sheet, action: .sheet) { Pinger(clock: clock) }
    }
  }

  struct Mode: Reducer {
    enum State: Equatable, Sendable {
      case screen(Screen.State)
    }
    enum Action: Sendable, Equatable {
      case screen(Screen.Action)
    }
    let clock: TestClock
    var body: some ReducerOf<Self> {
      EmptyReducer()
        .ifCaseLet(.screen, action: .screen) { Screen(clock: clock) }
    }
  }

  let clock = TestClock()

  func pings(_ harness: Harness<Mode>) -> Int? {
    guard case .screen(let screen) = harness.state else { return nil }
    return screen.sheet?.pings
  }

  @Test func aSheetUnderAnEnumCasePresentedAgainStartsWithNoThrottleWindowOfTheOldSheet() async {
    let warnings = WarningLog()
    let harness = Harness(
      initialState: Mode.State.screen(Screen.State()), warnings: warnings.handler,
      reducer: Mode(clock: clock))
    harness.send(.screen(.present))
    harness.send(.screen(.sheet(.tap)))
    #expect(pings(harness) == 1)
    harness.send(.screen(.dismiss))
    // The dismissed sheet's throttle timer ended with it.
    #expect(clock.sleeperCount == 0, "nothing of the dismissed sheet runs on")
    harness.send(.screen(.present))
    harness.send(.screen(.sheet(.tap)))
    // The new sheet's first tap runs at once: it does not wait in the old sheet's window.
    #expect(pings(harness) == 1, "a newly presented sheet's first tap runs at once")
    #expect(warnings.messages.isEmpty)
  }
}

extension CaseKey<
  ThrottleWindowOfASheetUnderEnumCaseTests.Mode.State,
  ThrottleWindowOfASheetUnderEnumCaseTests.Screen.State
> {
  static var screen: Self {
    Self(ThrottleWindowOfASheetUnderEnumCaseTests.Mode.State.screen) {
      if case .screen(let s) = $0 { s } else { nil }
    }
  }
}

extension CaseKey<
  ThrottleWindowOfASheetUnderEnumCaseTests.Mode.Action,
  ThrottleWindowOfASheetUnderEnumCaseTests.Screen.Action
> {
  static var screen: Self {
    Self(ThrottleWindowOfASheetUnderEnumCaseTests.Mode.Action.screen) {
      if case .screen(let a) = $0 { a } else { nil }
    }
  }
}

extension CaseKey<
  ThrottleWindowOfASheetUnderEnumCaseTests.Screen.Action, RowTimedEffectTests.Pinger.Action
> {
  static var sheet: Self {
    Self(ThrottleWindowOfASheetUnderEnumCaseTests.Screen.Action.sheet) {
      if case .sheet(let a) = $0 { a } else { nil }
    }
  }
}
