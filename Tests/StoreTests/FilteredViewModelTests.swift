import Effects
import Testing

@testable import Store

/// A list whose rows are shown through a view built anew at each read: the open items of
/// the list or of its archive, from a lowest id up, in either order.
private struct Backlog: Reducer {
  struct Item: Equatable, Identifiable, Sendable {
    let id: Int
    var name: String
    var isDone = false
  }

  struct State {
    var items: IdentifiedArrayOf<Item> = []
    var archive: IdentifiedArrayOf<Item> = []
    var showsArchive = false
    var lowestID = 0
    var isDescending = false
    var saved: IdentifiedArrayOf<Item>?

    /// The view: built anew at each read, by `filter` and, in descending order, a sort.
    var open: IdentifiedArrayOf<Item> {
      var view = (showsArchive ? archive : items).filter { !$0.isDone && $0.id >= lowestID }
      if isDescending { view.sort { $0.id > $1.id } }
      return view
    }
  }

  enum Action: Sendable {
    case rows(IdentifiedAction<Int, RowAction>)
    case rename(Int, String)
    case touch(Int)
    case toggleDone(Int)
    case remove(Int)
    case add(Int)
    case archive(Int)
    case setLowestID(Int)
    case toggleArchive
    case toggleOrder
    case save
    case restore
    case refresh([Int])
  }

  enum RowAction: Sendable {
    case rename(String)
  }

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .rows:
        break
      case .rename(let id, let name):
        state.items[id: id]?.name = name
      case .touch(let id):
        // A write of the same value: recorded as a change, compared as none.
        if let name = state.items[id: id]?.name { state.items[id: id]?.name = name }
      case .toggleDone(let id):
        state.items[id: id]?.isDone.toggle()
      case .remove(let id):
        state.items.remove(id: id)
      case .add(let id):
        state.items.append(Item(id: id, name: "new \(id)"))
      case .archive(let id):
        if let item = state.items.remove(id: id) { state.archive.updateOrAppend(item) }
      case .setLowestID(let id):
        state.lowestID = id
      case .toggleArchive:
        state.showsArchive.toggle()
      case .toggleOrder:
        state.isDescending.toggle()
      case .save:
        state.saved = state.items
      case .restore:
        if let saved = state.saved { state.items = saved }
      case .refresh(let ids):
        state.items = IdentifiedArray(ids.map { Item(id: $0, name: "refreshed \($0)") })
      }
      return .none
    }
    .forEach(\.items, action: .rows) {
      Reduce<Item, RowAction> { item, action in
        switch action {
        case .rename(let name): item.name = name
        }
        return .none
      }
    }
  }
}

extension CaseKey<Backlog.Action, IdentifiedAction<Int, Backlog.RowAction>> {
  fileprivate static var rows: Self {
    Self(Backlog.Action.rows) { if case .rows(let a) = $0 { a } else { nil } }
  }
}

/// A list shown through a filtered view, whose rows count the reads of their label.
private struct Labeled: Reducer {
  /// How many times rows' labels were read: each observed row store that checks its row
  /// reads the label again, to compare it with the one it showed.
  final class Reads: Sendable {
    private let storage = Locked(0)
    var count: Int { storage.withLock { $0 } }
    func increment() { storage.withLock { $0 += 1 } }
  }

  struct State {
    var items: IdentifiedArrayOf<Row>
    var shown: IdentifiedArrayOf<Row> { items.filter { !$0.isHidden } }
  }

  struct Row: Equatable, Identifiable, Sendable {
    let id: Int
    var name: String
    var isHidden = false
    let reads: Reads

    var label: String {
      reads.increment()
      return name
    }

    static func == (lhs: Row, rhs: Row) -> Bool {
      lhs.id == rhs.id && lhs.name == rhs.name && lhs.isHidden == rhs.isHidden
    }
  }

  enum Action: Sendable {
    case rename(Int, String)
    case hide(Int)
    case rows(IdentifiedAction<Int, Never>)
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .rename(let id, let name): state.items[id: id]?.name = name
    case .hide(let id): state.items[id: id]?.isHidden = true
    case .rows: break
    }
    return .none
  }
}

extension CaseKey<Labeled.Action, IdentifiedAction<Int, Never>> {
  fileprivate static var rows: Self {
    Self(Labeled.Action.rows) { if case .rows(let a) = $0 { a } else { nil } }
  }
}

