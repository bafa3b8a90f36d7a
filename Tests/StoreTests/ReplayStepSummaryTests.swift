import Foundation
import Testing

@testable import Store

/// A replayed step's action and changes as a timeline prints them, for a feature's own
/// replay tool (trial of action logs with navigation: only the demo could print them).
@MainActor
@Suite struct ReplayStepSummaryTests {
  struct Counts: Codable, Equatable {
    var count: Int
  }

  enum RowAction: Codable, Equatable {
    case renamed(String)
    case moved(Int, to: Int)
    case counted(Counts)
    case cleared(String?)
  }

  enum Action: Codable, Equatable {
    case rows(IdentifiedAction<Int, RowAction>)
    case path(StackAction<String, RowAction>)
    case pinChanged(Secret<String>)
    case appeared
  }

  struct State: Codable, Equatable {
    var names: [String] = []
    var pin: Secret<String> = ""
  }

  func step(_ action: Action, from before: State = State(), to after: State = State())
    -> ReplayStep<State, Action>
  {
    ReplayStep(
      sequence: 1, line: 2, origin: .user, time: 0, action: action, stateBefore: before,
      stateAfter: after)
  }

  @Test(arguments: [
    (Action.appeared, "appeared"),
    (
      .rows(.element(id: 3, action: .renamed("Tea"))),
      #"rows.element(id: 3, action: .renamed("Tea"))"#
    ),
    (.path(.push(id: 2, state: "detail")), #"path.push(id: 2, state: "detail")"#),
    (.path(.popFrom(id: 1)), "path.popFrom(id: 1)"),
    (
      .rows(.element(id: 1, action: .moved(1, to: 3))),
      "rows.element(id: 1, action: .moved(1, to: 3))"
    ),
    (.pinChanged("1234"), #"pinChanged("<redacted>")"#),
    (.rows(.element(id: 1, action: .cleared("x"))), #"rows.element(id: 1, action: .cleared("x"))"#),
    // Synthesized Codable leaves a nil value out, so the log reads as the case alone.
    (.rows(.element(id: 1, action: .cleared(nil))), "rows.element(id: 1, action: .cleared)"),
  ])
  func anActionReadsAsAPathOfCases(action: Action, summary: String) {
    #expect(step(action).actionSummary == summary)
  }

  @Test func aStructOfOneFieldKeepsItsValue() {
    // {"count":3} is not an enum case without values: the 3 is shown.
    #expect(
      step(.rows(.element(id: 1, action: .counted(Counts(count: 3))))).actionSummary
        == "rows.element(id: 1, action: .counted({count: 3}))")
  }

  @Test func textFromTheLogCannotReachTheTerminal() {
    #expect(
      step(.rows(.element(id: 1, action: .renamed("Tea\u{1B}[31m\nLine 9")))).actionSummary
        == #"rows.element(id: 1, action: .renamed("Tea\u{1B}[31m\nLine 9"))"#)
  }

  @Test func theChangesAreTheFieldsTheActionChanged() {
    let changed = step(.appeared, to: State(names: ["Tea"], pin: "9999"))
    #expect(changed.stateChanges == [#"names[0] added: "Tea""#])
    #expect(changed.stateChanges == stateChanges(from: State(), to: changed.stateAfter))
    #expect(step(.appeared).stateChanges.isEmpty)
  }
}
