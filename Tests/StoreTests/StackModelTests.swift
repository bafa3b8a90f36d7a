import Effects
import Testing

@testable import Store

/// Checks a navigation stack whose screens run cancellable loads against a plain model
/// through random pushes, loads, pops, saves, restores (undo) and deep links: the screens,
/// their loads and the loads in flight match, each screen keeps the store a view was given
/// for it, and a store kept for a screen that left never drives any screen.
@MainActor
@Suite struct StackModelTests {
  /// What the model knows of a screen; `push` tells apart screens that share an id.
  fileprivate struct ModelScreen: Equatable, CustomStringConvertible {
    var id: Int
    var push: Int
    var loads = 0
    var isLoading = false
    var description: String { "#\(id)(push \(push) loads \(loads)\(isLoading ? " loading" : ""))" }
  }

  /// The screens of `saved` as the stack shows them after a restore: a screen still on the
  /// stack keeps its load in flight.
  fileprivate static func restored(_ saved: [ModelScreen], over current: [ModelScreen])
    -> [ModelScreen]
  {
    saved.map { screen in
      var screen = screen
      screen.isLoading = current.first { $0.push == screen.push }?.isLoading ?? false
      return screen
    }
  }

  @Test(arguments: 0..<12 as Range<UInt64>)
  func randomStackOperationsMatchTheModel(seed: UInt64) async {
    let clock = TestClock()
    let warnings = WarningLog()
    var initial = Todos.State()
    for id in 1...3 { initial.rows.append(Row.State(id: id)) }
    let harness = Harness(
      initialState: initial, warnings: warnings.handler, reducer: Todos(clock: clock))
    var random = SeededGenerator(state: seed &* 104_729 &+ 5)
    var model: [ModelScreen] = []
    var nextID = 0
    var pushes = 0
    var saved: (screens: [ModelScreen], nextID: Int)?
    var log: [String] = []
    // Screen stores handed out to a view, by the push of the screen they were made for.
    var kept: [Int: Store<Row.State, Row.Action>] = [:]
    // Stores of screens that left the stack since (a restored screen gets a new store).
    var gone: [Store<Row.State, Row.Action>] = []
    func push() {
      pushes += 1
      model.append(ModelScreen(id: nextID, push: pushes))
      nextID += 1
    }
    for step in 0..<300 {
      var description = ""
      switch Int.random(in: 0..<100, using: &random) {
      case 0..<20:
        harness.send(.openDetail(Int.random(in: 1...3, using: &random)))
        push()
        description = "push"
      case 20..<40:
        if !model.isEmpty {
          let p = Int.random(in: 0..<model.count, using: &random)
          harness.send(
            .path(.element(id: StackElementID(rawValue: model[p].id), action: .loadTapped)))
          model[p].isLoading = true
          description = "load #\(model[p].id)"
        }
      case 40..<50:
        if !model.isEmpty {
          let p = Int.random(in: 0..<model.count, using: &random)
          harness.send(.path(.popFrom(id: StackElementID(rawValue: model[p].id))))
          description = "popFrom #\(model[p].id)"
          model.removeSubrange(p...)
        }
      case 50..<58:
        harness.send(.savePath)
        saved = (model, nextID)
        description = "save"
      case 58..<66:
        if let saved {
          harness.send(.restorePath)
          model = Self.restored(saved.screens, over: model)
          nextID = saved.nextID
          description = "restore"
        }
      case 66..<72:
        if let saved {
          harness.send(.restorePathThenOpen(Int.random(in: 1...3, using: &random)))
          model = Self.restored(saved.screens, over: model)
          nextID = saved.nextID
          push()
          description = "restoreThenPush"
        }
      case 72..<76:
        let count = Int.random(in: 0...3, using: &random)
        harness.send(.deepLink(Array(repeating: 1, count: count)))
        model = []
        nextID = 0
        for _ in 0..<count { push() }
        description = "deepLink \(count)"
      case 76..<86:
        // A view lists the screens and keeps their stores.
        let screens = harness.store.scope(state: \.path, action: .path)
        for (position, screen) in model.enumerated() {
          let store = screens[position]
          if let old = kept[screen.push], old !== store {
            Issue.record("seed \(seed) step \(step): screen \(screen) got another store")
          }
          kept[screen.push] = store
          if store.loads != screen.loads {
            Issue.record("seed \(seed) step \(step): screen \(screen)'s store reads \(store.loads)")
          }
        }
        description = "list"
      case 86..<90:
        if let store = gone.randomElement(using: &random) {
          store.send(.renamed("gone"))
          harness.settle()
          description = "send to a gone screen's store"
        }
      default:
        await clock.advance(by: .seconds(1))
        harness.settle()
        for p in model.indices where model[p].isLoading {
          model[p].loads += 1
          model[p].isLoading = false
        }
        description = "advance"
      }
      if !description.isEmpty { log.append(description) }
      for (push, store) in kept where !model.contains(where: { $0.push == push }) {
        gone.append(store)
        kept[push] = nil
      }
      let ids = harness.state.path.ids.map(\.rawValue)
      let loads = harness.state.path.map(\.loads)
      let titles = harness.state.path.map(\.title)
      let loading = model.filter(\.isLoading).count
      if ids != model.map(\.id) || loads != model.map(\.loads)
        || clock.sleeperCount != loading || titles.contains(where: { !$0.isEmpty })
      {
        Issue.record(
          """
          seed \(seed) step \(step) after \(description): \(clock.sleeperCount) loads in \
          flight, the model expects \(loading)
          state ids \(ids) loads \(loads) titles \(titles)
          model \(model)
          recent actions \(log.suffix(14))
          """)
        return
      }
    }
  }
}
