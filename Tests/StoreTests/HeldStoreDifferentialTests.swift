import Effects
import Observation
import Testing

@testable import Store

private struct FuzzItem: Reducer {
  struct State: Equatable, Identifiable, Sendable {
    let id: Int
    var n = 0
    var tags: [Int] = []
  }
  enum Action: Sendable { case bump, tag(Int) }
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .bump: state.n += 1
    case .tag(let t): state.tags.append(t)
    }
    return .none
  }
}

private struct FuzzSheet: Reducer {
  struct Inner: Equatable, Identifiable, Sendable {
    var id: Int
    var text = ""
  }
  struct State: Equatable, Identifiable, Sendable {
    var id = 0
    var title = ""
    var items: IdentifiedArrayOf<FuzzItem.State> = []
    var inner: Inner?
    var pane = Pane.none
  }
  enum Pane: Equatable, Sendable {
    case none
    case item(FuzzItem.State)
  }
  enum PaneAction: Sendable { case item(FuzzItem.Action) }
  enum Action: Sendable {
    case retitle(String), items(IdentifiedAction<Int, FuzzItem.Action>), add(Int), remove(Int)
    case inner(InnerAction), showInner(Inner?), sort, reid(Int)
    case pane(PaneAction), setPane(Pane)
  }
  enum InnerAction: Sendable { case write(String) }
  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .retitle(let t): state.title = t
      case .add(let id): if !state.items.contains(id: id) { state.items.append(.init(id: id)) }
      case .remove(let id): state.items.remove(id: id)
      case .showInner(let inner): state.inner = inner
      case .sort: state.items.sort { $0.n > $1.n }
      case .reid(let id): state.id = id
      case .setPane(let pane): state.pane = pane
      case .items, .inner, .pane: break
      }
      return .none
    }
    .forEach(\.items, action: .items) { FuzzItem() }
    Scope(state: \.pane, action: .pane) {
      EmptyReducer().ifCaseLet(.item, action: .item) { FuzzItem() }
    }
    .ifLet(\.inner, action: .inner) {
      Reduce { inner, action in
        if case .write(let text) = action { inner.text += text }
        return .none
      }
    }
  }
}

private struct FuzzRoot: Reducer {
  enum Mode: Equatable, Sendable {
    case none
    case list(FuzzSheet.State)
    case edit(FuzzItem.State)
  }
  struct State: Equatable, Sendable {
    var sheet: FuzzSheet.State?
    var mode = Mode.none
    var path = StackState<FuzzSheet.State>()
  }
  enum ModeAction: Sendable { case list(FuzzSheet.Action), edit(FuzzItem.Action) }
  enum Action: Sendable {
    case sheet(PresentationAction<FuzzSheet.Action>)
    case mode(ModeAction)
    case path(StackAction<FuzzSheet.State, FuzzSheet.Action>)
    case present(FuzzSheet.State?), setMode(Mode), push(FuzzSheet.State), pop
  }
  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .present(let sheet): state.sheet = sheet
      case .setMode(let mode): state.mode = mode
      case .push(let sheet): state.path.append(sheet)
      case .pop: _ = state.path.popLast()
      case .sheet, .mode, .path: break
      }
      return .none
    }
    .presents(\.sheet, action: .sheet) { FuzzSheet() }
    .navigationStack(\.path, action: .path) { FuzzSheet() }
    Scope(state: \.mode, action: .mode) {
      EmptyReducer()
        .ifCaseLet(.list, action: .list) { FuzzSheet() }
        .ifCaseLet(.edit, action: .edit) { FuzzItem() }
    }
  }
}

