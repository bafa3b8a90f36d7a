import Effects
import Testing

@testable import Store

/// A list of items shown in a sheet, in a section of its own that a view can scope a store to.
private struct Catalog: Reducer {
  struct Item: Equatable, Identifiable, Sendable {
    let id: Int
    var count = 0
  }

  struct Section: Equatable, Sendable {
    var items: IdentifiedArrayOf<Item>
  }

  struct Sheet: Equatable, Sendable {
    var title: String
    var section: Section

    init(title: String, items count: Int) {
      self.title = title
      section = Section(items: IdentifiedArray((0..<count).map { Item(id: $0) }))
    }
  }

  struct State {
    var sheet: Sheet?
  }

  enum Action: Sendable {
    case sheet(PresentationAction<SheetAction>)
    case present(Sheet)
  }

  enum SheetAction: Sendable {
    case section(SectionAction)
    case retitled(String)
  }

  enum SectionAction: Sendable {
    case items(IdentifiedAction<Int, ItemAction>)
  }

  enum ItemAction: Sendable {
    case increment
  }

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      if case .present(let sheet) = action { state.sheet = sheet }
      return .none
    }
    .presents(\.sheet, action: .sheet) { SheetFeature() }
  }

  /// The sheet's reducer: also a screen's, in `ScreenShelf`.
  struct SheetFeature: Reducer {
    var body: some Reducer<Sheet, SheetAction> {
      Scope(state: \.section, action: .section) {
        EmptyReducer<Section, SectionAction>()
          .forEach(\.items, action: .items) {
            Reduce<Item, ItemAction> { item, _ in
              item.count += 1
              return .none
            }
          }
      }
      Reduce { sheet, action in
        if case .retitled(let title) = action { sheet.title = title }
        return .none
      }
    }
  }
}

/// The same lists, each in a screen of a navigation stack.
private struct ScreenShelf: Reducer {
  struct State {
    var path = StackState<Catalog.Sheet>()
  }

  enum Action: Sendable {
    case path(StackAction<Catalog.Sheet, Catalog.SheetAction>)
    case open(Catalog.Sheet)
    /// Replaces the stack with one holding `sheet` alone: its id is the first again.
    case restart(Catalog.Sheet)
    /// The same, then retitles the newcomer in the same `send` (an action fed back).
    case restartAndRetitle(Catalog.Sheet, String)
  }

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .open(let sheet): state.path.append(sheet)
      case .restart(let sheet): state.path = [sheet]
      case .restartAndRetitle(let sheet, let title):
        state.path = [sheet]
        return .send(.path(.element(id: 0, action: .retitled(title))))
      case .path: break
      }
      return .none
    }
    .navigationStack(\.path, action: .path) { Catalog.SheetFeature() }
  }
}

