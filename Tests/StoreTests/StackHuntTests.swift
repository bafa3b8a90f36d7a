import Effects
import Foundation
import Testing

@testable import Store

/// A hunt in navigation stacks: stacks inside a stack's screens, many pops in one action, a
/// stack replaced by a decoded copy of itself, and replays of pushes and pops.
@MainActor
@Suite final class StackHuntTests {
  let directory = TemporaryDirectory("stack-hunt-tests")

  /// A page's or an inner screen's load: `loaded`, a second later on `clock`.
  nonisolated static func load<Action: Sendable>(
    _ loaded: Action, on clock: TestClock
  ) -> Effect<Action> {
    .run { send in
      try await clock.sleep(for: .seconds(1))
      send(loaded)
    }
  }

  /// A screen of an inner stack: it loads, and closes itself.
  struct Leaf: Reducer {
    struct State: Equatable, Sendable, Codable {
      var name: Int
      var loads = 0
    }
    enum Action: Sendable, Equatable, Codable {
      case load
      case loaded
      case close
    }
    let clock: TestClock

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .load:
        return StackHuntTests.load(.loaded, on: clock)
      case .loaded:
        state.loads += 1
        return .none
      case .close:
        return .dismiss
      }
    }
  }

  /// A screen of the outer stack, with a stack of its own.
  struct Page: Reducer {
    struct State: Equatable, Sendable, Codable {
      var name: Int
      var loads = 0
      var inner = StackState<Leaf.State>()
    }
    enum Action: Sendable, Equatable, Codable {
      case load
      case loaded
      case open(Int)
      case close
      case inner(StackActionOf<Leaf>)
    }
    let clock: TestClock

    var body: some ReducerOf<Self> {
      Reduce { state, action in
        switch action {
        case .load:
          return StackHuntTests.load(.loaded, on: clock)
        case .loaded:
          state.loads += 1
        case .open(let name):
          state.inner.append(Leaf.State(name: name))
        case .close:
          return .dismiss
        case .inner:
          break
        }
        return .none
      }
      .navigationStack(\.inner, action: .huntInner) { Leaf(clock: clock) }
    }
  }

  struct Root: Reducer {
    struct State: Equatable, Sendable, Codable {
      var path = StackState<Page.State>()
      var saved: StackState<Page.State>?
      var seen: [String] = []
    }
    enum Action: Sendable, Equatable, Codable {
      case path(StackActionOf<Page>)
      case open(Int)
      case popEach
      case swapTop(Int)
      case save
      case restoreThenPushCopyOf(StackElementID)
      case reloadFromJSON
    }
    let clock: TestClock

    var body: some ReducerOf<Self> {
      Reduce { state, action in
        switch action {
        case .open(let name):
          state.path.append(Page.State(name: name))
        case .popEach:
          while state.path.popLast() != nil {}
        case .swapTop(let name):
          state.path.popLast()
          state.path.append(Page.State(name: name))
        case .save:
          state.saved = state.path
        case .restoreThenPushCopyOf(let id):
          let copy = state.path[id: id]
          if let saved = state.saved { state.path = saved }
          if let copy { state.path.append(copy) }
        case .reloadFromJSON:
          // A state restoration: the same value, decoded.
          let data = try! JSONEncoder().encode(state.path)
          state.path = try! JSONDecoder().decode(StackState<Page.State>.self, from: data)
        case .path(.element(let id, .inner(.popFrom(let inner)))):
          state.seen.append("inner pop \(id) \(inner)")
        case .path:
          break
        }
        return .none
      }
      .navigationStack(\.path, action: .huntPath) { Page(clock: clock) }
    }
  }

  let clock = TestClock()

  func harness(_ warnings: WarningLog) -> Harness<Root> {
    Harness(initialState: Root.State(), warnings: warnings.handler, reducer: Root(clock: clock))
  }

  /// Twenty screens popped one by one in one action (more changes than the stack's id history
  /// holds): every popped screen's load ends with that action, and none reaches the screens
  /// pushed next.
  @Test func popsOfMoreScreensThanTheHistoryHoldsInOneActionEndAllTheirLoads() async {
    let warnings = WarningLog()
    let harness = harness(warnings)
    for name in 0..<20 { harness.send(.open(name)) }
    for id in harness.state.path.ids { harness.send(page: id, .load) }
    #expect(clock.sleeperCount == 20)
    harness.send(.popEach)
    #expect(clock.sleeperCount == 0)
    for name in 0..<20 { harness.send(.open(name)) }
    await clock.advance(by: .seconds(1))
    harness.settle()
    #expect(harness.state.path.allSatisfy { $0.loads == 0 })
    #expect(warnings.messages.isEmpty, "\(warnings.messages)")
  }

  /// The top screen popped and another pushed in one action: the popped screen's load ends,
  /// the screen below loads on, and the new screen gets the next id.
  @Test func aPopAndAPushInOneActionEndOnlyThePoppedScreensLoad() async {
    let warnings = WarningLog()
    let harness = harness(warnings)
    harness.send(.open(0))
    harness.send(.open(1))
    harness.send(page: 0, .load)
    harness.send(page: 1, .load)
    harness.send(.swapTop(2))
    #expect(harness.state.path.ids == [0, 2])
    #expect(clock.sleeperCount == 1)
    await clock.advance(by: .seconds(1))
    harness.settle()
    #expect(harness.state.path.map(\.loads) == [1, 0])
    #expect(warnings.messages.isEmpty, "\(warnings.messages)")
  }

  /// A screen of a stack inside a popped screen: its load ends with the pop, and an action
  /// for it afterwards is refused with one warning, starting nothing.
  @Test func anInnerScreensLoadEndsWithItsPage() async {
    let warnings = WarningLog()
    let harness = harness(warnings)
    harness.send(.open(0))
    harness.send(page: 0, .open(7))
    harness.send(page: 0, leaf: 0, .load)
    #expect(clock.sleeperCount == 1)
    harness.send(.path(.popFrom(id: 0)))
    #expect(clock.sleeperCount == 0)
    harness.send(page: 0, leaf: 0, .load)
    #expect(warnings.messages.count == 1, "\(warnings.messages)")
    #expect(clock.sleeperCount == 0)
  }

  /// `.dismiss` from a screen of an inner stack pops that screen (and those above it in its
  /// stack), not the page that holds the stack; the page's own `.dismiss` pops the page.
  @Test func anInnerScreensDismissalPopsItAloneAndAPagesPopsThePage() {
    let warnings = WarningLog()
    let harness = harness(warnings)
    harness.send(.open(0))
    harness.send(.open(1))
    harness.send(page: 0, .open(7))
    harness.send(page: 0, .open(8))
    harness.send(page: 0, leaf: 0, .close)
    #expect(harness.state.path.ids == [0, 1])
    #expect(harness.state.path[id: 0]?.inner.ids == [])
    #expect(harness.state.path[id: 0]?.inner.nextElementID == 2)
    harness.send(page: 0, .close)
    #expect(harness.state.path.ids == [])
    #expect(warnings.messages.isEmpty, "\(warnings.messages)")
  }

  /// A page copied, with its inner stack, onto the stack set back to a copy saved before its
  /// push: the new page has the old one's id, and its inner screen the old inner screen's push,
  /// but the old page's loads (its own and its inner screen's) end.
  @Test func aPageCopiedOntoAnUndoneStackDoesNotKeepTheOldInnerLoad() async {
    let warnings = WarningLog()
    let harness = harness(warnings)
    harness.send(.save)
    harness.send(.open(0))
    harness.send(page: 0, .open(7))
    harness.send(page: 0, leaf: 0, .load)
    harness.send(page: 0, .load)
    #expect(clock.sleeperCount == 2)
    harness.send(.restoreThenPushCopyOf(0))
    #expect(harness.state.path.ids == [0])
    #expect(clock.sleeperCount == 0)
    await clock.advance(by: .seconds(1))
    harness.settle()
    #expect(harness.state.path[id: 0]?.loads == 0)
    #expect(harness.state.path[id: 0]?.inner[id: 0]?.loads == 0)
    #expect(warnings.messages.isEmpty, "\(warnings.messages)")
  }

  /// Stores kept for the undone page and for its inner screen drive neither the copy that
  /// took the page's id nor its inner screen: each send is refused with a warning. Stores
  /// scoped again drive the copy.
  @Test func aKeptInnerScreenStoreOfAnUndonePageDoesNotDriveTheCopy() {
    let warnings = WarningLog()
    let harness = harness(warnings)
    harness.send(.save)
    harness.send(.open(0))
    harness.send(page: 0, .open(7))
    let pages = harness.store.scope(state: \.path, action: .huntPath)
    let page = pages[id: 0]!
    let leaves = page.scope(state: \.inner, action: .huntInner)
    let leaf = leaves[id: 0]!
    harness.send(.restoreThenPushCopyOf(0))
    leaf.send(.loaded)
    harness.settle()
    #expect(harness.state.path[id: 0]?.inner[id: 0]?.loads == 0)
    page.send(.loaded)
    harness.settle()
    #expect(harness.state.path[id: 0]?.loads == 0)
    #expect(warnings.messages.count == 2, "\(warnings.messages)")
    let newLeaf = harness.store.scope(state: \.path, action: .huntPath)[id: 0]!
      .scope(state: \.inner, action: .huntInner)[id: 0]!
    #expect(newLeaf !== leaf)
    newLeaf.send(.loaded)
    harness.settle()
    #expect(harness.state.path[id: 0]?.inner[id: 0]?.loads == 1)
  }

  /// A stack set to its own value decoded (a state restoration) is a new stack: its screens'
  /// loads and their inner screens' end; the decoded next id holds, so the next push gets
  /// an id no screen had.
  @Test func aStackReplacedByItsDecodedSelfEndsLoadsAndPushesOnWithoutCollision() async {
    let warnings = WarningLog()
    let harness = harness(warnings)
    harness.send(.open(0))
    harness.send(.open(1))
    harness.send(.path(.popFrom(id: 1)))
    harness.send(page: 0, .load)
    harness.send(page: 0, .open(7))
    harness.send(page: 0, leaf: 0, .load)
    #expect(clock.sleeperCount == 2)
    harness.send(.reloadFromJSON)
    #expect(clock.sleeperCount == 0)
    #expect(harness.state.path.nextElementID == 2)
    harness.send(.open(2))
    #expect(harness.state.path.ids == [0, 2])
    await clock.advance(by: .seconds(1))
    harness.settle()
    #expect(harness.state.path[id: 0]?.loads == 0)
    #expect(harness.state.path[id: 0]?.inner[id: 0]?.loads == 0)
    #expect(warnings.messages.isEmpty, "\(warnings.messages)")
  }

  /// A pop of an inner screen that was popped already is silent and reaches no ancestor's
  /// reducer; one from an id the inner stack never gave out warns, and reaches none either.
  @Test func aLateInnerPopIsSilentAndReachesNoAncestor() {
    let warnings = WarningLog()
    let harness = harness(warnings)
    harness.send(.open(0))
    harness.send(page: 0, .open(7))
    harness.send(.path(.element(id: 0, action: .inner(.popFrom(id: 0)))))
    #expect(harness.state.seen == ["inner pop #0 #0"])
    harness.send(.path(.element(id: 0, action: .inner(.popFrom(id: 0)))))
    #expect(harness.state.seen == ["inner pop #0 #0"])
    #expect(warnings.messages.isEmpty, "\(warnings.messages)")
    harness.send(.path(.element(id: 0, action: .inner(.popFrom(id: 5)))))
    #expect(harness.state.seen == ["inner pop #0 #0"])
    #expect(warnings.messages.count == 1, "\(warnings.messages)")
  }

  /// A session of pushes and pops of both stacks (a dismissal fed back, a push with an id, an
  /// undo, a stack decoded anew) replays to the end with every checkpoint matching.
  @Test func aSessionOfNestedPushesAndPopsReplays() throws {
    let clock = self.clock
    let store = Store(initialState: Root.State()) { Root(clock: clock) }
    let file = directory.appendingPathComponent("nested.jsonl").path
    let recorder = try store.recordActions(
      to: file, feature: "StackHunt", checkpointInterval: 2, time: { 0 })
    store.send(.save)
    store.send(.open(0))
    store.send(.path(.element(id: 0, action: .open(7))))
    store.send(.path(.element(id: 0, action: .open(8))))
    store.send(.path(.element(id: 0, action: .inner(.element(id: 0, action: .close)))))
    store.send(.path(.push(id: 3, state: Page.State(name: 3))))
    store.send(.restoreThenPushCopyOf(0))
    store.send(.path(.element(id: 0, action: .close)))
    store.send(.open(4))
    store.send(.reloadFromJSON)
    store.send(.swapTop(5))
    try recorder.finish()
    let report = try ActionLogReplayer(feature: "StackHunt") { Root(clock: clock) }
      .replay(path: file)
    #expect(report.isComplete, "\(report)")
  }
}

extension Harness where R == StackHuntTests.Root {
  /// Sends `action` to the page with id `page`.
  func send(page: StackElementID, _ action: StackHuntTests.Page.Action) {
    send(.path(.element(id: page, action: action)))
  }

  /// Sends `action` to the screen with id `leaf` of the inner stack of the page with id `page`.
  func send(page: StackElementID, leaf: StackElementID, _ action: StackHuntTests.Leaf.Action) {
    send(page: page, .inner(.element(id: leaf, action: action)))
  }
}

extension CaseKey<
  StackHuntTests.Page.Action, StackAction<StackHuntTests.Leaf.State, StackHuntTests.Leaf.Action>
> {
  static var huntInner: Self {
    Self(StackHuntTests.Page.Action.inner) { if case .inner(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<
  StackHuntTests.Root.Action, StackAction<StackHuntTests.Page.State, StackHuntTests.Page.Action>
> {
  static var huntPath: Self {
    Self(StackHuntTests.Root.Action.path) { if case .path(let a) = $0 { a } else { nil } }
  }
}
