import Effects
import Testing

@testable import Store

/// Checks that the effects of rows, of rows' items and of rows' optional details end exactly
/// when their identity leaves the state, whichever mutation of the identified array removes
/// it, by running random actions against a plain model of which loads are in flight.
@MainActor
@Suite struct RowLifetimeModelTests {
  typealias List = NestedRowList.List

  /// What the model knows of an item or a detail.
  fileprivate struct ModelItem: Equatable {
    var id: Int
    var loads = 0
    var isLoading = false
  }

  /// What the model knows of a row.
  fileprivate struct ModelRow: Equatable {
    var id: Int
    var loads = 0
    var isLoading = false
    var items: [ModelItem] = [ModelItem(id: 10), ModelItem(id: 11)]
    var detail: ModelItem?

    var loadingCount: Int {
      (isLoading ? 1 : 0) + items.filter(\.isLoading).count + (detail?.isLoading == true ? 1 : 0)
    }

    /// The row as the state shows it: without what is in flight.
    var settled: ModelRow {
      var row = self
      row.isLoading = false
      row.items = items.map { ModelItem(id: $0.id, loads: $0.loads) }
      row.detail = detail.map { ModelItem(id: $0.id, loads: $0.loads) }
      return row
    }

    /// Counts every load in flight as landed.
    mutating func land() {
      if isLoading { loads += 1 }
      isLoading = false
      for index in items.indices where items[index].isLoading {
        items[index].loads += 1
        items[index].isLoading = false
      }
      if detail?.isLoading == true {
        detail?.loads += 1
        detail?.isLoading = false
      }
    }
  }

  fileprivate static func snapshot(_ state: List.State) -> [ModelRow] {
    state.rows.map { row in
      ModelRow(
        id: row.id, loads: row.loads,
        items: row.items.map { ModelItem(id: $0.id, loads: $0.loads) },
        detail: row.detail.map { ModelItem(id: $0.id, loads: $0.loads) })
    }
  }

