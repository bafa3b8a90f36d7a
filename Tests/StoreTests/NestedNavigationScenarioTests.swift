// From an adversarial trial on navigation and identity lifetimes (fixtures shared between these
// *NavigationScenarioTests and Navigation*ScenarioTests files). A stack inside a sheet inside a
// row, with timed effects at every level: removing, dismissing and reopening, pop(to:), cancelling
// in a screen, screens closing themselves.

import Effects
import Testing

@testable import Store

struct NestLeaf: Reducer {
  struct State: Equatable, Sendable {
    var tag = 0
    var ticks = 0
    var pings: [String] = []
  }
  enum Action: Sendable, Equatable {
    case start
    case tick
    case closeLater
    case close
    case ping(String)
    case throttled(String)
    case debounced(String)
    case reportThenClose
    case delegate(Delegate)
    enum Delegate: Sendable, Equatable { case report(Int) }
  }
  let clock: TestClock
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .start:
      return .run { [clock] send in
        try await clock.sleep(for: .seconds(1))
        send(.tick)
      }
      .cancellable(id: "t", cancelInFlight: true)
    case .tick:
      state.ticks += 1
      return .none
    case .closeLater:
      return .run { [clock] send in
        try await clock.sleep(for: .seconds(1))
        send(.close)
      }
    case .close:
      return .dismiss
    case .ping(let s):
      state.pings.append(s)
      return .none
    case .throttled(let s):
      return .send(.ping(s)).throttle(id: "th", for: .seconds(1), clock: clock, latest: true)
    case .debounced(let s):
      return .send(.ping(s)).debounce(id: "db", for: .seconds(1), clock: clock)
    case .reportThenClose:
      return .concatenate(.send(.delegate(.report(state.tag))), .dismiss)
    case .delegate:
      return .none
    }
  }
}

struct NestSheet: Reducer {
  struct State: Equatable, Sendable {
    var path = StackState<NestLeaf.State>()
    var log: [String] = []
  }
  enum Action: Sendable, Equatable {
    case path(StackActionOf<NestLeaf>)
    case push(Int)
    case popAll
    case popTo(StackElementID)
    case cancelIn(StackElementID)
    case start
    case tick
    case close
  }
  let clock: TestClock
  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .push(let tag):
        state.path.append(NestLeaf.State(tag: tag))
      case .popAll:
        state.path.removeAll()
      case .popTo(let id):
        state.path.pop(to: id)
      case .cancelIn(let id):
        return .cancel(id: "t", inScreen: id, of: \State.path)
      case .start:
        return .run { [clock] send in
          try await clock.sleep(for: .seconds(1))
          send(.tick)
        }
        .cancellable(id: "t")
      case .tick:
        state.log.append("tick")
      case .close:
        return .dismiss
      case .path(.element(let id, .delegate(.report(let tag)))):
        state.log.append("report \(tag) from \(id)")
        if tag == 99 {
          // Answer the report by popping the reporter and pushing a new screen.
          state.path.pop(from: id)
          state.path.append(NestLeaf.State(tag: 100))
        }
      case .path:
        break
      }
      return .none
    }
    .navigationStack(\.path, action: .path) { NestLeaf(clock: clock) }
  }
}

extension CaseKey<NestSheet.Action, StackAction<NestLeaf.State, NestLeaf.Action>> {
  static var path: Self {
    Self(NestSheet.Action.path) { if case .path(let a) = $0 { a } else { nil } }
  }
}

struct NestRow: Reducer {
  struct State: Equatable, Sendable, Identifiable {
    let id: Int
    var sheet: NestSheet.State?
  }
  enum Action: Sendable, Equatable {
    case sheet(PresentationAction<NestSheet.Action>)
    case open
    case reopen
  }
  let clock: TestClock
  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .open:
        state.sheet = NestSheet.State()
      case .reopen:
        state.sheet = nil
        state.sheet = NestSheet.State()
      case .sheet:
        break
      }
      return .none
    }
    .presents(\.sheet, action: .sheet) { NestSheet(clock: clock) }
  }
}

extension CaseKey<NestRow.Action, PresentationAction<NestSheet.Action>> {
  static var sheet: Self {
    Self(NestRow.Action.sheet) { if case .sheet(let a) = $0 { a } else { nil } }
  }
}

