// From an adversarial trial on navigation and identity lifetimes (fixtures shared between these
// *NavigationScenarioTests and Navigation*ScenarioTests files). Undo setting a list back above or
// beside a Scope, alerts answered with .dismiss, stale stores' sends, sheets inside rows.

import Effects
import Testing

@testable import Store

// MARK: - An undo that sets a list back to a copy from before a row's sheet was opened

struct NestUndo: Reducer {
  struct State: Equatable, Sendable {
    var rows: IdentifiedArrayOf<NestRow.State> = []
    var saved: IdentifiedArrayOf<NestRow.State> = []
  }
  enum Action: Sendable, Equatable {
    case rows(IdentifiedActionOf<NestRow>)
    case add(Int)
    case save
    case restore
  }
  let clock: TestClock
  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .add(let id): state.rows.append(NestRow.State(id: id))
      case .save: state.saved = state.rows
      case .restore: state.rows = state.saved
      case .rows: break
      }
      return .none
    }
    .forEach(\.rows, action: .rows) { NestRow(clock: clock) }
  }
}
extension CaseKey<NestUndo.Action, IdentifiedAction<Int, NestRow.Action>> {
  static var rows: Self {
    Self(NestUndo.Action.rows) { if case .rows(let a) = $0 { a } else { nil } }
  }
}

@MainActor
@Suite struct NavigationScenarioUndoTests {
  let clock = TestClock()
  func sheet(_ row: Int, _ a: NestSheet.Action) -> NestUndo.Action {
    .rows(.element(id: row, action: .sheet(.presented(a))))
  }

  @Test func anUndoThatClosesARowsSheetEndsTheSheetsEffects() async {
    let w = WarningLog()
    let h = Harness(
      initialState: NestUndo.State(), warnings: w.handler, reducer: NestUndo(clock: clock))
    h.send(.add(1))
    h.send(.add(2))
    h.send(.save)
    h.send(.rows(.element(id: 1, action: .open)))
    h.send(sheet(1, .start))
    #expect(clock.sleeperCount == 1)
    h.send(.restore)
    #expect(h.state.rows[id: 1]?.sheet == nil)
    #expect(
      clock.sleeperCount == 0,
      "the sheet is gone: its effect must end with the action that removed it")
    h.send(.rows(.element(id: 1, action: .open)))
    await clock.advance(by: .seconds(1))
    #expect(h.state.rows[id: 1]?.sheet?.log == [], "the old sheet's tick reached the new sheet")
    #expect(w.messages.isEmpty, "\(w.messages)")
  }

  @Test func anUndoThatClosesARowsSheetEndsTheSheetsScreensEffects() async {
    let w = WarningLog()
    let h = Harness(
      initialState: NestUndo.State(), warnings: w.handler, reducer: NestUndo(clock: clock))
    h.send(.add(1))
    h.send(.save)
    h.send(.rows(.element(id: 1, action: .open)))
    h.send(sheet(1, .push(5)))
    h.send(sheet(1, .path(.element(id: 0, action: .start))))
    #expect(clock.sleeperCount == 1)
    h.send(.restore)
    #expect(clock.sleeperCount == 0)
    h.send(.rows(.element(id: 1, action: .open)))
    h.send(sheet(1, .push(6)))
    await clock.advance(by: .seconds(1))
    #expect(h.state.rows[id: 1]?.sheet?.path.first?.ticks == 0)
    #expect(w.messages.isEmpty, "\(w.messages)")
  }
}

struct NestUndoAbove: Reducer {
  struct State: Equatable, Sendable {
    var list = NestUndo.State()
    var saved: NestUndo.State?
    var savedRows: IdentifiedArrayOf<NestRow.State>?
  }
  enum Action: Sendable, Equatable {
    case list(NestUndo.Action)
    case save
    case restore
    case restoreRows
  }
  let clock: TestClock
  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .save:
        state.saved = state.list
        state.savedRows = state.list.rows
      case .restore: state.list = state.saved!
      case .restoreRows: state.list.rows = state.savedRows!
      case .list: break
      }
      return .none
    }
    Scope(state: \.list, action: .list) { NestUndo(clock: clock) }
  }
}
extension CaseKey<NestUndoAbove.Action, NestUndo.Action> {
  static var list: Self {
    Self(NestUndoAbove.Action.list) { if case .list(let a) = $0 { a } else { nil } }
  }
}

