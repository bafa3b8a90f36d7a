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
      initialState: A31Parent.State(sheet: A31List.State(rows: [.init(id: 1), .init(id: 2)])),
      warnings: warnings.handler, reducer: A31Parent())
    harness.send(.sheet(.presented(.rows(.element(id: 1, action: .close)))))
    #expect(harness.state.sheet?.rows.ids == [1, 2], "the sheet was closed by a row's .dismiss")
    #expect(warnings.messages.count == 1)
    #expect(
      warnings.messages.first?.contains(
        "Action.rows(.element(id: 1, action: .close)) returned `.dismiss` "
          + "in the element with id 1 of \\State.rows, but a `forEach` row is not presented")
        == true, "\(warnings.messages)")
  }

  @Test func aRowsDismissOnAStackScreenDoesNotPopTheScreen() {
    let warnings = WarningLog()
    var state = A31Stack.State()
    state.path.append(A31List.State(rows: [.init(id: 1), .init(id: 2)]))
    let harness = Harness(initialState: state, warnings: warnings.handler, reducer: A31Stack())
    harness.send(.path(.element(id: 0, action: .rows(.element(id: 1, action: .close)))))
    #expect(harness.state.path.count == 1, "the screen was popped by a row's .dismiss")
    #expect(warnings.messages.count == 1)
    #expect(warnings.messages.first?.contains("a `forEach` row is not presented") == true)
  }

  @Test func aTopLevelRowsDismissIsRefusedWithAWarning() {
    let warnings = WarningLog()
    let harness = Harness(
      initialState: A31List.State(rows: [.init(id: 1)]), warnings: warnings.handler,
      reducer: A31List())
    harness.send(.rows(.element(id: 1, action: .close)))
    #expect(harness.state.rows.ids == [1])
    #expect(warnings.messages.count == 1)
    #expect(warnings.messages.first?.contains("a `forEach` row is not presented") == true)
  }

  @Test func anIfLetChildsDismissInsideASheetDoesNotCloseTheSheet() {
    let warnings = WarningLog()
    let harness = Harness(
      initialState: A31Parent.State(sheet: A31List.State(detail: .init(id: 7))),
      warnings: warnings.handler, reducer: A31Parent())
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
      initialState: A31Parent.State(sheet: A31List.State(rows: [.init(id: 1)])),
      warnings: warnings.handler, reducer: A31Parent())
    harness.send(.sheet(.presented(.closeSheet)))
    #expect(harness.state.sheet == nil)
    #expect(warnings.messages.isEmpty, "\(warnings.messages)")
  }
}

/// A row that closes itself with `.dismiss`.
private struct A31Row: Reducer {
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
private struct A31List: Reducer {
  struct State: Equatable {
    var rows: IdentifiedArrayOf<A31Row.State> = []
    var detail: A31Row.State?
  }
  enum Action: Sendable, Equatable {
    case rows(IdentifiedActionOf<A31Row>)
    case detail(A31Row.Action)
    case closeSheet
  }
  var body: some ReducerOf<Self> {
    Reduce { _, action in
      if case .closeSheet = action { return .dismiss }
      return .none
    }
    .forEach(\.rows, action: .a31Rows) { A31Row() }
    .ifLet(\.detail, action: .a31Detail) { A31Row() }
  }
}

/// Presents the list as a sheet.
private struct A31Parent: Reducer {
  struct State: Equatable {
    var sheet: A31List.State?
  }
  enum Action: Sendable, Equatable {
    case sheet(PresentationAction<A31List.Action>)
  }
  var body: some ReducerOf<Self> {
    EmptyReducer()
      .presents(\.sheet, action: .a31Sheet) { A31List() }
  }
}

/// Pushes the list as a screen.
private struct A31Stack: Reducer {
  struct State: Equatable {
    var path = StackState<A31List.State>()
  }
  enum Action: Sendable, Equatable {
    case path(StackActionOf<A31List>)
  }
  var body: some ReducerOf<Self> {
    EmptyReducer()
      .navigationStack(\.path, action: .a31Path) { A31List() }
  }
}

extension CaseKey<A31List.Action, IdentifiedActionOf<A31Row>> {
  fileprivate static var a31Rows: Self {
    Self(A31List.Action.rows) { if case .rows(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<A31List.Action, A31Row.Action> {
  fileprivate static var a31Detail: Self {
    Self(A31List.Action.detail) { if case .detail(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<A31Parent.Action, PresentationAction<A31List.Action>> {
  fileprivate static var a31Sheet: Self {
    Self(A31Parent.Action.sheet) { if case .sheet(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<A31Stack.Action, StackActionOf<A31List>> {
  fileprivate static var a31Path: Self {
    Self(A31Stack.Action.path) { if case .path(let a) = $0 { a } else { nil } }
  }
}
