import Effects
import Testing

@testable import Store

/// A stack of screens that are an enum of routes: a screen's view scopes its store to the
/// case it shows, and that store may be held (by a view playing the pop) past the pop.
private struct Finder: Reducer {
  struct Search: Reducer {
    struct State: Equatable, Sendable {
      var query = ""
    }
    enum Action: Equatable, Sendable {
      case clearTapped
    }
    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      state.query = ""
      return .none
    }
  }

  struct Screen: Reducer {
    enum State: Equatable, Sendable {
      case search(Search.State)
    }
    enum Action: Equatable, Sendable {
      case search(Search.Action)
    }
    var body: some Reducer<State, Action> {
      EmptyReducer<State, Action>()
        .ifCaseLet(.search, action: .search) { Search() }
    }
  }

  struct State: Equatable {
    var path = StackState<Screen.State>()
  }
  enum Action: Equatable, Sendable {
    case path(StackActionOf<Screen>)
  }
  var body: some Reducer<State, Action> {
    EmptyReducer<State, Action>()
      .navigationStack(\.path, action: .path) { Screen() }
  }
}

extension CaseKey<Finder.Screen.State, Finder.Search.State> {
  fileprivate static var search: Self {
    Self(Finder.Screen.State.search) { if case .search(let s) = $0 { s } else { nil } }
  }
}

extension CaseKey<Finder.Screen.Action, Finder.Search.Action> {
  fileprivate static var search: Self {
    Self(Finder.Screen.Action.search) { if case .search(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<Finder.Action, StackAction<Finder.Screen.State, Finder.Screen.Action>> {
  fileprivate static var path: Self {
    Self(Finder.Action.path) { if case .path(let a) = $0 { a } else { nil } }
  }
}

@MainActor
@Suite struct PoppedScreenChildTests {
  /// A store scoped from a popped screen's store (to the case the screen shows) sends on to
  /// the stack, whose `navigationStack` refuses the action naming the screen's id, the stack
  /// and where it is declared, as for a send to the screen's own store. It said only "a child
  /// that has since been dismissed", which the screen was not: it was popped.
  @Test func aPoppedScreensCaseStoreIsRefusedByTheStackNamingTheScreen() throws {
    let warnings = WarningLog()
    let store = RuntimeWarningHandler.$current.withValue(warnings.handler) {
      Store(initialState: Finder.State(path: StackState([.search(.init(query: "tea"))]))) {
        Finder()
      }
    }
    let id = try #require(store.state.path.lastID)
    let screen = try #require(store.scope(state: \.path, action: .path)[id: id])
    let search = try #require(screen.scope(state: .search, action: .search))
    store.send(.path(.popFrom(id: id)))
    search.send(.clearTapped)
    #expect(warnings.messages.count == 1)
    let warning = try #require(warnings.all.first)
    #expect(
      warning.message.contains(
        "was sent to the screen with id \(id) of the stack at \\State.path, but no screen has "
          + "that id: it was popped (or its stack replaced by another, or a push with a later id "
          + "skipped it)."),
      "\(warning.message)")
    #expect(warning.message.contains("clearTapped"), "\(warning.message)")
    #expect(warning.fileID.hasSuffix("PoppedScreenChildTests.swift"), "\(warning.fileID)")
    // The held store keeps the screen's last state.
    #expect(search.query == "tea")
  }

  /// The store of a dismissed sheet, held while the parent (still there) presents the sheet
  /// again, neither reads nor drives the new presentation: its sends are ignored, and the
  /// warning says why.
  @Test func aDismissedSheetsStoreIgnoresSendsOnceTheSheetIsPresentedAgain() throws {
    let warnings = WarningLog()
    let harness = Harness(
      initialState: Todos.State(rows: [Row.State(id: 1, title: "tea")]),
      warnings: warnings.handler, reducer: Todos(clock: TestClock()))
    harness.send(.editTapped(1))
    let old = try #require(harness.store.scope(state: \.editor, action: .editor))
    harness.send(.editor(.dismiss))
    harness.send(.editTapped(1))
    old.send(.titleChanged("late"))
    #expect(harness.state.editor?.title == "tea")
    #expect(warnings.messages.count == 1)
    #expect(
      warnings.messages.first
        == """
        Editor.Action.titleChanged("late") was sent to the store of a child that has since been \
        dismissed; the child there now is another presentation. The action was ignored.
        """,
      "\(warnings.messages)")
  }
}
