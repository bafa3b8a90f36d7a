import Effects
import Observation
import Store
import Testing

// The observation hunt: observers are told of the changes they read, and only those, when a
// child is replaced by another id, dismissed, popped, set back whole, or gone and back; and
// nothing they registered outlives the store.

/// A parent with a sheet, rows, a stack and a case child, whose whole state an action can set.
private struct Hub: Reducer {
  struct State: Equatable {
    var title = ""
    var rows: IdentifiedArrayOf<Leaf.State> = []
    var sheet: Leaf.State?
    var path = StackState<Leaf.State>()
    var mode = Mode.idle
    var draft: Draft.State?
  }

  enum Mode: Equatable {
    case idle
    case editing(Leaf.State)
  }

  enum Action: Sendable, Equatable {
    case replace(State)
    case rows(IdentifiedActionOf<Leaf>)
    case sheet(PresentationAction<Leaf.Action>)
    case path(StackActionOf<Leaf>)
    case mode(Leaf.Action)
    case draft(PresentationAction<Draft.Action>)
    case openDraft(String)
    case readdRow(Leaf.State)
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      if case .replace(let new) = action { state = new }
      if case .openDraft(let text) = action { state.draft = Draft.State(text: text) }
      if case .readdRow(let row) = action {
        state.rows.remove(id: row.id)
        state.rows.append(row)
      }
      return .none
    }
    .forEach(\.rows, action: ActionKey.rows) { Leaf() }
    .presents(\.sheet, action: ActionKey.sheet) { Leaf() }
    .navigationStack(\.path, action: ActionKey.path) { Leaf() }
    Scope(state: \.mode, action: ActionKey.mode) {
      EmptyReducer<Mode, Leaf.Action>()
        .ifCaseLet(CaseKey.editing, action: CaseKey.itself) { Leaf() }
    }
    .presents(\.draft, action: ActionKey.draft) { Draft() }
  }
}

private struct Leaf: Reducer {
  struct State: Equatable, Identifiable {
    var id: Int
    var title: String
  }

  enum Action: Sendable, Equatable {
    case rename(String)
    case close
  }

  func reduce(into state: inout State, action: Action) -> EffectOf<Self> {
    switch action {
    case .rename(let title):
      state.title = title
      return .none
    case .close:
      return .dismiss
    }
  }
}

private struct Draft: Reducer {
  struct State: Equatable { var text: String }
  enum Action: Sendable, Equatable {
    case type(String)
    case close
  }
  func reduce(into state: inout State, action: Action) -> EffectOf<Self> {
    switch action {
    case .type(let text):
      state.text = text
      return .none
    case .close:
      return .dismiss
    }
  }
}

