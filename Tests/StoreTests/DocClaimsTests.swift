import Effects
import Foundation
import Testing

@testable import Store

// Claims of Store.docc/IdentityAndNavigation.md, checked against the library. The guide's code
// is copied into `Guide` (its names clash with the test support's `Todos`, `Row` and `Editor`),
// adapted only by that namespace.

enum Guide {
  // MARK: The guide's feature (IdentityAndNavigation.md, "Overview")

  struct Row: Reducer {
    struct State: Equatable, Identifiable, Sendable {
      let id: UUID
      var title = ""
      var loadCount = 0
    }

    enum Action: Sendable, Equatable {
      case loadTapped
      case loaded
      case renamed(String)
      case delegate(Delegate)

      enum Delegate: Sendable, Equatable { case deleteTapped }
    }

    enum CancelID { case load }

    let clock: any Clock<Duration>

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .loadTapped:
        return .run { [clock] send in
          try await clock.sleep(for: .seconds(1))
          send(.loaded)
        }
        .cancellable(id: CancelID.load, cancelInFlight: true)
      case .loaded:
        state.loadCount += 1
        return .none
      case .renamed(let title):
        state.title = title
        return .none
      case .delegate:
        return .none
      }
    }
  }

  struct Editor: Reducer {
    struct State: Equatable, Identifiable {
      let rowID: UUID
      var title: String
      var id: UUID { rowID }
    }

    enum Action: Sendable, Equatable {
      case titleChanged(String)
      case saveTapped
      case cancelTapped
      case delegate(Delegate)

      enum Delegate: Sendable, Equatable {
        case saved(rowID: UUID, title: String)
      }
    }

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .titleChanged(let title):
        state.title = title
        return .none
      case .saveTapped:
        return .concatenate(
          .send(.delegate(.saved(rowID: state.rowID, title: state.title))),
          .dismiss
        )
      case .cancelTapped:
        return .dismiss
      case .delegate:
        return .none
      }
    }
  }

  struct Todos: Reducer {
    struct State: Equatable {
      var rows: IdentifiedArrayOf<Row.State> = []
      var editor: Editor.State?
      var path = StackState<Row.State>()
    }

    enum Action: Sendable, Equatable {
      case rows(IdentifiedAction<Row.State.ID, Row.Action>)
      case editor(PresentationAction<Editor.Action>)
      case path(StackAction<Row.State, Row.Action>)
      case addTapped
      case editTapped(id: Row.State.ID)
      case detailTapped(id: Row.State.ID)
    }

    let clock: any Clock<Duration>
    let makeID: UUIDGenerator

    var body: some Reducer<State, Action> {
      Reduce { state, action in
        switch action {
        case .addTapped:
          state.rows.append(Row.State(id: makeID()))
          return .none

        case .editTapped(let id):
          guard let row = state.rows[id: id] else { return .none }
          state.editor = Editor.State(rowID: id, title: row.title)
          return .none

        case .detailTapped(let id):
          guard let row = state.rows[id: id] else { return .none }
          state.path.append(row)
          return .none

        case .rows(.element(let id, .delegate(.deleteTapped))):
          state.rows.remove(id: id)
          return .none

        case .editor(.presented(.delegate(.saved(let id, let title)))):
          state.rows[id: id]?.title = title
          return .none

        case .rows, .editor, .path:
          return .none
        }
      }
      .forEach(\.rows, action: .rows) { Row(clock: clock) }
      .presents(\.editor, action: .editor) { Editor() }
      .navigationStack(\.path, action: .path) { Row(clock: clock) }
    }
  }

  // MARK: "Identity rules" snippet

  static func rows(from fetched: [Row.State]) -> IdentifiedArrayOf<Row.State>? {
    do {
      return try IdentifiedArrayOf<Row.State>(uniqueElements: fetched)
    } catch {
      print(error)  // an IdentifiedArrayError: "Duplicate id … at positions 0 and 2"
      return nil
    }
  }

  // MARK: "Effects live as long as their identity": the parent's cancel snippet

  struct Stoppable: Reducer {
    struct State: Equatable {
      var rows: IdentifiedArrayOf<Row.State> = []
    }
    enum Action: Sendable, Equatable {
      case rows(IdentifiedAction<Row.State.ID, Row.Action>)
      case stopLoading(Row.State.ID)
    }
    let clock: any Clock<Duration>

    var body: some Reducer<State, Action> {
      Reduce { state, action in
        switch action {
        case .stopLoading(let id):
          return .cancel(id: Row.CancelID.load, inElement: id, of: \State.rows)
        case .rows:
          return .none
        }
      }
      .forEach(\.rows, action: .rows) { Row(clock: clock) }
    }
  }

  // MARK: "A presented destination": the alert snippet, in a feature of its own

  struct DeleteAlert: Equatable { var title: String }
  enum AlertAction: Sendable, Equatable { case confirmTapped, cancelTapped }

  struct Deleting: Reducer {
    struct State: Equatable {
      var title = "Milk"
      var alert: DeleteAlert?
      var isDeleted = false
    }
    enum Action: Sendable, Equatable {
      case deleteTapped
      case alert(PresentationAction<AlertAction>)
    }

    var body: some Reducer<State, Action> {
      Reduce { state, action in
        switch action {
        case .deleteTapped:
          state.alert = DeleteAlert(title: state.title)
          return .none
        case .alert(.presented(.confirmTapped)):
          state.isDeleted = true
          return .none
        case .alert:
          return .none
        }
      }
      .presents(\.alert, action: .alert)
    }
  }

  // MARK: "Enum state": the Destination snippet

  /// Asks before a row is deleted, and closes either way.
  struct ConfirmDelete: Reducer {
    struct State: Equatable { var rowID: UUID }
    enum Action: Sendable, Equatable {
      case deleteTapped
      case keepTapped
    }
    func reduce(into state: inout State, action: Action) -> Effect<Action> { .dismiss }
  }

  struct Destination: Reducer {
    enum State: Equatable {
      case editor(Editor.State)
      case confirmDelete(ConfirmDelete.State)
    }
    enum Action: Sendable, Equatable {
      case editor(Editor.Action)
      case confirmDelete(ConfirmDelete.Action)
    }
    var body: some Reducer<State, Action> {
      EmptyReducer()
        .ifCaseLet(.editor, action: .editor) { Editor() }
        .ifCaseLet(.confirmDelete, action: .confirmDelete) { ConfirmDelete() }
    }
  }

  /// The "one statement per case" body of the same destination.
  struct StatementDestination: Reducer {
    typealias State = Destination.State
    typealias Action = Destination.Action
    var body: some Reducer<State, Action> {
      EmptyReducer().ifCaseLet(.editor, action: .editor) { Editor() }
      EmptyReducer().ifCaseLet(.confirmDelete, action: .confirmDelete) { ConfirmDelete() }
    }
  }

  struct DestinationTodos: Reducer {
    struct State: Equatable {
      var rows: IdentifiedArrayOf<Row.State> = []
      var destination: Destination.State?
    }
    enum Action: Sendable, Equatable {
      case editTapped(id: Row.State.ID)
      case destination(PresentationAction<Destination.Action>)
    }
    /// The `body` of the destination written as statements, or as one chain.
    let statements: Bool

    var body: some Reducer<State, Action> {
      Reduce { state, action in
        switch action {
        case .editTapped(let id):
          guard let row = state.rows[id: id] else { return .none }
          state.destination = .editor(Editor.State(rowID: id, title: row.title))
          return .none
        case .destination(.presented(.editor(.delegate(.saved(let id, let title))))):
          state.rows[id: id]?.title = title
          return .none
        case .destination:
          return .none
        }
      }
      .presents(\.destination, action: .destination) {
        if statements { StatementDestination() } else { Destination() }
      }
    }
  }
}

