// From an adversarial trial on navigation and identity lifetimes (fixtures shared between these
// *NavigationScenarioTests and Navigation*ScenarioTests files). Who owns an effect: a parent's
// save outliving the child that reported, children that change their own id, occupants of a place
// told apart by token.

import Effects
import Testing

@testable import Store

// MARK: - A parent's own effect started in answer to a child that then goes away

struct NestSaver: Reducer {
  struct State: Equatable, Sendable {
    var rows: IdentifiedArrayOf<NestLeaf.State> = []
    var sheet: NestLeaf.State?
    var path = StackState<NestLeaf.State>()
    var saved: [String] = []
  }
  enum Action: Sendable, Equatable {
    case rows(IdentifiedAction<Int, NestLeaf.Action>)
    case sheet(PresentationAction<NestLeaf.Action>)
    case path(StackActionOf<NestLeaf>)
    case saved(String)
  }
  let clock: TestClock
  func save(_ what: String) -> Effect<Action> {
    .run { [clock] send in
      try await clock.sleep(for: .seconds(1))
      send(.saved(what))
    }
  }
  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .rows(.element(let id, .delegate(.report))):
        state.rows.remove(id: id)
        return save("row \(id)")
      case .sheet(.presented(.delegate(.report))):
        return save("sheet")
      case .path(.element(let id, .delegate(.report))):
        return save("screen \(id)")
      case .saved(let s):
        state.saved.append(s)
      case .rows, .sheet, .path: break
      }
      return .none
    }
    .forEach(\.rows, action: .rows) { NestLeaf(clock: clock) }
    .presents(\.sheet, action: .sheet) { NestLeaf(clock: clock) }
    .navigationStack(\.path, action: .path) { NestLeaf(clock: clock) }
  }
}
extension CaseKey<NestSaver.Action, IdentifiedAction<Int, NestLeaf.Action>> {
  static var rows: Self {
    Self(NestSaver.Action.rows) { if case .rows(let a) = $0 { a } else { nil } }
  }
}
extension CaseKey<NestSaver.Action, PresentationAction<NestLeaf.Action>> {
  static var sheet: Self {
    Self(NestSaver.Action.sheet) { if case .sheet(let a) = $0 { a } else { nil } }
  }
}
extension CaseKey<NestSaver.Action, StackAction<NestLeaf.State, NestLeaf.Action>> {
  static var path: Self {
    Self(NestSaver.Action.path) { if case .path(let a) = $0 { a } else { nil } }
  }
}

@MainActor
@Suite struct NavigationScenarioParentEffectTests {
  let clock = TestClock()

  @Test func aParentsSaveStartedOnAReportOutlivesTheReporter() async {
    let w = WarningLog()
    var s = NestSaver.State()
    s.rows = [NestLeaf.State(tag: 1)]
    s.sheet = NestLeaf.State(tag: 2)
    s.path = [NestLeaf.State(tag: 3)]
    let h = Harness(initialState: s, warnings: w.handler, reducer: NestSaver(clock: clock))
    h.send(.sheet(.presented(.reportThenClose)))
    h.send(.path(.element(id: 0, action: .reportThenClose)))
    h.send(.rows(.element(id: 1, action: .delegate(.report(1)))))
    #expect(h.state.sheet == nil)
    #expect(h.state.path.isEmpty)
    #expect(h.state.rows.isEmpty)
    #expect(clock.sleeperCount == 3)
    await clock.advance(by: .seconds(1))
    #expect(Set(h.state.saved) == ["sheet", "screen #0", "row 1"])
    #expect(w.messages.isEmpty, "\(w.messages)")
  }

}

// MARK: - A presented child that changes its own id