@MainActor
@Suite struct NavigationScenarioUndoAboveTests {
  let clock = TestClock()
  func sheet(_ row: Int, _ a: NestSheet.Action) -> NestUndoAbove.Action {
    .list(.rows(.element(id: row, action: .sheet(.presented(a)))))
  }

  @Test(arguments: [false, true])
  func anUndoAboveAScopeThatClosesARowsSheetEndsItsEffects(rowsOnly: Bool) async {
    let w = WarningLog()
    let h = Harness(
      initialState: NestUndoAbove.State(), warnings: w.handler, reducer: NestUndoAbove(clock: clock)
    )
    h.send(.list(.add(1)))
    h.send(.list(.add(2)))
    h.send(.save)
    h.send(.list(.rows(.element(id: 1, action: .open))))
    h.send(sheet(1, .start))
    h.send(sheet(1, .push(5)))
    h.send(sheet(1, .path(.element(id: 0, action: .start))))
    #expect(clock.sleeperCount == 2)
    h.send(rowsOnly ? .restoreRows : .restore)
    #expect(h.state.list.rows[id: 1]?.sheet == nil)
    #expect(
      clock.sleeperCount == 0,
      "the sheet is gone: its effects must end with the action that removed it")
    h.send(.list(.rows(.element(id: 1, action: .open))))
    h.send(sheet(1, .push(6)))
    await clock.advance(by: .seconds(1))
    #expect(
      h.state.list.rows[id: 1]?.sheet?.log == [], "the old sheet's tick reached the new sheet")
    #expect(h.state.list.rows[id: 1]?.sheet?.path.first?.ticks == 0)
    #expect(w.messages.isEmpty, "\(w.messages)")
  }
}

// MARK: - A screen that answers its own alert by closing itself

struct NestConfirm: Equatable, Sendable { var title = "Delete?" }
enum NestConfirmAction: Equatable, Sendable { case yes, no }

struct NestAlertScreen: Reducer {
  struct State: Equatable, Sendable {
    var alert: NestConfirm?
    var deleted = false
  }
  enum Action: Sendable, Equatable {
    case alert(PresentationAction<NestConfirmAction>)
    case deleteTapped
  }
  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .deleteTapped:
        state.alert = NestConfirm()
        return .none
      case .alert(.presented(.yes)):
        state.deleted = true
        return .dismiss
      case .alert:
        return .none
      }
    }
    .presents(\.alert, action: .alert)
  }
}
extension CaseKey<NestAlertScreen.Action, PresentationAction<NestConfirmAction>> {
  static var alert: Self {
    Self(NestAlertScreen.Action.alert) { if case .alert(let a) = $0 { a } else { nil } }
  }
}

struct NestAlertHost: Reducer {
  struct State: Equatable, Sendable {
    var path = StackState<NestAlertScreen.State>()
    var sheet: NestAlertScreen.State?
  }
  enum Action: Sendable, Equatable {
    case path(StackActionOf<NestAlertScreen>)
    case sheet(PresentationAction<NestAlertScreen.Action>)
  }
  var body: some ReducerOf<Self> {
    EmptyReducer()
      .navigationStack(\.path, action: .path) { NestAlertScreen() }
      .presents(\.sheet, action: .sheet) { NestAlertScreen() }
  }
}
extension CaseKey<NestAlertHost.Action, StackAction<NestAlertScreen.State, NestAlertScreen.Action>>
{
  static var path: Self {
    Self(NestAlertHost.Action.path) { if case .path(let a) = $0 { a } else { nil } }
  }
}
extension CaseKey<NestAlertHost.Action, PresentationAction<NestAlertScreen.Action>> {
  static var sheet: Self {
    Self(NestAlertHost.Action.sheet) { if case .sheet(let a) = $0 { a } else { nil } }
  }
}

@MainActor
@Suite struct NavigationScenarioAlertTests {
  @Test func aScreenAnsweringItsAlertWithDismissIsPopped() {
    let w = WarningLog()
    let h = Harness(
      initialState: NestAlertHost.State(
        path: [NestAlertScreen.State()], sheet: NestAlertScreen.State()),
      warnings: w.handler, reducer: NestAlertHost())
    h.send(.path(.element(id: 0, action: .deleteTapped)))
    h.send(.path(.element(id: 0, action: .alert(.presented(.yes)))))
    #expect(h.state.path.isEmpty)
    h.send(.sheet(.presented(.deleteTapped)))
    h.send(.sheet(.presented(.alert(.presented(.yes)))))
    #expect(h.state.sheet == nil)
    #expect(w.messages.isEmpty, "\(w.messages)")
  }
}

