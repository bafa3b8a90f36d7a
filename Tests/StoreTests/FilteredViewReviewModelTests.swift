import Effects
import Testing

@testable import Store

/// A list shown through a filtered (and optionally sorted) view, driven at random.
private struct ReviewShelf: Reducer {
  struct Item: Equatable, Identifiable, Sendable {
    let id: Int
    var name: String
    var isHidden = false
  }

  struct State {
    var items: IdentifiedArrayOf<Item> = []
    var isSorted = false
    var saved: IdentifiedArrayOf<Item>?

    var shown: IdentifiedArrayOf<Item> {
      var view = items.filter { !$0.isHidden }
      if isSorted { view.sort { $0.name > $1.name } }
      return view
    }
  }

  enum Action: Sendable {
    case rename(Int, String)
    case toggleHidden(Int)
    case remove(Int)
    case add(Int, String)
    case removeWhere(Set<Int>)
    case removeOffsets([Int])
    case save
    case restore
    case reloadInPlace([String])
    case replace(Int, String)
    case toggleSort
    case rows(IdentifiedAction<Int, Never>)
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .rename(let id, let name): state.items[id: id]?.name = name
    case .toggleHidden(let id): state.items[id: id]?.isHidden.toggle()
    case .remove(let id): state.items.remove(id: id)
    case .add(let id, let name):
      state.items.appendIfAbsent(Item(id: id, name: name))
    case .removeWhere(let ids): state.items.removeAll { ids.contains($0.id) }
    case .removeOffsets(let offsets): state.items.remove(atOffsets: offsets)
    case .save: state.saved = state.items
    case .restore: if let saved = state.saved { state.items = saved }
    case .reloadInPlace(let names):
      let ids = state.items.ids
      state.items.removeAll()
      state.items.append(
        contentsOf: zip(ids, names).map { Item(id: $0, name: $1) })
    case .replace(let id, let name):
      if let position = state.items.index(id: id) {
        state.items.remove(at: position)
        state.items.insert(Item(id: id, name: name), at: position)
      }
    case .toggleSort: state.isSorted.toggle()
    case .rows: break
    }
    return .none
  }
}

extension CaseKey<ReviewShelf.Action, IdentifiedAction<Int, Never>> {
  fileprivate static var rows: Self {
    Self(ReviewShelf.Action.rows) { if case .rows(let a) = $0 { a } else { nil } }
  }
}

@MainActor
@Suite struct FilteredViewReviewModelTests {
  func run(seed: UInt64, reAdds: Bool) {
    let store = Store(initialState: ReviewShelf.State()) { ReviewShelf() }
    var random = SeededGenerator(state: seed &* 977 &+ 3)
    let watched = WatchedRows<Int, ReviewShelf.Item, Never>(name: \.name)
    var counter = 0
    var log: [String] = []
    for id in 0..<30 { store.send(.add(id, "n\(id)")) }
    var idsTracker: Tracker? = nil
    var idsSeen: [Int] = []
    for step in 0..<300 {
      let ids = store.state.items.ids
      counter += 1
      let action: ReviewShelf.Action
      switch Int.random(in: 0..<100, using: &random) {
      case 0..<30:
        guard let id = ids.randomElement(using: &random) else { continue }
        action = .rename(id, "r\(counter)")
      case 30..<42:
        guard let id = ids.randomElement(using: &random) else { continue }
        action = .toggleHidden(id)
      case 42..<48:
        guard let id = ids.randomElement(using: &random) else { continue }
        action = .remove(id)
      case 48..<60:
        action = .add(Int.random(in: 0..<60, using: &random), "a\(counter)")
      case 60..<65:
        action = .removeWhere(
          Set(
            (0..<Int.random(in: 1..<25, using: &random)).map { _ in
              Int.random(in: 0..<60, using: &random)
            }))
      case 65..<70:
        guard !ids.isEmpty else { continue }
        action = .removeOffsets(
          (0..<Int.random(in: 1..<20, using: &random)).map { _ in
            Int.random(in: 0..<ids.count, using: &random)
          })
      case 70..<76: action = .save
      case 76..<81: action = .restore
      case 81..<87: action = .toggleSort
      default:
        guard reAdds else { continue }
        if Bool.random(using: &random) {
          action = .reloadInPlace(ids.map { "l\(counter)-\($0)" })
        } else {
          guard let id = ids.randomElement(using: &random) else { continue }
          action = .replace(id, "p\(counter)")
        }
      }
      store.send(action)
      log.append("\(action)")
      let now = store.state.shown
      let rows = store.scope(state: \.shown, action: .rows)
      let place = "seed \(seed) step \(step) after \(log.suffix(3))"
      if rows.ids != now.ids {
        Issue.record("\(place): stores list \(rows.ids), the view \(now.ids)")
        return
      }
      if let idsTracker, idsSeen != now.ids, idsTracker.firings == 0 {
        Issue.record("\(place): the view's ids changed, their observer did not fire")
        return
      }
      idsSeen = now.ids
      idsTracker = Tracker { _ = store.scope(state: \.shown, action: .rows).ids }
      // Every row counts as replaced: this test asks only that a renamed row's observer
      // fire, and that its store read the view.
      guard
        watched.check(
          ids: now.ids, names: { now[id: $0]?.name }, stores: rows, replaced: Set(now.ids),
          place: place, log: log)
      else { return }
    }
  }

  @Test(arguments: 0..<10 as Range<UInt64>)
  func randomWithoutReAdds(seed: UInt64) { run(seed: seed, reAdds: false) }

  @Test(arguments: 0..<10 as Range<UInt64>)
  func randomWithReAdds(seed: UInt64) { run(seed: seed, reAdds: true) }
}