@MainActor
@Suite struct FilteredViewModelTests {
  /// The stores of a filtered view's rows learn from the view which rows an action changed,
  /// as a stored collection's do: an action that renames one row of 200 shown has that
  /// row's store alone read its row again (each read its row before: 200 reads an action).
  @Test func aRowActionThroughAFilteredViewHasOnlyThatRowChecked() {
    let reads = Labeled.Reads()
    let rows = (0..<400).map { Labeled.Row(id: $0, name: "\($0)", reads: reads) }
    let store = Store(initialState: Labeled.State(items: IdentifiedArray(rows))) { Labeled() }
    for id in stride(from: 1, to: 400, by: 2) { store.send(.hide(id)) }
    let stores = Array(store.scope(state: \.shown, action: .rows))
    #expect(stores.count == 200)
    let observers = stores.map { row in Tracker { _ = row.label } }
    let before = reads.count
    store.send(.rename(10, "ten"))
    #expect(reads.count - before == 1)
    #expect(observers[5].firings == 1)
    let firings: Int = observers.map(\.firings).reduce(0, +)
    #expect(firings == 1)
    #expect(stores[5].label == "ten")
    // A row leaving the view: its store is let go, and no other row's store reads its row.
    let beforeHiding = reads.count
    store.send(.hide(20))
    #expect(reads.count == beforeHiding)
    let shown = store.scope(state: \.shown, action: .rows)
    #expect(shown[id: 20] == nil)
    #expect(shown.count == 199)
  }

  /// Row stores of a view built anew at each read are notified exactly when their row's name
  /// changed, and read what the view holds, through random renames (by the parent and by the
  /// row's store), writes of the same name, rows leaving and entering the view, removals,
  /// additions, archiving, a switch of the view's source, reordering, saves, restores and
  /// refreshes.
  @Test(arguments: 0..<12 as Range<UInt64>)
  func rowStoresOfAViewBuiltAnewSeeExactlyTheirOwnChanges(seed: UInt64) {
    let warnings = WarningLog()
    let harness = Harness(
      initialState: Backlog.State(), warnings: warnings.handler, reducer: Backlog())
    var random = SeededGenerator(state: seed &* 131 &+ 7)
    let watched = WatchedRows<Int, Backlog.Item, Backlog.RowAction>(name: \.name)
    var renames = 0
    var log: [String] = []
    for id in 0..<10 { harness.send(.add(id)) }
    for step in 0..<400 {
      let view = harness.state.open
      let ids = harness.state.items.ids
      var replaced: Set<Int> = []
      var description = ""
      switch Int.random(in: 0..<100, using: &random) {
      case 0..<20:
        if let id = ids.randomElement(using: &random) {
          renames += 1
          harness.send(.rename(id, "n\(renames)"))
          description = "rename \(id)"
        }
      case 20..<30:
        // Through the row's own store, while the view shows the list.
        if !harness.state.showsArchive, let id = view.ids.randomElement(using: &random),
          let row = harness.store.scope(state: \.open, action: .rows)[id: id]
        {
          renames += 1
          row.send(.rename("s\(renames)"))
          harness.settle()
          description = "rename \(id) through its store"
        }
      case 30..<36:
        if let id = ids.randomElement(using: &random) {
          harness.send(.touch(id))
          description = "touch \(id)"
        }
      case 36..<48:
        if let id = ids.randomElement(using: &random) {
          harness.send(.toggleDone(id))
          description = "toggle done \(id)"
        }
      case 48..<54:
        if let id = ids.randomElement(using: &random) {
          harness.send(.remove(id))
          description = "remove \(id)"
        }
      case 54..<62:
        let id = Int.random(in: 0..<14, using: &random)
        if !ids.contains(id) {
          harness.send(.add(id))
          description = "add \(id)"
        }
      case 62..<66:
        if let id = ids.randomElement(using: &random) {
          harness.send(.archive(id))
          description = "archive \(id)"
        }
      case 66..<72:
        let lowest = Int.random(in: 0..<5, using: &random)
        harness.send(.setLowestID(lowest))
        description = "lowest \(lowest)"
      case 72..<76:
        harness.send(.toggleArchive)
        replaced = Set(harness.state.open.ids)
        description = "toggle archive"
      case 76..<82:
        harness.send(.toggleOrder)
        description = "toggle order"
      case 82..<88:
        harness.send(.save)
        description = "save"
      case 88..<93:
        harness.send(.restore)
        replaced = Set(harness.state.items.ids)
        description = "restore"
      default:
        let kept = Set((0..<4).map { _ in Int.random(in: 0..<14, using: &random) }).sorted()
        harness.send(.refresh(kept))
        replaced = Set(kept)
        description = "refresh \(kept)"
      }
      log.append(description)
      let now = harness.state.open
      let rows = harness.store.scope(state: \.open, action: .rows)
      if rows.ids != now.ids {
        Issue.record(
          "seed \(seed) step \(step): the view's stores list \(rows.ids), the view \(now.ids)")
        return
      }
      guard
        watched.check(
          ids: now.ids, names: { now[id: $0]?.name }, stores: rows, replaced: replaced,
          place: "seed \(seed) step \(step) after \(description)", log: log)
      else { return }
    }
    #expect(warnings.messages.isEmpty, "seed \(seed): \(warnings.messages)")
  }
}