extension CaseKey<Hub.Action, PresentationAction<Draft.Action>> {
  fileprivate static var draft: Self {
    Self(Hub.Action.draft) { if case .draft(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<Hub.Action, IdentifiedActionOf<Leaf>> {
  fileprivate static var rows: Self {
    Self(Hub.Action.rows) { if case .rows(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<Hub.Action, PresentationAction<Leaf.Action>> {
  fileprivate static var sheet: Self {
    Self(Hub.Action.sheet) { if case .sheet(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<Hub.Action, StackActionOf<Leaf>> {
  fileprivate static var path: Self {
    Self(Hub.Action.path) { if case .path(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<Hub.Action, Leaf.Action> {
  fileprivate static var mode: Self {
    Self(Hub.Action.mode) { if case .mode(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<Hub.Mode, Leaf.State> {
  fileprivate static var editing: Self {
    Self(Hub.Mode.editing) { if case .editing(let s) = $0 { s } else { nil } }
  }
}

extension CaseKey<Leaf.Action, Leaf.Action> {
  fileprivate static var itself: Self { Self({ $0 }) { $0 } }
}

/// Counts the changes told to one `withObservationTracking` of `read`.
@MainActor
private final class Watch {
  var count = 0
  init(_ read: () -> Void) {
    withObservationTracking(read) { [weak self] in
      MainActor.assumeIsolated { self?.count += 1 }
    }
  }
}

@MainActor
@Suite struct ObservationHuntTests {
  @Test func aSheetReplacedByAnotherIDTellsTheParentAndGetsANewStore() {
    let store = Store(initialState: Hub.State(sheet: Leaf.State(id: 1, title: "A"))) { Hub() }
    let parent = Watch { _ = store.scope(state: \.sheet, action: .sheet) }
    let sheet = store.scope(state: \.sheet, action: .sheet)!
    let title = Watch { _ = sheet.title }
    store.send(.replace(Hub.State(sheet: Leaf.State(id: 2, title: "A"))))
    #expect(parent.count == 1)
    #expect(title.count == 0)
    let newSheet = store.scope(state: \.sheet, action: .sheet)
    #expect(newSheet !== sheet)
    #expect(newSheet?.id == 2)
  }

  @Test func aDismissTellsTheParent() {
    let store = Store(initialState: Hub.State(sheet: Leaf.State(id: 1, title: "A"))) { Hub() }
    let parent = Watch { _ = store.scope(state: \.sheet, action: .sheet) }
    let sheet = store.scope(state: \.sheet, action: .sheet)!
    let title = Watch { _ = sheet.title }
    sheet.send(.close)
    #expect(store.sheet == nil)
    #expect(parent.count == 1)
    #expect(title.count == 0)
  }

  @Test func aStateSetWholeTellsOnlyWhatChanged() {
    let store = Store(initialState: Hub.State(sheet: Leaf.State(id: 1, title: "A"))) { Hub() }
    let sheet = store.scope(state: \.sheet, action: .sheet)!
    let title = Watch { _ = sheet.title }
    let parent = Watch { _ = store.scope(state: \.sheet, action: .sheet) }
    store.send(.replace(Hub.State(sheet: Leaf.State(id: 1, title: "B"))))
    #expect(title.count == 1)
    #expect(parent.count == 0)
    #expect(store.scope(state: \.sheet, action: .sheet) === sheet)
  }

  @Test func rowsSetWholeTellTheListOfMovesAndEachRowOfItsOwnChange() {
    let rows: IdentifiedArrayOf<Leaf.State> = [.init(id: 1, title: "A"), .init(id: 2, title: "B")]
    let store = Store(initialState: Hub.State(rows: rows)) { Hub() }
    let row1 = store.scope(state: \.rows, action: .rows)[id: 1]!
    let row2 = store.scope(state: \.rows, action: .rows)[id: 2]!

    let list = Watch { _ = store.scope(state: \.rows, action: .rows) }
    let sibling = Watch { _ = row1.title }
    let own = Watch { _ = row2.title }
    store.send(.rows(.element(id: 2, action: .rename("B2"))))
    #expect([list.count, sibling.count, own.count] == [0, 0, 1])

    let equalList = Watch { _ = store.scope(state: \.rows, action: .rows) }
    let equalRow = Watch { _ = row2.title }
    store.send(.replace(Hub.State(rows: [.init(id: 1, title: "A"), .init(id: 2, title: "B2")])))
    #expect([equalList.count, equalRow.count] == [0, 0])

    store.send(.replace(Hub.State(rows: [.init(id: 1, title: "A"), .init(id: 2, title: "C")])))
    #expect([equalList.count, equalRow.count] == [0, 1])
    #expect(row2.title == "C")

    let movedList = Watch { _ = store.scope(state: \.rows, action: .rows) }
    let movedRow = Watch { _ = row1.title }
    store.send(.replace(Hub.State(rows: [.init(id: 2, title: "C"), .init(id: 1, title: "A")])))
    #expect([movedList.count, movedRow.count] == [1, 0])
  }

  @Test func aCaseChildFollowsItsIDAndItsChanges() {
    let store = Store(initialState: Hub.State(mode: .editing(.init(id: 1, title: "A")))) { Hub() }
    func scopeCase() -> Store<Leaf.State, Leaf.Action>? {
      store.scope(state: \.mode, action: .mode).scope(state: CaseKey.editing, action: .itself)
    }
    let replaced = Watch { _ = scopeCase() }
    let first = scopeCase()!
    let firstTitle = Watch { _ = first.title }
    store.send(.replace(Hub.State(mode: .editing(.init(id: 2, title: "A")))))
    #expect([replaced.count, firstTitle.count] == [1, 0])
    let second = scopeCase()!
    #expect(second !== first)

    let retitled = Watch { _ = scopeCase() }
    let secondTitle = Watch { _ = second.title }
    store.send(.replace(Hub.State(mode: .editing(.init(id: 2, title: "B")))))
    #expect([retitled.count, secondTitle.count] == [0, 1])

    let left = Watch { _ = scopeCase() }
    store.send(.replace(Hub.State(mode: .idle)))
    #expect(left.count == 1)
    #expect(scopeCase() == nil)
  }

  @Test func aScreenPoppedByItsDismissTellsTheStack() {
    let store = Store(initialState: Hub.State(path: [.init(id: 1, title: "A")])) { Hub() }
    let stack = Watch { _ = store.scope(state: \.path, action: .path) }
    let screen = store.scope(state: \.path, action: .path).first!
    let title = Watch { _ = screen.title }
    screen.send(.close)
    #expect(store.path.isEmpty)
    #expect([stack.count, title.count] == [1, 0])
  }

  @Test func aChildWithoutAnIDGoneAndBackUnobservedGetsANewStore() {
    let store = Store(initialState: Hub.State()) { Hub() }
    store.send(.openDraft("a"))
    let first = store.scope(state: \.draft, action: .draft)!
    first.send(.close)
    store.send(.openDraft("b"))
    let second = store.scope(state: \.draft, action: .draft)!
    #expect(second !== first)
    second.send(.type("bb"))
    #expect(store.draft?.text == "bb")
  }

  @Test func noObserverOutlivesTheStore() {
    final class Token: Sendable {}
    weak var weakToken: Token?
    weak var weakStore: Store<Hub.State, Hub.Action>?
    do {
      let token = Token()
      weakToken = token
      let store = Store(
        initialState: Hub.State(
          rows: [.init(id: 1, title: "A")], sheet: .init(id: 1, title: "S"),
          path: [.init(id: 3, title: "P")], mode: .editing(.init(id: 4, title: "E")))
      ) { Hub() }
      weakStore = store
      let sheet = store.scope(state: \.sheet, action: .sheet)!
      let row = store.scope(state: \.rows, action: .rows)[id: 1]!
      let screen = store.scope(state: \.path, action: .path).first!
      let mode = store.scope(state: \.mode, action: .mode)
        .scope(state: CaseKey.editing, action: .itself)!
      withObservationTracking {
        _ = store.title
        _ = sheet.title
        _ = row.title
        _ = screen.title
        _ = mode.title
        _ = store.scope(state: \.rows, action: .rows)
        _ = store.state
      } onChange: {
        _ = token
      }
    }
    #expect(weakStore == nil)
    #expect(weakToken == nil)
  }

  // Store.state's doc: a collection in the state is followed by its stamps, and any write to it
  // counts as a change of the whole state, so equal rows built anew are a change to its reader.
  @Test func aStateSetWholeIsAChangeToAReaderOfTheWholeStateOnlyIfItsCollectionsWereWritten() {
    let store = Store(initialState: Hub.State(title: "T", rows: [.init(id: 1, title: "A")])) {
      Hub()
    }
    let same = Watch { _ = store.state }
    store.send(.replace(store.state))
    #expect(same.count == 0)
    let rebuilt = Watch { _ = store.state }
    let title = Watch { _ = store.title }
    store.send(.replace(Hub.State(title: "T", rows: [.init(id: 1, title: "A")])))
    #expect([rebuilt.count, title.count] == [1, 0])
  }

  @Test func aRowRemovedAndAddedBackInOneSendKeepsItsStoreAndTellsItsChange() {
    let store = Store(
      initialState: Hub.State(rows: [.init(id: 1, title: "A"), .init(id: 2, title: "B")])
    ) { Hub() }
    let row = store.scope(state: \.rows, action: .rows)[id: 1]!
    let title = Watch { _ = row.title }
    let list = Watch { _ = store.scope(state: \.rows, action: .rows) }
    store.send(.readdRow(.init(id: 1, title: "A2")))
    #expect([title.count, list.count] == [1, 1])  // it moved to the end
    #expect(store.scope(state: \.rows, action: .rows)[id: 1] === row)
    #expect(row.title == "A2")
  }

  @Test func anIDReusedInALaterSendGetsANewStoreAndTellsTheList() {
    let store = Store(initialState: Hub.State(rows: [.init(id: 1, title: "A")])) { Hub() }
    let old = store.scope(state: \.rows, action: .rows)[id: 1]!
    let oldTitle = Watch { _ = old.title }
    store.send(.replace(Hub.State()))
    let list = Watch { _ = store.scope(state: \.rows, action: .rows) }
    store.send(.replace(Hub.State(rows: [.init(id: 1, title: "B")])))
    #expect([oldTitle.count, list.count] == [0, 1])
    let new = store.scope(state: \.rows, action: .rows)[id: 1]!
    #expect(new !== old)
    #expect(new.title == "B")
    #expect(old.title == "A")
  }
}
