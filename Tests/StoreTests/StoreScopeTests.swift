import Effects
import Testing

@testable import Store

@MainActor
@Suite struct StoreScopeTests {
  let clock = TestClock()

  func makeHarness(rows: Range<Int>) -> Harness<Todos> {
    var state = Todos.State()
    for id in rows { state.rows.append(Row.State(id: id, title: "row \(id)")) }
    return Harness(initialState: state, reducer: Todos(clock: clock))
  }

  @Test func scopingAgainReturnsTheSameStore() {
    let store = Store(initialState: Pair.State()) { Pair() }
    #expect(
      store.scope(state: \.left, action: .left)
        === store.scope(state: \.left, action: .left)
    )
    #expect(
      store.scope(state: \.left, action: .left)
        !== store.scope(state: \.right, action: .right)
    )
  }

  @Test func elementStoresAreStableWhileTheirIDLives() {
    let harness = makeHarness(rows: 0..<3)
    let rows = harness.store.scope(state: \.rows, action: .rows)
    let first = rows[1]
    harness.send(.addRow(3))
    let again = harness.store.scope(state: \.rows, action: .rows)
    #expect(again[id: 1] === first)
    #expect(again.count == 4)
    #expect(first.state.title == "row 1")
  }

  @Test func anElementStoreEditsTheOneElementInTheParent() {
    let harness = makeHarness(rows: 0..<3)
    let row = harness.store.scope(state: \.rows, action: .rows)[id: 2]!
    row.send(.renamed("edited"))
    harness.settle()
    // One source of truth: the list sees the change at once, through its own store too.
    #expect(harness.store.state.rows[id: 2]?.title == "edited")
    #expect(row.title == "edited")
  }

  @Test func tenThousandElementStoresAreReleasedWithTheirElementsAndTheirEffectsCancelled() {
    let harness = makeHarness(rows: 0..<10_000)
    var weakStores: [WeakBox] = []
    do {
      let rows = harness.store.scope(state: \.rows, action: .rows)
      for row in rows {
        weakStores.append(WeakBox(row))
        row.send(.loadTapped)
      }
    }
    harness.settle()
    #expect(clock.sleeperCount == 10_000)
    #expect(weakStores.allSatisfy { $0.object != nil })
    harness.send(.removeAllRows)
    #expect(weakStores.allSatisfy { $0.object == nil })
    #expect(clock.sleeperCount == 0)
    #expect(harness.core.runtime.runningCount == 0)
  }

  @Test func removingElementsOneByOneReleasesEachStoreAtOnce() {
    let harness = makeHarness(rows: 0..<100)
    var weakStores: [WeakBox] = []
    do {
      for row in harness.store.scope(state: \.rows, action: .rows) {
        weakStores.append(WeakBox(row))
        row.send(.loadTapped)
      }
    }
    harness.settle()
    for id in stride(from: 99, through: 0, by: -1) {
      harness.send(.removeRow(id))
      #expect(weakStores[id].object == nil)
      #expect(clock.sleeperCount == id)
    }
  }

  @Test func aRemovedElementsStoreKeepsItsLastStateAndItsActionsWarn() {
    let warnings = WarningLog()
    var state = Todos.State()
    state.rows.append(Row.State(id: 1, title: "gone soon"))
    let harness = Harness(
      initialState: state, warnings: warnings.handler, reducer: Todos(clock: clock))
    let row = harness.store.scope(state: \.rows, action: .rows)[0]
    harness.send(.removeRow(1))
    #expect(row.title == "gone soon")
    row.send(.renamed("too late"))
    #expect(warnings.messages.count == 1)
    #expect(warnings.messages.first?.contains("id 1") == true)
  }

  /// A store scoped to a filtered view of a collection (a computed property) treats a row that
  /// leaves the view as removed: it keeps its last state and ignores its sends with a warning.
  /// (Its sends used to reach the parent, which found the row in the whole collection and
  /// changed it, while the store went on reading its last state.)
  @Test func aRowThatLeavesAFilteredViewHasItsStoreIgnoreItsSends() {
    let warnings = WarningLog()
    var state = Todos.State()
    state.rows = [Row.State(id: 1, title: "a"), Row.State(id: 2, title: "b")]
    let harness = Harness(
      initialState: state, warnings: warnings.handler, reducer: Todos(clock: clock))
    let row = harness.store.scope(state: \.titledRows, action: .rows)[id: 1]!
    row.send(.renamed(""))
    #expect(harness.state.rows[id: 1]?.title == "")
    #expect(harness.store.scope(state: \.titledRows, action: .rows)[id: 1] == nil)
    row.send(.renamed("typed while leaving"))
    #expect(harness.state.rows[id: 1]?.title == "")
    #expect(row.title == "a")
    #expect(warnings.messages.count == 1)
    #expect(
      warnings.messages.first?.contains(
        "the element with id 1, which is no longer in the view of the collection the store was"
      )
        == true, "\(warnings.messages)")
  }

  /// A list drawn from a filtered view of a collection (a computed property, built anew at
  /// each read) is notified when the view's ids change, not after every action: the view's
  /// structure stamp is new at each read, though its ids are not. (A list reading
  /// `scope(state: \.titledRows, ...)` was notified after every action, even one that
  /// changed nothing it showed.)
  @Test func aListOfAFilteredViewIsNotifiedOnlyWhenItsIDsChange() {
    var state = Todos.State()
    state.rows = [Row.State(id: 1, title: "a"), Row.State(id: 2, title: "")]
    let harness = Harness(initialState: state, reducer: Todos(clock: clock))
    let store = harness.store
    let list = Tracker { _ = store.scope(state: \.titledRows, action: .rows).ids }
    store.send(.savePath)  // changes nothing the list shows
    store.send(.rows(.element(id: 1, action: .renamed("b"))))  // a row, not the ids
    #expect(list.firings == 0)
    store.send(.rows(.element(id: 2, action: .renamed("c"))))  // row 2 enters the view
    #expect(list.firings == 1)
    list.observe()
    store.send(.addRow(3))  // untitled: not in the view
    #expect(list.firings == 1)
    store.send(.removeRow(1))
    #expect(list.firings == 2)
    #expect(store.scope(state: \.titledRows, action: .rows).ids == [2])
  }

  /// A filtered view of a collection read through the store (`store.titledRows`, as
  /// `ForEach(store.titledRows)` does) is compared by value, not followed by its stamps, which
  /// are new at each read: its readers are notified when it changes, not after every action.
  @Test func aFilteredViewReadThroughTheStoreIsNotifiedOnlyWhenItChanges() {
    var state = Todos.State()
    state.rows = [Row.State(id: 1, title: "a"), Row.State(id: 2, title: "")]
    let harness = Harness(initialState: state, reducer: Todos(clock: clock))
    let store = harness.store
    let view = Tracker { _ = store.titledRows }
    store.send(.savePath)  // changes nothing the view shows
    store.send(.addRow(3))  // untitled: not in the view
    #expect(view.firings == 0)
    store.send(.rows(.element(id: 1, action: .renamed("b"))))
    #expect(view.firings == 1)
    // A stored collection is still followed by its stamps.
    let rows = Tracker { _ = store.rows }
    store.send(.savePath)
    #expect(rows.firings == 0)
    store.send(.rows(.element(id: 2, action: .renamed("c"))))
    #expect(rows.firings == 1)
  }

  /// A stack replaced by one with the same ids shows new screens, with new stores: a list of
  /// the stack's screens is notified, though the ids did not change.
  @Test func aListOfAStackReplacedWithTheSameIDsIsNotified() {
    let harness = Harness(initialState: Todos.State(), reducer: Todos(clock: clock))
    let store = harness.store
    store.send(.deepLink([1]))
    let before = store.scope(state: \.path, action: .path)[id: 0]!
    let list = Tracker { _ = store.scope(state: \.path, action: .path).ids }
    store.send(.deepLink([2]))
    #expect(list.firings == 1)
    #expect(store.scope(state: \.path, action: .path)[id: 0]! !== before)
  }

  @Test func aRemovedElementsStoreNeitherReadsNorDrivesAnElementAddedLaterWithItsID() {
    let warnings = WarningLog()
    var state = Todos.State()
    state.rows.append(Row.State(id: 1, title: "old"))
    let harness = Harness(
      initialState: state, warnings: warnings.handler, reducer: Todos(clock: clock))
    let old = harness.store.scope(state: \.rows, action: .rows)[0]
    harness.send(.removeRow(1))
    harness.send(.addRow(1))  // an undo, say: another row with the same id
    #expect(old.title == "old")
    old.send(.renamed("meant for the old row"))
    #expect(harness.state.rows[id: 1]?.title == "")
    #expect(warnings.messages.count == 1)
    #expect(warnings.messages.first?.contains("element 1, which was removed") == true)
    // The row there now has a store of its own.
    let new = harness.store.scope(state: \.rows, action: .rows)[id: 1]
    #expect(new !== old)
    new?.send(.renamed("new"))
    #expect(harness.state.rows[id: 1]?.title == "new")
    #expect(old.title == "old")
  }

  @Test func aCollectionListedBeforeARemovalHandsOutTheRemovedRowsHeldStore() {
    var state = Todos.State()
    state.rows.append(Row.State(id: 1, title: "Milk"))
    state.rows.append(Row.State(id: 2, title: "Eggs"))
    let harness = Harness(initialState: state, reducer: Todos(clock: clock))
    let rows = harness.store.scope(state: \.rows, action: .rows)
    let eggs = rows[1]  // a row view holds it, playing its removal animation
    harness.send(.removeRow(2))
    #expect(rows[1] === eggs)
    #expect(rows[1].title == "Eggs")
    #expect(rows[id: 2] == nil)
  }

  /// A list diffing its old rows against the new ones reads the old collection by position
  /// after a removal, once every row store it made was let go: the program stopped, saying
  /// no store had been made (concurrency adversary trial, every run; a stack after a pop
  /// too).
  @Test func aCollectionReadAgainAfterARemovalHandsOutTheStoresItGaveEvenIfNothingHoldsThem() {
    var state = Todos.State()
    for id in 1...3 { state.rows.append(Row.State(id: id, title: "row \(id)")) }
    let harness = Harness(initialState: state, reducer: Todos(clock: clock))
    let rows = harness.store.scope(state: \.rows, action: .rows)
    let before = rows.map(\.title)
    harness.send(.removeRow(2))
    #expect(rows.map(\.title) == before, "the removed row's store reads its last state")
    #expect(rows[id: 2] == nil)
    let paths = harness.store.scope(state: \.path, action: .path)
    harness.send(.openDetail(1))
    harness.send(.openDetail(3))
    let screens = paths.map { $0 }  // none yet: the list was made before the pushes
    #expect(screens.isEmpty)
    let stack = harness.store.scope(state: \.path, action: .path)
    let titles = stack.map(\.title)
    harness.send(.path(.popFrom(id: stack.ids[1])))
    #expect(stack.map(\.title) == titles)
  }

  #if EXIT_TESTS
    @Test func aRemovedRowNeverAskedForStopsTheProgramNamingItsID() async {
      await #expect(processExitsWith: .failure) {
        await MainActor.run {
          var state = Todos.State()
          state.rows.append(Row.State(id: 1, title: "Milk"))
          let harness = Harness(initialState: state, reducer: Todos(clock: TestClock()))
          let rows = harness.store.scope(state: \.rows, action: .rows)
          harness.send(.removeRow(1))
          _ = rows[0]
        }
      }
    }

    /// A store scoped through a subscript reads its path again after an action only to compare
    /// a value read through it that has not changed since: once what was read has been
    /// reported changed, emptying the collection does not read `\.rows[0]` (it stopped the
    /// program at the removal, for a store no one looked at any more).
    @Test func aSubscriptScopeWhoseReadsWereReportedDoesNotReadItsPathAgain() async {
      await #expect(processExitsWith: .success) {
        await MainActor.run {
          var state = Todos.State()
          state.rows.append(Row.State(id: 1, title: "Milk"))
          let harness = Harness(initialState: state, reducer: Todos(clock: TestClock()))
          let first = harness.store.scope(state: \.rows[0], action: CaseKey.rows[id: 1])
          _ = first.title
          harness.send(.rows(.element(id: 1, action: .renamed("Oat milk"))))
          harness.send(.removeRow(1))
          harness.send(.addRow(2))
        }
      }
    }
  #endif

  @Test func aDismissedChildsStoreNeitherReadsNorDrivesTheNextPresentation() {
    let warnings = WarningLog()
    var state = Todos.State()
    state.rows.append(Row.State(id: 1, title: "Milk"))
    state.rows.append(Row.State(id: 2, title: "Eggs"))
    let harness = Harness(
      initialState: state, warnings: warnings.handler, reducer: Todos(clock: clock))
    harness.send(.editTapped(1))
    let old = harness.store.scope(state: \.editor, action: .editor)
    old?.send(.cancelTapped)  // dismissed
    harness.send(.editTapped(2))
    #expect(old?.rowID == 1)
    old?.send(.titleChanged("meant for the dismissed editor"))
    #expect(harness.state.editor?.title == "Eggs")
    #expect(warnings.messages.last?.contains("dismissed") == true)
    let new = harness.store.scope(state: \.editor, action: .editor)
    #expect(new !== old)
    #expect(new?.rowID == 2)
  }

  @Test func aStoreReleasedWhileAChildIsShownIsFreed() {
    weak var released: AnyObject?
    do {
      var state = Todos.State()
      state.rows.append(Row.State(id: 1, title: "Milk"))
      let store = Store(initialState: state) { Todos(clock: clock) }
      store.send(.editTapped(1))
      let editor = store.scope(state: \.editor, action: .editor)
      #expect(editor != nil)
      released = store.core
    }
    #expect(released == nil, "the root's core, its state and its effects")
  }

  @Test func aPartOfAStoreWhoseStateWasTakenOverKeepsItsLastValue() {
    // As a store's state, whose version moves at each change: what a core finds on a look
    // holds until it does.
    final class Source {
      var state = Pair.State() { didSet { version += 1 } }
      var isTakenOver = false { didSet { version += 1 } }
      var version = 0
    }
    let source = Source()
    let warnings = WarningLog()
    let core = withUnsafePointer(to: source.state) {
      DerivedCore<Pair.State, Pair.Action>(
        initial: $0,
        read: { source.state },
        send: { _ in StoreTask(group: nil) },
        afterDispatch: { _ in },
        warn: warnings.handler.callAsFunction,
        takenOver: { source.isTakenOver ? "the pair" : nil },
        version: { source.version },
        reads: StateReads()
      )
    }
    let part = core.scope(state: \.left, action: .left)
    source.state.left.count = 5
    #expect(part.state.count == 5)
    source.isTakenOver = true
    source.state.left.count = 9
    #expect(part.state.count == 5)
    _ = part.send(.incrementTapped)
    #expect(warnings.messages.first?.contains("a part of the pair") == true)
  }

  @Test func optionalChildStoreIsNilWhileAbsentAndNewForEachPresentation() {
    var state = Todos.State()
    state.rows.append(Row.State(id: 1, title: "Milk"))
    let harness = Harness(initialState: state, reducer: Todos(clock: clock))
    #expect(harness.store.scope(state: \.editor, action: .editor) == nil)
    harness.send(.editTapped(1))
    let editor = harness.store.scope(state: \.editor, action: .editor)
    #expect(editor != nil)
    #expect(harness.store.scope(state: \.editor, action: .editor) === editor)
    editor?.send(.titleChanged("Oat milk"))
    #expect(harness.state.editor?.title == "Oat milk")
    weak let released = editor
    editor?.send(.cancelTapped)
    harness.send(.editTapped(1))
    #expect(harness.store.scope(state: \.editor, action: .editor) !== released)
  }

  @Test func stackScreenStoresFollowTheStack() {
    let harness = makeHarness(rows: 0..<2)
    harness.send(.openDetail(0))
    harness.send(.openDetail(1))
    weak var popped: Store<Row.State, Row.Action>?
    do {
      let screens = harness.store.scope(state: \.path, action: .path)
      #expect(screens.count == 2)
      screens[1].send(.renamed("detail"))
      harness.settle()
      #expect(harness.state.path[1].title == "detail")
      popped = screens[1]
      harness.send(.path(.popFrom(id: screens.ids[1])))
      // The list made before the pop gives its screens as they were (for a view animating
      // the pop) while it lives.
      #expect(popped != nil)
    }
    #expect(popped == nil)
  }

  /// A stack that replaces another reuses ids for new screens: their stores are new too.
  @Test func aReplacedStacksScreensGetNewStores() {
    let harness = makeHarness(rows: 0..<2)
    harness.send(.openDetail(0))
    weak let old = harness.store.scope(state: \.path, action: .path)[0]
    #expect(old != nil)
    harness.send(.deepLink([5]))
    #expect(old == nil, "the replaced screen's store was let go")
    let screens = harness.store.scope(state: \.path, action: .path)
    #expect(screens.ids == [StackElementID(rawValue: 0)])
    #expect(screens[0].id == 5)
  }

  @Test func aStoreKeptPastItsStacksReplacementNeitherReadsNorDrivesTheNewScreen() {
    let warnings = WarningLog()
    var state = Todos.State()
    state.path.append(Row.State(id: 0, title: "old screen"))
    let harness = Harness(
      initialState: state, warnings: warnings.handler, reducer: Todos(clock: clock))
    let old = harness.store.scope(state: \.path, action: .path)[0]
    harness.send(.deepLink([5]))  // a new stack: its first screen is #0 too
    #expect(old.title == "old screen")
    old.send(.renamed("meant for the old screen"))
    harness.settle()
    #expect(harness.state.path[0].title == "")
    #expect(warnings.messages.count == 1)
    #expect(warnings.messages.first?.contains("stack that has since been replaced") == true)
  }

  /// A store kept past its screen's pop, the screen then restored with a saved path: its
  /// warning names a screen, as the stack's other warnings do (it read "element #0, which was
  /// removed; the element with that id now is another").
  @Test func aStoreKeptPastItsScreensPopNamesAScreen() {
    let warnings = WarningLog()
    var state = Todos.State()
    state.rows.append(Row.State(id: 0, title: "row 0"))
    let harness = Harness(
      initialState: state, warnings: warnings.handler, reducer: Todos(clock: clock))
    harness.send(.openDetail(0))
    let old = harness.store.scope(state: \.path, action: .path)[0]
    harness.send(.savePath)
    harness.send(.path(.popFrom(id: StackElementID(rawValue: 0))))
    harness.send(.restorePath)
    old.send(.renamed("meant for the popped screen"))
    harness.settle()
    #expect(harness.state.path[0].title == "row 0")
    #expect(warnings.messages.count == 1)
    #expect(
      warnings.messages.first?.contains(
        "screen #0, which was popped; the screen with that id now (restored, or pushed again) "
          + "has a store of its own") == true, "\(warnings.messages)")
  }
}