extension CaseKey<Guide.Todos.Action, IdentifiedAction<Guide.Row.State.ID, Guide.Row.Action>> {
  static var rows: Self {
    Self(Guide.Todos.Action.rows) { if case .rows(let a) = $0 { a } else { nil } }
  }
}
extension CaseKey<Guide.Todos.Action, PresentationAction<Guide.Editor.Action>> {
  static var editor: Self {
    Self(Guide.Todos.Action.editor) { if case .editor(let a) = $0 { a } else { nil } }
  }
}
extension CaseKey<Guide.Todos.Action, StackAction<Guide.Row.State, Guide.Row.Action>> {
  static var path: Self {
    Self(Guide.Todos.Action.path) { if case .path(let a) = $0 { a } else { nil } }
  }
}
extension CaseKey<Guide.Stoppable.Action, IdentifiedAction<Guide.Row.State.ID, Guide.Row.Action>> {
  static var rows: Self {
    Self(Guide.Stoppable.Action.rows) { if case .rows(let a) = $0 { a } else { nil } }
  }
}
extension CaseKey<Guide.Deleting.Action, PresentationAction<Guide.AlertAction>> {
  static var alert: Self {
    Self(Guide.Deleting.Action.alert) { if case .alert(let a) = $0 { a } else { nil } }
  }
}
extension CaseKey<Guide.DestinationTodos.Action, PresentationAction<Guide.Destination.Action>> {
  static var destination: Self {
    Self(Guide.DestinationTodos.Action.destination) {
      if case .destination(let a) = $0 { a } else { nil }
    }
  }
}
extension CaseKey<Guide.Destination.State, Guide.Editor.State> {
  static var editor: Self {
    Self(Guide.Destination.State.editor) { if case .editor(let s) = $0 { s } else { nil } }
  }
}
extension CaseKey<Guide.Destination.State, Guide.ConfirmDelete.State> {
  static var confirmDelete: Self {
    Self(Guide.Destination.State.confirmDelete) {
      if case .confirmDelete(let s) = $0 { s } else { nil }
    }
  }
}
extension CaseKey<Guide.Destination.Action, Guide.Editor.Action> {
  static var editor: Self {
    Self(Guide.Destination.Action.editor) { if case .editor(let a) = $0 { a } else { nil } }
  }
}
extension CaseKey<Guide.Destination.Action, Guide.ConfirmDelete.Action> {
  static var confirmDelete: Self {
    Self(Guide.Destination.Action.confirmDelete) {
      if case .confirmDelete(let a) = $0 { a } else { nil }
    }
  }
}

// MARK: Small reducers for claims the guide's feature does not exercise

/// A parent that answers its editor's report with an action of its own (a `.send`).
private struct Answering: Reducer {
  struct State: Equatable {
    var editor: Guide.Editor.State?
    var log: [String] = []
    var quiet = false
  }
  enum Action: Sendable, Equatable {
    case editor(PresentationAction<Guide.Editor.Action>)
    case answered
  }
  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .editor(.presented(.delegate(.saved))):
        state.log.append("saved")
        return state.quiet ? .none : .send(.answered)
      case .answered:
        state.log.append("answered, editor \(state.editor == nil ? "gone" : "shown")")
        return .none
      case .editor:
        return .none
      }
    }
    .presents(\.editor, action: .answering) { Guide.Editor() }
  }
}

extension CaseKey<Answering.Action, PresentationAction<Guide.Editor.Action>> {
  fileprivate static var answering: Self {
    Self(Answering.Action.editor) { if case .editor(let a) = $0 { a } else { nil } }
  }
}

/// A screen that reports and closes itself, and a parent that answers the report by pushing
/// a confirmation screen, without popping the reporting one (or popping it, when asked to).
private struct DoneScreen: Reducer {
  struct State: Equatable, Sendable { var name: String }
  enum Action: Sendable, Equatable {
    case doneTapped
    case delegate(Delegate)
    enum Delegate: Sendable, Equatable { case done }
  }
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .doneTapped: .concatenate(.send(.delegate(.done)), .dismiss)
    case .delegate: .none
    }
  }
}

private struct DoneFlow: Reducer {
  struct State: Equatable {
    var path = StackState<DoneScreen.State>()
    var popsReporter = false
  }
  enum Action: Sendable, Equatable {
    case path(StackAction<DoneScreen.State, DoneScreen.Action>)
  }
  var body: some Reducer<State, Action> {
    Reduce { state, action in
      if case .path(.element(let id, .delegate(.done))) = action {
        if state.popsReporter { state.path.pop(from: id) }
        state.path.append(DoneScreen.State(name: "confirmation"))
      }
      return .none
    }
    .navigationStack(\.path, action: .flowPath) { DoneScreen() }
  }
}

extension CaseKey<DoneFlow.Action, StackAction<DoneScreen.State, DoneScreen.Action>> {
  fileprivate static var flowPath: Self {
    Self(DoneFlow.Action.path) { if case .path(let a) = $0 { a } else { nil } }
  }
}

/// A child that is not `Identifiable`, replaced while presented.
private struct Draft: Reducer {
  struct State: Equatable { var title: String }
  enum Action: Sendable, Equatable {
    case saveTapped
    case saved(String)
  }
  let clock: TestClock
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .saveTapped:
      let title = state.title
      return .run { [clock] send in
        try await clock.sleep(for: .seconds(1))
        send(.saved(title))
      }
    case .saved:
      return .none
    }
  }
}

private struct DraftHost: Reducer {
  struct State: Equatable {
    var draft: Draft.State?
    var reports: [String] = []
  }
  enum Action: Sendable, Equatable {
    case draft(Draft.Action)
    case show(String)
    case hide
  }
  let clock: TestClock
  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .show(let title):
        state.draft = Draft.State(title: title)
      case .hide:
        state.draft = nil
      case .draft(.saved(let title)):
        state.reports.append("\(title) reported to draft \(state.draft?.title ?? "none")")
      case .draft:
        break
      }
      return .none
    }
    .ifLet(\.draft, action: .draftHost) { Draft(clock: clock) }
  }
}

extension CaseKey<DraftHost.Action, Draft.Action> {
  fileprivate static var draftHost: Self {
    Self(DraftHost.Action.draft) { if case .draft(let a) = $0 { a } else { nil } }
  }
}

/// A row that renames itself and has its parent remove it in the same `send`.
private struct SelfDeleting: Reducer {
  struct State: Equatable {
    var rows: IdentifiedArrayOf<Guide.Row.State> = []
  }
  enum Action: Sendable, Equatable {
    case rows(IdentifiedAction<UUID, Guide.Row.Action>)
    case renameAndDelete(UUID)
  }
  let clock: TestClock
  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .renameAndDelete(let id):
        // Row renamed then removed within one action.
        state.rows[id: id]?.title = "renamed in the removing send"
        return .send(.rows(.element(id: id, action: .delegate(.deleteTapped))))
      case .rows(.element(let id, .delegate(.deleteTapped))):
        state.rows.remove(id: id)
        return .none
      case .rows:
        return .none
      }
    }
    .forEach(\.rows, action: .selfDeleting) { Guide.Row(clock: clock) }
  }
}

extension CaseKey<SelfDeleting.Action, IdentifiedAction<UUID, Guide.Row.Action>> {
  fileprivate static var selfDeleting: Self {
    Self(SelfDeleting.Action.rows) { if case .rows(let a) = $0 { a } else { nil } }
  }
}

/// Row screens popped by each of the stack's own mutations.
struct Popper: Reducer {
  enum Pop: Sendable, CaseIterable {
    case popLast, popToBottom, popFromBottom, removeAll, subscriptNil
  }
  struct State: Equatable {
    var path = StackState<Guide.Row.State>()
    var seenByParent: [[StackElementID]] = []
    /// Whether the parent answers a `.popFrom` by pushing a screen (a confirmation, say).
    var pushesOnPop = false
  }
  enum Action: Sendable, Equatable {
    case path(StackAction<Guide.Row.State, Guide.Row.Action>)
    case push
    case pop(Pop)
  }
  let clock: TestClock
  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .push: state.path.append(Guide.Row.State(id: UUID(counting: state.path.count)))
      case .pop(.popLast): state.path.popLast()
      case .pop(.popToBottom): state.path.pop(to: 0)
      case .pop(.popFromBottom): state.path.pop(from: 0)
      case .pop(.removeAll): state.path.removeAll()
      case .pop(.subscriptNil): state.path[id: 0] = nil
      case .path(.push): state.seenByParent.append(state.path.ids)
      case .path(.popFrom):
        state.seenByParent.append(state.path.ids)
        if state.pushesOnPop {
          state.path.append(Guide.Row.State(id: UUID(counting: 100)))
        }
      case .path: break
      }
      return .none
    }
    .navigationStack(\.path, action: .popperPath) { Guide.Row(clock: clock) }
  }
}