struct NestRoot: Reducer {
  struct State: Equatable, Sendable {
    var rows: IdentifiedArrayOf<NestRow.State> = []
  }
  enum Action: Sendable, Equatable {
    case rows(IdentifiedActionOf<NestRow>)
    case add(Int)
    case remove(Int)
    case removeThenAdd(Int)
  }
  let clock: TestClock
  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .add(let id):
        state.rows.append(NestRow.State(id: id))
      case .remove(let id):
        state.rows.remove(id: id)
      case .removeThenAdd(let id):
        state.rows.remove(id: id)
        state.rows.append(NestRow.State(id: id))
      case .rows:
        break
      }
      return .none
    }
    .forEach(\.rows, action: .rows) { NestRow(clock: clock) }
  }
}

extension CaseKey<NestRoot.Action, IdentifiedAction<Int, NestRow.Action>> {
  static var rows: Self {
    Self(NestRoot.Action.rows) { if case .rows(let a) = $0 { a } else { nil } }
  }
}

@MainActor
@Suite struct NavigationScenarioTests {
  let clock = TestClock()

  func leaf(_ row: Int, _ id: StackElementID, _ a: NestLeaf.Action) -> NestRoot.Action {
    .rows(.element(id: row, action: .sheet(.presented(.path(.element(id: id, action: a))))))
  }
  func sheet(_ row: Int, _ a: NestSheet.Action) -> NestRoot.Action {
    .rows(.element(id: row, action: .sheet(.presented(a))))
  }

  func make(_ warnings: WarningLog) -> Harness<NestRoot> {
    let h = Harness(
      initialState: NestRoot.State(), warnings: warnings.handler, reducer: NestRoot(clock: clock))
    h.send(.add(1))
    h.send(.add(2))
    h.send(.rows(.element(id: 1, action: .open)))
    h.send(.rows(.element(id: 2, action: .open)))
    h.send(sheet(1, .push(10)))
    h.send(sheet(1, .push(11)))
    h.send(sheet(2, .push(20)))
    return h
  }

  @Test func removingARowCancelsTheEffectsOfScreensInItsSheet() async {
    let w = WarningLog()
    let h = make(w)
    h.send(leaf(1, 0, .start))
    h.send(leaf(1, 1, .start))
    h.send(leaf(2, 0, .start))
    #expect(clock.sleeperCount == 3)
    h.send(.remove(1))
    #expect(clock.sleeperCount == 1)
    await clock.advance(by: .seconds(1))
    #expect(h.state.rows[id: 2]?.sheet?.path[id: 0]?.ticks == 1)
    #expect(w.messages.isEmpty, "\(w.messages)")
  }

  @Test func removingAndAddingBackARowInOneActionKeepsDeepEffects() async {
    // Documented: "A row removed and added back within one action ... keeps its effects".
    // Here the row comes back with no sheet, so the screens are gone anyway.
    let w = WarningLog()
    let h = make(w)
    h.send(leaf(1, 0, .start))
    h.send(.removeThenAdd(1))
    #expect(clock.sleeperCount == 0, "the screen that ran the effect is gone")
    await clock.advance(by: .seconds(1))
    #expect(w.messages.isEmpty, "\(w.messages)")
  }