extension CaseKey<FuzzSheet.Action, IdentifiedAction<Int, FuzzItem.Action>> {
  fileprivate static var items: Self {
    Self(FuzzSheet.Action.items) { if case .items(let a) = $0 { a } else { nil } }
  }
}
extension CaseKey<FuzzSheet.Action, FuzzSheet.InnerAction> {
  fileprivate static var inner: Self {
    Self(FuzzSheet.Action.inner) { if case .inner(let a) = $0 { a } else { nil } }
  }
}
extension CaseKey<FuzzSheet.Action, FuzzSheet.PaneAction> {
  fileprivate static var pane: Self {
    Self(FuzzSheet.Action.pane) { if case .pane(let a) = $0 { a } else { nil } }
  }
}
extension CaseKey<FuzzSheet.PaneAction, FuzzItem.Action> {
  fileprivate static var item: Self {
    Self(FuzzSheet.PaneAction.item) { if case .item(let a) = $0 { a } else { nil } }
  }
}
extension CaseKey<FuzzSheet.Pane, FuzzItem.State> {
  fileprivate static var item: Self {
    Self(FuzzSheet.Pane.item) { if case .item(let a) = $0 { a } else { nil } }
  }
}
extension CaseKey<FuzzRoot.Action, PresentationAction<FuzzSheet.Action>> {
  fileprivate static var sheet: Self {
    Self(FuzzRoot.Action.sheet) { if case .sheet(let a) = $0 { a } else { nil } }
  }
}
extension CaseKey<FuzzRoot.Action, FuzzRoot.ModeAction> {
  fileprivate static var mode: Self {
    Self(FuzzRoot.Action.mode) { if case .mode(let a) = $0 { a } else { nil } }
  }
}
extension CaseKey<FuzzRoot.Action, StackAction<FuzzSheet.State, FuzzSheet.Action>> {
  fileprivate static var path: Self {
    Self(FuzzRoot.Action.path) { if case .path(let a) = $0 { a } else { nil } }
  }
}
extension CaseKey<FuzzRoot.ModeAction, FuzzSheet.Action> {
  fileprivate static var list: Self {
    Self(FuzzRoot.ModeAction.list) { if case .list(let a) = $0 { a } else { nil } }
  }
}
extension CaseKey<FuzzRoot.ModeAction, FuzzItem.Action> {
  fileprivate static var edit: Self {
    Self(FuzzRoot.ModeAction.edit) { if case .edit(let a) = $0 { a } else { nil } }
  }
}
extension CaseKey<FuzzRoot.Mode, FuzzSheet.State> {
  fileprivate static var list: Self {
    Self(FuzzRoot.Mode.list) { if case .list(let a) = $0 { a } else { nil } }
  }
}
extension CaseKey<FuzzRoot.Mode, FuzzItem.State> {
  fileprivate static var edit: Self {
    Self(FuzzRoot.Mode.edit) { if case .edit(let a) = $0 { a } else { nil } }
  }
}

private final class FuzzFirings: Sendable {
  private let storage = Locked(0)
  var value: Int { storage.withLock { $0 } }
  func increment() { storage.withLock { $0 += 1 } }
  func reset() { storage.withLock { $0 = 0 } }
}

private struct SplitMix {
  var state: UInt64
  mutating func next(_ bound: Int) -> Int {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    z ^= z >> 31
    return Int(z % UInt64(bound))
  }
}

/// Random actions on a root whose sheet, enum case and stack screens each hold a list, an
/// optional child and an enum case of their own, run on a store and, alongside, on a plain
/// value with the same reducer. Stores of every kind are taken along the way (a sheet's, a
/// case's, a screen's, and their rows', optional children's and cases' stores), some read
/// after each action, some sent actions, so that the copies stores keep are let go and taken
/// again by the reducers that step their children in place (see `KeptCopies`). A store whose
/// state is there must show what the plain value holds; a send through it must change the root
/// as the same action sent to the root does; and a value read through it inside observation
/// tracking must have told its observer before it shows another value. (300 seeds passed
/// when this was written; a few are run here.)
@MainActor
@Suite struct HeldStoreDifferentialTests {
  private func sheetAction(_ r: inout SplitMix, _ sheet: FuzzSheet.State) -> FuzzSheet.Action {
    let ids = sheet.items.ids
    switch r.next(8) {
    case 0: return .retitle("t\(r.next(100))")
    case 1: return .add(r.next(6))
    case 2: return ids.isEmpty ? .add(1) : .remove(ids[r.next(ids.count)])
    case 3: return .showInner(r.next(3) == 0 ? nil : .init(id: r.next(3)))
    case 4: return .sort
    case 5 where sheet.inner != nil: return .inner(.write("x"))
    case 5 where r.next(2) == 0: return .reid(r.next(3))
    case 5: return .setPane(r.next(3) == 0 ? .none : .item(.init(id: r.next(3))))
    case 6 where r.next(2) == 0:
      guard case .item = sheet.pane else { return .setPane(.item(.init(id: 1))) }
      return .pane(.item(r.next(2) == 0 ? .bump : .tag(r.next(9))))
    default:
      guard !ids.isEmpty else { return .add(2) }
      let id = ids[r.next(ids.count)]
      return .items(.element(id: id, action: r.next(2) == 0 ? .bump : .tag(r.next(9))))
    }
  }

