import Effects
import Observation
import Store

/// A counter: the smallest feature.
struct Counter: Reducer {
  struct State: Equatable, Codable {
    var count = 0
  }
  enum Action: Equatable, Codable, Sendable {
    case increment
    case incrementLater
  }
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .increment:
      state.count += 1
      return .none
    case .incrementLater:
      return .run { send in send(.increment) }
    }
  }
}

/// The same counter as the shared mutable object this library replaces.
@Observable
@MainActor
final class CounterModel {
  var count = 0
  func increment() { count += 1 }
}

extension Counter: Sendable {}

/// A row, and a list of rows.
struct Row: Reducer, Sendable {
  struct State: Equatable, Identifiable, Sendable {
    let id: Int
    var count = 0
    var title = ""
  }
  enum Action: Equatable, Sendable {
    case increment
    /// Starts watching something for the rest of the row's life.
    case watch
    /// Feeds `increment` back with a `.send`, as a row reports to its parent.
    case echo
  }
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .increment:
      state.count += 1
      return .none
    case .watch:
      return .run { _ in try await Task.sleep(for: .seconds(86_400)) }
    case .echo:
      return .send(.increment)
    }
  }
}

struct List: Reducer {
  struct State: Equatable {
    var rows: IdentifiedArrayOf<Row.State> = []
    var ticks = 0
  }
  enum Action: Equatable, Sendable {
    case rows(IdentifiedAction<Int, Row.Action>)
    /// Removes the row in the middle and appends a new one with `newID`, keeping the size.
    case replaceMiddleRow(newID: Int)
    /// Changes something beside the rows.
    case tick
    /// Increments the rows with ids `ids`, one write each (a bulk "mark as read").
    case incrementRows(ids: [Int])
  }
  var body: some Reducer<State, Action> {
    Reduce { state, action in
      if case .replaceMiddleRow(let newID) = action {
        state.rows.remove(id: state.rows[state.rows.count / 2].id)
        state.rows.append(Row.State(id: newID))
      }
      if case .tick = action { state.ticks += 1 }
      if case .incrementRows(let ids) = action {
        for id in ids { state.rows[id: id]?.count += 1 }
      }
      return .none
    }
    .forEach(\.rows, action: .rows) { Row() }
  }
}

/// A row as the shared mutable object this library replaces: one `@Observable` object per
/// row, which a row view observes directly.
@Observable
@MainActor
final class RowModel {
  var count = 0
}

extension CaseKey<Row.Action, Row.Action> {
  /// A row's actions, for a store scoped to a part of the row.
  static var whole: Self {
    Self({ $0 }) { $0 }
  }
}

extension CaseKey<List.Action, IdentifiedAction<Int, Row.Action>> {
  static var rows: Self {
    Self(List.Action.rows) { if case .rows(let a) = $0 { a } else { nil } }
  }
}

extension List.State {
  init(count: Int) {
    rows = try! IdentifiedArrayOf(uniqueElements: (0..<count).map { Row.State(id: $0) })
  }

  /// The rows with an even id: a filtered view, built anew at each read.
  var visibleRows: IdentifiedArrayOf<Row.State> {
    rows.filter { $0.id.isMultiple(of: 2) }
  }
}

/// A row that can show a sheet: an optional child, run by `ifLet`.
struct SheetRow: Reducer {
  struct State: Equatable, Identifiable, Sendable {
    let id: Int
    var count = 0
    var sheet: Row.State? = Row.State(id: 0)
  }
  enum Action: Equatable, Sendable {
    case increment
    case sheet(Row.Action)
  }
  var body: some Reducer<State, Action> {
    Reduce { state, action in
      if case .increment = action { state.count += 1 }
      return .none
    }
    .ifLet(\.sheet, action: .sheet) { Row() }
  }
}

/// A list of rows that can each show a sheet.
struct SheetList: Reducer {
  struct State: Equatable {
    var rows: IdentifiedArrayOf<SheetRow.State>

    init(count: Int) {
      rows = try! IdentifiedArrayOf(uniqueElements: (0..<count).map { SheetRow.State(id: $0) })
    }
  }
  enum Action: Equatable, Sendable {
    case rows(IdentifiedAction<Int, SheetRow.Action>)
  }
  var body: some Reducer<State, Action> {
    EmptyReducer().forEach(\.rows, action: .rows) { SheetRow() }
  }
}