@MainActor
@Suite struct NavigationScenarioStaleSendTests {
  let clock = TestClock()
  @Test func aSendThroughAPoppedScreensStoreReturnsAFinishedTaskAndWarnsOnce() async {
    let w = WarningLog()
    let h = Harness(
      initialState: NestRows.State(), warnings: w.handler, reducer: NestRows(clock: clock))
    h.send(.push)
    let screen = h.store.scope(state: \.path, action: .path)[id: 0]!
    _ = screen.state
    h.send(.pop)
    let task = screen.send(.start)
    h.settle()
    #expect(!task.isRunning)
    await task.finish()
    #expect(clock.sleeperCount == 0)
    #expect(w.messages.count == 1, "\(w.messages)")
    // The warning names the action and the screen (the contract audit: the count alone passed
    // for any warning).
    #expect(
      w.messages.first?.hasPrefix(
        "NestRows.Action.path(.element(id: #0, action: .start)) was sent to the screen with id #0 "
          + "of the stack at \\State.path, but no screen has that id: it was popped") == true,
      "\(w.messages)")
  }
}

// MARK: - A sheet in a row reports, and the root removes the row before the sheet's dismissal

struct NestSheetRow: Reducer {
  struct State: Equatable, Sendable, Identifiable {
    let id: Int
    var sheet: NestLeaf.State?
  }
  enum Action: Sendable, Equatable {
    case sheet(PresentationAction<NestLeaf.Action>)
  }
  let clock: TestClock
  var body: some ReducerOf<Self> {
    EmptyReducer().presents(\.sheet, action: .sheet) { NestLeaf(clock: clock) }
  }
}
extension CaseKey<NestSheetRow.Action, PresentationAction<NestLeaf.Action>> {
  static var sheet: Self {
    Self(NestSheetRow.Action.sheet) { if case .sheet(let a) = $0 { a } else { nil } }
  }
}
struct NestSheetRows: Reducer {
  struct State: Equatable, Sendable { var rows: IdentifiedArrayOf<NestSheetRow.State> = [] }
  enum Action: Sendable, Equatable { case rows(IdentifiedActionOf<NestSheetRow>) }
  let clock: TestClock
  var body: some ReducerOf<Self> {
    Reduce { state, action in
      if case .rows(.element(let id, .sheet(.presented(.delegate(.report))))) = action {
        state.rows.remove(id: id)
      }
      return .none
    }
    .forEach(\.rows, action: .rows) { NestSheetRow(clock: clock) }
  }
}
extension CaseKey<NestSheetRows.Action, IdentifiedAction<Int, NestSheetRow.Action>> {
  static var rows: Self {
    Self(NestSheetRows.Action.rows) { if case .rows(let a) = $0 { a } else { nil } }
  }
}

@MainActor
@Suite struct NavigationScenarioSheetRowTests {
  let clock = TestClock()
  @Test func aRowRemovedOnItsSheetsReportTakesTheSheetsDismissalWithIt() async {
    let w = WarningLog()
    let h = Harness(
      initialState: NestSheetRows.State(rows: [
        NestSheetRow.State(id: 1, sheet: NestLeaf.State(tag: 1)),
        NestSheetRow.State(id: 2, sheet: NestLeaf.State(tag: 2)),
      ]),
      warnings: w.handler, reducer: NestSheetRows(clock: clock))
    h.send(.rows(.element(id: 2, action: .sheet(.presented(.start)))))
    h.send(.rows(.element(id: 1, action: .sheet(.presented(.start)))))
    h.send(.rows(.element(id: 1, action: .sheet(.presented(.reportThenClose)))))
    #expect(h.state.rows.ids == [2])
    #expect(h.state.rows[id: 2]?.sheet != nil, "the other row's sheet stays")
    #expect(clock.sleeperCount == 1)
    await clock.advance(by: .seconds(1))
    #expect(h.state.rows[id: 2]?.sheet?.ticks == 1)
    #expect(w.messages.isEmpty, "\(w.messages)")
  }
}