extension CaseKey<ScreenShelf.Action, StackAction<Catalog.Sheet, Catalog.SheetAction>> {
  fileprivate static var path: Self {
    Self(ScreenShelf.Action.path) { if case .path(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<Catalog.Action, PresentationAction<Catalog.SheetAction>> {
  fileprivate static var sheet: Self {
    Self(Catalog.Action.sheet) { if case .sheet(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<Catalog.SheetAction, Catalog.SectionAction> {
  fileprivate static var section: Self {
    Self(Catalog.SheetAction.section) { if case .section(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<Catalog.SectionAction, IdentifiedAction<Int, Catalog.ItemAction>> {
  fileprivate static var items: Self {
    Self(Catalog.SectionAction.items) { if case .items(let a) = $0 { a } else { nil } }
  }
}

/// A store of a presented child keeps a copy of the child's state, to show once the child is
/// dismissed. That copy must not make the child's reducer copy the child's buffers: a row
/// action in a list of 10,000 rows in a read sheet copied every row (see `KeptCopies`).
@MainActor
@Suite struct KeptCopyTests {
  private func store(items count: Int = 100) -> StoreOf<Catalog> {
    Store(initialState: Catalog.State(sheet: Catalog.Sheet(title: "first", items: count))) {
      Catalog()
    }
  }

  /// Where the sheet's list of items lies: it moves when a write finds it shared and copies it.
  /// (Read where the root keeps it: a store keeps what `store.state` returned until the state
  /// changes, and that copy would make the write copy the list itself.)
  private func itemsBuffer(_ store: StoreOf<Catalog>) -> UnsafeRawPointer? {
    store.core.withState { state in
      state.pointee.sheet?.section.items.storage.withUnsafeBufferPointer {
        UnsafeRawPointer($0.baseAddress)
      }
    }
  }

  private func increment(_ id: Int) -> Catalog.Action {
    .sheet(.presented(.section(.items(.element(id: id, action: .increment)))))
  }

  /// The sheet's store is read after each action, as a view showing it reads it; its list is
  /// written where it lies at each row action all the same.
  @Test func aRowActionWritesTheListOfASheetWhoseStoreIsReadInPlace() throws {
    let store = store()
    let sheet = try #require(store.scope(state: \.sheet, action: .sheet))
    #expect(sheet.title == "first")
    let before = itemsBuffer(store)
    for id in [3, 4, 3] {
      store.send(increment(id))
      _ = sheet.title
      #expect(itemsBuffer(store) == before)
    }
    #expect(sheet.section.items[id: 3]?.count == 2)
    #expect(sheet.section.items[id: 4]?.count == 1)
  }

  /// The same for a store scoped from the sheet's, to a part of it that holds the list.
  @Test func aRowActionWritesTheListOfAReadPartOfASheetInPlace() throws {
    let store = store()
    let sheet = try #require(store.scope(state: \.sheet, action: .sheet))
    let section = sheet.scope(state: \.section, action: .section)
    #expect(section.items.count == 100)
    let before = itemsBuffer(store)
    store.send(increment(7))
    #expect(section.items[id: 7]?.count == 1)
    #expect(sheet.section.items[id: 7]?.count == 1)
    #expect(itemsBuffer(store) == before)
  }

  /// Once dismissed, the sheet's store and the part's show the sheet as the last action left
  /// it, and keep showing it once another sheet is presented in its place and changes: the
  /// copies are the dismissed sheet's.
  @Test func aDismissedSheetsStoresKeepItsLastStateThroughTheNextSheet() throws {
    let store = store()
    let sheet = try #require(store.scope(state: \.sheet, action: .sheet))
    let section = sheet.scope(state: \.section, action: .section)
    _ = (sheet.title, section.items.count)
    store.send(increment(1))
    store.send(.sheet(.presented(.retitled("edited"))))
    store.send(increment(1))
    store.send(.sheet(.dismiss))
    #expect(store.state.sheet == nil)
    #expect(sheet.title == "edited")
    #expect(sheet.section.items[id: 1]?.count == 2)
    #expect(section.items[id: 1]?.count == 2)

    store.send(.present(Catalog.Sheet(title: "second", items: 3)))
    let next = try #require(store.scope(state: \.sheet, action: .sheet))
    #expect(next !== sheet)
    _ = next.title
    store.send(increment(1))
    store.send(.sheet(.presented(.retitled("second, edited"))))
    #expect(next.title == "second, edited")
    #expect(next.section.items[id: 1]?.count == 1)
    #expect(sheet.title == "edited")
    #expect(sheet.section.items.count == 100)
    #expect(sheet.section.items[id: 1]?.count == 2)
    #expect(section.items.count == 100)
  }

  /// A sheet dismissed by the action that last changed it: its store shows that change.
  @Test func aSheetDismissedByItsOwnActionShowsWhatThatActionDid() throws {
    let store = Store(
      initialState: Catalog.State(sheet: Catalog.Sheet(title: "first", items: 3))
    ) {
      Catalog()
      Reduce<Catalog.State, Catalog.Action> { state, action in
        // A parent that closes the sheet once it is retitled, in the same action.
        if case .sheet(.presented(.retitled)) = action { state.sheet = nil }
        return .none
      }
    }
    let sheet = try #require(store.scope(state: \.sheet, action: .sheet))
    _ = sheet.title
    store.send(.sheet(.presented(.retitled("saved"))))
    #expect(store.state.sheet == nil)
    #expect(sheet.title == "saved")
  }

  /// Stores let go take their copies out of the register: none is left at the sheet's address.
  @Test func storesLetGoLeaveNoCopyRegistered() throws {
    let store = store(items: 3)
    let address = store.withSheetAddress()
    weak var released: Store<Catalog.Sheet, Catalog.SheetAction>?
    do {
      let sheet = try #require(store.scope(state: \.sheet, action: .sheet))
      let section = sheet.scope(state: \.section, action: .section)
      _ = (sheet.title, section.items.count)
      #expect(KeptCopies.registered(at: address) == 2)
      released = sheet
      store.send(.sheet(.dismiss))
    }
    _ = store.scope(state: \.sheet, action: .sheet)
    #expect(released == nil)
    #expect(KeptCopies.registered(at: address) == 0)
  }
}

/// A draft sheet given its server's id by its own reducer.
private struct DraftHost: Reducer {
  struct Draft: Equatable, Identifiable, Sendable {
    var id: Int
    var title: String
  }

  struct State {
    var draft: Draft?
  }

  enum Action: Sendable {
    case draft(PresentationAction<DraftAction>)
  }

  enum DraftAction: Sendable {
    case saved(id: Int)
  }

  var body: some Reducer<State, Action> {
    EmptyReducer()
      .presents(\.draft, action: .draft) {
        Reduce<Draft, DraftAction> { draft, action in
          if case .saved(let id) = action {
            draft.id = id
            draft.title = "saved"
          }
          return .none
        }
      }
  }
}

extension CaseKey<DraftHost.Action, PresentationAction<DraftHost.DraftAction>> {
  fileprivate static var draft: Self {
    Self(DraftHost.Action.draft) { if case .draft(let a) = $0 { a } else { nil } }
  }
}

@MainActor
@Suite struct KeptCopyIdentityTests {
  /// A child that gives itself another id in its step: the store made for the old id is let
  /// go (a new one is made for the new id), and shows the state the step left, new id
  /// included, as its last; its sends are ignored with a warning, as before.
  @Test func aChildThatChangesItsOwnIDLeavesItsOldStoreTheStepsState() throws {
    let store = Store(initialState: DraftHost.State(draft: .init(id: 1, title: "draft"))) {
      DraftHost()
    }
    let old = try #require(store.scope(state: \.draft, action: .draft))
    #expect(old.title == "draft")
    store.send(.draft(.presented(.saved(id: 42))))
    let new = try #require(store.scope(state: \.draft, action: .draft))
    #expect(new !== old)
    #expect(new.id == 42)
    #expect(old.id == 42)
    #expect(old.title == "saved")
  }
}

/// The same for a screen of a navigation stack, whose store is read as a view showing it reads
/// it: a screen's reducer lets the store's copy go for its steps too.
@MainActor
@Suite struct KeptScreenCopyTests {
  private func store(screens: Int = 1) -> StoreOf<ScreenShelf> {
    var state = ScreenShelf.State()
    for index in 0..<screens {
      state.path.append(Catalog.Sheet(title: "screen \(index)", items: 100))
    }
    return Store(initialState: state) { ScreenShelf() }
  }

  private func itemsBuffer(_ store: StoreOf<ScreenShelf>, screen: StackElementID)
    -> UnsafeRawPointer?
  {
    store.core.withState { state in
      state.pointee.path[id: screen]?.section.items.storage.withUnsafeBufferPointer {
        UnsafeRawPointer($0.baseAddress)
      }
    }
  }

  private func increment(_ item: Int, on screen: StackElementID) -> ScreenShelf.Action {
    .path(.element(id: screen, action: .section(.items(.element(id: item, action: .increment)))))
  }

  @Test func aRowActionWritesTheListOfAScreenWhoseStoreIsReadInPlace() throws {
    let store = store()
    let screen = try #require(store.scope(state: \.path, action: .path)[id: 0])
    let section = screen.scope(state: \.section, action: .section)
    _ = (screen.title, section.items.count)
    let before = itemsBuffer(store, screen: 0)
    for item in [3, 4, 3] {
      store.send(increment(item, on: 0))
      _ = (screen.title, section.items.count)
      #expect(itemsBuffer(store, screen: 0) == before)
    }
    #expect(screen.section.items[id: 3]?.count == 2)
    #expect(section.items[id: 4]?.count == 1)
  }

  /// Pushes move the screens to a larger buffer; the stack stays where it is, and so does the
  /// key its screens' copies are registered under.
  @Test func aScreenMovedByPushesIsStillWrittenInPlace() throws {
    let store = store()
    let bottom = try #require(store.scope(state: \.path, action: .path)[id: 0])
    _ = bottom.title
    for index in 1...40 { store.send(.open(Catalog.Sheet(title: "screen \(index)", items: 2))) }
    let before = itemsBuffer(store, screen: 0)
    store.send(increment(5, on: 0))
    _ = bottom.title
    #expect(itemsBuffer(store, screen: 0) == before)
    #expect(bottom.section.items[id: 5]?.count == 1)
  }

  /// A popped screen's store shows the screen as its last step left it, and keeps showing it
  /// once a new stack reuses the screen's id and that screen changes.
  @Test func aPoppedScreensStoreKeepsItsLastStateThroughANewcomerWithItsID() throws {
    let store = store()
    let screen = try #require(store.scope(state: \.path, action: .path)[id: 0])
    _ = screen.title
    store.send(increment(1, on: 0))
    store.send(.path(.element(id: 0, action: .retitled("edited"))))
    store.send(.path(.popFrom(id: 0)))
    #expect(screen.title == "edited")
    #expect(screen.section.items[id: 1]?.count == 1)

    store.send(.restart(Catalog.Sheet(title: "newcomer", items: 3)))
    let newcomer = try #require(store.scope(state: \.path, action: .path)[id: 0])
    #expect(newcomer !== screen)
    _ = newcomer.title
    store.send(increment(1, on: 0))
    store.send(.path(.element(id: 0, action: .retitled("newcomer, edited"))))
    #expect(newcomer.title == "newcomer, edited")
    #expect(screen.title == "edited")
    #expect(screen.section.items.count == 100)
    #expect(screen.section.items[id: 1]?.count == 1)
  }

  /// A popped screen's store, still held, is out of the register: later steps at the stack
  /// neither look at it nor change its copy.
  @Test func aPoppedScreensHeldStoreLeavesTheRegister() throws {
    let store = store(screens: 2)
    let place = store.core.withState { state in
      UnsafeRawPointer(state).advanced(
        by: MemoryLayout<ScreenShelf.State>.offset(of: \.path.entries)!)
    }
    let top = KeptCopyID.screen(StackElementID(rawValue: 1))
    let screen = try #require(store.scope(state: \.path, action: .path)[id: 1])
    _ = screen.title
    #expect(KeptCopies.registered(at: place, id: top) == 1)
    store.send(.path(.popFrom(id: 1)))
    #expect(KeptCopies.registered(at: place, id: top) == 0)
    #expect(screen.title == "screen 1")
  }

  /// A stack replaced by one that reuses a screen's id, and the newcomer changed, in one
  /// `send` (before the store of the old screen is told it is gone): the newcomer's step
  /// leaves that store's copy alone, told apart by the screen's push.
  @Test func aReplacedStacksScreenStoreIsNotTheNewcomers() throws {
    let store = store()
    let screen = try #require(store.scope(state: \.path, action: .path)[id: 0])
    _ = screen.title
    store.send(.restartAndRetitle(Catalog.Sheet(title: "newcomer", items: 3), "newcomer, edited"))
    #expect(store.state.path[id: 0]?.title == "newcomer, edited")
    #expect(screen.title == "screen 0")
    #expect(screen.section.items.count == 100)
  }
}

extension Store where State == Catalog.State {
  /// Where the root keeps its sheet: the address its stores' copies are registered at.
  fileprivate func withSheetAddress() -> UnsafeRawPointer {
    core.withState { state in
      UnsafeRawPointer(state).advanced(by: MemoryLayout<Catalog.State>.offset(of: \.sheet)!)
    }
  }
}