  private func newSheet(_ r: inout SplitMix) -> FuzzSheet.State {
    FuzzSheet.State(
      id: r.next(3), title: "s\(r.next(10))",
      items: IdentifiedArray((0..<r.next(4)).map { FuzzItem.State(id: $0) }))
  }

  private func action(_ r: inout SplitMix, _ state: FuzzRoot.State) -> FuzzRoot.Action {
    switch r.next(10) {
    case 0: return .present(r.next(3) == 0 ? nil : newSheet(&r))
    case 1:
      switch r.next(3) {
      case 0: return .setMode(.none)
      case 1: return .setMode(.list(newSheet(&r)))
      default: return .setMode(.edit(.init(id: r.next(3))))
      }
    case 2: return .push(newSheet(&r))
    case 3: return .pop
    case 4, 5:
      guard let sheet = state.sheet else { return .present(newSheet(&r)) }
      return .sheet(.presented(sheetAction(&r, sheet)))
    case 6:
      switch state.mode {
      case .list(let sheet): return .mode(.list(sheetAction(&r, sheet)))
      case .edit: return .mode(.edit(r.next(2) == 0 ? .bump : .tag(r.next(9))))
      case .none: return .setMode(.list(newSheet(&r)))
      }
    default:
      let ids = state.path.ids
      guard !ids.isEmpty else { return .push(newSheet(&r)) }
      let id = ids[r.next(ids.count)]
      return .path(.element(id: id, action: sheetAction(&r, state.path[id: id]!)))
    }
  }

  /// A held store, with what the plain state says it should show while it is present.
  private struct Held {
    let name: String
    let isPresent: @MainActor () -> Bool
    let check: @MainActor (FuzzRoot.State) -> Bool
    /// Sends a random action through the store; returns the root's action for it.
    let send: @MainActor (inout SplitMix) -> FuzzRoot.Action
    let watches: [Watch]
  }

  /// A value read through a store inside observation tracking, and whether it was told of a
  /// change since.
  @MainActor
  private final class Watch {
    let name: String
    let tracked: @MainActor () -> Any
    /// Whether the value now is the one seen.
    let isSeen: @MainActor (Any) -> Bool
    let fired = FuzzFirings()
    var seen: Any = 0

    init(
      _ name: String, tracked: @escaping @MainActor () -> Any,
      isSeen: @escaping @MainActor (Any) -> Bool
    ) {
      self.name = name
      self.tracked = tracked
      self.isSeen = isSeen
      observe()
    }

    func observe() {
      withObservationTracking {
        seen = tracked()
      } onChange: { [fired] in
        fired.increment()
      }
    }
  }

  private func watch<S, V: Equatable>(
    _ name: String, _ store: Store<S, some Any>, _ path: KeyPath<S, V>
  ) -> Watch {
    Watch(
      name, tracked: { store[dynamicMember: path] },
      isSeen: { seen in store.core.withState { $0.pointee[keyPath: path] } == seen as? V })
  }

  private func held<S: Equatable, A>(
    _ name: String, _ store: Store<S, A>, _ expected: @escaping (FuzzRoot.State) -> S?,
    _ make: @escaping (inout SplitMix, S) -> A, _ embed: @escaping (A) -> FuzzRoot.Action,
    watches: [Watch] = []
  ) -> Held {
    Held(
      name: name, isPresent: { store.core.isPresent },
      check: { plain in
        let shown = store.state
        return expected(plain) == shown
      },
      send: { r in
        let action = make(&r, store.core.withState { $0.pointee })
        store.send(action)
        return embed(action)
      }, watches: watches)
  }

  private func itemAction(_ r: inout SplitMix, _: FuzzItem.State) -> FuzzItem.Action {
    r.next(2) == 0 ? .bump : .tag(r.next(9))
  }

