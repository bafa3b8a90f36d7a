import Effects
import Store

/// A list of rows with per-row effects, an editor presented as a sheet, and a stack of
/// detail screens: the shapes of parent/child data flow.
struct Todos: Reducer {
  struct State: Equatable {
    var rows: IdentifiedArrayOf<Row.State> = []
    var editor: Editor.State?
    var path = StackState<Row.State>()
    var savedPath: StackState<Row.State>?
    var log: [String] = []
  }

  enum Action: Sendable, Equatable {
    case rows(IdentifiedActionOf<Row>)
    case editor(PresentationAction<Editor.Action>)
    case path(StackActionOf<Row>)
    case addRow(Int)
    case removeRow(Int)
    case removeAllRows
    case replaceRows([Row.State])
    case refreshRows([Int])
    case editTapped(Int)
    case openDetail(Int)
    case deepLink([Int])
    case stopRowLoad(Int)
    case stopScreenLoad(StackElementID)
    case savePath
    case restorePath
    case restorePathThenOpen(Int)
  }

  let clock: TestClock

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .addRow(let id):
        state.rows.append(Row.State(id: id))
      case .removeRow(let id):
        state.rows.remove(id: id)
      case .removeAllRows:
        state.rows.removeAll()
      case .replaceRows(let rows):
        state.rows = IdentifiedArrayOf(rows) { first, _ in first }
      case .refreshRows(let ids):
        // Emptied and refilled in place, as a refresh does: rows that come back stay.
        state.rows.removeAll()
        for id in ids { state.rows.append(Row.State(id: id)) }
      case .editTapped(let id):
        state.editor = Editor.State(rowID: id, title: state.rows[id: id]?.title ?? "")
      case .deepLink(let ids):
        // A new path, as a deep link sets it: the screens it replaces are gone.
        state.path = StackState(ids.map { Row.State(id: $0) })
      case .openDetail(let id):
        if let row = state.rows[id: id] { state.path.append(row) }
      case .savePath:
        state.savedPath = state.path
      case .restorePath:
        // Back to a copy saved earlier, as an undo does.
        if let saved = state.savedPath { state.path = saved }
      case .restorePathThenOpen(let id):
        if let saved = state.savedPath { state.path = saved }
        if let row = state.rows[id: id] { state.path.append(row) }
      case .editor(.presented(.delegate(.saved(let id, let title)))):
        state.rows[id: id]?.title = title
        state.log.append("saved \(id)")
      case .editor(.presented(.delegate(.cancelled))):
        state.log.append("cancelled")
      case .rows(.element(let id, .delegate(.deleteMe))):
        state.rows.remove(id: id)
      case .stopRowLoad(let id):
        return .cancel(id: "load", inElement: id, of: \State.rows)
      case .stopScreenLoad(let id):
        return .cancel(id: "load", inScreen: id, of: \State.path)
      case .rows, .editor, .path:
        break
      }
      return .none
    }
    .forEach(\.rows, action: .rows) { Row(clock: clock) }
    .presents(\.editor, action: .editor) { Editor(clock: clock) }
    .navigationStack(\.path, action: .path) { Row(clock: clock) }
  }
}

extension CaseKey<Todos.Action, IdentifiedAction<Int, Row.Action>> {
  static var rows: Self {
    Self(Todos.Action.rows) { if case .rows(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<Todos.Action, PresentationAction<Editor.Action>> {
  static var editor: Self {
    Self(Todos.Action.editor) { if case .editor(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<Todos.Action, StackAction<Row.State, Row.Action>> {
  static var path: Self {
    Self(Todos.Action.path) { if case .path(let a) = $0 { a } else { nil } }
  }
}

struct Row: Reducer {
  struct State: Equatable, Identifiable, Sendable {
    let id: Int
    var title = ""
    var loads = 0
  }
  enum Action: Sendable, Equatable {
    case loadTapped
    /// Loads for a second, then fails: `catch:` makes `.loadFailed` of the error.
    case failingLoadTapped
    case stopLoadTapped
    case loaded
    case loadFailed(String)
    case renamed(String)
    /// Renames the row a second from now, with a debounced `.send`.
    case renameLater(String)
    case delegate(Delegate)
    enum Delegate: Sendable, Equatable { case deleteMe }
  }
  let clock: TestClock

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .loadTapped:
      // Every row uses the same cancellation id: namespacing keeps rows apart.
      return .run { [clock] send in
        try await clock.sleep(for: .seconds(1))
        send(.loaded)
      }
      .cancellable(id: "load", cancelInFlight: true)
    case .failingLoadTapped:
      return .run { [clock] _ in
        try await clock.sleep(for: .seconds(1))
        throw LoadFailure()
      } catch: { error in
        .loadFailed("\(error)")
      }
    case .stopLoadTapped:
      return .cancel(id: "load")
    case .loaded:
      state.loads += 1
      return .none
    case .renamed(let title):
      state.title = title
      return .none
    case .loadFailed:
      return .none
    case .renameLater(let title):
      return Effect.send(.renamed(title)).debounce(id: "rename", for: .seconds(1), clock: clock)
    case .delegate:
      return .none
    }
  }
}

/// The error `Row`'s failing load throws.
struct LoadFailure: Error, CustomStringConvertible {
  var description: String { "the load failed" }
}

struct Editor: Reducer {
  struct State: Equatable {
    var rowID: Int
    var title: String
  }
  enum Action: Sendable, Equatable {
    case titleChanged(String)
    case saveTapped
    case cancelTapped
    case autosaveTapped
    case autosaved
    case delegate(Delegate)
    enum Delegate: Sendable, Equatable {
      case saved(Int, String)
      case cancelled
    }
  }
  let clock: TestClock

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .titleChanged(let title):
      state.title = title
      return .none
    case .saveTapped:
      return .concatenate(.send(.delegate(.saved(state.rowID, state.title))), .dismiss)
    case .cancelTapped:
      return .concatenate(.send(.delegate(.cancelled)), .dismiss)
    case .autosaveTapped:
      return .run { [clock] send in
        try await clock.sleep(for: .seconds(5))
        send(.autosaved)
      }
    case .autosaved, .delegate:
      return .none
    }
  }
}