extension CaseKey<Popper.Action, StackAction<Guide.Row.State, Guide.Row.Action>> {
  static var popperPath: Self {
    Self(Popper.Action.path) { if case .path(let a) = $0 { a } else { nil } }
  }
}

/// Guide rows changed in the ways the guide lists.
private struct Lister: Reducer {
  struct State: Equatable {
    var rows: IdentifiedArrayOf<Guide.Row.State> = []
  }
  enum Action: Sendable, Equatable {
    case rows(IdentifiedAction<UUID, Guide.Row.Action>)
    case add(UUID)
    case removeWhere(UUID)
    case removeAndReadd(UUID)
    case removeThenSendReadd(UUID)
    case parentCancel
    case sortByTitle
  }
  let clock: TestClock
  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .add(let id):
        state.rows.append(Guide.Row.State(id: id))
      case .removeWhere(let id):
        state.rows.removeAll(where: { $0.id == id })
      case .removeAndReadd(let id):
        guard let row = state.rows.remove(id: id) else { break }
        state.rows.append(row)
      case .removeThenSendReadd(let id):
        state.rows.remove(id: id)
        return .send(.add(id))
      case .parentCancel:
        return .cancel(id: Guide.Row.CancelID.load)
      case .sortByTitle:
        state.rows.sort { $0.title < $1.title }
      case .rows:
        break
      }
      return .none
    }
    .forEach(\.rows, action: .lister) { Guide.Row(clock: clock) }
  }
}

extension CaseKey<Lister.Action, IdentifiedAction<UUID, Guide.Row.Action>> {
  fileprivate static var lister: Self {
    Self(Lister.Action.rows) { if case .rows(let a) = $0 { a } else { nil } }
  }
}

/// The guide's destination parent, answering the editor's report by showing the delete
/// confirmation ("does nothing if the parent answered the editor's report by showing something
/// else").
private struct ConfirmingTodos: Reducer {
  struct State: Equatable {
    var rows: IdentifiedArrayOf<Guide.Row.State> = []
    var destination: Guide.Destination.State?
  }
  enum Action: Sendable, Equatable {
    case destination(PresentationAction<Guide.Destination.Action>)
  }
  var body: some Reducer<State, Action> {
    Reduce { state, action in
      if case .destination(.presented(.editor(.delegate(.saved(let id, _))))) = action {
        state.destination = .confirmDelete(Guide.ConfirmDelete.State(rowID: id))
      }
      return .none
    }
    .presents(\.destination, action: .confirming) { Guide.Destination() }
  }
}

extension CaseKey<ConfirmingTodos.Action, PresentationAction<Guide.Destination.Action>> {
  fileprivate static var confirming: Self {
    Self(ConfirmingTodos.Action.destination) {
      if case .destination(let a) = $0 { a } else { nil }
    }
  }
}

/// A presented child whose parent answers its report by giving it another id.
private struct Renaming: Reducer {
  struct Child: Reducer {
    struct State: Equatable, Identifiable { var id: Int }
    enum Action: Sendable, Equatable {
      case saveTapped
      case delegate(Delegate)
      enum Delegate: Sendable, Equatable { case saved }
    }
    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .saveTapped: .concatenate(.send(.delegate(.saved)), .dismiss)
      case .delegate: .none
      }
    }
  }
  struct State: Equatable { var child: Child.State? }
  enum Action: Sendable, Equatable { case child(PresentationAction<Child.Action>) }
  var body: some Reducer<State, Action> {
    Reduce { state, action in
      if case .child(.presented(.delegate(.saved))) = action { state.child?.id = 99 }
      return .none
    }
    .presents(\.child, action: .renaming) { Child() }
  }
}

extension CaseKey<Renaming.Action, PresentationAction<Renaming.Child.Action>> {
  fileprivate static var renaming: Self {
    Self(Renaming.Action.child) { if case .child(let a) = $0 { a } else { nil } }
  }
}

/// A filtered view that reads a global besides the state.
nonisolated(unsafe) private var visibleLimit = 2

private struct Filtered: Reducer {
  struct State: Equatable {
    var rows: IdentifiedArrayOf<Guide.Row.State> = []
    var touched = 0
    var visibleRows: IdentifiedArrayOf<Guide.Row.State> {
      IdentifiedArrayOf(rows.prefix(visibleLimit))
    }
  }
  enum Action: Sendable, Equatable {
    case rows(IdentifiedAction<UUID, Guide.Row.Action>)
    case nothing
    case touch
  }
  let clock: TestClock
  var body: some Reducer<State, Action> {
    Reduce { state, action in
      if action == .touch { state.touched += 1 }
      return .none
    }
    .forEach(\.rows, action: .filtered) { Guide.Row(clock: clock) }
  }
}

extension CaseKey<Filtered.Action, IdentifiedAction<UUID, Guide.Row.Action>> {
  fileprivate static var filtered: Self {
    Self(Filtered.Action.rows) { if case .rows(let a) = $0 { a } else { nil } }
  }
}

/// A child that changes its own id, as a draft given its server id.
private struct SelfRenumbering: Reducer {
  struct Child: Reducer {
    struct State: Equatable, Identifiable {
      var id: Int
      var loads = 0
    }
    enum Action: Sendable, Equatable { case load, saveAndLoad, loaded }
    let clock: TestClock
    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .loaded:
        state.loads += 1
        return .none
      case .saveAndLoad:
        state.id += 100
        fallthrough
      case .load:
        return .run { [clock] send in
          try await clock.sleep(for: .seconds(1))
          send(.loaded)
        }
      }
    }
  }
  struct State: Equatable { var child: Child.State? = Child.State(id: 1) }
  enum Action: Sendable, Equatable { case child(Child.Action) }
  let clock: TestClock
  var body: some Reducer<State, Action> {
    EmptyReducer()
      .ifLet(\.child, action: .selfRenumbering) { Child(clock: clock) }
  }
}

extension CaseKey<SelfRenumbering.Action, SelfRenumbering.Child.Action> {
  fileprivate static var selfRenumbering: Self {
    Self(SelfRenumbering.Action.child) { if case .child(let a) = $0 { a } else { nil } }
  }
}

/// A screen's copy of shared data, kept up to date by an `onChange` in its parent, and an
/// ancestor that changes the data.
private struct Copying: Reducer {
  struct Parent: Reducer {
    struct State: Equatable {
      var shared = 0
      var screenCopy = 0
    }
    enum Action: Sendable, Equatable { case edit }
    var body: some Reducer<State, Action> {
      Reduce { state, _ in
        state.shared += 1
        return .none
      }
      .onChange(of: \.shared) { _, new in
        Reduce { state, _ in
          state.screenCopy = new
          return .none
        }
      }
    }
  }
  struct State: Equatable { var parent = Parent.State() }
  enum Action: Sendable, Equatable {
    case parent(Parent.Action)
    case ancestorEdit
  }
  var body: some Reducer<State, Action> {
    Scope(state: \.parent, action: .copying) { Parent() }
    Reduce { state, action in
      if action == .ancestorEdit { state.parent.shared = 42 }
      return .none
    }
  }
}

extension CaseKey<Copying.Action, Copying.Parent.Action> {
  fileprivate static var copying: Self {
    Self(Copying.Action.parent) { if case .parent(let a) = $0 { a } else { nil } }
  }
}

/// Rows reached through a force unwrap, removed by an ancestor for an action that never reaches
/// the `forEach`.
private struct Unwrapped: Reducer {
  struct Detail: Reducer {
    struct State: Equatable { var rows: IdentifiedArrayOf<Guide.Row.State> = [] }
    enum Action: Sendable, Equatable { case rows(IdentifiedAction<UUID, Guide.Row.Action>) }
    let clock: TestClock
    var body: some Reducer<State, Action> {
      EmptyReducer().forEach(\.rows, action: .unwrappedRows) { Guide.Row(clock: clock) }
    }
  }
  struct State: Equatable { var detail: Detail.State? }
  enum Action: Sendable, Equatable {
    case detail(Detail.Action)
    case removeFromAbove(UUID)
  }
  let clock: TestClock
  var body: some Reducer<State, Action> {
    Scope(state: \.detail!, action: .unwrapped) { Detail(clock: clock) }
    Reduce { state, action in
      if case .removeFromAbove(let id) = action { state.detail?.rows.remove(id: id) }
      return .none
    }
  }
}