  @Test func reopeningASheetInOneActionCancelsTheOldScreensEffects() async {
    let w = WarningLog()
    let h = make(w)
    h.send(leaf(1, 0, .start))
    h.send(.rows(.element(id: 1, action: .reopen)))
    // The sheet is not Identifiable: documented to keep effects (it is "the same child").
    // But the screen #0 of the new sheet's stack is a new push in a new stack.
    h.send(sheet(1, .push(50)))
    await clock.advance(by: .seconds(1))
    #expect(
      h.state.rows[id: 1]?.sheet?.path[id: 0]?.ticks == 0,
      "the new stack's screen #0 must not get the old one's tick")
    #expect(w.messages.isEmpty, "\(w.messages)")
  }

  @Test func aScreenDismissInsideASheetPopsTheScreenNotTheSheet() async {
    let w = WarningLog()
    let h = make(w)
    h.send(leaf(1, 1, .close))
    #expect(h.state.rows[id: 1]?.sheet != nil)
    #expect(h.state.rows[id: 1]?.sheet?.path.ids == [0])
    h.send(sheet(1, .close))
    #expect(h.state.rows[id: 1]?.sheet == nil)
    #expect(w.messages.isEmpty, "\(w.messages)")
  }

  @Test func aScreenThatClosesItselfLaterPopsOnlyItself() async {
    let w = WarningLog()
    let h = make(w)
    h.send(leaf(1, 0, .closeLater))
    h.send(leaf(1, 1, .start))
    await clock.advance(by: .seconds(1))
    #expect(h.state.rows[id: 1]?.sheet?.path.ids == [])
    #expect(h.state.rows[id: 1]?.sheet != nil)
    #expect(w.messages.isEmpty, "\(w.messages)")
  }

  @Test func popToCancelsOnlyTheScreensAbove() async {
    let w = WarningLog()
    let h = make(w)
    h.send(leaf(1, 0, .start))
    h.send(leaf(1, 1, .start))
    h.send(sheet(1, .popTo(0)))
    #expect(clock.sleeperCount == 1)
    await clock.advance(by: .seconds(1))
    #expect(h.state.rows[id: 1]?.sheet?.path[id: 0]?.ticks == 1)
    #expect(w.messages.isEmpty, "\(w.messages)")
  }

  @Test func cancelInScreenFromTheSheetReachesOnlyThatScreen() async {
    let w = WarningLog()
    let h = make(w)
    h.send(leaf(1, 0, .start))
    h.send(leaf(1, 1, .start))
    h.send(leaf(2, 0, .start))
    h.send(sheet(1, .start))
    h.send(sheet(1, .cancelIn(0)))
    #expect(clock.sleeperCount == 3)
    await clock.advance(by: .seconds(1))
    #expect(h.state.rows[id: 1]?.sheet?.path.map(\.ticks) == [0, 1])
    #expect(h.state.rows[id: 2]?.sheet?.path.map(\.ticks) == [1])
    #expect(h.state.rows[id: 1]?.sheet?.log == ["tick"])
    #expect(w.messages.isEmpty, "\(w.messages)")
  }

  @Test func aThrottledTrailingPingNeverReachesAPoppedScreen() async {
    let w = WarningLog()
    let h = make(w)
    h.send(leaf(1, 1, .throttled("a")))
    h.send(leaf(1, 1, .throttled("b")))
    h.send(leaf(1, 1, .throttled("c")))
    #expect(h.state.rows[id: 1]?.sheet?.path[id: 1]?.pings == ["a"])
    h.send(sheet(1, .popTo(0)))
    h.send(sheet(1, .push(12)))  // id #2
    h.send(leaf(1, 2, .throttled("x")))
    await clock.advance(by: .seconds(2))
    #expect(h.state.rows[id: 1]?.sheet?.path[id: 2]?.pings == ["x"])
    #expect(w.messages.isEmpty, "\(w.messages)")
  }

  @Test func aDebouncedPingNeverReachesADismissedSheetsScreen() async {
    let w = WarningLog()
    let h = make(w)
    h.send(leaf(1, 0, .debounced("a")))
    h.send(.rows(.element(id: 1, action: .sheet(.dismiss))))
    h.send(.rows(.element(id: 1, action: .open)))
    h.send(sheet(1, .push(10)))
    await clock.advance(by: .seconds(2))
    #expect(h.state.rows[id: 1]?.sheet?.path.first?.pings == [])
    #expect(w.messages.isEmpty, "\(w.messages)")
  }

  @Test func aReportAnsweredByPopAndPushLeavesTheNewScreen() async {
    // Doc: "A parent that answers by pushing another screen (a confirmation) should pop the
    // reporting screen itself in the same step: otherwise the dismissal ... pops the new one too."
    let w = WarningLog()
    let h = make(w)
    h.send(sheet(1, .push(99)))  // id #2
    h.send(leaf(1, 2, .reportThenClose))
    #expect(h.state.rows[id: 1]?.sheet?.path.map(\.tag) == [10, 11, 100])
    #expect(w.messages.isEmpty, "\(w.messages)")
  }
}