struct NestDraft: Reducer {
  struct State: Equatable, Sendable, Identifiable {
    var id: Int
    var ticks = 0
  }
  enum Action: Sendable, Equatable {
    case adopt(Int)
    case adoptAndStart(Int)
    case adoptAndClose(Int)
    case adoptReportAndClose(Int)
    case start
    case tick
    case delegate(Int)
  }
  let clock: TestClock
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .adopt(let id):
      state.id = id
      return .none
    case .adoptAndStart(let id):
      state.id = id
      return reduce(into: &state, action: .start)
    case .adoptAndClose(let id):
      state.id = id
      return .dismiss
    case .adoptReportAndClose(let id):
      state.id = id
      return .concatenate(.send(.delegate(id)), .dismiss)
    case .start:
      return .run { [clock] send in
        try await clock.sleep(for: .seconds(1))
        send(.tick)
      }
    case .tick:
      state.ticks += 1
      return .none
    case .delegate:
      return .none
    }
  }
}

struct NestDraftHost: Reducer {
  struct State: Equatable, Sendable {
    var draft: NestDraft.State?
    var log: [Int] = []
  }
  enum Action: Sendable, Equatable {
    case draft(PresentationAction<NestDraft.Action>)
  }
  let clock: TestClock
  var body: some ReducerOf<Self> {
    Reduce { state, action in
      if case .draft(.presented(.delegate(let id))) = action { state.log.append(id) }
      return .none
    }
    .presents(\.draft, action: .draft) { NestDraft(clock: clock) }
  }
}
extension CaseKey<NestDraftHost.Action, PresentationAction<NestDraft.Action>> {
  static var draft: Self {
    Self(NestDraftHost.Action.draft) { if case .draft(let a) = $0 { a } else { nil } }
  }
}

@MainActor
@Suite struct NavigationScenarioDraftTests {
  let clock = TestClock()
  func make(_ w: WarningLog) -> Harness<NestDraftHost> {
    Harness(
      initialState: NestDraftHost.State(draft: NestDraft.State(id: 1)), warnings: w.handler,
      reducer: NestDraftHost(clock: clock))
  }

  @Test func aDraftThatTakesItsServerIDAndClosesIsClosed() {
    let w = WarningLog()
    let h = make(w)
    h.send(.draft(.presented(.adoptAndClose(2))))
    #expect(h.state.draft == nil)
    #expect(w.messages.isEmpty, "\(w.messages)")
  }

  @Test func aDraftThatTakesItsServerIDReportsAndClosesIsClosed() {
    let w = WarningLog()
    let h = make(w)
    h.send(.draft(.presented(.adoptReportAndClose(2))))
    #expect(h.state.log == [2])
    #expect(h.state.draft == nil)
    #expect(w.messages.isEmpty, "\(w.messages)")
  }

  @Test func aDraftKeepsTheEffectItStartsWhenTakingItsID() async {
    // Doc: "A child that changes its own id ... keeps the effects it starts in that action,
    // and its earlier ones end".
    let w = WarningLog()
    let h = make(w)
    h.send(.draft(.presented(.start)))
    h.send(.draft(.presented(.adoptAndStart(2))))
    await clock.advance(by: .seconds(1))
    #expect(h.state.draft?.ticks == 1)
    #expect(w.messages.isEmpty, "\(w.messages)")
  }

  @Test func aDraftThatTookItsIDInAnEarlierActionClosesLater() async {
    let w = WarningLog()
    let h = make(w)
    h.send(.draft(.presented(.adopt(2))))
    h.send(.draft(.presented(.start)))
    await clock.advance(by: .seconds(1))
    #expect(h.state.draft?.ticks == 1)
    h.send(.draft(.presented(.adoptAndClose(3))))
    #expect(h.state.draft == nil)
    #expect(w.messages.isEmpty, "\(w.messages)")
  }
}

// MARK: - Throttle windows and occupants told apart by token

