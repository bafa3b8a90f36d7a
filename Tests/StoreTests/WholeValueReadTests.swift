import Effects
import Testing

@testable import Store

/// A titled list of items, the root of a store or a property of one.
private struct ReadShelf: Reducer {
  struct Item: Equatable, Identifiable, Sendable {
    let id: Int
    var count = 0
  }

  struct State: Equatable, Sendable {
    var title: String
    var items: IdentifiedArrayOf<Item>
    var note: String?

    init(title: String = "shelf", items count: Int = 100) {
      self.title = title
      items = IdentifiedArray((0..<count).map { Item(id: $0) })
    }
  }

  enum Action: Sendable {
    case items(IdentifiedAction<Int, ItemAction>)
    case retitled(String)
    case noted(String?)
    /// Writes item `id` with the count it has: a write that changes nothing.
    case rewrote(id: Int)
    case nothing
  }

  enum ItemAction: Sendable {
    case increment
  }

  var body: some Reducer<State, Action> {
    Reduce { shelf, action in
      switch action {
      case .retitled(let title): shelf.title = title
      case .noted(let note): shelf.note = note
      case .rewrote(let id): shelf.items[id: id]?.count += 0
      case .items, .nothing: break
      }
      return .none
    }
    .forEach(\.items, action: .items) {
      Reduce<Item, ItemAction> { item, _ in
        item.count += 1
        return .none
      }
    }
  }
}

extension CaseKey<ReadShelf.Action, IdentifiedAction<Int, ReadShelf.ItemAction>> {
  fileprivate static var items: Self {
    Self(ReadShelf.Action.items) { if case .items(let a) = $0 { a } else { nil } }
  }
}

/// A shelf in a property, beside a count, and an optional second shelf.
private struct ReadRoom: Reducer {
  struct State: Equatable, Sendable {
    // First, so that the shelf lies at an offset other than 0.
    var visits = 0
    var shelf = ReadShelf.State()
    var spare: ReadShelf.State?

    /// The shelf with its even items only: a view built anew at each read.
    var evenShelf: ReadShelf.State {
      var even = shelf
      even.items = IdentifiedArray(shelf.items.filter { $0.id % 2 == 0 })
      return even
    }
  }

  enum Action: Sendable {
    case shelf(ReadShelf.Action)
    case visited
    case setSpare(ReadShelf.State?)
  }

  var body: some Reducer<State, Action> {
    Scope(state: \.shelf, action: .shelf) { ReadShelf() }
    Reduce { room, action in
      switch action {
      case .visited: room.visits += 1
      case .setSpare(let spare): room.spare = spare
      case .shelf: break
      }
      return .none
    }
  }
}

extension CaseKey<ReadRoom.Action, ReadShelf.Action> {
  fileprivate static var shelf: Self {
    Self(ReadRoom.Action.shelf) { if case .shelf(let a) = $0 { a } else { nil } }
  }
}

/// An app's state as an enum: a shelf, or signed out.
private struct ReadSession: Reducer {
  enum State: Equatable, Sendable {
    case browsing(ReadShelf.State)
    case signedOut
  }

  enum Action: Sendable {
    case browsing(ReadShelf.Action)
    case signOut
  }

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      if case .signOut = action { state = .signedOut }
      return .none
    }
    .ifCaseLet(.browsing, action: .browsing) { ReadShelf() }
  }
}

extension CaseKey<ReadSession.State, ReadShelf.State> {
  fileprivate static var browsing: Self {
    Self(ReadSession.State.browsing) { if case .browsing(let s) = $0 { s } else { nil } }
  }
}

extension CaseKey<ReadSession.Action, ReadShelf.Action> {
  fileprivate static var browsing: Self {
    Self(ReadSession.Action.browsing) { if case .browsing(let a) = $0 { a } else { nil } }
  }
}

/// Where a list of items lies: it moves when a write finds it shared and copies it.
private func buffer(_ items: IdentifiedArrayOf<ReadShelf.Item>?) -> UnsafeRawPointer? {
  items?.storage.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
}

