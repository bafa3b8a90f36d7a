import Effects
import Testing

@testable import Store

/// A titled list of items: the payload of one case of an enum, in the root's state or in a
/// sheet's.
private struct CaseShelf: Reducer {
  struct Item: Equatable, Identifiable, Sendable {
    let id: Int
    var count = 0
  }

  struct State: Equatable, Identifiable, Sendable {
    var id: Int
    var title: String
    var items: IdentifiedArrayOf<Item>

    init(id: Int = 1, title: String, items count: Int = 100) {
      self.id = id
      self.title = title
      items = IdentifiedArray((0..<count).map { Item(id: $0) })
    }
  }

  enum Action: Sendable {
    case items(IdentifiedAction<Int, ItemAction>)
    case retitled(String)
    /// Gives the shelf another id and title (a draft given its server's id).
    case saved(id: Int)
  }

  enum ItemAction: Sendable {
    case increment
  }

  var body: some Reducer<State, Action> {
    Reduce { shelf, action in
      if case .retitled(let title) = action { shelf.title = title }
      if case .saved(let id) = action {
        shelf.id = id
        shelf.title = "saved"
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

/// An app's state as an enum: browsing a shelf, or signed out. Retitling the shelf "sign out"
/// signs out in the same action, after the shelf's reducer ran.
private struct ShelfSession: Reducer {
  enum State: Equatable, Sendable {
    case browsing(CaseShelf.State)
    case signedOut
  }

  enum Action: Sendable {
    case browsing(CaseShelf.Action)
    case signIn(CaseShelf.State)
    /// Signs in with `shelf`, then retitles it, in the same `send` (an action fed back).
    case signInAndRetitle(CaseShelf.State, String)
  }

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .browsing(.retitled("sign out")): state = .signedOut
      case .signIn(let shelf): state = .browsing(shelf)
      case .signInAndRetitle(let shelf, let title):
        state = .browsing(shelf)
        return .send(.browsing(.retitled(title)))
      case .browsing: break
      }
      return .none
    }
    .ifCaseLet(.browsing, action: .browsing) { CaseShelf() }
  }
}

/// The same enum in a property of the root's state, beside a value of its own.
private struct ShelfDesk: Reducer {
  struct State {
    var owner = "me"
    var session: ShelfSession.State
  }

  enum Action: Sendable {
    case session(ShelfSession.Action)
  }

  var body: some Reducer<State, Action> {
    Scope(state: \.session, action: .session) { ShelfSession() }
  }
}

/// The same enum as a presented destination (`presents`): a sheet that shows a shelf, or a note.
private struct ShelfLibrary: Reducer {
  enum Destination: Equatable, Sendable {
    case shelf(CaseShelf.State)
    case note(String)
  }

  enum DestinationAction: Sendable {
    case shelf(CaseShelf.Action)
  }

  struct State {
    var destination: Destination?
  }

  enum Action: Sendable {
    case destination(PresentationAction<DestinationAction>)
    case present(Destination)
  }

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      if case .present(let destination) = action { state.destination = destination }
      return .none
    }
    .presents(\.destination, action: .destination) {
      EmptyReducer<Destination, DestinationAction>()
        .ifCaseLet(.shelf, action: .shelf) { CaseShelf() }
    }
  }
}

/// Panels, each with an id, presented one at a time, that hold a session beside their id.
private struct ShelfPanels: Reducer {
  struct Panel: Equatable, Identifiable, Sendable {
    let id: Int
    var session: ShelfSession.State
  }

  struct State {
    var panel: Panel?
  }

  enum Action: Sendable {
    case panel(PresentationAction<PanelAction>)
    /// Presents `panel` in place of the one shown, then retitles its shelf, in one `send`.
    case replaceAndRetitle(Panel, String)
  }

  enum PanelAction: Sendable {
    case session(ShelfSession.Action)
  }

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      guard case .replaceAndRetitle(let panel, let title) = action else { return .none }
      state.panel = panel
      return .send(.panel(.presented(.session(.browsing(.retitled(title))))))
    }
    .presents(\.panel, action: .panel) {
      Scope(state: \.session, action: .session) { ShelfSession() }
    }
  }
}

/// A stack whose screens are sessions: an enum, each screen in one of its cases.
private struct SessionStack: Reducer {
  struct State {
    var path = StackState<ShelfSession.State>()
  }

  enum Action: Sendable {
    case path(StackAction<ShelfSession.State, ShelfSession.Action>)
    case open(ShelfSession.State)
    /// Replaces the stack with one holding `screen` alone (its id is the first again), then
    /// retitles the screen's shelf, in the same `send`.
    case restartAndRetitle(ShelfSession.State, String)
  }

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .open(let screen): state.path.append(screen)
      case .restartAndRetitle(let screen, let title):
        state.path = [screen]
        return .send(.path(.element(id: 0, action: .browsing(.retitled(title)))))
      case .path: break
      }
      return .none
    }
    .navigationStack(\.path, action: .path) { ShelfSession() }
  }
}

/// The stack of sessions in a part of the root's state, which a store is scoped to.
private struct StackDesk: Reducer {
  struct State {
    var stack: SessionStack.State
  }

  enum Action: Sendable {
    case stack(SessionStack.Action)
  }

  var body: some Reducer<State, Action> {
    Scope(state: \.stack, action: .stack) { SessionStack() }
  }
}

