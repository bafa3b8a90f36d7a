import Effects
import Testing

@testable import Store

/// A child that is not presented (a `forEach` row, an `ifLet` child) closes nothing with its
/// `.dismiss`, wherever its parent is shown: the warning says so. (Its `.dismiss` reached the
/// nearest presented ancestor and closed that: a row in a sheet closed the sheet, with every
/// other row, and a row on a stack's screen popped the screen, with no warning, though at the
/// top level the same row was refused; found by an adversary trial.)
@MainActor
@Suite struct NotPresentedDismissTests {
  @Test func aRowsDismissInsideASheetDoesNotCloseTheSheet() {
    let warnings = WarningLog()
    let harness = Harness(
      initialState: SheetOfList.State(
        sheet: DismissingList.State(rows: [.init(id: 1), .init(id: 2)])),
      warnings: warnings.handler, reducer: SheetOfList())
    harness.send(.sheet(.presented(.rows(.element(id: 1, action: .close)))))
    #expect(harness.state.sheet?.rows.ids == [1, 2], "the sheet was closed by a row's .dismiss")
    #expect(warnings.messages.count == 1)
    #expect(
      warnings.messages.first?.contains(
        "Action.rows(.element(id: 1, action: .close)) returned `.dismiss` "
          + "in the element with id 1 of \\State.rows, but a `forEach` row is not presented")
        == true, "\(warnings.messages)")
    // A row's reducer cannot tell which sheet it is in: the store's action can.
    #expect(
      warnings.messages.first?.hasSuffix(
        " The store's action was SheetOfList.Action.sheet(.presented("
          + ".rows(.element(id: 1, action: .close)))).")
        == true, "\(warnings.messages)")
  }

  @Test func aRowsDismissOnAStackScreenDoesNotPopTheScreen() {
    let warnings = WarningLog()
    var state = StackOfLists.State()
    state.path.append(DismissingList.State(rows: [.init(id: 1), .init(id: 2)]))
    let harness = Harness(initialState: state, warnings: warnings.handler, reducer: StackOfLists())
    harness.send(.path(.element(id: 0, action: .rows(.element(id: 1, action: .close)))))
    #expect(harness.state.path.count == 1, "the screen was popped by a row's .dismiss")
    #expect(warnings.messages.count == 1)
    #expect(warnings.messages.first?.contains("a `forEach` row is not presented") == true)
    #expect(
      warnings.messages.first?.hasSuffix(
        " The store's action was StackOfLists.Action.path(.element(id: #0, action: "
          + ".rows(.element(id: 1, action: .close)))).")
        == true, "\(warnings.messages)")
  }

  @Test func aTopLevelRowsDismissIsRefusedWithAWarning() {
    let warnings = WarningLog()
    let harness = Harness(
      initialState: DismissingList.State(rows: [.init(id: 1)]), warnings: warnings.handler,
      reducer: DismissingList())
    harness.send(.rows(.element(id: 1, action: .close)))
    #expect(harness.state.rows.ids == [1])
    #expect(warnings.messages.count == 1)
    #expect(warnings.messages.first?.contains("a `forEach` row is not presented") == true)
    #expect(
      warnings.messages.first?.contains("The store's action was") == false,
      "the message names the store's action already: \(warnings.messages)")
  }

  @Test func anIfLetChildsDismissInsideASheetDoesNotCloseTheSheet() {
    let warnings = WarningLog()
    let harness = Harness(
      initialState: SheetOfList.State(sheet: DismissingList.State(detail: .init(id: 7))),
      warnings: warnings.handler, reducer: SheetOfList())
    harness.send(.sheet(.presented(.detail(.close))))
    #expect(harness.state.sheet?.detail?.id == 7, "the sheet was closed by an ifLet child")
    #expect(warnings.messages.count == 1)
    #expect(
      warnings.messages.first?.contains("but an `ifLet` child is not presented") == true,
      "\(warnings.messages)")
  }

  /// The list itself, shown as the sheet, still closes the sheet with its own `.dismiss`.
  @Test func theSheetsOwnDismissStillClosesIt() {
    let warnings = WarningLog()
    let harness = Harness(
      initialState: SheetOfList.State(sheet: DismissingList.State(rows: [.init(id: 1)])),
      warnings: warnings.handler, reducer: SheetOfList())
    harness.send(.sheet(.presented(.closeSheet)))
    #expect(harness.state.sheet == nil)
    #expect(warnings.messages.isEmpty, "\(warnings.messages)")
  }
}

/// A row that closes itself with `.dismiss`.
private struct DismissingRow: Reducer {
  struct State: Equatable, Identifiable, Sendable {
    let id: Int
  }
  enum Action: Sendable, Equatable {
    case close
  }
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    .dismiss
  }
}

/// A list of rows: shown at the top level, as a sheet, or as a stack's screen.
private struct DismissingList: Reducer {
  struct State: Equatable {
    var rows: IdentifiedArrayOf<DismissingRow.State> = []
    var detail: DismissingRow.State?
  }
  enum Action: Sendable, Equatable {
    case rows(IdentifiedActionOf<DismissingRow>)
    case detail(DismissingRow.Action)
    case closeSheet
  }
  var body: some ReducerOf<Self> {
    Reduce { _, action in
      if case .closeSheet = action { return .dismiss }
      return .none
    }
    .forEach(\.rows, action: .dismissingRows) { DismissingRow() }
    .ifLet(\.detail, action: .dismissingDetail) { DismissingRow() }
  }
}

/// Presents the list as a sheet.
private struct SheetOfList: Reducer {
  struct State: Equatable {
    var sheet: DismissingList.State?
  }
  enum Action: Sendable, Equatable {
    case sheet(PresentationAction<DismissingList.Action>)
  }
  var body: some ReducerOf<Self> {
    EmptyReducer()
      .presents(\.sheet, action: .listSheet) { DismissingList() }
  }
}

/// Pushes the list as a screen.
private struct StackOfLists: Reducer {
  struct State: Equatable {
    var path = StackState<DismissingList.State>()
  }
  enum Action: Sendable, Equatable {
    case path(StackActionOf<DismissingList>)
  }
  var body: some ReducerOf<Self> {
    EmptyReducer()
      .navigationStack(\.path, action: .listPath) { DismissingList() }
  }
}

extension CaseKey<DismissingList.Action, IdentifiedActionOf<DismissingRow>> {
  fileprivate static var dismissingRows: Self {
    Self(DismissingList.Action.rows) { if case .rows(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<DismissingList.Action, DismissingRow.Action> {
  fileprivate static var dismissingDetail: Self {
    Self(DismissingList.Action.detail) { if case .detail(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<SheetOfList.Action, PresentationAction<DismissingList.Action>> {
  fileprivate static var listSheet: Self {
    Self(SheetOfList.Action.sheet) { if case .sheet(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<StackOfLists.Action, StackActionOf<DismissingList>> {
  fileprivate static var listPath: Self {
    Self(StackOfLists.Action.path) { if case .path(let a) = $0 { a } else { nil } }
  }
}