private func increment(_ id: Int) -> ReadShelf.Action {
  .items(.element(id: id, action: .increment))
}

/// A struct or enum that holds an identified collection, read whole through a store
/// (`store.state`, or `store.shelf` for a struct holding the items), as a view that shows it
/// reads it. The store remembers what was read, to tell whether it changed; a copy shared the
/// collection's buffer, so each row action copied every row while the view showed it (bench
/// scenario 38). The store's copy now keeps the collection hollow, with its stamps, when the
/// collection lies at a fixed place of the value (`HollowingPlan`).
@MainActor
@Suite struct WholeValueReadTests {
  @Test func aRowActionWritesTheListOfARootReadWholeInPlace() {
    let store = Store(initialState: ReadShelf.State()) { ReadShelf() }
    let view = Tracker { _ = store.state }
    func items() -> UnsafeRawPointer? { store.core.withState { buffer($0.pointee.items) } }
    let before = items()
    for (round, id) in [3, 4, 3].enumerated() {
      store.send(increment(id))
      #expect(view.firings == round + 1)
      #expect(items() == before)
      view.observe()
    }
    #expect(store.state.items[id: 3]?.count == 2)
    #expect(store.state.items[id: 4]?.count == 1)
  }

  @Test func aRowActionWritesTheListOfAStructReadThroughAPropertyInPlace() {
    let store = Store(initialState: ReadRoom.State()) { ReadRoom() }
    let view = Tracker { _ = store.shelf.title }
    func items() -> UnsafeRawPointer? { store.core.withState { buffer($0.pointee.shelf.items) } }
    let before = items()
    store.send(.shelf(increment(7)))
    #expect(view.firings == 1)
    #expect(items() == before)
    view.observe()
    store.send(.visited)
    #expect(view.firings == 1)
    #expect(store.shelf.items[id: 7]?.count == 1)
  }

  /// An enum's payload is not always there, so a list in it is not hollowed: the store's copy
  /// of the enum shares the list's buffer, and a row action copies it while the enum is read
  /// whole (a view that switches on it should scope to the case). Its changes are seen.
  @Test func aRowActionCopiesTheListOfAnEnumReadWholeAndIsSeen() {
    let store = Store(initialState: ReadSession.State.browsing(ReadShelf.State())) { ReadSession() }
    let view = Tracker {
      if case .browsing(let shelf) = store.state { _ = shelf.title }
    }
    func items() -> UnsafeRawPointer? {
      store.core.withState { state in
        guard case .browsing(let shelf) = state.pointee else { return nil }
        return buffer(shelf.items)
      }
    }
    let before = items()
    store.send(.browsing(increment(1)))
    #expect(view.firings == 1)
    withKnownIssue("an enum's payload is kept whole, and its list copied at the next write") {
      #expect(items() == before)
    }
    view.observe()
    store.send(.signOut)
    #expect(view.firings == 2)
    #expect(store.state == .signedOut)
  }