extension CaseKey<StackDesk.Action, SessionStack.Action> {
  fileprivate static var stack: Self {
    Self(StackDesk.Action.stack) { if case .stack(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<SessionStack.Action, StackAction<ShelfSession.State, ShelfSession.Action>> {
  fileprivate static var path: Self {
    Self(SessionStack.Action.path) { if case .path(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<ShelfPanels.Action, PresentationAction<ShelfPanels.PanelAction>> {
  fileprivate static var panel: Self {
    Self(ShelfPanels.Action.panel) { if case .panel(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<ShelfPanels.PanelAction, ShelfSession.Action> {
  fileprivate static var session: Self {
    Self(ShelfPanels.PanelAction.session) { if case .session(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<CaseShelf.Action, IdentifiedAction<Int, CaseShelf.ItemAction>> {
  fileprivate static var items: Self {
    Self(CaseShelf.Action.items) { if case .items(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<ShelfSession.State, CaseShelf.State> {
  fileprivate static var browsing: Self {
    Self(ShelfSession.State.browsing) { if case .browsing(let s) = $0 { s } else { nil } }
  }
}

extension CaseKey<ShelfSession.Action, CaseShelf.Action> {
  fileprivate static var browsing: Self {
    Self(ShelfSession.Action.browsing) { if case .browsing(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<ShelfDesk.Action, ShelfSession.Action> {
  fileprivate static var session: Self {
    Self(ShelfDesk.Action.session) { if case .session(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<ShelfLibrary.Destination, CaseShelf.State> {
  fileprivate static var shelf: Self {
    Self(ShelfLibrary.Destination.shelf) { if case .shelf(let s) = $0 { s } else { nil } }
  }
}

extension CaseKey<ShelfLibrary.DestinationAction, CaseShelf.Action> {
  fileprivate static var shelf: Self {
    Self(ShelfLibrary.DestinationAction.shelf) { if case .shelf(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<ShelfLibrary.Action, PresentationAction<ShelfLibrary.DestinationAction>> {
  fileprivate static var destination: Self {
    Self(ShelfLibrary.Action.destination) { if case .destination(let a) = $0 { a } else { nil } }
  }
}

/// Where a shelf's list of items lies: it moves when a write finds it shared and copies it.
private func shelfItemsBuffer(_ shelf: CaseShelf.State?) -> UnsafeRawPointer? {
  shelf?.items.storage.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
}

/// The shelf of a session, where the root keeps it (a store's `state` would be a copy that
/// keeps the list shared).
private func shelf(of session: ShelfSession.State) -> CaseShelf.State? {
  guard case .browsing(let shelf) = session else { return nil }
  return shelf
}

/// A store of an enum's case keeps a copy of the case's payload, to show once the state
/// leaves the case. That copy must not make the case's reducer copy the payload's buffers: a
/// row action in a list of 10,000 rows in a read case copied every row (bench scenarios 33 and
/// 34, 21 and 36 times the cost at 100 rows). `ifCaseLet` lets it go for the case's step.
@MainActor
@Suite struct KeptCaseCopyTests {
  private func sessionStore(items: Int = 100) -> StoreOf<ShelfSession> {
    Store(initialState: .browsing(CaseShelf.State(title: "first", items: items))) { ShelfSession() }
  }

  private func itemsBuffer(_ store: StoreOf<ShelfSession>) -> UnsafeRawPointer? {
    store.core.withState { shelfItemsBuffer(shelf(of: $0.pointee)) }
  }

  private func increment(_ id: Int) -> ShelfSession.Action {
    .browsing(.items(.element(id: id, action: .increment)))
  }

  /// The case's store is read after each action, as a view showing it reads it; the list is
  /// written where it lies all the same, and the store shows each change.
  @Test func aRowActionWritesTheListOfTheRootsReadCaseInPlace() throws {
    let store = sessionStore()
    let browsing = try #require(store.scope(state: .browsing, action: .browsing))
    #expect(browsing.title == "first")
    let before = itemsBuffer(store)
    for id in [3, 4, 3] {
      store.send(increment(id))
      _ = browsing.title
      #expect(itemsBuffer(store) == before)
    }
    #expect(browsing.items[id: 3]?.count == 2)
    #expect(browsing.items[id: 4]?.count == 1)
  }

  /// The same for an enum in a property of the root's state, through a `Scope`.
  @Test func aRowActionWritesTheListOfAReadCaseOfAPropertyInPlace() throws {
    let store = Store(
      initialState: ShelfDesk.State(session: .browsing(CaseShelf.State(title: "desk")))
    ) {
      ShelfDesk()
    }
    let session = store.scope(state: \.session, action: .session)
    let browsing = try #require(session.scope(state: .browsing, action: .browsing))
    #expect(browsing.items.count == 100)
    func buffer() -> UnsafeRawPointer? {
      store.core.withState { shelfItemsBuffer(shelf(of: $0.pointee.session)) }
    }
    let before = buffer()
    store.send(.session(increment(9)))
    #expect(browsing.items[id: 9]?.count == 1)
    #expect(buffer() == before)
  }

  /// A case left by the action that last changed its payload: the case's store shows what
  /// the case's reducer did, not the payload as it last read it.
  @Test func aCaseLeftInTheActionOfItsStepShowsWhatTheStepDid() throws {
    let store = sessionStore(items: 3)
    let browsing = try #require(store.scope(state: .browsing, action: .browsing))
    #expect(browsing.title == "first")
    store.send(increment(1))
    store.send(.browsing(.retitled("sign out")))
    #expect(store.state == .signedOut)
    #expect(store.scope(state: .browsing, action: .browsing) == nil)
    #expect(browsing.title == "sign out")
    #expect(browsing.items[id: 1]?.count == 1)
  }

  /// Once the state left the case, the case's store keeps its last state while the case is
  /// entered again and changed: the new stay in the case has a store of its own.
  @Test func aLeftCasesStoreKeepsItsLastStateThroughTheNextStay() throws {
    let store = sessionStore(items: 3)
    let browsing = try #require(store.scope(state: .browsing, action: .browsing))
    _ = browsing.title
    store.send(increment(0))
    store.send(.browsing(.retitled("sign out")))
    store.send(.signIn(CaseShelf.State(title: "second", items: 5)))
    let next = try #require(store.scope(state: .browsing, action: .browsing))
    #expect(next !== browsing)
    _ = next.title
    store.send(increment(0))
    store.send(.browsing(.retitled("second, edited")))
    #expect(next.title == "second, edited")
    #expect(next.items[id: 0]?.count == 1)
    #expect(browsing.title == "sign out")
    #expect(browsing.items.count == 3)
    #expect(browsing.items[id: 0]?.count == 1)
  }

  /// A payload replaced by one with another id, in the same case: the old id's store is not
  /// the newcomer's, and keeps the old payload's last state through the newcomer's steps.
  @Test func aReplacedPayloadsStoreIsNotTheNewcomers() throws {
    let store = sessionStore(items: 3)
    let old = try #require(store.scope(state: .browsing, action: .browsing))
    _ = old.title
    store.send(increment(2))
    store.send(.signIn(CaseShelf.State(id: 2, title: "newcomer", items: 3)))
    store.send(increment(2))
    store.send(.browsing(.retitled("newcomer, edited")))
    let new = try #require(store.scope(state: .browsing, action: .browsing))
    #expect(new !== old)
    #expect(new.title == "newcomer, edited")
    #expect(old.title == "first")
    #expect(old.items[id: 2]?.count == 1)
  }

  /// The same when the newcomer comes and changes in one `send`, before the store learns
  /// that its payload left: the newcomer's step does not touch the old store's copy.
  @Test func aPayloadReplacedAndChangedInOneSendIsNotTheOldStores() throws {
    let store = sessionStore(items: 3)
    let old = try #require(store.scope(state: .browsing, action: .browsing))
    _ = old.title
    store.send(.signInAndRetitle(CaseShelf.State(id: 2, title: "newcomer", items: 3), "edited"))
    #expect(old.title == "first")
    let new = try #require(store.scope(state: .browsing, action: .browsing))
    #expect(new.title == "edited")
  }

  /// A payload that gives itself another id in its step: the store made for the old id shows
  /// the state the step left, new id included, as a child's does (`KeptCopyIdentityTests`).
  @Test func aPayloadThatChangesItsOwnIDLeavesItsOldStoreTheStepsState() throws {
    let store = sessionStore(items: 3)
    let old = try #require(store.scope(state: .browsing, action: .browsing))
    #expect(old.title == "first")
    store.send(.browsing(.saved(id: 42)))
    let new = try #require(store.scope(state: .browsing, action: .browsing))
    #expect(new !== old)
    #expect(new.id == 42)
    #expect(old.id == 42)
    #expect(old.title == "saved")
  }

  /// Stores let go take their copies out of the register: none is left under the enum's
  /// address and the case.
  @Test func caseStoresLetGoLeaveNoCopyRegistered() throws {
    let store = sessionStore(items: 3)
    let place = store.core.withState { UnsafeRawPointer($0) }
    let key = KeptCopyID.payload(of: CaseKey<ShelfSession.State, CaseShelf.State>.browsing.identity)
    weak var released: Store<CaseShelf.State, CaseShelf.Action>?
    do {
      let browsing = try #require(store.scope(state: .browsing, action: .browsing))
      let items = browsing.scope(state: \.items, action: .items)
      _ = (browsing.title, items.count)
      #expect(KeptCopies.registered(at: place, id: key) == 1)
      released = browsing
      store.send(.browsing(.retitled("sign out")))
    }
    _ = store.scope(state: .browsing, action: .browsing)
    #expect(released == nil)
    #expect(KeptCopies.registered(at: place, id: key) == 0)
  }
}

/// The same for a case of an enum destination, presented by `presents`: the destination's
/// store keeps a copy of the enum, which `presents` lets go, and the case's store one of the
/// case's payload, which `ifCaseLet` lets go.
@MainActor
@Suite struct KeptDestinationCaseCopyTests {
  private func store() -> StoreOf<ShelfLibrary> {
    Store(initialState: ShelfLibrary.State(destination: .shelf(CaseShelf.State(title: "first")))) {
      ShelfLibrary()
    }
  }

  private func itemsBuffer(_ store: StoreOf<ShelfLibrary>) -> UnsafeRawPointer? {
    store.core.withState { state -> UnsafeRawPointer? in
      guard case .shelf(let shelf) = state.pointee.destination else { return nil }
      return shelfItemsBuffer(shelf)
    }
  }

  private func increment(_ id: Int) -> ShelfLibrary.Action {
    .destination(.presented(.shelf(.items(.element(id: id, action: .increment)))))
  }

  @Test func aRowActionWritesTheListOfAReadDestinationCaseInPlace() throws {
    let store = store()
    let destination = try #require(store.scope(state: \.destination, action: .destination))
    let shelf = try #require(destination.scope(state: .shelf, action: .shelf))
    #expect(shelf.title == "first")
    let before = itemsBuffer(store)
    for id in [5, 6, 5] {
      store.send(increment(id))
      _ = shelf.title
      #expect(itemsBuffer(store) == before)
    }
    #expect(shelf.items[id: 5]?.count == 2)
    #expect(shelf.items[id: 6]?.count == 1)
  }

  /// A destination dismissed, and another presented in its place with the same case: the
  /// old case's store keeps the old shelf's last state through the newcomer's steps (the
  /// newcomer's payload is not the old store's, though its id and case are the same).
  @Test func aDismissedDestinationsCaseStoreKeepsItsLastStateThroughTheNext() throws {
    let store = store()
    let destination = try #require(store.scope(state: \.destination, action: .destination))
    let shelf = try #require(destination.scope(state: .shelf, action: .shelf))
    _ = shelf.title
    store.send(increment(1))
    store.send(.destination(.dismiss))
    store.send(.present(.shelf(CaseShelf.State(title: "second", items: 3))))
    let nextDestination = try #require(
      store.scope(state: \.destination, action: .destination))
    let next = try #require(nextDestination.scope(state: .shelf, action: .shelf))
    #expect(next !== shelf)
    _ = next.title
    store.send(increment(1))
    store.send(.destination(.presented(.shelf(.retitled("second, edited")))))
    #expect(next.title == "second, edited")
    #expect(next.items[id: 1]?.count == 1)
    #expect(shelf.title == "first")
    #expect(shelf.items.count == 100)
    #expect(shelf.items[id: 1]?.count == 1)
  }

  /// The destination switched to another case: the shelf's store keeps the shelf's last state.
  @Test func aDestinationSwitchedToAnotherCaseLeavesTheCaseStoreItsLastState() throws {
    let store = store()
    let destination = try #require(store.scope(state: \.destination, action: .destination))
    let shelf = try #require(destination.scope(state: .shelf, action: .shelf))
    _ = shelf.title
    store.send(increment(8))
    store.send(.present(.note("hello")))
    #expect(destination.scope(state: .shelf, action: .shelf) == nil)
    #expect(shelf.items[id: 8]?.count == 1)
    store.send(.present(.shelf(CaseShelf.State(title: "again", items: 3))))
    store.send(increment(8))
    #expect(shelf.items[id: 8]?.count == 1)
    #expect(shelf.title == "first")
  }
}

/// The same for an enum in a property of a presented child with an id: the case's copy lies
/// at the enum's offset in the child, and follows the child's identity too.
@MainActor
@Suite struct KeptPanelCaseCopyTests {
  private func store() -> StoreOf<ShelfPanels> {
    Store(
      initialState: ShelfPanels.State(
        panel: ShelfPanels.Panel(id: 1, session: .browsing(CaseShelf.State(title: "first"))))
    ) {
      ShelfPanels()
    }
  }

  private func itemsBuffer(_ store: StoreOf<ShelfPanels>) -> UnsafeRawPointer? {
    store.core.withState { state -> UnsafeRawPointer? in
      guard let panel = state.pointee.panel else { return nil }
      return shelfItemsBuffer(shelf(of: panel.session))
    }
  }

  private func browsing(
    _ store: StoreOf<ShelfPanels>
  ) throws -> Store<CaseShelf.State, CaseShelf.Action> {
    let panel = try #require(store.scope(state: \.panel, action: .panel))
    let session = panel.scope(state: \.session, action: .session)
    return try #require(session.scope(state: .browsing, action: .browsing))
  }

  @Test func aRowActionWritesTheListOfAReadCaseOfAPanelInPlace() throws {
    let store = store()
    let browsing = try browsing(store)
    #expect(browsing.title == "first")
    let before = itemsBuffer(store)
    store.send(.panel(.presented(.session(.browsing(.items(.element(id: 4, action: .increment)))))))
    #expect(browsing.items[id: 4]?.count == 1)
    #expect(itemsBuffer(store) == before)
  }

  /// A panel with another id, whose shelf has the same id and case, replaces the panel and
  /// changes in one `send`: the old panel's case store keeps the old shelf.
  @Test func aReplacedPanelsCaseStoreIsNotTheNewcomers() throws {
    let store = store()
    let old = try browsing(store)
    _ = old.title
    let newcomer = ShelfPanels.Panel(
      id: 2, session: .browsing(CaseShelf.State(title: "newcomer", items: 3)))
    store.send(.replaceAndRetitle(newcomer, "edited"))
    #expect(old.title == "first")
    #expect(old.items.count == 100)
    #expect(try browsing(store).title == "edited")
  }
}

/// The same for a case of a stack's screens, an enum: the screen moves in the stack's buffer,
/// and the case's copies are found where the screen's step has it.
@MainActor
@Suite struct KeptScreenCaseCopyTests {
  private func store() -> StoreOf<SessionStack> {
    var state = SessionStack.State()
    state.path.append(.browsing(CaseShelf.State(title: "screen 0")))
    return Store(initialState: state) { SessionStack() }
  }

  private func itemsBuffer(_ store: StoreOf<SessionStack>) -> UnsafeRawPointer? {
    store.core.withState { state -> UnsafeRawPointer? in
      guard let screen = state.pointee.path[id: 0] else { return nil }
      return shelfItemsBuffer(shelf(of: screen))
    }
  }

  private func increment(_ item: Int) -> SessionStack.Action {
    .path(.element(id: 0, action: .browsing(.items(.element(id: item, action: .increment)))))
  }

  private func browsing(
    _ store: StoreOf<SessionStack>
  ) throws -> Store<CaseShelf.State, CaseShelf.Action> {
    let screen = try #require(store.scope(state: \.path, action: .path)[id: 0])
    return try #require(screen.scope(state: .browsing, action: .browsing))
  }

  @Test func aRowActionWritesTheListOfAReadCaseOfAScreenInPlace() throws {
    let store = store()
    let browsing = try browsing(store)
    let items = browsing.scope(state: \.items, action: .items)
    _ = (browsing.title, items.count)
    let before = itemsBuffer(store)
    for item in [3, 4, 3] {
      store.send(increment(item))
      _ = (browsing.title, items.count)
      #expect(itemsBuffer(store) == before)
    }
    #expect(browsing.items[id: 3]?.count == 2)
    #expect(items[id: 4]?.count == 1)
  }

  /// Pushes move the screen to a larger buffer: its case's copies are still let go at its
  /// steps, found where the step has the screen, and no copy stays registered there after.
  @Test func aCaseOfAScreenMovedByPushesIsStillWrittenInPlace() throws {
    let store = store()
    let browsing = try browsing(store)
    _ = browsing.title
    for index in 1...40 {
      store.send(.open(.browsing(CaseShelf.State(title: "screen \(index)", items: 2))))
    }
    let before = itemsBuffer(store)
    store.send(increment(5))
    _ = browsing.title
    #expect(itemsBuffer(store) == before)
    #expect(browsing.items[id: 5]?.count == 1)
    let enumPlace = store.core.withState { state in
      state.pointee.path.entries.storage.withUnsafeBufferPointer {
        UnsafeRawPointer($0.baseAddress!)
          + MemoryLayout<StackState<ShelfSession.State>.Entry>.offset(of: \.element)!
      }
    }
    let caseKey = KeptCopyID.payload(
      of: CaseKey<ShelfSession.State, CaseShelf.State>.browsing.identity)
    #expect(KeptCopies.registered(at: enumPlace, id: caseKey) == 0)
  }

  /// A stack replaced by one whose screen reuses the id and case, and the newcomer changed in
  /// one `send`: the old screen's case store keeps the old screen's shelf.
  @Test func aReplacedStacksScreenCaseStoreIsNotTheNewcomers() throws {
    let store = store()
    let old = try browsing(store)
    _ = old.title
    store.send(increment(1))
    store.send(
      .restartAndRetitle(.browsing(CaseShelf.State(title: "newcomer", items: 3)), "edited"))
    #expect(old.title == "screen 0")
    #expect(old.items.count == 100)
    #expect(old.items[id: 1]?.count == 1)
    #expect(try browsing(store).title == "edited")
  }

  /// A screen that leaves the case in the action of its case's step: the case's store shows
  /// what the step did.
  @Test func aScreenThatLeavesTheCaseShowsWhatTheStepDid() throws {
    let store = store()
    let browsing = try browsing(store)
    _ = browsing.title
    store.send(.path(.element(id: 0, action: .browsing(.retitled("sign out")))))
    #expect(store.state.path[id: 0] == .signedOut)
    #expect(browsing.title == "sign out")
  }
}

/// A screen's store kept once the store its stack was scoped from is let go, with its
/// collection of screen stores: it can no longer tell its screen from a newcomer with its id,
/// so it keeps its last state and ignores sends; its copy does not follow the screen either.
@MainActor
@Suite struct KeptCopyOfAnOrphanedScreenTests {
  @Test func aScreenStoreWhoseCollectionIsGoneKeepsItsLastState() throws {
    // The root and the stack's store are let go; a store scoped to the root's whole state
    // drives it.
    let (proxy, screen): (StoreOf<StackDesk>, Store<ShelfSession.State, ShelfSession.Action>) =
      try {
        var stack = SessionStack.State()
        stack.path.append(.browsing(CaseShelf.State(title: "screen 0", items: 3)))
        let root = Store(initialState: StackDesk.State(stack: stack)) { StackDesk() }
        let desk = root.scope(state: \.stack, action: .stack)
        let screen = try #require(desk.scope(state: \.path, action: .path)[id: 0])
        #expect(shelf(of: screen.state)?.title == "screen 0")
        return (root.scope(state: \.self, action: .whole), screen)
      }()
    // (Scoped once the collection is gone: the screen's store keeps its last state, and so
    // does its case's.)
    let browsing = try #require(screen.scope(state: .browsing, action: .browsing))
    #expect(browsing.title == "screen 0")
    proxy.send(.stack(.path(.element(id: 0, action: .browsing(.retitled("later"))))))
    guard case .browsing(let live) = proxy.state.stack.path[id: 0] else {
      Issue.record("The screen left its case")
      return
    }
    #expect(live.title == "later")
    #expect(shelf(of: screen.state)?.title == "screen 0")
    #expect(browsing.title == "screen 0")
  }
}

extension CaseKey<StackDesk.Action, StackDesk.Action> {
  /// All of the root's actions, for a store of the root's whole state.
  fileprivate static var whole: Self {
    Self({ $0 }) { $0 }
  }
}

/// A screen that presents a shelf in a sheet of its own, beside a session.
private struct ShelfScreen: Reducer {
  struct State: Equatable, Sendable {
    var title: String
    var sheet: CaseShelf.State?
    var session: ShelfSession.State = .signedOut
    /// A destination presented as an enum (`presents` of an enum), as a screen presents its
    /// sheets and alerts.
    var destination: ShelfSession.State?
  }

  enum Action: Sendable {
    case sheet(PresentationAction<CaseShelf.Action>)
    case session(ShelfSession.Action)
    case destination(PresentationAction<ShelfSession.Action>)
    case retitled(String)
  }

  var body: some Reducer<State, Action> {
    Scope(state: \.session, action: .session) { ShelfSession() }
    Reduce { state, action in
      if case .retitled(let title) = action { state.title = title }
      return .none
    }
    .presents(\.sheet, action: .sheet) { CaseShelf() }
    .presents(\.destination, action: .destination) { ShelfSession() }
  }
}

/// A stack of such screens.
private struct ScreenStack: Reducer {
  struct State {
    var path = StackState<ShelfScreen.State>()
  }

  enum Action: Sendable {
    case path(StackAction<ShelfScreen.State, ShelfScreen.Action>)
    /// Replaces the stack with one holding `screen` alone (its id is the first again), then
    /// retitles the screen's sheet, in the same `send`.
    case restartAndRetitleSheet(ShelfScreen.State, String)
    /// The same, retitling the screen's destination's shelf.
    case restartAndRetitleDestination(ShelfScreen.State, String)
  }

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .restartAndRetitleSheet(let screen, let title):
        state.path = [screen]
        return .send(.path(.element(id: 0, action: .sheet(.presented(.retitled(title))))))
      case .restartAndRetitleDestination(let screen, let title):
        state.path = [screen]
        return .send(
          .path(.element(id: 0, action: .destination(.presented(.browsing(.retitled(title)))))))
      case .path:
        return .none
      }
    }
    .navigationStack(\.path, action: .path) { ShelfScreen() }
  }
}

/// A sheet that holds a stack of sessions: a sheet's own navigation.
private struct StackSheet: Reducer {
  struct State {
    var sheet: SessionStack.State?
  }

  enum Action: Sendable {
    case sheet(PresentationAction<SessionStack.Action>)
    /// Presents `sheet` in place of the one shown, then retitles its first screen's shelf,
    /// in the same `send`.
    case replaceAndRetitle(SessionStack.State, String)
  }

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      guard case .replaceAndRetitle(let sheet, let title) = action else { return .none }
      state.sheet = sheet
      return .send(.sheet(.presented(.path(.element(id: 0, action: .browsing(.retitled(title)))))))
    }
    .presents(\.sheet, action: .sheet) { SessionStack() }
  }
}

/// A panel with an id, presented, that presents a shelf in a sheet of its own.
private struct NestedSheets: Reducer {
  struct Panel: Equatable, Identifiable, Sendable {
    let id: Int
    var sheet: CaseShelf.State?
  }

  struct State {
    var panel: Panel?
  }

  enum Action: Sendable {
    case panel(PresentationAction<PanelAction>)
    /// Presents `panel` in place of the one shown, then retitles its sheet, in one `send`.
    case replaceAndRetitle(Panel, String)
  }

  enum PanelAction: Sendable {
    case sheet(PresentationAction<CaseShelf.Action>)
  }

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      guard case .replaceAndRetitle(let panel, let title) = action else { return .none }
      state.panel = panel
      return .send(.panel(.presented(.sheet(.presented(.retitled(title))))))
    }
    .presents(\.panel, action: .panel) {
      EmptyReducer<Panel, PanelAction>().presents(\.sheet, action: .sheet) { CaseShelf() }
    }
  }
}

extension CaseKey<ShelfScreen.Action, PresentationAction<CaseShelf.Action>> {
  fileprivate static var sheet: Self {
    Self(ShelfScreen.Action.sheet) { if case .sheet(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<ShelfScreen.Action, PresentationAction<ShelfSession.Action>> {
  fileprivate static var destination: Self {
    Self(ShelfScreen.Action.destination) { if case .destination(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<ShelfScreen.Action, ShelfSession.Action> {
  fileprivate static var session: Self {
    Self(ShelfScreen.Action.session) { if case .session(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<ScreenStack.Action, StackAction<ShelfScreen.State, ShelfScreen.Action>> {
  fileprivate static var path: Self {
    Self(ScreenStack.Action.path) { if case .path(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<StackSheet.Action, PresentationAction<SessionStack.Action>> {
  fileprivate static var sheet: Self {
    Self(StackSheet.Action.sheet) { if case .sheet(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<NestedSheets.Action, PresentationAction<NestedSheets.PanelAction>> {
  fileprivate static var panel: Self {
    Self(NestedSheets.Action.panel) { if case .panel(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<NestedSheets.PanelAction, PresentationAction<CaseShelf.Action>> {
  fileprivate static var sheet: Self {
    Self(NestedSheets.PanelAction.sheet) { if case .sheet(let a) = $0 { a } else { nil } }
  }
}

/// Children of children: a sheet of a stack's screen, a case of an enum in a part of a screen,
/// a screen of a sheet's stack and a sheet of a sheet. Their stores' copies are let go at
/// their steps too (bench scenarios 36 and 37), and follow their child's identity and the
/// enclosing child's.
@MainActor
@Suite struct KeptNestedCopyTests {
  private func screenStack() -> StoreOf<ScreenStack> {
    var state = ScreenStack.State()
    state.path.append(
      ShelfScreen.State(
        title: "screen", sheet: CaseShelf.State(title: "sheet"),
        session: .browsing(CaseShelf.State(title: "session")),
        destination: .browsing(CaseShelf.State(title: "destination"))))
    return Store(initialState: state) { ScreenStack() }
  }

  private func sheetItems(_ store: StoreOf<ScreenStack>) -> UnsafeRawPointer? {
    store.core.withState { shelfItemsBuffer($0.pointee.path[id: 0]?.sheet) }
  }

  private func sessionItems(_ store: StoreOf<ScreenStack>) -> UnsafeRawPointer? {
    store.core.withState { state -> UnsafeRawPointer? in
      guard let screen = state.pointee.path[id: 0] else { return nil }
      return shelfItemsBuffer(shelf(of: screen.session))
    }
  }

  @Test func aRowActionWritesTheListOfAReadSheetOfAScreenInPlace() throws {
    let store = screenStack()
    let screen = try #require(store.scope(state: \.path, action: .path)[id: 0])
    let sheet = try #require(screen.scope(state: \.sheet, action: .sheet))
    let items = sheet.scope(state: \.items, action: .items)
    _ = (sheet.title, items.count)
    let before = sheetItems(store)
    for item in [2, 3, 2] {
      store.send(
        .path(
          .element(
            id: 0, action: .sheet(.presented(.items(.element(id: item, action: .increment)))))))
      _ = (sheet.title, items.count)
      #expect(sheetItems(store) == before)
    }
    #expect(sheet.items[id: 2]?.count == 2)
    #expect(items[id: 3]?.count == 1)
    // A screen action that reaches no sheet leaves nothing registered where the step had the
    // sheet.
    store.send(.path(.element(id: 0, action: .retitled("again"))))
    let sheetPlace = store.core.withState { state in
      state.pointee.path.entries.storage.withUnsafeBufferPointer {
        UnsafeRawPointer($0.baseAddress!)
          + MemoryLayout<StackState<ShelfScreen.State>.Entry>.offset(of: \.element.sheet)!
      }
    }
    #expect(KeptCopies.registered(at: sheetPlace) == 0)
  }

  /// A case of an enum in a part of a screen: the enum's offset in the screen is not 0.
  @Test func aRowActionWritesTheListOfAReadCaseOfAPartOfAScreenInPlace() throws {
    let store = screenStack()
    let screen = try #require(store.scope(state: \.path, action: .path)[id: 0])
    let session = screen.scope(state: \.session, action: .session)
    let browsing = try #require(session.scope(state: .browsing, action: .browsing))
    _ = browsing.title
    let before = sessionItems(store)
    store.send(
      .path(
        .element(id: 0, action: .session(.browsing(.items(.element(id: 6, action: .increment)))))))
    _ = browsing.title
    #expect(sessionItems(store) == before)
    #expect(browsing.items[id: 6]?.count == 1)
  }

  /// A case of a screen's destinations, an enum presented by the screen: a child of a child of
  /// the screen, found through the sheet where the screen's step has it.
  @Test func aRowActionWritesTheListOfAReadCaseOfAScreensDestinationInPlace() throws {
    let store = screenStack()
    let screen = try #require(store.scope(state: \.path, action: .path)[id: 0])
    let destination = try #require(screen.scope(state: \.destination, action: .destination))
    let browsing = try #require(destination.scope(state: .browsing, action: .browsing))
    _ = browsing.title
    func buffer() -> UnsafeRawPointer? {
      store.core.withState { state -> UnsafeRawPointer? in
        guard let destination = state.pointee.path[id: 0]?.destination else { return nil }
        return shelfItemsBuffer(shelf(of: destination))
      }
    }
    let before = buffer()
    for item in [4, 5, 4] {
      store.send(
        .path(
          .element(
            id: 0,
            action: .destination(
              .presented(.browsing(.items(.element(id: item, action: .increment))))))))
      _ = browsing.title
      #expect(buffer() == before)
    }
    #expect(browsing.items[id: 4]?.count == 2)
  }

  /// A stack replaced by one whose screen reuses the id, with the same destination case,
  /// changed in one `send`: the old screen's destination case store keeps the old shelf.
  @Test func aReplacedScreensDestinationCaseStoreIsNotTheNewcomers() throws {
    let store = screenStack()
    let screen = try #require(store.scope(state: \.path, action: .path)[id: 0])
    let destination = try #require(screen.scope(state: \.destination, action: .destination))
    let browsing = try #require(destination.scope(state: .browsing, action: .browsing))
    _ = browsing.title
    let newcomer = ShelfScreen.State(
      title: "newcomer", destination: .browsing(CaseShelf.State(title: "newcomer's", items: 3)))
    store.send(.restartAndRetitleDestination(newcomer, "edited"))
    #expect(browsing.title == "destination")
    #expect(browsing.items.count == 100)
  }

  /// The sheet closed by the step of its own action, and the screen popped: the sheet's store
  /// shows what the step did, and keeps it.
  @Test func aSheetOfAScreenKeepsItsLastStateThroughThePop() throws {
    let store = screenStack()
    let screen = try #require(store.scope(state: \.path, action: .path)[id: 0])
    let sheet = try #require(screen.scope(state: \.sheet, action: .sheet))
    _ = sheet.title
    store.send(.path(.element(id: 0, action: .sheet(.presented(.retitled("edited"))))))
    store.send(.path(.element(id: 0, action: .sheet(.dismiss))))
    store.send(.path(.popFrom(id: 0)))
    #expect(sheet.title == "edited")
    #expect(sheet.items.count == 100)
  }

  /// A stack replaced by one whose screen reuses the id, with a sheet, and the newcomer's
  /// sheet changed in one `send`: the old screen's sheet store keeps the old sheet.
  @Test func aReplacedScreensSheetStoreIsNotTheNewcomers() throws {
    let store = screenStack()
    let screen = try #require(store.scope(state: \.path, action: .path)[id: 0])
    let sheet = try #require(screen.scope(state: \.sheet, action: .sheet))
    _ = sheet.title
    let newcomer = ShelfScreen.State(
      title: "newcomer", sheet: CaseShelf.State(title: "newcomer's sheet", items: 3))
    store.send(.restartAndRetitleSheet(newcomer, "edited"))
    #expect(store.state.path[id: 0]?.sheet?.title == "edited")
    #expect(sheet.title == "sheet")
    #expect(sheet.items.count == 100)
  }

  /// A sheet whose stack holds one screen. (Made here: a local holding the initial state
  /// until the test's end would share the list, and make the first write copy it.)
  private func stackSheet() -> StoreOf<StackSheet> {
    var stack = SessionStack.State()
    stack.path.append(.browsing(CaseShelf.State(title: "screen 0")))
    return Store(initialState: StackSheet.State(sheet: stack)) { StackSheet() }
  }

  @Test func aRowActionWritesTheListOfAReadScreenOfASheetsStackInPlace() throws {
    let store = stackSheet()
    let sheet = try #require(store.scope(state: \.sheet, action: .sheet))
    let screen = try #require(sheet.scope(state: \.path, action: .path)[id: 0])
    // (The screen's whole state is not read: a store keeps what `state` returned, and that
    // copy would make the write copy the list.)
    let browsing = try #require(screen.scope(state: .browsing, action: .browsing))
    _ = browsing.title
    func buffer() -> UnsafeRawPointer? {
      store.core.withState { state -> UnsafeRawPointer? in
        guard let screen = state.pointee.sheet?.path[id: 0] else { return nil }
        return shelfItemsBuffer(shelf(of: screen))
      }
    }
    let before = buffer()
    store.send(
      .sheet(
        .presented(
          .path(.element(id: 0, action: .browsing(.items(.element(id: 1, action: .increment))))))))
    _ = browsing.title
    #expect(buffer() == before)
    #expect(browsing.items[id: 1]?.count == 1)
    #expect(shelf(of: screen.state)?.items[id: 1]?.count == 1)
  }

  /// A dismissed sheet's screen stores, still held, are never stepped again: the first step
  /// at their place once they are stale takes their copies out of the register, so that
  /// later steps there do not walk them.
  @Test func aDismissedSheetsHeldScreenStoresLeaveTheRegisterAtTheNextStep() throws {
    let store = stackSheet()
    let place = store.core.withState { state in
      UnsafeRawPointer(state) + MemoryLayout<StackSheet.State>.offset(of: \.sheet)!
        + MemoryLayout<SessionStack.State>.offset(of: \.path.entries)!
    }
    let sheet = try #require(store.scope(state: \.sheet, action: .sheet))
    let screen = try #require(sheet.scope(state: \.path, action: .path)[id: 0])
    let browsing = try #require(screen.scope(state: .browsing, action: .browsing))
    _ = browsing.title
    #expect(KeptCopies.registered(at: place, id: .screen(StackElementID(rawValue: 0))) == 2)
    store.send(.sheet(.dismiss))
    var next = SessionStack.State()
    next.path.append(.browsing(CaseShelf.State(title: "next", items: 3)))
    store.send(.replaceAndRetitle(next, "edited"))
    #expect(KeptCopies.registered(at: place, id: .screen(StackElementID(rawValue: 0))) == 0)
    #expect(browsing.title == "screen 0")
    #expect(shelf(of: screen.state)?.title == "screen 0")
  }

  /// A sheet replaced by another whose stack has a screen with the same id and case, and
  /// that screen changed in one `send`: the old screen's stores keep the old screen.
  @Test func aReplacedSheetsScreenStoreIsNotTheNewcomers() throws {
    let store = stackSheet()
    let sheet = try #require(store.scope(state: \.sheet, action: .sheet))
    let screen = try #require(sheet.scope(state: \.path, action: .path)[id: 0])
    let browsing = try #require(screen.scope(state: .browsing, action: .browsing))
    _ = (screen.state, browsing.title)
    var newcomer = SessionStack.State()
    newcomer.path.append(.browsing(CaseShelf.State(title: "newcomer", items: 3)))
    store.send(.replaceAndRetitle(newcomer, "edited"))
    #expect(shelf(of: store.state.sheet!.path[id: 0]!)?.title == "edited")
    #expect(shelf(of: screen.state)?.title == "screen 0")
    #expect(browsing.title == "screen 0")
    #expect(browsing.items.count == 100)
  }

  @Test func aRowActionWritesTheListOfAReadSheetOfASheetInPlace() throws {
    let store = Store(
      initialState: NestedSheets.State(
        panel: NestedSheets.Panel(id: 1, sheet: CaseShelf.State(title: "inner")))
    ) {
      NestedSheets()
    }
    let panel = try #require(store.scope(state: \.panel, action: .panel))
    let sheet = try #require(panel.scope(state: \.sheet, action: .sheet))
    _ = sheet.title
    func buffer() -> UnsafeRawPointer? {
      store.core.withState { shelfItemsBuffer($0.pointee.panel?.sheet) }
    }
    let before = buffer()
    store.send(.panel(.presented(.sheet(.presented(.items(.element(id: 9, action: .increment)))))))
    _ = sheet.title
    #expect(buffer() == before)
    #expect(sheet.items[id: 9]?.count == 1)
  }

  /// A panel with another id replaces the panel, and its sheet (same type, same place)
  /// changes in one `send`: the old panel's sheet store keeps the old sheet.
  @Test func aReplacedPanelsSheetStoreIsNotTheNewcomers() throws {
    let store = Store(
      initialState: NestedSheets.State(
        panel: NestedSheets.Panel(id: 1, sheet: CaseShelf.State(title: "inner")))
    ) {
      NestedSheets()
    }
    let panel = try #require(store.scope(state: \.panel, action: .panel))
    let sheet = try #require(panel.scope(state: \.sheet, action: .sheet))
    _ = sheet.title
    let newcomer = NestedSheets.Panel(id: 2, sheet: CaseShelf.State(title: "newcomer", items: 3))
    store.send(.replaceAndRetitle(newcomer, "edited"))
    #expect(store.state.panel?.sheet?.title == "edited")
    #expect(sheet.title == "inner")
    #expect(sheet.items.count == 100)
  }
}