final class WeakBox {
  weak var object: AnyObject?
  init(_ object: AnyObject) { self.object = object }
}

extension Todos.State {
  /// The rows with a title: a filtered view of `rows`, as a list with a filter shows.
  var titledRows: IdentifiedArrayOf<Row.State> {
    IdentifiedArray(rows.filter { !$0.title.isEmpty })
  }
}

/// A parent that runs `Todos` by hand, and removes rows where no walk sees it.
struct TodosByHand: Reducer {
  struct State: Equatable {
    var todos = Todos.State()
  }
  enum Action: Sendable, Equatable {
    case todos(Todos.Action)
    case drop(Int)
  }
  let clock: TestClock
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .drop(let id):
      state.todos.rows.remove(id: id)
      return .none
    case .todos(let action):
      return Todos(clock: clock).reduce(into: &state.todos, action: action).map(Action.todos)
    }
  }
}

extension CaseKey<TodosByHand.Action, Todos.Action> {
  static var todosByHand: Self {
    Self(TodosByHand.Action.todos) { if case .todos(let a) = $0 { a } else { nil } }
  }
}

@MainActor
@Suite struct RemovedRowSendTests {
  let clock = TestClock()

  /// A row removed where the store cannot see it (its parent is run by hand): the next send
  /// from the row's store reaches `forEach`, which warns and ends the row's lifetime, so its
  /// load stops. (Stores of a stored collection send on; only a computed view's ignore.)
  @Test func aRemovedRowsSendEndsItsLifetime() throws {
    let warnings = WarningLog()
    var state = TodosByHand.State()
    state.todos.rows = [Row.State(id: 1)]
    let harness = Harness(
      initialState: state, warnings: warnings.handler, reducer: TodosByHand(clock: clock))
    let row = try #require(
      harness.store.scope(state: \.todos, action: .todosByHand)
        .scope(state: \.rows, action: .rows)[id: 1])
    row.send(.loadTapped)
    harness.settle()
    #expect(clock.sleeperCount == 1)
    harness.send(.drop(1))
    #expect(clock.sleeperCount == 1, "the store cannot find it")
    row.send(.loadTapped)
    harness.settle()
    #expect(clock.sleeperCount == 0, "\(warnings.messages)")
    #expect(warnings.messages.count == 1)
  }
}