  /// The outline tells each kind of change from no change: a property beside the list, an
  /// optional property given and taken, the list's own rows, and an action that changes
  /// nothing.
  @Test func theStoreTellsEachChangeOfAValueReadWholeAndNothingElse() {
    let store = Store(initialState: ReadRoom.State()) { ReadRoom() }
    let view = Tracker { _ = store.state }
    var firings = 0
    func expectChange(_ action: ReadRoom.Action, _ changes: Bool, line: Int = #line) {
      store.send(action)
      if changes { firings += 1 }
      #expect(
        view.firings == firings,
        sourceLocation: SourceLocation(
          fileID: #fileID, filePath: #filePath, line: line, column: 1))
      // Observation fires once: a view tracks again when it renders.
      if changes { view.observe() }
    }
    expectChange(.shelf(.nothing), false)
    expectChange(.visited, true)
    expectChange(.shelf(.retitled("shelf")), false)
    expectChange(.shelf(.retitled("books")), true)
    expectChange(.shelf(.noted("dusty")), true)
    expectChange(.shelf(.noted("dusty")), false)
    expectChange(.shelf(.noted(nil)), true)
    expectChange(.setSpare(ReadShelf.State(title: "spare", items: 3)), true)
    expectChange(.setSpare(nil), true)
    expectChange(.setSpare(nil), false)
    expectChange(.shelf(increment(99)), true)
    #expect(store.state.shelf.title == "books")
    #expect(store.state.shelf.items[id: 99]?.count == 1)
  }

  /// A write of an element with the value it had counts as a change, as it does for a store
  /// that reads the collection itself: the outline keeps the collection's stamps, not its
  /// elements, and does not ask the value's `==`.
  @Test func aWriteOfAnEqualElementCountsAsAChange() {
    let store = Store(initialState: ReadShelf.State()) { ReadShelf() }
    let view = Tracker { _ = store.state }
    store.send(.rewrote(id: 5))
    #expect(view.firings == 1)
  }

  /// A computed property that builds its collection anew at each read gives new stamps at
  /// each read: it is compared as any value, by `==`, so an action that changes nothing of it
  /// is not reported.
  @Test func aComputedValueHoldingAListBuiltAtEachReadIsComparedByValue() {
    let store = Store(initialState: ReadRoom.State()) { ReadRoom() }
    let view = Tracker { _ = store.evenShelf.title }
    store.send(.visited)
    #expect(view.firings == 0)
    store.send(.shelf(increment(2)))
    #expect(view.firings == 1)
    #expect(store.evenShelf.items[id: 2]?.count == 1)
  }

  /// A list in an array of structs is not reached: the array is kept whole, and still
  /// compared right (a row action copies that list, as before).
  @Test func aListInsideAnArrayIsKeptWholeAndComparedRight() {
    struct Shelves: Reducer {
      struct State: Equatable {
        var shelves = [ReadShelf.State(items: 3), ReadShelf.State(items: 3)]
        var title = "shelves"
      }
      enum Action: Sendable {
        case bump(shelf: Int, item: Int)
        case nothing
      }
      var body: some Reducer<State, Action> {
        Reduce { state, action in
          if case .bump(let shelf, let item) = action {
            state.shelves[shelf].items[id: item]?.count += 1
          }
          return .none
        }
      }
    }
    let store = Store(initialState: Shelves.State()) { Shelves() }
    let view = Tracker { _ = store.state }
    store.send(.nothing)
    #expect(view.firings == 0)
    store.send(.bump(shelf: 1, item: 2))
    #expect(view.firings == 1)
    #expect(store.state.shelves[1].items[id: 2]?.count == 1)
  }

  /// A list behind an existential is not in the value's bytes: the store keeps the value
  /// whole, and sees its changes.
  @Test func aListBehindAnExistentialIsKeptWholeAndItsChangesSeen() {
    struct Holder: Reducer {
      struct State {
        var content: any Sendable = ReadShelf.State(items: 10)
      }
      enum Action: Sendable {
        case bump(Int)
        case replace
      }
      var body: some Reducer<State, Action> {
        Reduce { state, action in
          switch action {
          case .bump(let id):
            var shelf = state.content as! ReadShelf.State
            state.content = 0
            shelf.items[id: id]?.count += 1
            state.content = shelf
          case .replace: state.content = "no shelf"
          }
          return .none
        }
      }
    }
    let store = Store(initialState: Holder.State()) { Holder() }
    let view = Tracker { _ = store.content }
    store.send(.bump(4))
    #expect(view.firings == 1)
    view.observe()
    store.send(.replace)
    #expect(view.firings == 2)
    #expect(store.content as? String == "no shelf")
  }

  /// A store scoped to the shelf, read whole, as a view of the shelf reads it.
  @Test func aScopedStoreReadWholeWritesItsListInPlace() {
    let store = Store(initialState: ReadRoom.State()) { ReadRoom() }
    let shelf = store.scope(state: \.shelf, action: .shelf)
    let view = Tracker { _ = shelf.state.title }
    func items() -> UnsafeRawPointer? { store.core.withState { buffer($0.pointee.shelf.items) } }
    let before = items()
    store.send(.shelf(increment(8)))
    #expect(view.firings == 1)
    #expect(items() == before)
    #expect(shelf.state.items[id: 8]?.count == 1)
  }

  /// A title set again to an equal string in a new buffer: the bytes differ, the values do
  /// not, and the store says nothing, then or at the next such write.
  @Test func anEqualLongStringInANewBufferIsNoChange() {
    let long = String(repeating: "long title ", count: 4)
    let store = Store(initialState: ReadShelf.State(title: long)) { ReadShelf() }
    let view = Tracker { _ = store.state }
    store.send(.retitled(String(repeating: "long title ", count: 4)))
    store.send(.retitled(String(repeating: "long title ", count: 4)))
    #expect(view.firings == 0)
    store.send(.retitled("short"))
    #expect(view.firings == 1)
  }

  /// Two properties holding the same collection (a backup of the rows), and a copy of it in
  /// an optional and behind an existential: each stored property's copy is its own, the
  /// optional's and the existential's are kept in the copy, and every change is seen, the
  /// optional's going away included.
  @Test func copiesOfTheListInOtherPropertiesAreToldApart() {
    struct Backups: Reducer {
      struct State {
        var items = IdentifiedArray((0..<5).map { ReadShelf.Item(id: $0) })
        var backup: IdentifiedArrayOf<ReadShelf.Item>
        var saved: IdentifiedArrayOf<ReadShelf.Item>?
        var boxed: any Sendable

        init() {
          backup = items
          saved = items
          boxed = ReadShelf.State(items: 5)
        }
      }
      enum Action: Sendable {
        case bump(Int)
        case bumpBackup(Int)
        case dropSaved
        case nothing
      }
      var body: some Reducer<State, Action> {
        Reduce { state, action in
          switch action {
          case .bump(let id): state.items[id: id]?.count += 1
          case .bumpBackup(let id): state.backup[id: id]?.count += 1
          case .dropSaved: state.saved = nil
          case .nothing: break
          }
          return .none
        }
      }
    }
    let store = Store(initialState: Backups.State()) { Backups() }
    let view = Tracker { _ = store.state }
    store.send(.bump(1))
    #expect(view.firings == 1)
    view.observe()
    store.send(.bumpBackup(2))
    #expect(view.firings == 2)
    view.observe()
    store.send(.dropSaved)
    #expect(view.firings == 3)
    view.observe()
    store.send(.bump(1))
    #expect(view.firings == 4)
    #expect(store.state.items[id: 1]?.count == 2)
    #expect(store.state.backup[id: 2]?.count == 1)
    #expect(store.state.backup[id: 1]?.count == 0)
    #expect(store.state.saved == nil)
  }

  /// A stack beside a title, read whole: a push, a write to a screen and a pop each count,
  /// and the stack's screens are written in place.
  @Test func aStackReadWholeSeesPushesWritesAndPops() {
    struct Trail: Reducer {
      struct State {
        var title = "trail"
        var path = StackState<ReadShelf.State>()
      }
      enum Action: Sendable {
        case push
        case bump(StackElementID, item: Int)
        case pop
      }
      var body: some Reducer<State, Action> {
        Reduce { state, action in
          switch action {
          case .push: state.path.append(ReadShelf.State(items: 10))
          case .bump(let id, let item): state.path[id: id]?.items[id: item]?.count += 1
          case .pop: _ = state.path.popLast()
          }
          return .none
        }
      }
    }
    let store = Store(initialState: Trail.State()) { Trail() }
    store.send(.push)
    let view = Tracker { _ = store.state }
    let id = StackElementID(rawValue: 0)
    func screens() -> UnsafeRawPointer? {
      store.core.withState { state in
        state.pointee.path.entries.storage.withUnsafeBufferPointer {
          UnsafeRawPointer($0.baseAddress)
        }
      }
    }
    let before = screens()
    store.send(.bump(id, item: 3))
    #expect(screens() == before)
    #expect(view.firings == 1)
    view.observe()
    #expect(store.state.path[id: id]?.items[id: 3]?.count == 1)
    store.send(.push)
    #expect(view.firings == 2)
    view.observe()
    store.send(.pop)
    #expect(view.firings == 3)
  }
}