struct NestOccupants: Reducer {
  struct State: Equatable, Sendable {
    var child: NestLeaf.State?
    var path = StackState<NestLeaf.State>()
    var saved: StackState<NestLeaf.State>?
  }
  enum Action: Sendable, Equatable {
    case child(PresentationAction<NestLeaf.Action>)
    case path(StackActionOf<NestLeaf>)
    case setChild(Int)
    case deepLink(Int)
    case push
    case save
    case restoreAndPush
  }
  let clock: TestClock
  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .setChild(let tag): state.child = NestLeaf.State(tag: tag)
      case .deepLink(let n): state.path = StackState((0..<n).map { NestLeaf.State(tag: $0) })
      case .push: state.path.append(NestLeaf.State())
      case .save: state.saved = state.path
      case .restoreAndPush:
        state.path = state.saved!
        state.path.append(NestLeaf.State(tag: 42))
      case .child, .path: break
      }
      return .none
    }
    .presents(\.child, action: .child) { NestLeaf(clock: clock) }
    .navigationStack(\.path, action: .path) { NestLeaf(clock: clock) }
  }
}
extension CaseKey<NestOccupants.Action, PresentationAction<NestLeaf.Action>> {
  static var child: Self {
    Self(NestOccupants.Action.child) { if case .child(let a) = $0 { a } else { nil } }
  }
}
extension CaseKey<NestOccupants.Action, StackAction<NestLeaf.State, NestLeaf.Action>> {
  static var path: Self {
    Self(NestOccupants.Action.path) { if case .path(let a) = $0 { a } else { nil } }
  }
}

@MainActor
@Suite struct NavigationScenarioOccupantTests {
  let clock = TestClock()
  func make(_ w: WarningLog) -> Harness<NestOccupants> {
    Harness(
      initialState: NestOccupants.State(), warnings: w.handler, reducer: NestOccupants(clock: clock)
    )
  }

  @Test func aChildReplacedByAnotherIDStartsWithNoThrottleWindow() async {
    let w = WarningLog()
    let h = make(w)
    h.send(.setChild(1))
    h.send(.child(.presented(.throttled("a"))))
    h.send(.child(.presented(.throttled("b"))))
    h.send(.setChild(2))
    h.send(.child(.presented(.throttled("c"))))
    #expect(h.state.child?.pings == ["c"])
    await clock.advance(by: .seconds(2))
    #expect(h.state.child?.pings == ["c"])
    #expect(w.messages.isEmpty, "\(w.messages)")
  }

  @Test func aReplacedStacksScreenStartsWithNoThrottleWindow() async {
    let w = WarningLog()
    let h = make(w)
    h.send(.deepLink(1))
    h.send(.path(.element(id: 0, action: .throttled("a"))))
    h.send(.path(.element(id: 0, action: .throttled("b"))))
    h.send(.deepLink(1))
    h.send(.path(.element(id: 0, action: .throttled("c"))))
    #expect(h.state.path[id: 0]?.pings == ["c"])
    await clock.advance(by: .seconds(2))
    #expect(h.state.path[id: 0]?.pings == ["c"])
    #expect(w.messages.isEmpty, "\(w.messages)")
  }

  @Test func aScreenPushedAfterAnUndoStartsWithNoThrottleWindow() async {
    let w = WarningLog()
    let h = make(w)
    h.send(.push)
    h.send(.save)
    h.send(.push)  // #1
    h.send(.path(.element(id: 1, action: .throttled("a"))))
    h.send(.path(.element(id: 1, action: .throttled("b"))))
    h.send(.restoreAndPush)  // a new #1
    h.send(.path(.element(id: 1, action: .throttled("c"))))
    #expect(h.state.path[id: 1]?.pings == ["c"])
    await clock.advance(by: .seconds(2))
    #expect(h.state.path[id: 1]?.pings == ["c"])
    #expect(w.messages.isEmpty, "\(w.messages)")
  }

  @Test func aScreenPushedAfterAnUndoIsNotCancelledByTheUndoneScreensCancelInFlight() async {
    let w = WarningLog()
    let h = make(w)
    h.send(.push)
    h.send(.save)
    h.send(.push)  // #1
    h.send(.path(.element(id: 1, action: .start)))
    h.send(.restoreAndPush)  // a new #1
    h.send(.path(.element(id: 1, action: .start)))
    #expect(clock.sleeperCount == 1)
    await clock.advance(by: .seconds(1))
    #expect(h.state.path[id: 1]?.ticks == 1)
    #expect(w.messages.isEmpty, "\(w.messages)")
  }
}