extension CaseKey<SheetRow.Action, Row.Action> {
  static var sheet: Self {
    Self(SheetRow.Action.sheet) { if case .sheet(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<SheetList.Action, IdentifiedAction<Int, SheetRow.Action>> {
  static var rows: Self {
    Self(SheetList.Action.rows) { if case .rows(let a) = $0 { a } else { nil } }
  }
}

/// A row shown some of the time (an optional detail), run by `ifLet`; and the same row always
/// there, run by `Scope`: what presence and identity bookkeeping add to an action.
struct Presenter: Reducer {
  struct State {
    var detail: Row.State? = Row.State(id: 1)
    var inline = Row.State(id: 1)
  }
  enum Action: Equatable, Sendable {
    case detail(Row.Action)
    case inline(Row.Action)
  }
  let isOptional: Bool
  var body: some Reducer<State, Action> {
    if isOptional {
      EmptyReducer().ifLet(\.detail, action: .detail) { Row() }
    } else {
      Scope(state: \.inline, action: .inline) { Row() }
    }
  }
}

extension CaseKey<Presenter.Action, Row.Action> {
  static var detail: Self {
    Self(Presenter.Action.detail) { if case .detail(let a) = $0 { a } else { nil } }
  }
  static var inline: Self {
    Self(Presenter.Action.inline) { if case .inline(let a) = $0 { a } else { nil } }
  }
}

/// A sheet (`presents`) holding a row, and the same row always there (`Scope`).
struct SheetHost: Reducer {
  struct State {
    var sheet: Row.State? = Row.State(id: 1)
    var inline = Row.State(id: 1)
  }
  enum Action: Equatable, Sendable {
    case sheet(PresentationAction<Row.Action>)
    case inline(Row.Action)
  }
  let usesSheet: Bool
  var body: some Reducer<State, Action> {
    if usesSheet {
      EmptyReducer().presents(\.sheet, action: .sheet) { Row() }
    } else {
      Scope(state: \.inline, action: .inline) { Row() }
    }
  }
}

extension CaseKey<SheetHost.Action, PresentationAction<Row.Action>> {
  static var sheet: Self {
    Self(SheetHost.Action.sheet) { if case .sheet(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<SheetHost.Action, Row.Action> {
  static var inline: Self {
    Self(SheetHost.Action.inline) { if case .inline(let a) = $0 { a } else { nil } }
  }
}

/// A list of rows in a sheet (`presents`).
struct ListSheetHost: Reducer {
  struct State {
    var sheet: List.State?
  }
  enum Action: Equatable, Sendable {
    case sheet(PresentationAction<List.Action>)
  }
  var body: some Reducer<State, Action> {
    EmptyReducer().presents(\.sheet, action: .sheet) { List() }
  }
}

extension CaseKey<ListSheetHost.Action, PresentationAction<List.Action>> {
  static var sheet: Self {
    Self(ListSheetHost.Action.sheet) { if case .sheet(let a) = $0 { a } else { nil } }
  }
}

/// A list of rows in a stack's screen (`navigationStack`).
struct ListStackHost: Reducer {
  struct State {
    var path = StackState<List.State>()
  }
  enum Action: Equatable, Sendable {
    case path(StackAction<List.State, List.Action>)
  }
  var body: some Reducer<State, Action> {
    EmptyReducer().navigationStack(\.path, action: .path) { List() }
  }
}

extension List.State: Sendable {}

extension CaseKey<ListStackHost.Action, StackAction<List.State, List.Action>> {
  static var path: Self {
    Self(ListStackHost.Action.path) { if case .path(let a) = $0 { a } else { nil } }
  }
}

/// A form of 16 text fields, each a string too long to be stored inline: a copy of its state
/// retains 16 buffers, and releases them.
struct Form: Reducer {
  struct State: Identifiable {
    let id: Int
    var count = 0
    var fields = Fields()
  }
  /// The fields, stored inline in the state as a form's would be (not in an array).
  struct Fields {
    var f0 = Form.text, f1 = Form.text, f2 = Form.text, f3 = Form.text
    var f4 = Form.text, f5 = Form.text, f6 = Form.text, f7 = Form.text
    var f8 = Form.text, f9 = Form.text, f10 = Form.text, f11 = Form.text
    var f12 = Form.text, f13 = Form.text, f14 = Form.text, f15 = Form.text
  }
  static var text: String { String(repeating: "x", count: 32) }

  enum Action: Equatable, Sendable { case increment }
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    state.count += 1
    return .none
  }
}

/// A screen that shows a ``Form`` some of the time (`ifLet`), or the same form always
/// (`Scope`), and handles an action of its own beside it.
struct FormHost: Reducer {
  struct State {
    var detail: Form.State? = Form.State(id: 1)
    var inline = Form.State(id: 1)
    var ticks = 0
  }
  enum Action: Equatable, Sendable {
    case detail(Form.Action)
    case inline(Form.Action)
    case tick
  }
  let isOptional: Bool
  var body: some Reducer<State, Action> {
    let own = Reduce<State, Action> { state, action in
      if action == .tick { state.ticks += 1 }
      return .none
    }
    if isOptional {
      own.ifLet(\.detail, action: .detail) { Form() }
    } else {
      Scope(state: \.inline, action: .inline) { Form() }
      own
    }
  }
}

extension CaseKey<FormHost.Action, Form.Action> {
  static var detail: Self {
    Self(FormHost.Action.detail) { if case .detail(let a) = $0 { a } else { nil } }
  }
  static var inline: Self {
    Self(FormHost.Action.inline) { if case .inline(let a) = $0 { a } else { nil } }
  }
}

/// A row held by one case of an enum state, run by `ifCaseLet`.
struct Mode: Reducer {
  enum State {
    case active(Row.State)
    case idle
  }
  enum Action: Equatable, Sendable {
    case active(Row.Action)
  }
  var body: some Reducer<State, Action> {
    EmptyReducer().ifCaseLet(.active, action: .active) { Row() }
  }
}

extension CaseKey<Mode.State, Row.State> {
  static var active: Self {
    Self(Mode.State.active) { if case .active(let s) = $0 { s } else { nil } }
  }
}

extension CaseKey<Mode.Action, Row.Action> {
  static var active: Self {
    Self(Mode.Action.active) { if case .active(let a) = $0 { a } else { nil } }
  }
}

/// A list below a scope, as an app holds one. When its rows watch something, the store checks
/// after each action that the rows with running effects are still there, since an ancestor
/// could remove them out of the list's sight.
///
/// It can also show a row as an optional detail: while the detail's effect runs, the store
/// checks after every action that the detail is still there.
struct Watchlist: Reducer {
  struct State: Equatable {
    var list = List.State()
    var detail: Row.State?
  }
  enum Action: Equatable, Sendable {
    case list(List.Action)
    case detail(Row.Action)
  }
  var body: some Reducer<State, Action> {
    Scope(state: \.list, action: .list) { List() }
    EmptyReducer().ifLet(\.detail, action: .detail) { Row() }
  }
}

extension CaseKey<Watchlist.Action, List.Action> {
  static var list: Self {
    Self(Watchlist.Action.list) { if case .list(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<Watchlist.Action, Row.Action> {
  static var detail: Self {
    Self(Watchlist.Action.detail) { if case .detail(let a) = $0 { a } else { nil } }
  }
}

/// A row shown as a screen of a navigation stack, or the same row always there (`Scope`), for
/// the cost of an action to a stack screen.
struct Navigator: Reducer {
  struct State {
    var path: StackState<Row.State> = [Row.State(id: 0), Row.State(id: 1)]
    var inline = Row.State(id: 0)
  }
  enum Action: Equatable, Sendable {
    case path(StackActionOf<Row>)
    case inline(Row.Action)
  }
  let usesStack: Bool
  var body: some Reducer<State, Action> {
    if usesStack {
      EmptyReducer().navigationStack(\.path, action: .path) { Row() }
    } else {
      Scope(state: \.inline, action: .inline) { Row() }
    }
  }
}

extension CaseKey<Navigator.Action, StackActionOf<Row>> {
  static var path: Self {
    Self(Navigator.Action.path) { if case .path(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<Navigator.Action, Row.Action> {
  static var inline: Self {
    Self(Navigator.Action.inline) { if case .inline(let a) = $0 { a } else { nil } }
  }
}

/// An enum of destinations presented by `presents` (one case a row, the other an alert that
/// closes itself), as an app presents its sheets and alerts; and the same row always there.
struct DestinationHost: Reducer {
  struct State {
    var destination: Destination.State? = .row(Row.State(id: 1))
    var inline = Row.State(id: 1)
  }
  enum Action: Equatable, Sendable {
    case destination(PresentationAction<Destination.Action>)
    case inline(Row.Action)
  }
  let usesDestination: Bool
  var body: some Reducer<State, Action> {
    if usesDestination {
      EmptyReducer().presents(\.destination, action: .destination) { Destination() }
    } else {
      Scope(state: \.inline, action: .inline) { Row() }
    }
  }

  /// The destinations: a row, or an alert.
  struct Destination: Reducer {
    enum State {
      case row(Row.State)
      case alert(Alert)
    }
    enum Action: Equatable, Sendable {
      case row(Row.Action)
      case alert(AlertAction)
    }
    var body: some Reducer<State, Action> {
      EmptyReducer()
        .ifCaseLet(.row, action: .row) { Row() }
        .ifCaseLet(.alert, action: .alert)
    }
  }

  /// An alert's state: it closes on any of its actions.
  struct Alert: EphemeralState {
    var title = "Delete?"
  }

  /// An alert's buttons.
  enum AlertAction: Equatable, Sendable {
    case confirm
  }
}

extension CaseKey<DestinationHost.Action, PresentationAction<DestinationHost.Destination.Action>> {
  static var destination: Self {
    Self(DestinationHost.Action.destination) {
      if case .destination(let a) = $0 { a } else { nil }
    }
  }
}

extension CaseKey<DestinationHost.Action, Row.Action> {
  static var inline: Self {
    Self(DestinationHost.Action.inline) { if case .inline(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<DestinationHost.Destination.State, Row.State> {
  static var row: Self {
    Self(DestinationHost.Destination.State.row) { if case .row(let s) = $0 { s } else { nil } }
  }
}

extension CaseKey<DestinationHost.Destination.State, DestinationHost.Alert> {
  static var alert: Self {
    Self(DestinationHost.Destination.State.alert) {
      if case .alert(let s) = $0 { s } else { nil }
    }
  }
}

extension CaseKey<DestinationHost.Destination.Action, Row.Action> {
  static var row: Self {
    Self(DestinationHost.Destination.Action.row) { if case .row(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<DestinationHost.Destination.Action, DestinationHost.AlertAction> {
  static var alert: Self {
    Self(DestinationHost.Destination.Action.alert) {
      if case .alert(let a) = $0 { a } else { nil }
    }
  }
}

/// A list of rows in one case of an enum destination (`presents` of an enum, `ifCaseLet`), as
/// an app presents an editor of many rows beside its alerts.
struct ListDestinationHost: Reducer {
  struct State {
    var destination: Destination.State?
  }
  enum Action: Equatable, Sendable {
    case destination(PresentationAction<Destination.Action>)
  }
  var body: some Reducer<State, Action> {
    EmptyReducer().presents(\.destination, action: .destination) { Destination() }
  }

  /// The destinations: a list, or an alert.
  struct Destination: Reducer {
    enum State {
      case list(List.State)
      case alert(DestinationHost.Alert)
    }
    enum Action: Equatable, Sendable {
      case list(List.Action)
      case alert(DestinationHost.AlertAction)
    }
    var body: some Reducer<State, Action> {
      EmptyReducer()
        .ifCaseLet(.list, action: .list) { List() }
        .ifCaseLet(.alert, action: .alert)
    }
  }
}

extension CaseKey<
  ListDestinationHost.Action, PresentationAction<ListDestinationHost.Destination.Action>
> {
  static var destination: Self {
    Self(ListDestinationHost.Action.destination) {
      if case .destination(let a) = $0 { a } else { nil }
    }
  }
}

extension CaseKey<ListDestinationHost.Destination.State, List.State> {
  static var list: Self {
    Self(ListDestinationHost.Destination.State.list) {
      if case .list(let s) = $0 { s } else { nil }
    }
  }
}

extension CaseKey<ListDestinationHost.Destination.State, DestinationHost.Alert> {
  static var alert: Self {
    Self(ListDestinationHost.Destination.State.alert) {
      if case .alert(let s) = $0 { s } else { nil }
    }
  }
}

extension CaseKey<ListDestinationHost.Destination.Action, List.Action> {
  static var list: Self {
    Self(ListDestinationHost.Destination.Action.list) {
      if case .list(let a) = $0 { a } else { nil }
    }
  }
}

extension CaseKey<ListDestinationHost.Destination.Action, DestinationHost.AlertAction> {
  static var alert: Self {
    Self(ListDestinationHost.Destination.Action.alert) {
      if case .alert(let a) = $0 { a } else { nil }
    }
  }
}

/// An app whose state is an enum, signed in or out, with a list while signed in: the root's
/// own state, one case of which a view reads through that case's store.
struct ListSession: Reducer {
  enum State {
    case signedIn(List.State)
    case signedOut
  }
  enum Action: Equatable, Sendable {
    case signedIn(List.Action)
  }
  var body: some Reducer<State, Action> {
    EmptyReducer().ifCaseLet(.signedIn, action: .signedIn) { List() }
  }
}

extension CaseKey<ListSession.State, List.State> {
  static var signedIn: Self {
    Self(ListSession.State.signedIn) { if case .signedIn(let s) = $0 { s } else { nil } }
  }
}

extension CaseKey<ListSession.Action, List.Action> {
  static var signedIn: Self {
    Self(ListSession.Action.signedIn) { if case .signedIn(let a) = $0 { a } else { nil } }
  }
}

/// A list of rows in one case of a stack's screens, an enum (`navigationStack` of an enum whose
/// cases `ifCaseLet` runs), as an app keeps the destinations of its stack.
struct ListPathHost: Reducer {
  struct State {
    var path = StackState<Path.State>()
  }
  enum Action: Equatable, Sendable {
    case path(StackAction<Path.State, Path.Action>)
  }
  var body: some Reducer<State, Action> {
    EmptyReducer().navigationStack(\.path, action: .path) { Path() }
  }

  /// The screens: a list, or a note.
  struct Path: Reducer {
    enum State: Equatable, Sendable {
      case list(List.State)
      case note(String)
    }
    enum Action: Equatable, Sendable {
      case list(List.Action)
    }
    var body: some Reducer<State, Action> {
      EmptyReducer().ifCaseLet(.list, action: .list) { List() }
    }
  }
}

extension CaseKey<
  ListPathHost.Action, StackAction<ListPathHost.Path.State, ListPathHost.Path.Action>
> {
  static var path: Self {
    Self(ListPathHost.Action.path) { if case .path(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<ListPathHost.Path.State, List.State> {
  static var list: Self {
    Self(ListPathHost.Path.State.list) { if case .list(let s) = $0 { s } else { nil } }
  }
}

extension CaseKey<ListPathHost.Path.Action, List.Action> {
  static var list: Self {
    Self(ListPathHost.Path.Action.list) { if case .list(let a) = $0 { a } else { nil } }
  }
}

/// A list of rows in a sheet (`presents`) of a stack's screen, as a screen presents an editor.
struct SheetScreenHost: Reducer {
  struct State {
    var path = StackState<Screen.State>()
  }
  enum Action: Equatable, Sendable {
    case path(StackAction<Screen.State, Screen.Action>)
  }
  var body: some Reducer<State, Action> {
    EmptyReducer().navigationStack(\.path, action: .path) { Screen() }
  }

  /// A screen that presents a list.
  struct Screen: Reducer {
    struct State: Equatable, Sendable {
      var title = "screen"
      var sheet: List.State?
    }
    enum Action: Equatable, Sendable {
      case sheet(PresentationAction<List.Action>)
    }
    var body: some Reducer<State, Action> {
      EmptyReducer().presents(\.sheet, action: .sheet) { List() }
    }
  }
}

extension CaseKey<
  SheetScreenHost.Action, StackAction<SheetScreenHost.Screen.State, SheetScreenHost.Screen.Action>
> {
  static var path: Self {
    Self(SheetScreenHost.Action.path) { if case .path(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<SheetScreenHost.Screen.Action, PresentationAction<List.Action>> {
  static var sheet: Self {
    Self(SheetScreenHost.Screen.Action.sheet) { if case .sheet(let a) = $0 { a } else { nil } }
  }
}

/// A list of rows in a screen of a sheet's own stack, as a sheet navigates within itself.
struct StackSheetHost: Reducer {
  struct State {
    var sheet: ListStackHost.State?
  }
  enum Action: Equatable, Sendable {
    case sheet(PresentationAction<ListStackHost.Action>)
  }
  var body: some Reducer<State, Action> {
    EmptyReducer().presents(\.sheet, action: .sheet) { ListStackHost() }
  }
}

extension CaseKey<StackSheetHost.Action, PresentationAction<ListStackHost.Action>> {
  static var sheet: Self {
    Self(StackSheetHost.Action.sheet) { if case .sheet(let a) = $0 { a } else { nil } }
  }
}
