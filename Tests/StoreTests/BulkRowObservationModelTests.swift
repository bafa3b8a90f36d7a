import Effects
import Observation
import Testing

@testable import Store

/// Model test of row-store observation on a list larger than the arrays'
/// change histories (16 changes), with bulk changes, rows removed and added back within one
/// action and across actions, saved copies restored, and the list's own observer.
enum BigList {
  struct Row: Reducer {
    struct State: Equatable, Identifiable, Sendable {
      let id: Int
      var name = ""
      var count = 0
    }
    enum Action: Sendable, Equatable {
      case rename(String)
      case bump
      case noop
    }
    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .rename(let name): state.name = name
      case .bump: state.count += 1
      case .noop: break
      }
      return .none
    }
  }

  struct List: Reducer {
    struct State: Equatable {
      var rows: IdentifiedArrayOf<Row.State> = []
      var saved: IdentifiedArrayOf<Row.State>?
    }
    enum Action: Sendable, Equatable {
      case rows(IdentifiedActionOf<Row>)
      case add(Int, String)
      case remove(Int)
      /// Renames each id, through the positional subscript.
      case renameByPosition([Int], String)
      /// Renames each id, through `subscript(id:)`.
      case renameByID([Int], String)
      /// Replaces each row with `updateOrAppend`.
      case replace([Int], String)
      /// Takes each row out and appends it again with a new name, in one action.
      case removeAndAddBack([Int], String)
      /// Takes each row out and appends it again unchanged, in one action.
      case removeAndAddBackUnchanged([Int])
      case swap(Int, Int)
      case move(Int, Int)
      case sortByName
      case reverse
      case save
      case restore
      case removeWhereNameHasSuffix(String)
    }
    var body: some ReducerOf<Self> {
      Reduce { state, action in
        switch action {
        case .rows: break
        case .add(let id, let name): state.rows.append(Row.State(id: id, name: name))
        case .remove(let id): state.rows.remove(id: id)
        case .renameByPosition(let ids, let name):
          for id in ids { if let p = state.rows.index(id: id) { state.rows[p].name = name } }
        case .renameByID(let ids, let name):
          for id in ids { state.rows[id: id]?.name = name }
        case .replace(let ids, let name):
          for id in ids where state.rows.contains(id: id) {
            var row = state.rows[id: id]!
            row.name = name
            state.rows.updateOrAppend(row)
          }
        case .removeAndAddBack(let ids, let name):
          for id in ids {
            if var row = state.rows.remove(id: id) {
              row.name = name
              state.rows.append(row)
            }
          }
        case .removeAndAddBackUnchanged(let ids):
          for id in ids {
            if let row = state.rows.remove(id: id) { state.rows.append(row) }
          }
        case .swap(let i, let j): state.rows.swapAt(i, j)
        case .move(let from, let to): state.rows.move(fromOffsets: [from], toOffset: to)
        case .sortByName: state.rows.sort { ($0.name, $0.id) < ($1.name, $1.id) }
        case .reverse: state.rows = IdentifiedArray(state.rows.reversed())
        case .save: state.saved = state.rows
        case .restore: if let saved = state.saved { state.rows = saved }
        case .removeWhereNameHasSuffix(let s): state.rows.removeAll { $0.name.hasSuffix(s) }
        }
        return .none
      }
      .forEach(\.rows, action: .rows) { Row() }
    }
  }
}

extension CaseKey<BigList.List.Action, IdentifiedActionOf<BigList.Row>> {
  static var rows: Self {
    Self(BigList.List.Action.rows) { if case .rows(let a) = $0 { a } else { nil } }
  }
}

@MainActor
@Suite struct BulkRowObservationModelTests {
  typealias RowStore = Store<BigList.Row.State, BigList.Row.Action>

  @MainActor final class Watched {
    let store: RowStore
    let tracker: Tracker
    let shown: (String, Int)
    init(store: RowStore) {
      self.store = store
      shown = (store.name, store.count)
      tracker = Tracker {
        _ = store.name; _ = store.count
      }
    }
  }