  @Test(arguments: 0..<12 as Range<UInt64>)
  func randomListActionsEndExactlyTheEffectsOfWhatWasRemoved(seed: UInt64) async {
    let clock = TestClock()
    let warnings = WarningLog()
    let harness = Harness(
      initialState: List.State(), warnings: warnings.handler, reducer: List(clock: clock))
    var random = SeededGenerator(state: seed &* 7919 &+ 13)
    var model: [ModelRow] = []
    var log: [String] = []
    func randomRow() -> Int? {
      model.isEmpty ? nil : Int.random(in: 0..<model.count, using: &random)
    }
    func randomItem(of row: Int) -> Int? {
      model[row].items.isEmpty
        ? nil : Int.random(in: 0..<model[row].items.count, using: &random)
    }
    for step in 0..<400 {
      var description = ""
      switch Int.random(in: 0..<100, using: &random) {
      case 0..<12:
        let id = Int.random(in: 0..<8, using: &random)
        if !model.contains(where: { $0.id == id }) {
          harness.send(.addRow(id, items: [10, 11], detail: nil))
          model.append(ModelRow(id: id))
          description = "addRow \(id)"
        }
      case 12..<24:
        if let p = randomRow() {
          harness.send(.rows(.element(id: model[p].id, action: .load)))
          model[p].isLoading = true
          description = "load row \(model[p].id)"
        }
      case 24..<36:
        if let p = randomRow(), let q = randomItem(of: p) {
          let item = model[p].items[q].id
          harness.send(
            .rows(.element(id: model[p].id, action: .items(.element(id: item, action: .load)))))
          model[p].items[q].isLoading = true
          description = "load item \(model[p].id)/\(item)"
        }
      case 36..<42:
        if let p = randomRow() {
          let detail = Int.random(in: 5...6, using: &random)
          harness.send(.rows(.element(id: model[p].id, action: .openDetail(detail))))
          // A detail replaced by one with the same id is the same detail: its load goes on.
          let isLoading = model[p].detail?.id == detail && model[p].detail?.isLoading == true
          model[p].detail = ModelItem(id: detail, isLoading: isLoading)
          description = "openDetail \(model[p].id) \(detail)"
        }
      case 42..<48:
        if let p = randomRow(), model[p].detail != nil {
          harness.send(.rows(.element(id: model[p].id, action: .detail(.load))))
          model[p].detail?.isLoading = true
          description = "load detail \(model[p].id)"
        }
      case 48..<51:
        if let p = randomRow() {
          harness.send(.closeDetail(model[p].id))
          model[p].detail = nil
          description = "closeDetail \(model[p].id)"
        }
      case 51..<55:
        if let p = randomRow(), let q = randomItem(of: p) {
          let item = model[p].items[q].id
          if Bool.random(using: &random) {
            harness.send(.rows(.element(id: model[p].id, action: .removeItem(item))))
            description = "row removes item \(model[p].id)/\(item)"
          } else {
            harness.send(.removeItemFromParent(model[p].id, item))
            description = "list removes item \(model[p].id)/\(item)"
          }
          model[p].items.remove(at: q)
        }
      case 55..<58:
        if let p = randomRow(), let q = randomItem(of: p) {
          harness.send(.rows(.element(id: model[p].id, action: .stopItem(model[p].items[q].id))))
          model[p].items[q].isLoading = false
          description = "stopItem \(model[p].id)/\(model[p].items[q].id)"
        }
      case 58..<63:
        if let p = randomRow() {
          harness.send(.setNil(model[p].id))
          description = "setNil \(model[p].id)"
          model.remove(at: p)
        }
      case 63..<66:
        if !model.isEmpty {
          let offsets = (0..<Int.random(in: 1...2, using: &random)).map { _ in
            Int.random(in: 0..<model.count, using: &random)
          }
          harness.send(.removeOffsets(offsets))
          let removed = Set(offsets)
          model = model.enumerated().filter { !removed.contains($0.offset) }.map(\.element)
          description = "removeOffsets \(offsets)"
        }
      case 66..<68:
        harness.send(.removeWhereOdd)
        model.removeAll { $0.id % 2 == 1 }
        description = "removeWhereOdd"
      case 68..<70:
        let limit = Int.random(in: 2..<8, using: &random)
        harness.send(.filterKeepBelow(limit))
        model.removeAll { $0.id >= limit }
        description = "filterKeepBelow \(limit)"
      case 70..<72:
        if !model.isEmpty {
          harness.send(.removeFirst)
          model.removeFirst()
          description = "removeFirst"
        }
      case 72..<74:
        if !model.isEmpty {
          harness.send(.popLast)
          model.removeLast()
          description = "popLast"
        }
      case 74..<80:
        if model.count > 1 {
          let i = Int.random(in: 0..<model.count, using: &random)
          let j = Int.random(in: 0..<model.count, using: &random)
          harness.send(.swap(i, j))
          model.swapAt(i, j)
          description = "swap \(i) \(j)"
        }
      case 80..<84:
        if !model.isEmpty {
          let source = Int.random(in: 0..<model.count, using: &random)
          let destination = Int.random(in: 0...model.count, using: &random)
          harness.send(.move([source], destination))
          model.insert(model[source], at: destination)
          model.remove(at: destination <= source ? source + 1 : source)
          description = "move \(source) \(destination)"
        }
      case 84..<86:
        harness.send(.sortDescending)
        model.sort { $0.id > $1.id }
        description = "sortDescending"
      case 86..<90:
        // Emptied and refilled in one action: rows that come back keep their loads in flight,
        // and so do their items that come back; details are gone.
        let ids = Set(
          (0..<Int.random(in: 0...5, using: &random)).map { _ in
            Int.random(in: 0..<8, using: &random)
          }
        ).sorted()
        harness.send(.refresh(ids))
        model = ids.map { id in
          var row = ModelRow(id: id)
          if let old = model.first(where: { $0.id == id }) {
            row.isLoading = old.isLoading
            for index in row.items.indices {
              let oldItem = old.items.first { $0.id == row.items[index].id }
              row.items[index].isLoading = oldItem?.isLoading ?? false
            }
          }
          return row
        }
        description = "refresh \(ids)"
      default:
        await clock.advance(by: .seconds(1))
        harness.settle()
        for p in model.indices { model[p].land() }
        description = "advance"
      }
      if !description.isEmpty { log.append(description) }
      let expectedSleepers = model.reduce(0) { $0 + $1.loadingCount }
      let state = Self.snapshot(harness.state)
      guard clock.sleeperCount == expectedSleepers, state == model.map(\.settled) else {
        Issue.record(
          """
          seed \(seed) step \(step) after \(description): \(clock.sleeperCount) loads in \
          flight, the model expects \(expectedSleepers)
          state \(state)
          model \(model)
          recent actions \(log.suffix(12))
          """)
        return
      }
    }
    #expect(warnings.messages.isEmpty, "seed \(seed): \(warnings.messages)")
  }

  /// Past the few changes a small array remembers one by one, a removal of many rows at once
  /// must still end exactly theirs.
  @Test func removingManyRowsAtOnceEndsExactlyTheirEffectsAndReorderingEndsNone() async {
    let clock = TestClock()
    var state = List.State()
    for id in 0..<200 { state.rows.append(NestedRowList.Row.State(id: id)) }
    let harness = Harness(initialState: state, reducer: List(clock: clock))
    for id in 0..<200 { harness.send(.rows(.element(id: id, action: .load))) }
    harness.send(.move([0, 3, 199], 10))
    harness.send(.sortDescending)
    #expect(clock.sleeperCount == 200)
    harness.send(.removeOffsets(Array(stride(from: 0, to: 200, by: 2))))
    #expect(clock.sleeperCount == 100)
    await clock.advance(by: .seconds(1))
    #expect(harness.state.rows.count == 100)
    #expect(harness.state.rows.allSatisfy { $0.loads == 1 })
    #expect(harness.core.runtime.runningCount == 0)
  }
}
