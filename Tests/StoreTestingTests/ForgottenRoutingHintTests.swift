import Effects
import Store
import StoreTesting
import Testing

/// A row with a favourite flag and an editor sheet.
private struct Book: Reducer {
  struct State: Equatable, Identifiable, Sendable {
    let id: Int
    var isFavourite = false
    var editor: Editor.State? = Editor.State()
  }
  enum Action: Equatable, Sendable {
    case favouriteTapped
    case editor(PresentationAction<Editor.Action>)
    case appeared
    case coverLoaded(String)
  }
  /// Whether the row's body runs the editor's reducer: a test forgets it.
  let runsEditor: Bool

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .favouriteTapped: state.isFavourite.toggle()
      case .appeared: return .send(.coverLoaded("cover"))
      case .editor, .coverLoaded: break
      }
      return .none
    }
    if runsEditor {
      EmptyReducer().presents(\.editor, action: .editor) { Editor() }
    }
  }
}

/// A presented child that renames.
private struct Editor: Reducer {
  struct State: Equatable, Sendable { var title = "" }
  enum Action: Equatable, Sendable { case titleChanged(String) }
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    if case .titleChanged(let title) = action { state.title = title }
    return .none
  }
}

/// A list of books, whose body may forget to run the rows.
private struct Shelf: Reducer {
  struct State: Equatable {
    var books: IdentifiedArrayOf<Book.State> = [Book.State(id: 1)]
    var title = ""
  }
  enum Action: Equatable, Sendable {
    case books(IdentifiedActionOf<Book>)
    case renamed(String)
  }
  let runsRows: Bool
  var runsEditor = true

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      if case .renamed = action { state.title = state.title }
      return .none
    }
    if runsRows {
      EmptyReducer().forEach(\.books, action: .books) { Book(runsEditor: runsEditor) }
    }
  }
}

extension CaseKey<Shelf.Action, IdentifiedActionOf<Book>> {
  fileprivate static var books: Self {
    Self(Shelf.Action.books) { if case .books(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<Book.Action, PresentationAction<Editor.Action>> {
  fileprivate static var editor: Self {
    Self(Book.Action.editor) { if case .editor(let a) = $0 { a } else { nil } }
  }
}

/// An action for a child that changed nothing, where the test expected a change, names the
/// operator that hands it on (a new-user trial forgot `.forEach` and got only a diff).
@MainActor
@Suite struct ForgottenRoutingHintTests {
  let messages = Messages()

  @Test func aRowActionThatChangedNothingNamesForEach() async {
    let store = TestStore(initialState: Shelf.State()) { Shelf(runsRows: false) }
    await withKnownIssue {
      await store.send(.books(.element(id: 1, action: .favouriteTapped))) {
        $0.books[id: 1]?.isFavourite = true
      }
    } matching: {
      messages.capture($0)
    }
    #expect(messages.last.contains("-       isFavourite: true"), "\(messages.last)")
    #expect(
      messages.last.hasSuffix(
        """
        The action changed nothing, and it is for a child. Either the child's reducer does \
        nothing here, or a parent's body does not hand it on at this step, so that no reducer \
        sees it (and nothing warns): `.books` (`.forEach(\\.…, action: .books)`).
        """), "\(messages.last)")
  }

  /// Through a row to its sheet: each operator on the way is named, outermost first.
  @Test func aSheetActionInARowNamesEveryOperatorOnTheWay() async {
    let store = TestStore(initialState: Shelf.State()) {
      Shelf(runsRows: true, runsEditor: false)
    }
    await withKnownIssue {
      await store.send(.books(.element(id: 1, action: .editor(.presented(.titleChanged("Emma"))))))
      {
        $0.books[id: 1]?.editor?.title = "Emma"
      }
    } matching: {
      messages.capture($0)
    }
    #expect(
      messages.last.contains(
        "`.books` (`.forEach(\\.…, action: .books)`), then `.editor` (`.presents(\\.…, action: .editor)`)."
      ),
      "\(messages.last)")
  }

  /// An action that changed something, or one for no child, gets no such hint.
  @Test func otherFailuresGetNoHint() async {
    let store = TestStore(initialState: Shelf.State()) { Shelf(runsRows: true) }
    await withKnownIssue {
      await store.send(.books(.element(id: 1, action: .favouriteTapped))) {
        $0.books[id: 1]?.isFavourite = false
        $0.title = "Wrong"
      }
    } matching: {
      messages.capture($0)
    }
    #expect(!messages.last.contains("hand it on"), "\(messages.last)")
    await withKnownIssue {
      await store.send(.renamed("Shelf")) { $0.title = "Shelf" }
    } matching: {
      messages.capture($0)
    }
    #expect(!messages.last.contains("hand it on"), "\(messages.last)")
  }

  /// A row action whose effect the test waits for: with the rows not run, it started none,
  /// and the `receive` that finds nothing names the `send` and the operator.
  @Test func aReceiveAfterARowActionThatDidNothingNamesForEach() async {
    let store = TestStore(initialState: Shelf.State()) { Shelf(runsRows: false) }
    let sendLine = #line + 1
    await store.send(.books(.element(id: 1, action: .appeared)))
    await withKnownIssue {
      await store.receive(.books(.element(id: 1, action: .coverLoaded("cover"))))
    } matching: {
      messages.capture($0)
    }
    #expect(messages.last.contains("no effect is running"), "\(messages.last)")
    #expect(
      messages.last.hasSuffix(
        """
        The `send` of Shelf.Action.books(.element(id: 1, action: .appeared)) at \
        StoreTestingTests/ForgottenRoutingHintTests.swift:\(sendLine) changed nothing and started \
        no effect, and it is for a child. Either the child's reducer does nothing here, or a \
        parent's body does not hand it on at this step, so that no reducer sees it (and nothing \
        warns): `.books` (`.forEach(\\.…, action: .books)`).
        """), "\(messages.last)")
    // With the rows run, the same test passes.
    let running = TestStore(initialState: Shelf.State()) { Shelf(runsRows: true) }
    await running.send(.books(.element(id: 1, action: .appeared)))
    await running.receive(.books(.element(id: 1, action: .coverLoaded("cover"))))
  }
}