  /// The stores of the parts of a sheet's store, with where each sheet is in the plain state.
  private func parts(
    of sheet: Store<FuzzSheet.State, FuzzSheet.Action>, _ name: String,
    _ find: @escaping (FuzzRoot.State) -> FuzzSheet.State?, _ r: inout SplitMix,
    embed: @escaping (FuzzSheet.Action) -> FuzzRoot.Action
  ) -> [Held] {
    var result = [
      held(
        name, sheet, find, sheetAction, embed,
        watches: [
          watch(name + ".title", sheet, \.title), watch(name + ".items", sheet, \.items),
          watch(name + ".inner", sheet, \.inner), watch(name + ".state", sheet, \.self),
        ])
    ]
    if let inner = sheet.scope(state: \.inner, action: .inner) {
      result.append(
        held(
          "\(name).inner", inner, { find($0)?.inner }, { r, _ in .write("\(r.next(9))") },
          { embed(.inner($0)) }))
    }
    if let item = sheet.scope(state: \.pane, action: .pane).scope(state: .item, action: .item) {
      result.append(
        held(
          "\(name).pane.item", item,
          { if case .item(let s) = find($0)?.pane { s } else { nil } }, itemAction,
          { embed(.pane(.item($0))) }, watches: [watch("\(name).pane.item.n", item, \.n)]))
    }
    let rows = sheet.scope(state: \.items, action: .items)
    for id in rows.ids where r.next(2) == 0 {
      result.append(
        held(
          "\(name).items[\(id)]", rows[id: id]!, { find($0)?.items[id: id] }, itemAction,
          { embed(.items(.element(id: id, action: $0))) },
          watches: [
            watch("\(name).items[\(id)].n", rows[id: id]!, \.n),
            watch("\(name).items[\(id)].tags", rows[id: id]!, \.tags),
          ]))
    }
    return result
  }

  @Test(arguments: 0..<12) func heldStoresShowAndChangeWhatAPlainReduceDoes(seed: Int) {
    var r = SplitMix(state: UInt64(seed) &* 7919)
    let reducer = FuzzRoot()
    var plain = FuzzRoot.State()
    let harness = Harness(initialState: plain, warnings: WarningLog().handler, reducer: reducer)
    let store = harness.store
    var stores: [Held] = []
    for step in 0..<150 {
      let action = action(&r, plain)
      _ = reducer.reduce(into: &plain, action: action)
      store.send(action)
      let context = "seed \(seed) step \(step) \(action)"
      if store.core.withState({ $0.pointee }) != plain {
        Issue.record("root differs at \(context)")
        return
      }
      // Take stores now and then; read them now and then.
      if r.next(3) == 0, let sheet = store.scope(state: \.sheet, action: .sheet) {
        stores += parts(of: sheet, "sheet", { $0.sheet }, &r) { .sheet(.presented($0)) }
      }
      let modeStore = store.scope(state: \.mode, action: .mode)
      if r.next(3) == 0, let list = modeStore.scope(state: .list, action: .list) {
        stores += parts(
          of: list, "list", { if case .list(let s) = $0.mode { s } else { nil } }, &r
        ) { .mode(.list($0)) }
      }
      if r.next(3) == 0, let edit = modeStore.scope(state: .edit, action: .edit) {
        stores.append(
          held(
            "edit", edit, { if case .edit(let s) = $0.mode { s } else { nil } }, itemAction,
            { .mode(.edit($0)) }))
      }
      if r.next(3) == 0 {
        let screens = store.scope(state: \.path, action: .path)
        for id in screens.ids where r.next(2) == 0 {
          stores += parts(of: screens[id: id]!, "screen \(id)", { $0.path[id: id] }, &r) {
            .path(.element(id: id, action: $0))
          }
        }
      }
      if !stores.isEmpty, r.next(2) == 0 {
        let held = stores[r.next(stores.count)]
        let wasPresent = held.isPresent()
        let sent = held.send(&r)
        if wasPresent { _ = reducer.reduce(into: &plain, action: sent) }
        if store.core.withState({ $0.pointee }) != plain {
          Issue.record(
            """
            root differs after a send through \(held.name) (present: \(wasPresent)): \(sent), \
            \(context)
            """)
          return
        }
      }
      for held in stores where held.isPresent() {
        for watch in held.watches {
          if watch.fired.value == 0, !watch.isSeen(watch.seen) {
            Issue.record("\(watch.name) changed unseen at \(context)")
            return
          }
          if watch.fired.value > 0 || r.next(4) == 0 {
            watch.fired.reset()
            watch.observe()
          }
        }
      }
      guard r.next(2) == 0 else { continue }
      for held in stores where held.isPresent() {
        if !held.check(plain) {
          Issue.record("\(held.name) shows another state at \(context)")
          return
        }
      }
    }
  }
}
