import Effects
import Observation
import Testing

@testable import Store

/// A list of rows hosted in a sheet, in an enum's case and in a stack's screen: the fixture of
/// the row store hunt's model test.
enum HuntBoard {
  struct Item: Reducer {
    struct State: Equatable, Identifiable, Sendable {
      let id: Int
      var title = ""
    }
    enum Action: Sendable, Equatable {
      case rename(String)
    }
    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .rename(let title): state.title = title
      }
      return .none
    }
  }

  struct Sheet: Reducer {
    struct State: Equatable, Sendable {
      var rows: IdentifiedArrayOf<Item.State> = []
      var saved: IdentifiedArrayOf<Item.State>?
    }
    enum Action: Sendable, Equatable {
      case rows(IdentifiedActionOf<Item>)
      case add(Int)
      case remove(Int)
      case rename(Int, String)
      case refresh([Int])
      case save
      case restore
      case sortDescending
      case swap(Int, Int)
    }
    var body: some ReducerOf<Self> {
      Reduce { state, action in
        switch action {
        case .add(let id): state.rows.append(Item.State(id: id))
        case .remove(let id): state.rows.remove(id: id)
        case .rename(let id, let title): state.rows[id: id]?.title = title
        case .refresh(let ids):
          state.rows.removeAll()
          for id in ids { state.rows.append(Item.State(id: id)) }
        case .save: state.saved = state.rows
        case .restore: if let saved = state.saved { state.rows = saved }
        case .sortDescending: state.rows.sort { $0.id > $1.id }
        case .swap(let i, let j): state.rows.swapAt(i, j)
        case .rows: break
        }
        return .none
      }
      .forEach(\.rows, action: .rows) { Item() }
    }
  }

  struct Mode: Reducer {
    enum State: Equatable, Sendable {
      case list(Sheet.State)
      case empty
    }
    enum Action: Sendable, Equatable {
      case list(Sheet.Action)
    }
    var body: some ReducerOf<Self> {
      EmptyReducer()
        .ifCaseLet(.list, action: .list) { Sheet() }
    }
  }

  struct Root: Reducer {
    struct State: Equatable {
      var sheet: Sheet.State?
      var mode = Mode.State.empty
      var path = StackState<Sheet.State>()
    }
    enum Action: Sendable, Equatable {
      case sheet(Sheet.Action)
      case mode(Mode.Action)
      case path(StackActionOf<Sheet>)
      case setHost(Host, Sheet.State?)
      case reopenHost(Host, Sheet.State)
    }
    var body: some ReducerOf<Self> {
      Scope(state: \.mode, action: .mode) { Mode() }
      Reduce { state, action in
        switch action {
        case .setHost(.sheet, let sheet): state.sheet = sheet
        case .setHost(.mode, let sheet): state.mode = sheet.map { .list($0) } ?? .empty
        case .setHost(.screen, let sheet):
          state.path.removeAll()
          if let sheet { state.path.append(sheet) }
        case .reopenHost(let host, let sheet):
          return .concatenate(.send(.setHost(host, nil)), .send(.setHost(host, sheet)))
        case .sheet, .mode, .path: break
        }
        return .none
      }
      .ifLet(\.sheet, action: .sheet) { Sheet() }
      .navigationStack(\.path, action: .path) { Sheet() }
    }
  }

  /// Where the list lies.
  enum Host: Sendable, Equatable, CaseIterable {
    case sheet, mode, screen
  }
}