extension CaseKey<Unwrapped.Action, Unwrapped.Detail.Action> {
  fileprivate static var unwrapped: Self {
    Self(Unwrapped.Action.detail) { if case .detail(let a) = $0 { a } else { nil } }
  }
}
extension CaseKey<Unwrapped.Detail.Action, IdentifiedAction<UUID, Guide.Row.Action>> {
  fileprivate static var unwrappedRows: Self {
    Self(Unwrapped.Detail.Action.rows) { if case .rows(let a) = $0 { a } else { nil } }
  }
}

/// A child whose action returns a `.send`, and a parent that replaces or removes the child for
/// that same action.
private struct Pinging: Reducer {
  struct Child: Reducer {
    struct State: Equatable, Identifiable {
      var id: Int
      var hits = 0
    }
    enum Action: Sendable, Equatable { case ping, hit }
    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .ping: return .send(.hit)
      case .hit:
        state.hits += 1
        return .none
      }
    }
  }
  struct State: Equatable {
    var child: Child.State? = Child.State(id: 1)
    var replaces = true
  }
  enum Action: Sendable, Equatable { case child(Child.Action) }
  var body: some Reducer<State, Action> {
    Reduce { state, action in
      if action == .child(.ping) { state.child = state.replaces ? Child.State(id: 2) : nil }
      return .none
    }
    .ifLet(\.child, action: .pinging) { Child() }
  }
}

extension CaseKey<Pinging.Action, Pinging.Child.Action> {
  fileprivate static var pinging: Self {
    Self(Pinging.Action.child) { if case .child(let a) = $0 { a } else { nil } }
  }
}

private struct Item: Codable, Equatable, Identifiable, Sendable {
  var id: Int
  var name: String
}

// MARK: Tests

@MainActor
@Suite struct DocClaimsTests {
  let clock = TestClock()

  func makeTodos(
    rows: [Guide.Row.State] = [], warnings: WarningLog = WarningLog()
  ) -> Harness<Guide.Todos> {
    Harness(
      initialState: Guide.Todos.State(rows: IdentifiedArrayOf(rows)),
      warnings: warnings.handler,
      reducer: Guide.Todos(clock: clock, makeID: .incrementing()))
  }

  // "A list of rows": `store.send(.rows(.element(id: rowID, action: .renamed("Milk"))))`.
  @Test func guideRowActionRenamesTheOneRow() {
    let harness = makeTodos()
    harness.send(.addTapped)
    harness.send(.addTapped)
    let rowID = harness.state.rows.ids[1]
    #expect(rowID == UUID(counting: 1))
    harness.send(.rows(.element(id: rowID, action: .renamed("Milk"))))
    #expect(harness.state.rows.map(\.title) == ["", "Milk"])
  }

  // "A list of rows": the `let rows = store.scope(...)` snippet; the row stores come in the
  // array's order, and a row store's send reaches the root as `.rows(.element(...))`.
  @Test func guideRowStoresSnippet() {
    let a = UUID(counting: 10)
    let b = UUID(counting: 11)
    let harness = makeTodos(rows: [.init(id: a, title: "A"), .init(id: b, title: "B")])
    let store = harness.store
    let rowID = b
    let rows = store.scope(state: \.rows, action: .rows)
    var titles: [String] = []
    for row in rows {
      titles.append(row.title)  // a Store<Row.State, Row.Action>
    }
    rows[id: rowID]?.send(.renamed("Tea"))  // the root reduces .rows(.element(...))
    harness.settle()
    #expect(titles == ["A", "B"])
    #expect(harness.state.rows[id: b]?.title == "Tea")
    #expect(harness.processed.last?.action == .rows(.element(id: b, action: .renamed("Tea"))))
    // "A store of Identifiable state is Identifiable itself, by its state's id".
    #expect(rows.map(\.id) == [a, b])
  }

  // "a store nothing was ever read through has the state it was made with".
  @Test func aRowStoreNeverReadKeepsTheStateItWasMadeWithAfterRemoval() {
    let id = UUID(counting: 1)
    let harness = makeTodos(rows: [.init(id: id, title: "made")])
    let store = harness.store.scope(state: \.rows, action: .rows)[id: id]!
    harness.send(.rows(.element(id: id, action: .renamed("later"))))
    harness.send(.rows(.element(id: id, action: .delegate(.deleteTapped))))
    #expect(harness.state.rows.isEmpty)
    #expect(store.title == "made")
  }

  // "once anything was read through the store, it follows the row after each send ... So a
  // row that changes itself and has its parent remove it in one send ... is drawn leaving as it
  // was before that send."
  @Test func aReadRowStoreKeepsTheStateFromBeforeTheSendThatRemovedIt() {
    let id = UUID(counting: 1)
    let harness = Harness(
      initialState: SelfDeleting.State(rows: [.init(id: id, title: "start")]),
      reducer: SelfDeleting(clock: clock))
    let store = harness.store.scope(state: \.rows, action: .selfDeleting)[id: id]!
    #expect(store.title == "start")
    harness.send(.rows(.element(id: id, action: .renamed("before"))))
    #expect(store.title == "before")
    harness.send(.renameAndDelete(id))
    #expect(harness.state.rows.isEmpty)
    #expect(store.title == "before")
  }

