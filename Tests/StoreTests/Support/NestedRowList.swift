import Effects
import Store

/// A list of rows, each with a list of items and an optional detail, where every level runs a
/// cancellable one-second load: the fixture of the row lifetime, nested store and row
/// observation tests.
enum NestedRowList {
  /// An item or a detail: loads once per second when asked.
  struct Item: Reducer {
    struct State: Equatable, Identifiable, Sendable {
      let id: Int
      var loads = 0
    }
    enum Action: Sendable, Equatable {
      case load
      case loaded
    }
    let clock: TestClock
    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .load:
        return .run { [clock] send in
          try await clock.sleep(for: .seconds(1))
          send(.loaded)
        }
        .cancellable(id: "load", cancelInFlight: true)
      case .loaded:
        state.loads += 1
        return .none
      }
    }
  }

  /// A row with its own load, its items and an optional detail.
  struct Row: Reducer {
    struct State: Equatable, Identifiable, Sendable {
      let id: Int
      var name = ""
      var loads = 0
      var items: IdentifiedArrayOf<Item.State> = []
      var detail: Item.State?
    }
    enum Action: Sendable, Equatable {
      case load
      case loaded
      case items(IdentifiedActionOf<Item>)
      case detail(Item.Action)
      case removeItem(Int)
      case stopItem(Int)
      case openDetail(Int)
    }
    let clock: TestClock
    var body: some ReducerOf<Self> {
      Reduce { state, action in
        switch action {
        case .load:
          return .run { [clock] send in
            try await clock.sleep(for: .seconds(1))
            send(.loaded)
          }
          .cancellable(id: "load", cancelInFlight: true)
        case .loaded:
          state.loads += 1
        case .removeItem(let id):
          state.items.remove(id: id)
        case .stopItem(let id):
          return .cancel(id: "load", inElement: id, of: \State.items)
        case .openDetail(let id):
          state.detail = Item.State(id: id)
        case .items, .detail:
          break
        }
        return .none
      }
      .forEach(\.items, action: .items) { Item(clock: clock) }
      .ifLet(\.detail, action: .detail) { Item(clock: clock) }
    }
  }

  /// The list, with every way of changing an identified array that a feature might use.
  struct List: Reducer {
    struct State: Equatable {
      var rows: IdentifiedArrayOf<Row.State> = []
      var saved: IdentifiedArrayOf<Row.State>?
    }
    enum Action: Sendable, Equatable {
      case rows(IdentifiedActionOf<Row>)
      case addRow(Int, items: [Int], detail: Int?)
      case addItem(Int, Int)
      case renameRow(Int, String)
      case removeOffsets([Int])
      case move([Int], Int)
      case swap(Int, Int)
      case sortDescending
      case removeWhereOdd
      case setNil(Int)
      case filterKeepBelow(Int)
      case removeFirst
      case popLast
      case closeDetail(Int)
      case removeItemFromParent(Int, Int)
      /// Empties the list and fills it again with fresh rows holding items 10 and 11.
      case refresh([Int])
      /// Takes the row out and puts it back first, with its item's and detail's loads and its
      /// name set.
      case reinsert(Int, item: Int, loads: Int, name: String)
      case save
      case restore
    }
    let clock: TestClock
    var body: some ReducerOf<Self> {
      Reduce { state, action in
        switch action {
        case .addRow(let id, let items, let detail):
          var row = Row.State(id: id)
          for item in items { row.items.append(Item.State(id: item)) }
          row.detail = detail.map { Item.State(id: $0) }
          state.rows.append(row)
        case .addItem(let row, let item):
          state.rows[id: row]?.items.append(Item.State(id: item))
        case .renameRow(let id, let name): state.rows[id: id]?.name = name
        case .removeOffsets(let offsets): state.rows.remove(atOffsets: offsets)
        case .move(let source, let destination):
          state.rows.move(fromOffsets: source, toOffset: destination)
        case .swap(let i, let j): state.rows.swapAt(i, j)
        case .sortDescending: state.rows.sort { $0.id > $1.id }
        case .removeWhereOdd: state.rows.removeAll { $0.id % 2 == 1 }
        case .setNil(let id): state.rows[id: id] = nil
        case .filterKeepBelow(let limit): state.rows = state.rows.filter { $0.id < limit }
        case .removeFirst: state.rows.removeFirst()
        case .popLast: _ = state.rows.popLast()
        case .closeDetail(let id): state.rows[id: id]?.detail = nil
        case .removeItemFromParent(let row, let item): state.rows[id: row]?.items.remove(id: item)
        case .refresh(let ids):
          state.rows.removeAll()
          for id in ids {
            var row = Row.State(id: id)
            row.items = [Item.State(id: 10), Item.State(id: 11)]
            state.rows.append(row)
          }
        case .reinsert(let id, let item, let loads, let name):
          if var row = state.rows.remove(id: id) {
            row.items[id: item]?.loads = loads
            row.detail?.loads = loads
            row.name = name
            state.rows.insert(row, at: 0)
          }
        case .save: state.saved = state.rows
        case .restore: if let saved = state.saved { state.rows = saved }
        case .rows: break
        }
        return .none
      }
      .forEach(\.rows, action: .rows) { Row(clock: clock) }
    }
  }
}

extension CaseKey<NestedRowList.Row.Action, IdentifiedActionOf<NestedRowList.Item>> {
  static var items: Self {
    Self(NestedRowList.Row.Action.items) { if case .items(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<NestedRowList.Row.Action, NestedRowList.Item.Action> {
  static var detail: Self {
    Self(NestedRowList.Row.Action.detail) { if case .detail(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<NestedRowList.List.Action, IdentifiedActionOf<NestedRowList.Row>> {
  static var rows: Self {
    Self(NestedRowList.List.Action.rows) { if case .rows(let a) = $0 { a } else { nil } }
  }
}