extension CaseKey<HuntBoard.Sheet.Action, IdentifiedActionOf<HuntBoard.Item>> {
  static var rows: Self {
    Self(HuntBoard.Sheet.Action.rows) { if case .rows(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<HuntBoard.Root.Action, HuntBoard.Sheet.Action> {
  static var sheet: Self {
    Self(HuntBoard.Root.Action.sheet) { if case .sheet(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<HuntBoard.Root.Action, HuntBoard.Mode.Action> {
  static var mode: Self {
    Self(HuntBoard.Root.Action.mode) { if case .mode(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<HuntBoard.Root.Action, StackActionOf<HuntBoard.Sheet>> {
  static var path: Self {
    Self(HuntBoard.Root.Action.path) { if case .path(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<HuntBoard.Mode.State, HuntBoard.Sheet.State> {
  static var list: Self {
    Self(HuntBoard.Mode.State.list) { if case .list(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<HuntBoard.Mode.Action, HuntBoard.Sheet.Action> {
  static var list: Self {
    Self(HuntBoard.Mode.Action.list) { if case .list(let a) = $0 { a } else { nil } }
  }
}

@MainActor
@Suite struct RowStoreHuntTests {
  typealias Root = HuntBoard.Root
  typealias Sheet = HuntBoard.Sheet
  typealias Host = HuntBoard.Host

  /// The list's state in `host`, if it is there.
  func list(_ state: Root.State, _ host: Host) -> Sheet.State? {
    switch host {
    case .sheet: return state.sheet
    case .mode:
      if case .list(let list) = state.mode { return list }
      return nil
    case .screen: return state.path.first
    }
  }

  /// The store of the list in `host`, as a view scopes to it.
  func listStore(_ store: StoreOf<Root>, _ host: Host) -> StoreOf<Sheet>? {
    switch host {
    case .sheet: return store.scope(state: \.sheet, action: .sheet)
    case .mode: return store.scope(state: \.mode, action: .mode).scope(state: .list, action: .list)
    case .screen: return store.scope(state: \.path, action: .path).first
    }
  }

  /// Sends `action` to the list in `host`.
  func send(_ action: Sheet.Action, _ host: Host, _ harness: Harness<Root>) {
    guard list(harness.state, host) != nil else { return }
    switch host {
    case .sheet: harness.send(.sheet(action))
    case .mode: harness.send(.mode(.list(action)))
    case .screen:
      guard let id = harness.state.path.ids.first else { return }
      harness.send(.path(.element(id: id, action: action)))
    }
  }

  /// Row stores of a list in a sheet, an enum's case or a stack's screen, observed as a view
  /// observes them, through random renames (by the parent and through the row's store),
  /// removals, additions, refreshes, restores of a saved copy, sorts, swaps, and the host
  /// closed and opened again (in two sends, or in one): each observer fires exactly when its
  /// row's title changed, each store reads what the state holds, and a send through the store
  /// of a row that went is refused with one warning and changes nothing.
  @Test(arguments: Host.allCases, 0..<6 as Range<UInt64>)
  func hostedRowObserversAreNotifiedExactlyForTheirOwnRow(host: Host, seed: UInt64) {
    let warnings = WarningLog()
    let harness = Harness(
      initialState: Root.State(), warnings: warnings.handler, reducer: Root())
    var random = SeededGenerator(state: seed &* 131 &+ 7)
    var watched = WatchedRows<Int, HuntBoard.Item.State, HuntBoard.Item.Action>(name: \.title)
    var renames = 0
    var log: [String] = []
    harness.send(.setHost(host, Sheet.State(rows: [.init(id: 0), .init(id: 1), .init(id: 2)])))
    var staleSends = 0
    for step in 0..<300 {
      let ids = list(harness.state, host)?.rows.ids ?? []
      let rowStores = listStore(harness.store, host)?.scope(state: \.rows, action: .rows)
      var held: [Int: Store<HuntBoard.Item.State, HuntBoard.Item.Action>] = [:]
      for id in ids { held[id] = rowStores?[id: id] }
      var replaced: Set<Int> = []
      var description = ""
      switch Int.random(in: 0..<100, using: &random) {
      case 0..<30:
        if let id = ids.randomElement(using: &random) {
          renames += 1
          send(.rename(id, "n\(renames)"), host, harness)
          replaced = [id]
          description = "rename \(id)"
        }
      case 30..<40:
        if let id = ids.randomElement(using: &random),
          let row = listStore(harness.store, host)?.scope(state: \.rows, action: .rows)[id: id]
        {
          renames += 1
          row.send(.rename("r\(renames)"))
          replaced = [id]
          description = "row rename \(id)"
        }
      case 40..<48:
        if let id = ids.randomElement(using: &random) {
          send(.remove(id), host, harness)
          description = "remove \(id)"
        }
      case 48..<58:
        let id = Int.random(in: 0..<6, using: &random)
        if !ids.isEmpty || list(harness.state, host) != nil, !ids.contains(id) {
          send(.add(id), host, harness)
          description = "add \(id)"
        }
      case 58..<64:
        let kept = Set((0..<3).map { _ in Int.random(in: 0..<6, using: &random) }).sorted()
        send(.refresh(kept), host, harness)
        replaced = Set(kept)
        description = "refresh \(kept)"
      case 64..<70:
        send(.save, host, harness)
        description = "save"
      case 70..<76:
        send(.restore, host, harness)
        replaced = Set(list(harness.state, host)?.rows.ids ?? [])
        description = "restore"
      case 76..<82:
        send(.sortDescending, host, harness)
        description = "sort"
      case 82..<88:
        if ids.count > 1 {
          let i = Int.random(in: 0..<ids.count, using: &random)
          let j = Int.random(in: 0..<ids.count, using: &random)
          send(.swap(i, j), host, harness)
          description = "swap \(i) \(j)"
        }
      case 88..<94:
        harness.send(.setHost(host, nil))
        description = "close"
      case 94..<97:
        let rows = (0..<3).map { HuntBoard.Item.State(id: $0) }
        harness.send(.reopenHost(host, Sheet.State(rows: IdentifiedArrayOf(rows))))
        replaced = [0, 1, 2]
        description = "close and reopen in one send"
      default:
        let rows = (0..<3).map { HuntBoard.Item.State(id: $0) }
        harness.send(.setHost(host, Sheet.State(rows: IdentifiedArrayOf(rows))))
        description = "reopen"
      }
      log.append(description)
      let now = list(harness.state, host)?.rows.ids ?? []
      for (id, store) in held.sorted(by: { $0.key < $1.key }) where !now.contains(id) {
        let before = harness.state
        let warned = warnings.messages.count
        store.send(.rename("stale"))
        staleSends += 1
        if warnings.messages.count != warned + 1 || harness.state != before {
          Issue.record(
            "\(host) seed \(seed) step \(step): a send to removed row \(id) warned \(warnings.messages.count - warned) times; state changed: \(harness.state != before); \(log.suffix(6))"
          )
          return
        }
      }
      guard let stores = listStore(harness.store, host)?.scope(state: \.rows, action: .rows)
      else {
        watched = WatchedRows(name: \.title)
        continue
      }
      let names = list(harness.state, host)
      guard
        watched.check(
          ids: names?.rows.ids ?? [], names: { names?.rows[id: $0]?.title },
          stores: stores, replaced: replaced, place: "\(host) seed \(seed) step \(step)",
          log: log)
      else { return }
    }
    #expect(warnings.messages.count == staleSends, "\(warnings.messages)")
  }
}

extension RowStoreHuntTests {
  /// A screen's own change notifies the observers of what was read of the screen, not those
  /// of the stack's list of screens.
  @Test func aScreenActionDoesNotNotifyTheStackList() {
    let harness = Harness(initialState: Root.State(), reducer: Root())
    harness.send(.setHost(.screen, HuntBoard.Sheet.State(rows: [.init(id: 1)])))
    let screens = harness.store.scope(state: \.path, action: .path)
    let screen = screens[0]
    let list = Tracker { _ = harness.store.scope(state: \.path, action: .path).count }
    let title = Tracker { _ = screen.rows }
    screen.send(.rename(1, "a"))
    #expect(title.firings == 1)
    #expect(list.firings == 0)
    screen.send(.rows(.element(id: 1, action: .rename("b"))))
    #expect(list.firings == 0)
    let id = harness.state.path.ids[0]
    harness.send(.path(.element(id: id, action: .rename(1, "c"))))
    #expect(list.firings == 0)
  }
}

extension RowStoreHuntTests {
  /// The store of a row removed, or of a row whose host closed, is not told of it and reads
  /// the row as it last was, also once the host is opened again with rows of the same ids.
  @Test(arguments: HuntBoard.Host.allCases)
  func removedRowsObserversAreNotToldAndReadTheLastState(host: HuntBoard.Host) {
    let harness = Harness(initialState: Root.State(), reducer: Root())
    harness.send(.setHost(host, HuntBoard.Sheet.State(rows: [.init(id: 1), .init(id: 2)])))
    let rows = listStore(harness.store, host)!.scope(state: \.rows, action: .rows)
    let one = rows[0]
    let two = rows[1]
    one.send(.rename("a"))
    two.send(.rename("b"))
    let viewOne = Tracker { _ = one.title }
    let viewTwo = Tracker { _ = two.title }
    send(.remove(1), host, harness)
    #expect(viewOne.firings == 0)
    #expect(one.title == "a")
    send(.rename(2, "c"), host, harness)
    #expect(viewTwo.firings == 1)
    viewTwo.observe()
    harness.send(.setHost(host, nil))
    #expect(viewTwo.firings == 1)
    #expect(two.title == "c")
    harness.send(.setHost(host, HuntBoard.Sheet.State(rows: [.init(id: 1), .init(id: 2)])))
    #expect(viewOne.firings == 0)
    #expect(viewTwo.firings == 1)
    #expect(one.title == "a")
    #expect(two.title == "c")
  }
}

/// An observer of a row's title that forwards each new title, with "!" appended, to another
/// row through that row's store, from `onChange`, and watches again.
@MainActor
final class TitleForwarder {
  var store: Store<HuntBoard.Item.State, HuntBoard.Item.Action>?
  var target: (() -> Store<HuntBoard.Item.State, HuntBoard.Item.Action>?)?
  var sent = 0
  func watch() {
    guard let store else { return }
    withObservationTracking {
      _ = store.title
    } onChange: { [weak self] in
      MainActor.assumeIsolated {
        guard let self, let source = self.store else { return }
        // Reads the new title (onChange comes after the change), and forwards it.
        let title = source.title
        if let target = self.target?(), !title.hasSuffix("!") {
          self.sent += 1
          target.send(.rename(title + "!"))
        }
        self.watch()
      }
    }
  }
}

extension RowStoreHuntTests {
  /// An observer that forwards row 0's title to row 1 through row 1's store, from `onChange`,
  /// while rows come and go and the host closes and opens: row 1 follows, its store reads what
  /// the state holds, and nothing is refused.
  @Test(arguments: HuntBoard.Host.allCases, 0..<10 as Range<UInt64>)
  func anObserverForwardingThroughARowStoreIsFollowed(host: HuntBoard.Host, seed: UInt64) {
    let warnings = WarningLog()
    let harness = Harness(
      initialState: Root.State(), warnings: warnings.handler, reducer: Root())
    var random = SeededGenerator(state: seed &* 977 &+ 3)
    harness.send(.setHost(host, HuntBoard.Sheet.State(rows: [.init(id: 0), .init(id: 1)])))
    let reactor = TitleForwarder()
    func rows() -> IdentifiedStores<Int, HuntBoard.Item.State, HuntBoard.Item.Action>? {
      listStore(harness.store, host)?.scope(state: \.rows, action: .rows)
    }
    reactor.target = { rows()?[id: 1] }
    var log: [String] = []
    var renames = 0
    for step in 0..<300 {
      if reactor.store == nil || rows()?[id: 0] !== reactor.store {
        reactor.store = rows()?[id: 0]
        reactor.watch()
      }
      let ids = list(harness.state, host)?.rows.ids ?? []
      var description = ""
      switch Int.random(in: 0..<100, using: &random) {
      case 0..<40:
        renames += 1
        if ids.contains(0) {
          send(.rename(0, "n\(renames)"), host, harness)
          description = "rename 0 n\(renames)"
        }
      case 40..<55:
        let id = Int.random(in: 0..<2, using: &random)
        if ids.contains(id) {
          send(.remove(id), host, harness)
        } else {
          send(.add(id), host, harness)
        }
        description = "toggle \(id)"
      case 55..<65:
        send(.refresh([0, 1]), host, harness)
        description = "refresh"
      case 65..<75:
        send(.save, host, harness)
        description = "save"
      case 75..<85:
        send(.restore, host, harness)
        description = "restore"
      case 85..<92:
        harness.send(.setHost(host, nil))
        description = "close"
      default:
        harness.send(.setHost(host, HuntBoard.Sheet.State(rows: [.init(id: 0), .init(id: 1)])))
        description = "reopen"
      }
      log.append(description)
      guard let state = list(harness.state, host) else { continue }
      // Row 1 follows row 0's title (plus "!"), when both are there and row 0 was renamed.
      if description.hasPrefix("rename 0"), let one = state.rows[id: 1],
        let zero = state.rows[id: 0]
      {
        if one.title != zero.title + "!" {
          Issue.record(
            "\(host) seed \(seed) step \(step): row 1 is \(one.title), row 0 \(zero.title); \(log.suffix(8)); \(warnings.messages.suffix(2))"
          )
          return
        }
      }
      if let store = rows()?[id: 1], store.title != state.rows[id: 1]?.title {
        Issue.record(
          "\(host) seed \(seed) step \(step): row 1's store reads \(store.title), state \(state.rows[id: 1]?.title ?? "-")"
        )
        return
      }
    }
    #expect(reactor.sent > 0)
    #expect(warnings.messages.isEmpty, "\(warnings.messages.prefix(3))")
  }
}