  @Test(arguments: 0..<40 as Range<UInt64>)
  func rowObserversFireExactlyWhenTheirRowChanged(seed: UInt64) {
    let warnings = WarningLog()
    let harness = Harness(
      initialState: BigList.List.State(), warnings: warnings.handler, reducer: BigList.List())
    var random = SeededGenerator(state: seed &* 131 &+ 5)
    let idSpace = 60
    for id in 0..<40 { harness.send(.add(id, "r\(id)")) }
    var watched: [Int: Watched] = [:]
    var log: [String] = []
    var serial = 0
    func someIDs(_ n: Int) -> [Int] {
      (0..<n).map { _ in Int.random(in: 0..<idSpace, using: &random) }
    }
    let rowsKey = CaseKey<BigList.List.Action, IdentifiedActionOf<BigList.Row>>.rows
    var listShownIDs = harness.store.scope(state: \.rows, action: rowsKey).ids
    var listTracker = Tracker { _ = harness.store.scope(state: \.rows, action: rowsKey) }
    for step in 0..<400 {
      serial += 1
      let name = "n\(serial % 7)"
      let ids = harness.state.rows.ids
      var what = ""
      // Rows replaced wholesale (an equal write may notify).
      switch Int.random(in: 0..<100, using: &random) {
      case 0..<10 where !ids.isEmpty:
        let id = ids.randomElement(using: &random)!
        harness.send(.rows(.element(id: id, action: .rename(name))))
        what = "row \(id) renames itself \(name)"
      case 10..<15 where !ids.isEmpty:
        let id = ids.randomElement(using: &random)!
        harness.send(.rows(.element(id: id, action: Bool.random(using: &random) ? .bump : .noop)))
        what = "row \(id) bump/noop"
      case 15..<25:
        let chosen = someIDs(Int.random(in: 1...40, using: &random))
        harness.send(.renameByPosition(chosen, name))
        what = "renameByPosition \(chosen.count) \(name)"
      case 25..<35:
        let chosen = someIDs(Int.random(in: 1...40, using: &random))
        harness.send(.renameByID(chosen, name))
        what = "renameByID \(chosen.count) \(name)"
      case 35..<40:
        let chosen = someIDs(Int.random(in: 1...30, using: &random))
        harness.send(.replace(chosen, name))
        what = "replace \(chosen.count) \(name)"
      case 40..<47:
        let chosen = someIDs(Int.random(in: 1...30, using: &random))
        harness.send(.removeAndAddBack(chosen, name))
        what = "removeAndAddBack \(chosen) \(name)"
      case 47..<50:
        let chosen = someIDs(Int.random(in: 1...30, using: &random))
        harness.send(.removeAndAddBackUnchanged(chosen))
        what = "removeAndAddBackUnchanged \(chosen.count)"
      case 50..<58 where !ids.isEmpty:
        let id = ids.randomElement(using: &random)!
        harness.send(.remove(id))
        what = "remove \(id)"
      case 58..<68:
        let id = Int.random(in: 0..<idSpace, using: &random)
        if !ids.contains(id) {
          harness.send(.add(id, name))
          what = "add \(id) \(name)"
        }
      case 68..<74 where ids.count > 1:
        let i = Int.random(in: 0..<ids.count, using: &random)
        let j = Int.random(in: 0..<ids.count, using: &random)
        harness.send(.swap(i, j))
        what = "swap \(i) \(j)"
      case 74..<78 where ids.count > 1:
        let i = Int.random(in: 0..<ids.count, using: &random)
        let j = Int.random(in: 0...ids.count, using: &random)
        harness.send(.move(i, j))
        what = "move \(i) \(j)"
      case 78..<81:
        harness.send(.sortByName)
        what = "sort"
      case 81..<83:
        harness.send(.reverse)
        what = "reverse"
      case 83..<89:
        harness.send(.save)
        what = "save"
      case 89..<94:
        harness.send(.restore)
        what = "restore"
      case 94..<97:
        harness.send(.removeWhereNameHasSuffix("\(Int.random(in: 0..<7, using: &random))"))
        what = "removeWhere"
      default:
        break
      }
      log.append(what)
      let place = "seed \(seed) step \(step) after \(what)"
      // The list's observer: fires when the ids changed (set or order), not otherwise.
      let idsNow = harness.state.rows.ids
      let listChanged = idsNow != listShownIDs
      if listChanged != (listTracker.firings > 0) || listTracker.firings > 1 {
        Issue.record(
          """
          \(place): the list's ids changed: \(listChanged), its observer fired \
          \(listTracker.firings) times; recent \(log.suffix(6))
          """)
        return
      }
      if listChanged {
        listShownIDs = idsNow
        listTracker = Tracker { _ = harness.store.scope(state: \.rows, action: rowsKey) }
      }
      let rows = harness.store.scope(state: \.rows, action: rowsKey)
      for (id, watch) in watched.sorted(by: { $0.key < $1.key }) {
        guard let row = harness.state.rows[id: id], rows[id: id] === watch.store else {
          watched[id] = nil
          continue
        }
        let changed = row.name != watch.shown.0 || row.count != watch.shown.1
        let firings = watch.tracker.firings
        if changed && firings != 1 {
          Issue.record(
            """
            \(place): row \(id) changed from \(watch.shown) to \((row.name, row.count)) and its \
            observer fired \(firings) times; recent \(log.suffix(6))
            """)
          return
        }
        if !changed && firings != 0 {
          Issue.record(
            """
            \(place): row \(id) kept \((row.name, row.count)) and its observer fired \
            \(firings) times; recent \(log.suffix(6))
            """)
          return
        }
        if watch.store.name != row.name || watch.store.count != row.count {
          Issue.record(
            "\(place): row \(id)'s store reads \(watch.store.name), the state \(row.name)")
          return
        }
        if firings > 0 { watched[id] = Watched(store: watch.store) }
      }
      for id in harness.state.rows.ids where watched[id] == nil {
        // Not every row is watched: some stores are never made.
        guard id % 3 != Int(seed % 3) else { continue }
        watched[id] = Watched(store: rows[id: id]!)
      }
    }
    #expect(warnings.messages.isEmpty, "seed \(seed): \(warnings.messages)")
  }
}
