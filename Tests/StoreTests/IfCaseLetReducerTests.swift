import Effects
import Testing

@testable import Store

@MainActor
@Suite struct IfCaseLetReducerTests {
  struct Screen: Reducer {
    enum State: Equatable {
      case list(Row.State)
      case empty
    }
    enum Action: Sendable, Equatable {
      case list(Row.Action)
      case showEmpty
    }
    let clock: TestClock
    var body: some Reducer<State, Action> {
      Reduce { state, action in
        if action == .showEmpty { state = .empty }
        return .none
      }
      .ifCaseLet(State.listCase, action: Action.list) { Row(clock: clock) }
    }
  }

  let clock = TestClock()

  @Test func theChildRunsWhileTheStateIsItsCase() {
    let harness = Harness(initialState: .list(Row.State(id: 1)), reducer: Screen(clock: clock))
    harness.send(.list(.renamed("a")))
    #expect(harness.state == .list(Row.State(id: 1, title: "a")))
  }

  @Test func switchingCaseCancelsTheChildsEffects() {
    let harness = Harness(initialState: .list(Row.State(id: 1)), reducer: Screen(clock: clock))
    harness.send(.list(.loadTapped))
    #expect(clock.sleeperCount == 1)
    harness.send(.showEmpty)
    #expect(clock.sleeperCount == 0)
  }

  @Test func anActionForAnotherCaseChangesNothingAndWarns() {
    let warnings = WarningLog()
    let harness = Harness(
      initialState: .empty, warnings: warnings.handler, reducer: Screen(clock: clock))
    harness.send(.list(.renamed("a")))
    #expect(harness.state == .empty)
    #expect(warnings.messages.count == 1)
    #expect(warnings.messages.first?.contains(#"renamed("a")"#) == true)
    #expect(warnings.messages.first?.contains(".empty") == true)
  }
}

extension IfCaseLetReducerTests.Screen.State {
  static let listCase = CaseKey(Self.list) { if case .list(let s) = $0 { s } else { nil } }
}

extension IfCaseLetReducerTests.Screen.Action {
  static let list = CaseKey(Self.list) { if case .list(let a) = $0 { a } else { nil } }
}