/// A feature whose state is identified, and whose id changes.
private struct IDPicker: Reducer {
  struct Item: Equatable, Identifiable, Sendable {
    var id: Int
    var name = ""
  }

  struct State: Equatable, Identifiable {
    var id = 0
    var selected = Item(id: 0)
  }

  enum Action: Sendable {
    case pick(Int)
    case selected(ItemAction)
  }

  enum ItemAction: Sendable { case noop }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    if case .pick(let id) = action {
      state.id = id
      state.selected = Item(id: id)
    }
    return .none
  }
}

extension CaseKey<IDPicker.Action, IDPicker.ItemAction> {
  fileprivate static var selected: Self {
    Self(IDPicker.Action.selected) { if case .selected(let a) = $0 { a } else { nil } }
  }
}

/// Stores of identifiable state can be listed and presented by what identifies them.
@MainActor
@Suite struct StoreIdentityTests {
  /// Ids of a list of identifiable values, as a list view takes them (SwiftUI's `ForEach`
  /// requires `Identifiable` elements).
  func listedIDs<C: RandomAccessCollection>(_ items: C) -> [C.Element.ID]
  where C.Element: Identifiable {
    items.map(\.id)
  }

  @Test func rowStoresAreIdentifiedByTheirRowsIDs() {
    var state = Todos.State()
    for id in [3, 1, 2] { state.rows.append(Row.State(id: id)) }
    let harness = Harness(initialState: state, reducer: Todos(clock: TestClock()))
    let rows = harness.store.scope(state: \.rows, action: .rows)
    #expect(listedIDs(rows) == [3, 1, 2])
    let row = rows[id: 1]!
    harness.send(.removeRow(1))
    // A removed row's store keeps its id.
    #expect(row.id == 1)
    #expect(listedIDs(harness.store.scope(state: \.rows, action: .rows)) == [3, 2])
  }

  /// The `Identifiable` conformance's `id` wins over the dynamic member `store.id` went
  /// through, and read the state untracked: a view showing the id of a store whose state's id
  /// changes (a root, or a plain scope to an identified child) was never told (review).
  @Test func readingTheIDOfAStoreWhoseIDChangesIsTracked() {
    let store = Store(initialState: IDPicker.State()) { IDPicker() }
    let selected = store.scope(state: \.selected, action: .selected)
    let root = Tracker { _ = store.id }
    let child = Tracker { _ = selected.id }
    store.send(.pick(1))
    #expect(store.id == 1)
    #expect(selected.id == 1)
    #expect(root.firings == 1)
    #expect(child.firings == 1)
  }
}