  // "Identity rules" snippet: the error's description reads
  // `Duplicate id … at positions 0 and 2`.
  @Test func guideFetchedRowsSnippetNamesTheDuplicateAndBothPositions() {
    let a = UUID(counting: 1)
    let b = UUID(counting: 2)
    let fetched = [
      Guide.Row.State(id: a), Guide.Row.State(id: b), Guide.Row.State(id: a, title: "again"),
    ]
    #expect(Guide.rows(from: fetched) == nil)
    #expect(Guide.rows(from: Array(fetched.prefix(2)))?.ids == [a, b])
    // A counted UUID is named as a test writes it, as the store's warnings name it.
    #expect(throws: IdentifiedArrayError.duplicateID("UUID(counting: 1)", positions: [0, 2])) {
      try IdentifiedArrayOf<Guide.Row.State>(uniqueElements: fetched)
    }
    let error = IdentifiedArrayError.duplicateID("UUID(counting: 1)", positions: [0, 2])
    #expect(error.description == "Duplicate id UUID(counting: 1) at positions 0 and 2")
  }

  // "Decoding fails with DecodingError.dataCorrupted, naming the repeated id and both
  // positions."
  @Test func decodingADuplicateNamesTheIDAndBothPositions() throws {
    let json = Data(
      #"[{"id": 7, "name": "a"}, {"id": 8, "name": "b"}, {"id": 7, "name": "c"}]"#.utf8)
    do {
      _ = try JSONDecoder().decode(IdentifiedArrayOf<Item>.self, from: json)
      Issue.record("decoding should fail")
    } catch DecodingError.dataCorrupted(let context) {
      #expect(context.debugDescription.contains("Duplicate id 7 at positions 0 and 2"))
    }
  }

  // "IdentifiedArray/init(_:uniquingIDsWith:) keeps one element per id, as you choose."
  @Test func uniquingIDsKeepsTheChosenElement() {
    let items = [Item(id: 1, name: "a"), Item(id: 2, name: "b"), Item(id: 1, name: "c")]
    let kept = IdentifiedArrayOf<Item>(items) { _, last in last }
    #expect(kept.ids == [1, 2])
    #expect(kept[id: 1]?.name == "c")
    let first = IdentifiedArrayOf<Item>(items) { first, _ in first }
    #expect(first[id: 1]?.name == "a")
  }

  // "The array remembers its recent changes for this, at least 16 and one for every 16 rows".
  @Test func theHistoryHoldsAtLeastSixteenAndOnePerSixteenRows() {
    for count in [0, 1, 16, 256, 257, 1_000, 16_000, 100_000] {
      let capacity = IdentifiedArrayHistoryProbe.capacity(forCount: count)
      #expect(capacity >= 16)
      #expect(capacity >= count / 16)
    }
    // Rounded up to a power of two: the record can hold up to twice a sixteenth of the rows,
    // and never fewer than 16 changes, whatever a sixteenth is.
    #expect(IdentifiedArrayHistoryProbe.capacity(forCount: 100) == 16)
    #expect(IdentifiedArrayHistoryProbe.capacity(forCount: 1_000) == 64)
    #expect(IdentifiedArrayHistoryProbe.capacity(forCount: 100_000) == 8_192)
  }

  // "Actions are reduced in the order they were sent: the report and the dismissal are queued
  // together" — and the guide's test: the delegate, then `.editor(.dismiss)`.
  @Test func savingReportsThenDismissesInThatOrder() {
    let id = UUID(counting: 0)
    let harness = makeTodos(rows: [.init(id: id, title: "Milk")])
    harness.send(.editTapped(id: id))
    #expect(harness.state.editor == Guide.Editor.State(rowID: id, title: "Milk"))
    harness.send(.editor(.presented(.titleChanged("Oat milk"))))
    harness.send(.editor(.presented(.saveTapped)))
    #expect(
      harness.processed.suffix(3).map(\.action) == [
        .editor(.presented(.saveTapped)),
        .editor(.presented(.delegate(.saved(rowID: id, title: "Oat milk")))),
        .editor(.dismiss),
      ])
    #expect(harness.state.rows[id: id]?.title == "Oat milk")
    #expect(harness.state.editor == nil)
  }

  // "an action the parent sends in answer to the report (a `.send` it returns) comes after the
  // dismissal."
  @Test func theParentsAnswerToTheReportComesAfterTheDismissal() {
    let id = UUID(counting: 0)
    let harness = Harness(
      initialState: Answering.State(editor: .init(rowID: id, title: "x")), reducer: Answering())
    harness.send(.editor(.presented(.saveTapped)))
    #expect(
      harness.processed.map(\.action) == [
        .editor(.presented(.saveTapped)),
        .editor(.presented(.delegate(.saved(rowID: id, title: "x")))),
        .editor(.dismiss),
        .answered,
      ])
    #expect(harness.state.log == ["saved", "answered, editor gone"])
  }

  // "the screen dismisses from outside ... by sending `.editor(.dismiss)`", which "sets the
  // child's state to nil".
  @Test func sendingDismissClosesTheEditor() {
    let id = UUID(counting: 0)
    let harness = makeTodos(rows: [.init(id: id)])
    harness.send(.editTapped(id: id))
    #expect(harness.state.editor != nil)
    #expect(harness.store.scope(state: \.editor, action: .editor) != nil)
    harness.send(.editor(.dismiss))
    #expect(harness.state.editor == nil)
    #expect(harness.store.scope(state: \.editor, action: .editor) == nil)
  }

  // "Scoping to a presented child ... gives an optional store whose actions reach the parent as
  // `.editor(.presented(...))`".
  @Test func aPresentedChildsStoreSendsPresentedActions() {
    let id = UUID(counting: 0)
    let harness = makeTodos(rows: [.init(id: id)])
    harness.send(.editTapped(id: id))
    harness.store.scope(state: \.editor, action: .editor)?.send(.titleChanged("T"))
    harness.settle()
    #expect(harness.processed.last?.action == .editor(.presented(.titleChanged("T"))))
    #expect(harness.state.editor?.title == "T")
  }

  // The alert snippet: `presents` with no child reducer "closes the destination when one of its
  // actions arrives, before the parent handles it ... A second tap, once it is closed, changes
  // nothing and reports a runtime warning".
  @Test func guideAlertSnippetClosesOnItsActionAndASecondTapWarns() {
    let warnings = WarningLog()
    let harness = Harness(
      initialState: Guide.Deleting.State(), warnings: warnings.handler,
      reducer: Guide.Deleting())
    harness.send(.deleteTapped)
    #expect(harness.state.alert == Guide.DeleteAlert(title: "Milk"))
    harness.send(.alert(.presented(.confirmTapped)))
    #expect(harness.state.alert == nil)
    #expect(harness.state.isDeleted)
    #expect(warnings.messages.isEmpty)
    let before = harness.state
    harness.send(.alert(.presented(.confirmTapped)))
    #expect(harness.state == before)
    #expect(warnings.messages.count == 1)
  }

  // "A second tap, once it is closed, changes nothing": the parent does not see it either.
  @Test func aSecondTapOnAClosedAlertDoesNotReachTheParent() {
    let warnings = WarningLog()
    let harness = Harness(
      initialState: Guide.Deleting.State(alert: .init(title: "x")), warnings: warnings.handler,
      reducer: Guide.Deleting())
    harness.send(.alert(.presented(.cancelTapped)))
    #expect(harness.state.alert == nil)
    #expect(!harness.state.isDeleted)
    harness.send(.alert(.presented(.confirmTapped)))
    #expect(!harness.state.isDeleted)
    #expect(warnings.messages.count == 1)
  }

  // "A StackState ... gives each a StackElementID when it is pushed: 0, 1, 2 ... after screens 0
  // and 1 are pushed and 1 is popped, the next push gets id 2", with the guide's feature.
  @Test func guideStackIDsAreNeverReused() {
    let id = UUID(counting: 0)
    let harness = makeTodos(rows: [.init(id: id)])
    harness.send(.detailTapped(id: id))
    harness.send(.detailTapped(id: id))
    #expect(harness.state.path.ids == [0, 1])
    harness.send(.path(.popFrom(id: 1)))
    harness.send(.detailTapped(id: id))
    #expect(harness.state.path.ids == [0, 2])
    #expect(harness.state.path.nextElementID == 3)
  }

  // "Pop ... by changing the stack: popLast(), pop(to:), pop(from:), removeAll(), or setting
  // subscript(id:) to nil" (the doc comment: "setting nil pops it and the screens above it").
  @Test func stackPopsByChangingTheStack() {
    var stack = StackState<String>(["a", "b", "c", "d"])
    #expect(stack.ids == [0, 1, 2, 3])  // a new stack numbers from 0
    stack[id: 2] = nil
    #expect(Array(stack) == ["a", "b"])
    stack.append("e")
    stack.append("f")
    let poppedTo = stack.pop(to: 1)
    #expect(poppedTo)
    #expect(Array(stack) == ["a", "b"])
    let poppedFrom = stack.pop(from: 0)
    #expect(poppedFrom)
    #expect(stack.isEmpty)
    let poppedAgain = stack.pop(from: 0)
    #expect(!poppedAgain)
    stack.append("g")
    #expect(stack.ids == [6])
  }

  // "However a screen leaves the stack, its effects are cancelled": popLast, pop(to:),
  // pop(from:), removeAll(), subscript(id:) = nil, on the guide's row screens.
  @Test(arguments: Popper.Pop.allCases)
  func everyWayOfPoppingCancelsTheScreensEffects(pop: Popper.Pop) async {
    let harness = Harness(initialState: Popper.State(), reducer: Popper(clock: clock))
    harness.send(.push)
    harness.send(.push)
    harness.send(.path(.element(id: 0, action: .loadTapped)))
    harness.send(.path(.element(id: 1, action: .loadTapped)))
    #expect(clock.sleeperCount == 2)
    harness.send(.pop(pop))
    #expect(harness.state.path.ids == (pop == .popLast || pop == .popToBottom ? [0] : []))
    #expect(clock.sleeperCount == harness.state.path.count)
    await clock.advance(by: .seconds(1))
    harness.settle()
    #expect(harness.state.path.map(\.loadCount) == harness.state.path.map { _ in 1 })
  }

  // "A parent that answers by pushing another screen (a confirmation) should pop the reporting
  // screen itself in the same step: otherwise the dismissal, which pops the screens above the
  // one that asked, pops the new one too."
  @Test func aDismissalPopsTheScreenPushedInAnswerUnlessTheParentPoppedTheReporter() {
    let harness = Harness(
      initialState: DoneFlow.State(path: [DoneScreen.State(name: "form")]), reducer: DoneFlow())
    harness.send(.path(.element(id: 0, action: .doneTapped)))
    #expect(harness.state.path.isEmpty)
    #expect(harness.processed.last?.action == .path(.popFrom(id: 0)))

    let popping = Harness(
      initialState: DoneFlow.State(path: [DoneScreen.State(name: "form")], popsReporter: true),
      reducer: DoneFlow())
    popping.send(.path(.element(id: 0, action: .doneTapped)))
    #expect(popping.state.path.map(\.name) == ["confirmation"])
    #expect(popping.state.path.ids == [1])
  }

  // "A child whose state is not Identifiable ... Replacing it with another while it is
  // presented ... keeps the first one's effects running, and what they send reaches the
  // second".
  @Test func aReplacedNonIdentifiableChildsEffectReachesTheNewChild() async {
    let harness = Harness(
      initialState: DraftHost.State(draft: .init(title: "A")), reducer: DraftHost(clock: clock))
    harness.send(.draft(.saveTapped))
    harness.send(.show("B"))
    #expect(clock.sleeperCount == 1)
    await clock.advance(by: .seconds(1))
    harness.settle()
    #expect(harness.state.reports == ["A reported to draft B"])
  }

  // "store.scope(state: \.details, action: .details) returns nil while the child is absent,
  // the same store while it stays present, and a new store after it has gone and come back."
  @Test func anOptionalChildsStoreFollowsItsPresence() {
    let harness = Harness(initialState: DraftHost.State(), reducer: DraftHost(clock: clock))
    #expect(harness.store.scope(state: \.draft, action: .draftHost) == nil)
    harness.send(.show("A"))
    let first = harness.store.scope(state: \.draft, action: .draftHost)
    #expect(first != nil)
    harness.send(.draft(.saved("x")))
    #expect(harness.store.scope(state: \.draft, action: .draftHost) === first)
    harness.send(.show("B"))  // replaced, but not Identifiable: the same child
    #expect(harness.store.scope(state: \.draft, action: .draftHost) === first)
    harness.send(.hide)
    #expect(harness.store.scope(state: \.draft, action: .draftHost) == nil)
    harness.send(.show("C"))
    let again = harness.store.scope(state: \.draft, action: .draftHost)
    #expect(again != nil && again !== first)
  }

  // The parent's cancel snippet: `.cancel(id: Row.CancelID.load, inElement: id, of:
  // \State.rows)` stops one row's load; "the other rows' loads go on". And "every row uses
  // CancelID.load with cancelInFlight: true, and a row's new load cancels only its own".
  @Test func guideCancelSnippetStopsOneRowsLoad() async {
    let a = UUID(counting: 1)
    let b = UUID(counting: 2)
    let harness = Harness(
      initialState: Guide.Stoppable.State(rows: [.init(id: a), .init(id: b)]),
      reducer: Guide.Stoppable(clock: clock))
    harness.send(.rows(.element(id: a, action: .loadTapped)))
    harness.send(.rows(.element(id: b, action: .loadTapped)))
    harness.send(.rows(.element(id: a, action: .loadTapped)))
    #expect(clock.sleeperCount == 2)
    harness.send(.stopLoading(a))
    #expect(clock.sleeperCount == 1)
    await clock.advance(by: .seconds(1))
    harness.settle()
    #expect(harness.state.rows.map(\.loadCount) == [0, 1])
  }

  // The Destination snippet, with either body: editing then saving renames the row and closes
  // the editor; setting another case ends the editor's effects; `.destination(.dismiss)` closes
  // whichever is shown.
  @Test(arguments: [false, true])
  func guideDestinationSnippet(statements: Bool) {
    let id = UUID(counting: 0)
    let harness = Harness(
      initialState: Guide.DestinationTodos.State(rows: [.init(id: id, title: "M")]),
      reducer: Guide.DestinationTodos(statements: statements))
    harness.send(.editTapped(id: id))
    #expect(harness.state.destination == .editor(.init(rowID: id, title: "M")))
    harness.send(.destination(.presented(.editor(.titleChanged("N")))))
    harness.send(.destination(.presented(.editor(.saveTapped))))
    #expect(harness.state.rows[id: id]?.title == "N")
    #expect(harness.state.destination == nil)
    harness.send(.editTapped(id: id))
    harness.send(.destination(.dismiss))
    #expect(harness.state.destination == nil)
    // `ConfirmDelete` closes itself on either answer.
    for answer in [Guide.ConfirmDelete.Action.deleteTapped, .keepTapped] {
      let confirming = Harness(
        initialState: Guide.DestinationTodos.State(
          rows: [.init(id: id, title: "M")], destination: .confirmDelete(.init(rowID: id))),
        reducer: Guide.DestinationTodos(statements: statements))
      confirming.send(.destination(.presented(.confirmDelete(answer))))
      confirming.settle()
      #expect(confirming.state.destination == nil)
    }
  }

  // "Actions for missing children": "The store reports a runtime warning that names the action,
  // the id ... and the file and line where the forEach ... was declared".
  @Test func anActionForARemovedRowWarnsNamingActionIDAndDeclarationSite() {
    let warnings = WarningLog()
    let id = UUID(counting: 5)
    let harness = makeTodos(warnings: warnings)
    harness.send(.rows(.element(id: id, action: .renamed("late"))))
    #expect(harness.state.rows.isEmpty)
    #expect(warnings.all.count == 1)
    let warning = warnings.all.first
    let message = warning?.message ?? ""
    #expect(message.contains("renamed"))
    #expect(message.contains("with id UUID(counting: 5) of"))
    #expect(warning?.fileID.hasSuffix("DocClaimsTests.swift") == true)
    // The line of the guide feature's `.forEach(\.rows, action: .rows)`.
    let source = (try? String(contentsOfFile: "\(#filePath)", encoding: .utf8)) ?? ""
    let declaration = source.split(separator: "\n", omittingEmptySubsequences: false)
      .firstIndex { $0.contains(".forEach(\\.rows, action: .rows) { Row(clock: clock) }") }
    #expect(declaration.map { UInt($0 + 1) } == warning?.line)
  }

  fileprivate func makeLister(_ ids: [UUID], warnings: WarningLog = WarningLog()) -> Harness<Lister>
  {
    Harness(
      initialState: Lister.State(rows: IdentifiedArrayOf(ids.map { Guide.Row.State(id: $0) })),
      warnings: warnings.handler, reducer: Lister(clock: clock))
  }

  // "Removing the row, however the state changes (remove(id:), removeAll(where:), replacing
  // the array), cancels every effect it started, and actions those effects send afterwards
  // never reach a reducer."
  @Test func removeAllWhereCancelsTheRowsEffects() async {
    let a = UUID(counting: 1)
    let b = UUID(counting: 2)
    let harness = makeLister([a, b])
    harness.send(.rows(.element(id: a, action: .loadTapped)))
    harness.send(.rows(.element(id: b, action: .loadTapped)))
    harness.send(.removeWhere(a))
    #expect(clock.sleeperCount == 1)
    let reduced = harness.processed.count
    await clock.advance(by: .seconds(1))
    harness.settle()
    #expect(
      harness.processed.dropFirst(reduced).map(\.action) == [
        .rows(.element(id: b, action: .loaded))
      ])
  }

  // "For the same reason a parent's own .cancel(id:) never reaches a row's effects."
  @Test func aParentsOwnCancelDoesNotReachARowsLoad() async {
    let a = UUID(counting: 1)
    let harness = makeLister([a])
    harness.send(.rows(.element(id: a, action: .loadTapped)))
    harness.send(.parentCancel)
    #expect(clock.sleeperCount == 1)
    await clock.advance(by: .seconds(1))
    harness.settle()
    #expect(harness.state.rows[id: a]?.loadCount == 1)
  }

  // "A row removed and added back within one send keeps its store ...; its effects go on only
  // if it came back within the same action".
  @Test func aRowRemovedAndAddedBackKeepsItsStoreButItsEffectsOnlyWithinOneAction() {
    let a = UUID(counting: 1)
    let b = UUID(counting: 2)
    let harness = makeLister([a, b])
    let rows = harness.store.scope(state: \.rows, action: .lister)
    let storeA = rows[id: a]!
    let storeB = rows[id: b]!
    _ = (storeA.title, storeB.title)
    harness.send(.rows(.element(id: a, action: .loadTapped)))
    harness.send(.rows(.element(id: b, action: .loadTapped)))
    harness.send(.removeAndReadd(a))  // within one action
    #expect(clock.sleeperCount == 2)
    harness.send(.removeThenSendReadd(b))  // within one send, across two actions
    #expect(harness.state.rows.ids == [a, b])
    #expect(clock.sleeperCount == 1)
    let now = harness.store.scope(state: \.rows, action: .lister)
    #expect(now[id: a] === storeA)
    #expect(now[id: b] === storeB)
  }

  // "A change that leaves the ids as they were (... a sort that moved nothing ...) notifies it
  // of nothing"; "a collection made earlier and kept ... is a snapshot, and iterating it
  // registers nothing."
  @Test func aSortThatMovesNothingAndAKeptCollectionNotifyNothing() {
    let ids = (1...3).map { UUID(counting: $0) }
    let harness = makeLister(ids)
    let kept = harness.store.scope(state: \.rows, action: .lister)
    let list = Tracker { _ = harness.store.scope(state: \.rows, action: .lister) }
    let snapshot = Tracker { for _ in kept {} }
    harness.send(.sortByTitle)  // all titles equal: nothing moves
    #expect(harness.state.rows.ids == ids)
    #expect(list.firings == 0)
    harness.send(.add(UUID(counting: 9)))
    #expect(list.firings == 1)
    #expect(snapshot.firings == 0)
  }

  // "Scoping again with the same key path and action case returns the same child store"
  // (Store+Scope.swift) for the collection's element stores; a new listing sees the new ids.
  @Test func aRowsStoreIsTheSameWhileItsIDStays() {
    let a = UUID(counting: 1)
    let harness = makeLister([a])
    let first = harness.store.scope(state: \.rows, action: .lister)[id: a]
    harness.send(.add(UUID(counting: 2)))
    harness.send(.rows(.element(id: a, action: .renamed("x"))))
    #expect(harness.store.scope(state: \.rows, action: .lister)[id: a] === first)
    #expect(harness.store.scope(state: \.rows, action: .lister).ids.count == 2)
  }

  // "the editor's .dismiss effect closes the editor, and does nothing if the parent answered
  // the editor's report by showing something else" (enum destination, whose state is not
  // Identifiable).
  @Test func anEditorsDismissLeavesTheConfirmationItsParentShowedInAnswer() {
    let warnings = WarningLog()
    let id = UUID(counting: 0)
    let harness = Harness(
      initialState: ConfirmingTodos.State(
        rows: [.init(id: id)], destination: .editor(.init(rowID: id, title: "x"))),
      warnings: warnings.handler, reducer: ConfirmingTodos())
    harness.send(.destination(.presented(.editor(.saveTapped))))
    #expect(harness.state.destination == .confirmDelete(.init(rowID: id)))
    #expect(warnings.messages.isEmpty)
  }

  // "A parent that answers by giving the presented child another id ... makes it another
  // child ...: the dismissal then does nothing."
  @Test func aDismissalForAChildGivenAnotherIDDoesNothing() {
    let harness = Harness(initialState: Renaming.State(child: .init(id: 1)), reducer: Renaming())
    harness.send(.child(.presented(.saveTapped)))
    #expect(harness.state.child?.id == 99)
  }

  // "the view must be computed from the state alone: one that reads the time, a global, or an
  // object outside the state is not read again until the next action."
  @Test func aFilteredViewReadingAGlobalIsReadAgainOnlyAtTheNextAction() {
    visibleLimit = 2
    defer { visibleLimit = 2 }
    let ids = (1...4).map { UUID(counting: $0) }
    let harness = Harness(
      initialState: Filtered.State(rows: IdentifiedArrayOf(ids.map { .init(id: $0) })),
      reducer: Filtered(clock: clock))
    #expect(harness.store.scope(state: \.visibleRows, action: .filtered).ids == [ids[0], ids[1]])
    visibleLimit = 3
    #expect(harness.store.scope(state: \.visibleRows, action: .filtered).ids == [ids[0], ids[1]])
    harness.send(.touch)
    #expect(
      harness.store.scope(state: \.visibleRows, action: .filtered).ids == Array(ids.prefix(3)))
  }

  // The same, for an action that changes nothing: "The view is built once after each action
  // that reaches the store" / "not read again until the next action".
  @Test func aFilteredViewReadingAGlobalAfterAnActionThatChangesNothing() {
    visibleLimit = 2
    defer { visibleLimit = 2 }
    let ids = (1...4).map { UUID(counting: $0) }
    let harness = Harness(
      initialState: Filtered.State(rows: IdentifiedArrayOf(ids.map { .init(id: $0) })),
      reducer: Filtered(clock: clock))
    #expect(harness.store.scope(state: \.visibleRows, action: .filtered).ids == [ids[0], ids[1]])
    visibleLimit = 3
    harness.send(.nothing)
    #expect(
      harness.store.scope(state: \.visibleRows, action: .filtered).ids == Array(ids.prefix(3)))
  }

  // "navigationStack ... applies pushes before the parent runs, and pops after it: the
  // parent sees the screens a `.popFrom` pops, and a screen it pushes in answer stays."
  @Test func pushesAreAppliedBeforeTheParentRunsAndPopsAfter() {
    let harness = Harness(initialState: Popper.State(), reducer: Popper(clock: clock))
    harness.send(.path(.push(id: 0, state: Guide.Row.State(id: UUID(counting: 0)))))
    harness.send(.path(.push(id: 1, state: Guide.Row.State(id: UUID(counting: 1)))))
    harness.send(.path(.push(id: 2, state: Guide.Row.State(id: UUID(counting: 2)))))
    harness.send(.path(.popFrom(id: 1)))
    #expect(harness.state.seenByParent == [[0], [0, 1], [0, 1, 2], [0, 1, 2]])
    #expect(harness.state.path.ids == [0])
    var answering = Popper.State()
    answering.pushesOnPop = true
    let confirming = Harness(initialState: answering, reducer: Popper(clock: clock))
    confirming.send(.push)
    confirming.send(.push)
    confirming.send(.path(.popFrom(id: 0)))
    #expect(confirming.state.seenByParent == [[0, 1]])
    #expect(confirming.state.path.ids == [2], "the screen pushed in answer to the pop stays")
  }

  // StackState.subscript(id:): "Setting a value for an id no screen has changes nothing".
  @Test func settingAScreenForAnIDNoScreenHasChangesNothing() {
    var stack = StackState<String>(["a"])
    stack[id: 5] = "x"
    #expect(Array(stack) == ["a"])
    #expect(stack.nextElementID == 1)
  }

  // "A child that changes its own id (a draft given its server id) keeps the effects it starts
  // in that action, and its earlier ones end; views get a new store for it, as for any new id."
  @Test func aChildThatChangesItsOwnIDKeepsOnlyTheEffectsItStartsThen() async {
    let harness = Harness(
      initialState: SelfRenumbering.State(), reducer: SelfRenumbering(clock: clock))
    let before = harness.store.scope(state: \.child, action: .selfRenumbering)
    harness.send(.child(.load))
    #expect(clock.sleeperCount == 1)
    harness.send(.child(.saveAndLoad))
    #expect(harness.state.child?.id == 101)
    #expect(clock.sleeperCount == 1)
    await clock.advance(by: .seconds(1))
    harness.settle()
    #expect(harness.state.child?.loads == 1)
    let after = harness.store.scope(state: \.child, action: .selfRenumbering)
    #expect(after != nil && after !== before)
  }

  // "If the parent answered the report by popping the screen already, the dismissal does
  // nothing": no pop of anything else, and no warning.
  @Test func aDismissalOfAScreenItsParentPoppedDoesNothing() {
    let warnings = WarningLog()
    let harness = Harness(
      initialState: DoneFlow.State(path: [DoneScreen.State(name: "form")], popsReporter: true),
      warnings: warnings.handler, reducer: DoneFlow())
    harness.send(.path(.element(id: 0, action: .doneTapped)))
    #expect(harness.state.path.map(\.name) == ["confirmation"])
    #expect(warnings.messages.isEmpty)
    #expect(!harness.processed.contains { $0.action == .path(.popFrom(id: 0)) })
  }

  // "A copy in the screen's state, kept up to date by an onChange in the parent, goes stale
  // when a reducer above the parent changes the data."
  @Test func anOnChangeCopyGoesStaleWhenAnAncestorChangesTheData() {
    let harness = Harness(initialState: Copying.State(), reducer: Copying())
    harness.send(.parent(.edit))
    #expect(harness.state.parent.screenCopy == 1)
    harness.send(.ancestorEdit)
    #expect(harness.state.parent.shared == 42)
    #expect(harness.state.parent.screenCopy == 1)
  }

  // "a test asserts a stack by changing it as the reducer did (`$0.path.pop(from: 0)`,
  // `$0.path.removeAll()`, `$0.path[id: 1]?.title = "Milk"`), not by assigning a new one, which
  // numbers its screens from 0 and has not counted the pushes."
  @Test func aStackIsAssertedByChangingItNotByAssigningANewOne() {
    let id = UUID(counting: 0)
    var path = StackState<Guide.Row.State>()
    path.append(Guide.Row.State(id: id))
    path.append(Guide.Row.State(id: id))
    var renamed = path
    renamed[id: 1]?.title = "Milk"
    #expect(renamed[1].title == "Milk")
    var popped = path
    popped.pop(from: 0)
    var cleared = path
    cleared.removeAll()
    #expect(popped == cleared)
    #expect(popped != StackState<Guide.Row.State>())  // the new one has not counted the pushes
    var fresh = StackState<Guide.Row.State>([Guide.Row.State(id: id)])
    var kept = path
    kept.popLast()
    #expect(fresh.ids == kept.ids)
    #expect(fresh != kept)
    fresh.append(Guide.Row.State(id: id))
    #expect(fresh.ids == [0, 1])
  }

  // IdentifiedStores: "A removed element's store is not notified of the removal (its state, the
  // row's last, did not change); observers of the collection's list are, as its ids changed."
  @Test func aRemovedRowsStoreIsNotNotifiedButTheListIs() {
    let a = UUID(counting: 1)
    let harness = makeTodos(rows: [.init(id: a, title: "A"), .init(id: UUID(counting: 2))])
    let row = harness.store.scope(state: \.rows, action: .rows)[id: a]!
    let rowObserver = Tracker { _ = row.title }
    let list = Tracker { _ = harness.store.scope(state: \.rows, action: .rows) }
    harness.send(.rows(.element(id: a, action: .delegate(.deleteTapped))))
    #expect(rowObserver.firings == 0)
    #expect(list.firings == 1)
    #expect(row.title == "A")
  }

  // Store+Scope.swift, optional child: "once it has become nil, ... the store is let go, and the
  // new presentation gets a new store."
  @Test func anOptionalChildsStoreIsLetGoWhenTheChildGoes() {
    let harness = Harness(
      initialState: DraftHost.State(draft: .init(title: "A")), reducer: DraftHost(clock: clock))
    weak let child = harness.store.scope(state: \.draft, action: .draftHost)
    #expect(child != nil)
    harness.send(.hide)
    #expect(child == nil)
  }

  // "What the store cannot find, and leaves to the next action for the child (which is then
  // ignored with a warning, and ends its lifetime): ... a child reached through a key path ...
  // that goes through ... a force unwrap (`\.detail!.rows`)"; and, by contrast, a row removed
  // by an ancestor above a `Scope` through stored properties "is found by the store".
  @Test func aRowBehindAForceUnwrapRemovedFromAboveRunsOnUntilItsNextAction() async {
    let warnings = WarningLog()
    let id = UUID(counting: 1)
    let harness = Harness(
      initialState: Unwrapped.State(detail: .init(rows: [.init(id: id)])),
      warnings: warnings.handler, reducer: Unwrapped(clock: clock))
    harness.send(.detail(.rows(.element(id: id, action: .loadTapped))))
    harness.send(.removeFromAbove(id))
    #expect(clock.sleeperCount == 1)
    await clock.advance(by: .seconds(1))
    harness.settle()
    #expect(harness.state.detail?.rows.isEmpty == true)
    #expect(warnings.messages.count == 1)
    #expect(harness.core.runtime.runningCount == 0)
  }

  // "An action a child returns as `.send` ... reaches forEach (or ifLet, ifCaseLet), which finds
  // no child, runs neither the child's reducer nor the parent's, and warns that the child is
  // gone. ... When another occupant has taken the child's place since (a child replaced by one
  // with another id ...), it is dropped before any reducer sees it, so that it never reaches
  // the newcomer, and a runtime warning names the action, the place ... and, for a child or
  // case, the id the child had when it returned the action ... and the id of the child there
  // now"
  @Test func aChildsSendForAChildGoneWarnsAndForAReplacedOneIsDroppedWithAWarning() {
    let warnings = WarningLog()
    let replaced = Harness(
      initialState: Pinging.State(), warnings: warnings.handler, reducer: Pinging())
    replaced.send(.child(.ping))
    #expect(replaced.state.child == Pinging.Child.State(id: 2))
    #expect(!replaced.processed.contains { $0.action == .child(.hit) })
    #expect(warnings.messages.count == 1)
    let message = warnings.messages.first ?? ""
    #expect(message.contains("Pinging.Action.child(.hit)"), "\(message)")
    #expect(message.contains("the child with id 1 at \\State.child"), "\(message)")
    #expect(message.contains("a child with another id (2)"), "\(message)")

    let removed = Harness(
      initialState: Pinging.State(replaces: false), warnings: warnings.handler,
      reducer: Pinging())
    removed.send(.child(.ping))
    #expect(removed.state.child == nil)
    #expect(warnings.messages.count == 2)
    #expect(warnings.messages.last?.contains("that child is nil") == true)
  }

  // The guide's own `detailTapped` pushes a copy of the row (`state.path.append(row)`), which
  // its Overview advises against ("A pushed screen that shows what its parent owns gets an id,
  // not a copy"): the detail screen and the list row then drift apart.
  @Test func theGuidesDetailScreenIsACopyThatDriftsFromItsRow() {
    let id = UUID(counting: 0)
    let harness = makeTodos(rows: [.init(id: id, title: "Milk")])
    harness.send(.detailTapped(id: id))
    harness.send(.path(.element(id: 0, action: .renamed("Oat milk"))))
    #expect(harness.state.path[0].title == "Oat milk")
    #expect(harness.state.rows[id: id]?.title == "Milk")
    harness.send(.rows(.element(id: id, action: .renamed("Tea"))))
    #expect(harness.state.path[0].title == "Oat milk")
  }

  #if EXIT_TESTS
    // "append(_:), insert(_:at:), array literals and init(_:) ... stop the program with a
    // message naming the id".
    @Test(arguments: 0..<4)
    func addingADuplicateStopsTheProgramNamingTheID(way: Int) async throws {
      let result = try await #require(
        processExitsWith: .failure, observing: [\.standardErrorContent]
      ) { [way] in
        switch way {
        case 0:
          var items: IdentifiedArrayOf<Item> = [Item(id: 41, name: "a")]
          items.append(Item(id: 41, name: "b"))
        case 1:
          var items: IdentifiedArrayOf<Item> = [Item(id: 41, name: "a")]
          items.insert(Item(id: 41, name: "b"), at: 0)
        case 2:
          let items: IdentifiedArrayOf<Item> = [Item(id: 41, name: "a"), Item(id: 41, name: "b")]
          _ = items
        default:
          _ = IdentifiedArrayOf<Item>([Item(id: 41, name: "a"), Item(id: 41, name: "b")])
        }
      }
      let message = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(message.contains("41"), "\(message)")
    }

    // "A mutation through subscript(id:) that changes the element's id stops the program,
    // naming both ids."
    @Test func changingAnIDThroughTheSubscriptNamesBothIDs() async throws {
      let result = try await #require(
        processExitsWith: .failure, observing: [\.standardErrorContent]
      ) {
        var items: IdentifiedArrayOf<Item> = [Item(id: 41, name: "a")]
        items[id: 41]?.id = 97
      }
      let message = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(message.contains("41") && message.contains("97"), "\(message)")
    }
  #endif
}

/// The history's capacity, reached through the generic type.
enum IdentifiedArrayHistoryProbe {
  static func capacity(forCount count: Int) -> Int {
    StructureHistory<Int>.capacity(forCount: count)
  }
}
