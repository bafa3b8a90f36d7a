import Effects
import Testing

@testable import Store

// Navigation and identity lifetimes in deep nesting, from an adversarial trial: a stack
// inside a sheet inside a row, with timed effects at every level. Throttle and debounce
// windows against identities, late sends of effects that ignore cancellation, undo above a
// `Scope`, occupants told apart by token, enum screens' dismissals, stale stores.

struct A36Leaf: Reducer {
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

struct A36Sheet: Reducer {
  struct State: Equatable, Sendable {
    var path = StackState<A36Leaf.State>()
    var log: [String] = []
  }
  enum Action: Sendable, Equatable {
    case path(StackActionOf<A36Leaf>)
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
        state.path.append(A36Leaf.State(tag: tag))
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
          state.path.append(A36Leaf.State(tag: 100))
        }
      case .path:
        break
      }
      return .none
    }
    .navigationStack(\.path, action: .path) { A36Leaf(clock: clock) }
  }
}

extension CaseKey<A36Sheet.Action, StackAction<A36Leaf.State, A36Leaf.Action>> {
  static var path: Self {
    Self(A36Sheet.Action.path) { if case .path(let a) = $0 { a } else { nil } }
  }
}

struct A36Row: Reducer {
  struct State: Equatable, Sendable, Identifiable {
    let id: Int
    var sheet: A36Sheet.State?
  }
  enum Action: Sendable, Equatable {
    case sheet(PresentationAction<A36Sheet.Action>)
    case open
    case reopen
  }
  let clock: TestClock
  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .open:
        state.sheet = A36Sheet.State()
      case .reopen:
        state.sheet = nil
        state.sheet = A36Sheet.State()
      case .sheet:
        break
      }
      return .none
    }
    .presents(\.sheet, action: .sheet) { A36Sheet(clock: clock) }
  }
}

extension CaseKey<A36Row.Action, PresentationAction<A36Sheet.Action>> {
  static var sheet: Self {
    Self(A36Row.Action.sheet) { if case .sheet(let a) = $0 { a } else { nil } }
  }
}

struct A36Root: Reducer {
  struct State: Equatable, Sendable {
    var rows: IdentifiedArrayOf<A36Row.State> = []
  }
  enum Action: Sendable, Equatable {
    case rows(IdentifiedActionOf<A36Row>)
    case add(Int)
    case remove(Int)
    case removeThenAdd(Int)
  }
  let clock: TestClock
  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .add(let id):
        state.rows.append(A36Row.State(id: id))
      case .remove(let id):
        state.rows.remove(id: id)
      case .removeThenAdd(let id):
        state.rows.remove(id: id)
        state.rows.append(A36Row.State(id: id))
      case .rows:
        break
      }
      return .none
    }
    .forEach(\.rows, action: .rows) { A36Row(clock: clock) }
  }
}

extension CaseKey<A36Root.Action, IdentifiedAction<Int, A36Row.Action>> {
  static var rows: Self {
    Self(A36Root.Action.rows) { if case .rows(let a) = $0 { a } else { nil } }
  }
}

@MainActor
@Suite struct NavigationScenarioTests {
  let clock = TestClock()

  func leaf(_ row: Int, _ id: StackElementID, _ a: A36Leaf.Action) -> A36Root.Action {
    .rows(.element(id: row, action: .sheet(.presented(.path(.element(id: id, action: a))))))
  }
  func sheet(_ row: Int, _ a: A36Sheet.Action) -> A36Root.Action {
    .rows(.element(id: row, action: .sheet(.presented(a))))
  }

  func make(_ warnings: WarningLog) -> Harness<A36Root> {
    let h = Harness(
      initialState: A36Root.State(), warnings: warnings.handler, reducer: A36Root(clock: clock))
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

// MARK: - Enum state (ifCaseLet), stack in a case, scoped stores of cases

struct A36Mode: Reducer {
  enum State: Equatable, Sendable {
    case a(A36Leaf.State)
    case b(A36Leaf.State)
    case nav(A36Sheet.State)
  }
  enum Action: Sendable, Equatable {
    case a(A36Leaf.Action)
    case b(A36Leaf.Action)
    case nav(A36Sheet.Action)
  }
  let clock: TestClock
  var body: some ReducerOf<Self> {
    EmptyReducer()
      .ifCaseLet(.a, action: .a) { A36Leaf(clock: clock) }
      .ifCaseLet(.b, action: .b) { A36Leaf(clock: clock) }
      .ifCaseLet(.nav, action: .nav) { A36Sheet(clock: clock) }
  }
}
extension CaseKey<A36Mode.State, A36Leaf.State> {
  static var a: Self { Self(A36Mode.State.a) { if case .a(let s) = $0 { s } else { nil } } }
  static var b: Self { Self(A36Mode.State.b) { if case .b(let s) = $0 { s } else { nil } } }
}
extension CaseKey<A36Mode.State, A36Sheet.State> {
  static var nav: Self { Self(A36Mode.State.nav) { if case .nav(let s) = $0 { s } else { nil } } }
}
extension CaseKey<A36Mode.Action, A36Leaf.Action> {
  static var a: Self { Self(A36Mode.Action.a) { if case .a(let s) = $0 { s } else { nil } } }
  static var b: Self { Self(A36Mode.Action.b) { if case .b(let s) = $0 { s } else { nil } } }
}
extension CaseKey<A36Mode.Action, A36Sheet.Action> {
  static var nav: Self { Self(A36Mode.Action.nav) { if case .nav(let s) = $0 { s } else { nil } } }
}

struct A36ModeHost: Reducer {
  struct State: Equatable, Sendable {
    var mode: A36Mode.State = .a(A36Leaf.State())
    var dest: A36Mode.State?
    var path = StackState<A36Mode.State>()
  }
  enum Action: Sendable, Equatable {
    case mode(A36Mode.Action)
    case dest(PresentationAction<A36Mode.Action>)
    case path(StackActionOf<A36Mode>)
    case set(A36Mode.State)
    case setDest(A36Mode.State?)
    case push(A36Mode.State)
    case setScreen(StackElementID, A36Mode.State)
    case stopIn(StackElementID)
    case stopMode
  }
  let clock: TestClock
  var body: some ReducerOf<Self> {
    Scope(state: \.mode, action: .mode) { A36Mode(clock: clock) }
    Reduce { state, action in
      switch action {
      case .set(let m): state.mode = m
      case .setDest(let m): state.dest = m
      case .push(let m): state.path.append(m)
      case .setScreen(let id, let m): state.path[id: id] = m
      case .stopIn(let id): return .cancel(id: "t", inScreen: id, of: \State.path)
      case .stopMode: return .cancel(id: "t", inScope: \State.mode, action: .mode)
      case .dest(.presented(.a(.delegate(.report(let tag))))):
        // Answer the report by showing another case.
        if tag == 7 { state.dest = .b(A36Leaf.State(tag: 8)) }
        // Or by showing the same case for another item (the payload is Identifiable by tag).
        if tag == 17 { state.dest = .a(A36Leaf.State(tag: 18)) }
      case .mode, .dest, .path: break
      }
      return .none
    }
    .presents(\.dest, action: .dest) { A36Mode(clock: clock) }
    .navigationStack(\.path, action: .path) { A36Mode(clock: clock) }
  }
}
extension CaseKey<A36ModeHost.Action, A36Mode.Action> {
  static var mode: Self {
    Self(A36ModeHost.Action.mode) { if case .mode(let s) = $0 { s } else { nil } }
  }
}
extension CaseKey<A36ModeHost.Action, PresentationAction<A36Mode.Action>> {
  static var dest: Self {
    Self(A36ModeHost.Action.dest) { if case .dest(let s) = $0 { s } else { nil } }
  }
}
extension CaseKey<A36ModeHost.Action, StackAction<A36Mode.State, A36Mode.Action>> {
  static var path: Self {
    Self(A36ModeHost.Action.path) { if case .path(let s) = $0 { s } else { nil } }
  }
}

@MainActor
@Suite struct NavigationScenarioEnumTests {
  let clock = TestClock()
  func make(_ w: WarningLog) -> Harness<A36ModeHost> {
    Harness(
      initialState: A36ModeHost.State(), warnings: w.handler, reducer: A36ModeHost(clock: clock))
  }

  @Test func switchingAwayAndBackInTwoActionsDropsTheOldCasesTick() async {
    let w = WarningLog()
    let h = make(w)
    h.send(.mode(.a(.start)))
    h.send(.set(.b(A36Leaf.State())))
    h.send(.set(.a(A36Leaf.State(tag: 2))))
    #expect(clock.sleeperCount == 0)
    await clock.advance(by: .seconds(1))
    #expect(h.state.mode == .a(A36Leaf.State(tag: 2)))
    #expect(w.messages.isEmpty, "\(w.messages)")
  }

  @Test func aCaseStoreKeptPastASwitchAwayAndBackDoesNotDriveTheNewCase() {
    let w = WarningLog()
    let h = make(w)
    let modeStore = h.store.scope(state: \.mode, action: .mode)
    let aStore = modeStore.scope(state: .a, action: .a)
    #expect(aStore != nil)
    h.send(.set(.b(A36Leaf.State())))
    #expect(modeStore.scope(state: .a, action: .a) == nil)
    h.send(.set(.a(A36Leaf.State(tag: 2))))
    let aStore2 = modeStore.scope(state: .a, action: .a)
    #expect(aStore2 !== aStore, "a new stay in case a gets a new store")
    aStore?.send(.ping("stale"))
    h.settle()
    #expect(
      h.state.mode == .a(A36Leaf.State(tag: 2)), "the stale case store must not drive the new case")
  }

  @Test func aStackInACaseEndsItsScreensEffectsWhenTheCaseIsLeft() async {
    let w = WarningLog()
    let h = make(w)
    h.send(.set(.nav(A36Sheet.State())))
    h.send(.mode(.nav(.push(1))))
    h.send(.mode(.nav(.path(.element(id: 0, action: .start)))))
    #expect(clock.sleeperCount == 1)
    h.send(.set(.b(A36Leaf.State())))
    #expect(clock.sleeperCount == 0)
    h.send(.set(.nav(A36Sheet.State())))
    h.send(.mode(.nav(.push(2))))
    await clock.advance(by: .seconds(1))
    #expect(h.state.mode == .nav(A36Sheet.State(path: [A36Leaf.State(tag: 2)])))
    #expect(w.messages.isEmpty, "\(w.messages)")
  }

  @Test func aDestinationCasesDismissLeavesTheOtherCaseTheParentShowedInAnswer() async {
    // Doc: "the editor's `.dismiss` effect closes the editor, and does nothing if the parent
    // answered the editor's report by showing something else."
    let w = WarningLog()
    let h = make(w)
    h.send(.setDest(.a(A36Leaf.State(tag: 7))))
    h.send(.dest(.presented(.a(.reportThenClose))))
    #expect(h.state.dest == .b(A36Leaf.State(tag: 8)))
    #expect(w.messages.isEmpty, "\(w.messages)")
  }

  @Test func aDestinationCasesDismissLeavesTheSameCaseForAnotherIDShownInAnswer() async {
    let w = WarningLog()
    let h = make(w)
    h.send(.setDest(.a(A36Leaf.State(tag: 17))))
    h.send(.dest(.presented(.a(.reportThenClose))))
    #expect(h.state.dest == .a(A36Leaf.State(tag: 18)))
    #expect(w.messages.isEmpty, "\(w.messages)")
  }

  @Test func aDestinationCaseThatClosesLaterDoesNotCloseTheCaseShownSince() async {
    let w = WarningLog()
    let h = make(w)
    h.send(.setDest(.a(A36Leaf.State())))
    h.send(.dest(.presented(.a(.closeLater))))
    h.send(.setDest(.b(A36Leaf.State())))
    await clock.advance(by: .seconds(1))
    #expect(h.state.dest == .b(A36Leaf.State()))
    #expect(w.messages.isEmpty, "\(w.messages)")
  }

  @Test func aScreenThatChangesCaseEndsTheOldCasesEffectsOnly() async {
    let w = WarningLog()
    let h = make(w)
    h.send(.push(.a(A36Leaf.State())))
    h.send(.push(.a(A36Leaf.State())))
    h.send(.path(.element(id: 0, action: .a(.start))))
    h.send(.path(.element(id: 1, action: .a(.start))))
    h.send(.setScreen(0, .b(A36Leaf.State())))
    #expect(clock.sleeperCount == 1)
    await clock.advance(by: .seconds(1))
    #expect(h.state.path[id: 1] == .a(A36Leaf.State(ticks: 1)))
    #expect(h.state.path[id: 0] == .b(A36Leaf.State()))
    #expect(w.messages.isEmpty, "\(w.messages)")
  }

  @Test func cancelInScopeReachesAScopedEnumsCase() async {
    // Doc: "so do ... `.cancel(id:inScope:action:)` from a parent whose ... scoped child are
    // such an enum".
    let w = WarningLog()
    let h = make(w)
    h.send(.mode(.a(.start)))
    h.send(.push(.a(A36Leaf.State())))
    h.send(.path(.element(id: 0, action: .a(.start))))
    h.send(.stopMode)
    #expect(clock.sleeperCount == 1)
    await clock.advance(by: .seconds(1))
    #expect(h.state.mode == .a(A36Leaf.State()))
    #expect(h.state.path[id: 0] == .a(A36Leaf.State(ticks: 1)))
    #expect(w.messages.isEmpty, "\(w.messages)")
  }

  @Test func cancelInScreenReachesAnEnumScreensCase() async {
    let w = WarningLog()
    let h = make(w)
    h.send(.push(.a(A36Leaf.State())))
    h.send(.push(.b(A36Leaf.State())))
    h.send(.path(.element(id: 0, action: .a(.start))))
    h.send(.path(.element(id: 1, action: .b(.start))))
    h.send(.stopIn(0))
    #expect(clock.sleeperCount == 1)
    await clock.advance(by: .seconds(1))
    #expect(h.state.path[id: 1] == .b(A36Leaf.State(ticks: 1)))
    #expect(w.messages.isEmpty, "\(w.messages)")
  }

  @Test func aCaseThrottleInAScreenClosesWithTheScreen() async {
    // Doc: "A window opened further in, by a row or a sheet within the case, is that row's
    // or sheet's, and closes when it goes".
    let w = WarningLog()
    let h = make(w)
    h.send(.setDest(.a(A36Leaf.State())))
    h.send(.dest(.presented(.a(.throttled("1")))))
    h.send(.dest(.dismiss))
    h.send(.setDest(.a(A36Leaf.State())))
    h.send(.dest(.presented(.a(.throttled("2")))))
    #expect(
      h.state.dest == .a(A36Leaf.State(pings: ["2"])), "a new presentation opens a new window")
    #expect(w.messages.isEmpty, "\(w.messages)")
  }
}

// MARK: - Scoped stores deep in a row's sheet's stack

@MainActor
@Suite struct NavigationScenarioStoreTests {
  let clock = TestClock()

  @Test func aScreenStoreKeptPastItsSheetsReopeningDoesNotDriveTheNewScreen() {
    let w = WarningLog()
    let h = Harness(
      initialState: A36Root.State(), warnings: w.handler, reducer: A36Root(clock: clock))
    h.send(.add(1))
    h.send(.rows(.element(id: 1, action: .open)))
    h.send(.rows(.element(id: 1, action: .sheet(.presented(.push(10))))))
    let row = h.store.scope(state: \.rows, action: .rows)[id: 1]!
    let sheet = row.scope(state: \.sheet, action: .sheet)!
    let leaf = sheet.scope(state: \.path, action: .path)[id: 0]!
    #expect(leaf.state.tag == 10)
    // Reopened in one action: the sheet is not Identifiable, so its store stays; its stack is new.
    h.send(.rows(.element(id: 1, action: .reopen)))
    h.send(.rows(.element(id: 1, action: .sheet(.presented(.push(20))))))
    let leaf2 = sheet.scope(state: \.path, action: .path)[id: 0]!
    #expect(leaf2 !== leaf)
    #expect(
      leaf.state.tag == 10, "a gone screen's store keeps its last state, never the newcomer's")
    #expect(leaf2.state.tag == 20)
    leaf.send(.ping("stale"))
    h.settle()
    #expect(
      h.state.rows[id: 1]?.sheet?.path[id: 0]?.pings == [],
      "the old screen's store reached the new screen #0")
  }

  @Test func aScreenStoreOfARemovedRowIsReleasedAndIgnoresSends() {
    let w = WarningLog()
    let h = Harness(
      initialState: A36Root.State(), warnings: w.handler, reducer: A36Root(clock: clock))
    h.send(.add(1))
    h.send(.rows(.element(id: 1, action: .open)))
    h.send(.rows(.element(id: 1, action: .sheet(.presented(.push(10))))))
    weak var weakLeaf: Store<A36Leaf.State, A36Leaf.Action>?
    var leaf: Store<A36Leaf.State, A36Leaf.Action>? = h.store.scope(state: \.rows, action: .rows)[
      id: 1]!
      .scope(state: \.sheet, action: .sheet)!.scope(state: \.path, action: .path)[id: 0]!
    weakLeaf = leaf
    _ = leaf?.state
    h.send(.remove(1))
    h.send(.add(1))
    h.send(.rows(.element(id: 1, action: .open)))
    h.send(.rows(.element(id: 1, action: .sheet(.presented(.push(20))))))
    leaf?.send(.ping("stale"))
    h.settle()
    #expect(h.state.rows[id: 1]?.sheet?.path[id: 0]?.pings == [])
    #expect(!w.messages.isEmpty, "a send through a gone screen's store warns")
    leaf = nil
    #expect(weakLeaf == nil)
  }
}

// MARK: - Timing operators and task handles against identities

struct A36Rows: Reducer {
  struct Item: Equatable, Sendable, Identifiable {
    let id: Int
    var leaf = A36Leaf.State()
  }
  struct State: Equatable, Sendable {
    var rows: IdentifiedArrayOf<A36Leaf.State> = []
    var path = StackState<A36Leaf.State>()
  }
  enum Action: Sendable, Equatable {
    case rows(IdentifiedAction<Int, A36Leaf.Action>)
    case path(StackActionOf<A36Leaf>)
    case add(Int)
    case remove(Int)
    case removeThenAdd(Int)
    case push
    case pop
    case cancelThrottleInRow(Int)
    case cancelThrottleInScreen(StackElementID)
    case cancelDebounceInScreen(StackElementID)
  }
  let clock: TestClock
  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .add(let id): state.rows.append(A36Leaf.State(tag: id))
      case .remove(let id): state.rows.remove(id: id)
      case .removeThenAdd(let id):
        state.rows.remove(id: id)
        state.rows.append(A36Leaf.State(tag: id))
      case .push: state.path.append(A36Leaf.State())
      case .pop: state.path.popLast()
      case .cancelThrottleInRow(let id):
        return .cancel(id: "th", inElement: id, of: \State.rows)
      case .cancelThrottleInScreen(let id):
        return .cancel(id: "th", inScreen: id, of: \State.path)
      case .cancelDebounceInScreen(let id):
        return .cancel(id: "db", inScreen: id, of: \State.path)
      case .rows(.element(let id, .delegate(.report))):
        state.rows.remove(id: id)
      case .rows, .path: break
      }
      return .none
    }
    .forEach(\.rows, action: .rows) { A36Leaf(clock: clock) }
    .navigationStack(\.path, action: .path) { A36Leaf(clock: clock) }
  }
}
extension A36Leaf.State: Identifiable { var id: Int { tag } }
extension CaseKey<A36Rows.Action, IdentifiedAction<Int, A36Leaf.Action>> {
  static var rows: Self {
    Self(A36Rows.Action.rows) { if case .rows(let a) = $0 { a } else { nil } }
  }
}
extension CaseKey<A36Rows.Action, StackAction<A36Leaf.State, A36Leaf.Action>> {
  static var path: Self {
    Self(A36Rows.Action.path) { if case .path(let a) = $0 { a } else { nil } }
  }
}

@MainActor
@Suite struct NavigationScenarioTimingTests {
  let clock = TestClock()
  func make(_ w: WarningLog) -> Harness<A36Rows> {
    Harness(initialState: A36Rows.State(), warnings: w.handler, reducer: A36Rows(clock: clock))
  }

  @Test func aRowReAddedInALaterActionGetsAFreshThrottleWindow() async {
    // Doc: "An id that is removed and later added again starts a fresh lifetime."
    let w = WarningLog()
    let h = make(w)
    h.send(.add(1))
    h.send(.rows(.element(id: 1, action: .throttled("a"))))
    h.send(.rows(.element(id: 1, action: .throttled("b"))))
    h.send(.remove(1))
    h.send(.add(1))
    h.send(.rows(.element(id: 1, action: .throttled("c"))))
    #expect(h.state.rows[id: 1]?.pings == ["c"])
    await clock.advance(by: .seconds(3))
    #expect(h.state.rows[id: 1]?.pings == ["c"], "b belonged to the removed row")
    #expect(w.messages.isEmpty, "\(w.messages)")
  }

  @Test func cancellingARowsThrottleIDClosesItsWindowOnly() async {
    // Doc (throttle): "Cancelling `id` closes the window and drops the waiting effect."
    let w = WarningLog()
    let h = make(w)
    h.send(.add(1))
    h.send(.add(2))
    h.send(.rows(.element(id: 1, action: .throttled("a"))))
    h.send(.rows(.element(id: 2, action: .throttled("a"))))
    h.send(.rows(.element(id: 1, action: .throttled("b"))))
    h.send(.rows(.element(id: 2, action: .throttled("b"))))
    h.send(.cancelThrottleInRow(1))
    h.send(.rows(.element(id: 1, action: .throttled("c"))))
    #expect(h.state.rows[id: 1]?.pings == ["a", "c"])
    await clock.advance(by: .seconds(1))
    #expect(h.state.rows[id: 2]?.pings == ["a", "b"])
    #expect(w.messages.isEmpty, "\(w.messages)")
  }

  @Test func cancellingAScreensThrottleIDClosesItsWindow() async {
    let w = WarningLog()
    let h = make(w)
    h.send(.push)
    h.send(.path(.element(id: 0, action: .throttled("a"))))
    h.send(.path(.element(id: 0, action: .throttled("b"))))
    h.send(.cancelThrottleInScreen(0))
    h.send(.path(.element(id: 0, action: .throttled("c"))))
    #expect(h.state.path[id: 0]?.pings == ["a", "c"])
    await clock.advance(by: .seconds(3))
    #expect(h.state.path[id: 0]?.pings == ["a", "c"])
    #expect(w.messages.isEmpty, "\(w.messages)")
  }

  @Test func cancellingAScreensDebounceDropsIt() async {
    let w = WarningLog()
    let h = make(w)
    h.send(.push)
    h.send(.path(.element(id: 0, action: .debounced("a"))))
    h.send(.cancelDebounceInScreen(0))
    await clock.advance(by: .seconds(3))
    #expect(h.state.path[id: 0]?.pings == [])
    #expect(w.messages.isEmpty, "\(w.messages)")
  }

  @Test func aPoppedScreensSendTaskFinishes() async {
    let w = WarningLog()
    let h = make(w)
    h.send(.push)
    let t = h.send(.path(.element(id: 0, action: .start)))
    let t2 = h.send(.path(.element(id: 0, action: .debounced("x"))))
    let t3 = h.send(.path(.element(id: 0, action: .throttled("x"))))
    let t4 = h.send(.path(.element(id: 0, action: .throttled("y"))))
    #expect(t.isRunning && t2.isRunning && t4.isRunning)
    h.send(.pop)
    #expect(!t.isRunning)
    #expect(!t2.isRunning)
    #expect(!t3.isRunning)
    #expect(!t4.isRunning)
    await t.finish()
    await t4.finish()
    #expect(w.messages.isEmpty, "\(w.messages)")
  }

  @Test func aRowRemovedInAnswerToItsReportHasItsOtherEffectsEnded() async {
    let w = WarningLog()
    let h = make(w)
    h.send(.add(1))
    h.send(.rows(.element(id: 1, action: .start)))
    h.send(.rows(.element(id: 1, action: .reportThenClose)))
    // reportThenClose returns a `.dismiss` a row cannot do: a warning, expected.
    #expect(h.state.rows.isEmpty)
    #expect(clock.sleeperCount == 0)
  }

  @Test func aRowRemovedAndAddedBackInOneActionKeepsItsThrottleWindow() async {
    let w = WarningLog()
    let h = make(w)
    h.send(.add(1))
    h.send(.rows(.element(id: 1, action: .throttled("a"))))
    h.send(.rows(.element(id: 1, action: .throttled("b"))))
    h.send(.removeThenAdd(1))
    await clock.advance(by: .seconds(1))
    #expect(h.state.rows[id: 1]?.pings == ["b"], "the re-added row kept its effects")
    #expect(w.messages.isEmpty, "\(w.messages)")
  }
}

@MainActor
@Suite struct NavigationScenarioDismissTests {
  let clock = TestClock()
  func make(_ w: WarningLog) -> Harness<A36ModeHost> {
    Harness(
      initialState: A36ModeHost.State(), warnings: w.handler, reducer: A36ModeHost(clock: clock))
  }

  @Test func anEnumScreensCaseDismissPopsTheScreen() {
    let w = WarningLog()
    let h = make(w)
    h.send(.push(.a(A36Leaf.State())))
    h.send(.push(.b(A36Leaf.State())))
    h.send(.path(.element(id: 0, action: .a(.close))))
    #expect(h.state.path.isEmpty)
    #expect(w.messages.isEmpty, "\(w.messages)")
  }

  @Test func anEnumScreensCaseDismissLaterPopsTheScreen() async {
    let w = WarningLog()
    let h = make(w)
    h.send(.push(.a(A36Leaf.State())))
    h.send(.push(.b(A36Leaf.State())))
    h.send(.path(.element(id: 1, action: .b(.closeLater))))
    await clock.advance(by: .seconds(1))
    #expect(h.state.path.ids == [0])
    #expect(w.messages.isEmpty, "\(w.messages)")
  }

  @Test func aScreenThatSwitchedCaseIsNotPoppedByTheOldCasesLateDismiss() async {
    // The screen #0 showed case a, which asked to close itself later; the parent switched the
    // screen to case b meanwhile. Case a's effect ended with the case, so nothing pops.
    let w = WarningLog()
    let h = make(w)
    h.send(.push(.a(A36Leaf.State())))
    h.send(.path(.element(id: 0, action: .a(.closeLater))))
    h.send(.setScreen(0, .b(A36Leaf.State())))
    await clock.advance(by: .seconds(1))
    #expect(h.state.path.ids == [0])
    #expect(w.messages.isEmpty, "\(w.messages)")
  }

  @Test func aCaseDismissAtTheRootThatNobodyPresentsWarns() {
    let w = WarningLog()
    let h = make(w)
    h.send(.mode(.a(.close)))
    #expect(h.state.mode == .a(A36Leaf.State()))
    #expect(!w.messages.isEmpty, "a `.dismiss` that closes nothing warns")
  }
}

// MARK: - Effects that ignore cancellation and send after their identity ended

struct A36Stub: Reducer {
  struct State: Equatable, Sendable, Identifiable {
    var id = 0
    var pings: [String] = []
  }
  enum Action: Sendable, Equatable {
    case stubborn
    case ping(String)
  }
  let gate: Gate
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .stubborn:
      return .run { [gate] send in
        await gate.wait()
        send(.ping("late"))
      }
    case .ping(let s):
      state.pings.append(s)
      return .none
    }
  }
}

struct A36StubPlain: Reducer {
  struct State: Equatable, Sendable { var pings: [String] = [] }
  enum Action: Sendable, Equatable {
    case stubborn
    case ping(String)
  }
  let gate: Gate
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .stubborn:
      return .run { [gate] send in
        await gate.wait()
        send(.ping("late"))
      }
    case .ping(let s):
      state.pings.append(s)
      return .none
    }
  }
}

enum A36StubMode: Equatable, Sendable {
  case one(A36StubPlain.State)
  case two(A36StubPlain.State)
}
enum A36StubModeAction: Equatable, Sendable {
  case one(A36StubPlain.Action)
  case two(A36StubPlain.Action)
}
extension CaseKey<A36StubMode, A36StubPlain.State> {
  static var one: Self { Self(A36StubMode.one) { if case .one(let s) = $0 { s } else { nil } } }
  static var two: Self { Self(A36StubMode.two) { if case .two(let s) = $0 { s } else { nil } } }
}
extension CaseKey<A36StubModeAction, A36StubPlain.Action> {
  static var one: Self {
    Self(A36StubModeAction.one) { if case .one(let s) = $0 { s } else { nil } }
  }
  static var two: Self {
    Self(A36StubModeAction.two) { if case .two(let s) = $0 { s } else { nil } }
  }
}

struct A36StubHost: Reducer {
  struct State: Equatable, Sendable {
    var rows: IdentifiedArrayOf<A36Stub.State> = []
    var sheet: A36StubPlain.State?
    var child: A36Stub.State?
    var mode: A36StubMode = .one(A36StubPlain.State())
    var path = StackState<A36StubPlain.State>()
  }
  enum Action: Sendable, Equatable {
    case rows(IdentifiedAction<Int, A36Stub.Action>)
    case sheet(PresentationAction<A36StubPlain.Action>)
    case child(A36Stub.Action)
    case mode(A36StubModeAction)
    case path(StackActionOf<A36StubPlain>)
    case setRows([Int])
    case setSheet(Bool)
    case setChild(Int?)
    case setMode(A36StubMode)
    case setPath(Int)
  }
  let gate: Gate
  var body: some ReducerOf<Self> {
    Scope(state: \.mode, action: .mode) {
      EmptyReducer()
        .ifCaseLet(.one, action: .one) { A36StubPlain(gate: gate) }
        .ifCaseLet(.two, action: .two) { A36StubPlain(gate: gate) }
    }
    Reduce { state, action in
      switch action {
      case .setRows(let ids):
        state.rows = IdentifiedArrayOf(ids.map { A36Stub.State(id: $0) })
      case .setSheet(let on): state.sheet = on ? A36StubPlain.State() : nil
      case .setChild(let id): state.child = id.map { A36Stub.State(id: $0) }
      case .setMode(let m): state.mode = m
      case .setPath(let n): state.path = StackState((0..<n).map { _ in A36StubPlain.State() })
      case .rows, .sheet, .child, .mode, .path: break
      }
      return .none
    }
    .forEach(\.rows, action: .rows) { A36Stub(gate: gate) }
    .presents(\.sheet, action: .sheet) { A36StubPlain(gate: gate) }
    .ifLet(\.child, action: .child) { A36Stub(gate: gate) }
    .navigationStack(\.path, action: .path) { A36StubPlain(gate: gate) }
  }
}
extension CaseKey<A36StubHost.Action, IdentifiedAction<Int, A36Stub.Action>> {
  static var rows: Self {
    Self(A36StubHost.Action.rows) { if case .rows(let a) = $0 { a } else { nil } }
  }
}
extension CaseKey<A36StubHost.Action, PresentationAction<A36StubPlain.Action>> {
  static var sheet: Self {
    Self(A36StubHost.Action.sheet) { if case .sheet(let a) = $0 { a } else { nil } }
  }
}
extension CaseKey<A36StubHost.Action, A36Stub.Action> {
  static var child: Self {
    Self(A36StubHost.Action.child) { if case .child(let a) = $0 { a } else { nil } }
  }
}
extension CaseKey<A36StubHost.Action, A36StubModeAction> {
  static var mode: Self {
    Self(A36StubHost.Action.mode) { if case .mode(let a) = $0 { a } else { nil } }
  }
}
extension CaseKey<A36StubHost.Action, StackAction<A36StubPlain.State, A36StubPlain.Action>> {
  static var path: Self {
    Self(A36StubHost.Action.path) { if case .path(let a) = $0 { a } else { nil } }
  }
}

@MainActor
@Suite struct NavigationScenarioLateSendTests {
  let gate = Gate()
  func make(_ w: WarningLog) -> Harness<A36StubHost> {
    Harness(
      initialState: A36StubHost.State(), warnings: w.handler, reducer: A36StubHost(gate: gate))
  }

  @Test func aLateSendOfARemovedRowNeverReachesTheRowAddedBackLater() {
    let w = WarningLog()
    let h = make(w)
    h.send(.setRows([1, 2]))
    h.send(.rows(.element(id: 1, action: .stubborn)))
    h.send(.setRows([2]))
    h.send(.setRows([1, 2]))
    gate.open()
    h.settle()
    #expect(h.state.rows[id: 1]?.pings == [])
    #expect(w.messages.isEmpty, "\(w.messages)")
  }

  @Test func aLateSendOfADismissedSheetNeverReachesTheNextPresentation() {
    let w = WarningLog()
    let h = make(w)
    h.send(.setSheet(true))
    h.send(.sheet(.presented(.stubborn)))
    h.send(.setSheet(false))
    h.send(.setSheet(true))
    gate.open()
    h.settle()
    #expect(h.state.sheet?.pings == [])
    #expect(w.messages.isEmpty, "\(w.messages)")
  }

  @Test func aLateSendOfAnIfLetChildNeverReachesTheNextOneWithTheSameID() {
    let w = WarningLog()
    let h = make(w)
    h.send(.setChild(1))
    h.send(.child(.stubborn))
    h.send(.setChild(nil))
    h.send(.setChild(1))
    gate.open()
    h.settle()
    #expect(h.state.child?.pings == [])
    #expect(w.messages.isEmpty, "\(w.messages)")
  }

  @Test func aLateSendOfAnIfLetChildNeverReachesOneWithAnotherID() {
    let w = WarningLog()
    let h = make(w)
    h.send(.setChild(1))
    h.send(.child(.stubborn))
    h.send(.setChild(2))
    gate.open()
    h.settle()
    #expect(h.state.child?.pings == [])
    #expect(w.messages.isEmpty, "\(w.messages)")
  }

  @Test func aLateSendOfALeftCaseNeverReachesTheCaseEnteredAgain() {
    let w = WarningLog()
    let h = make(w)
    h.send(.mode(.one(.stubborn)))
    h.send(.setMode(.two(A36StubPlain.State())))
    h.send(.setMode(.one(A36StubPlain.State())))
    gate.open()
    h.settle()
    #expect(h.state.mode == .one(A36StubPlain.State()))
    #expect(w.messages.isEmpty, "\(w.messages)")
  }

  @Test func aLateSendOfAReplacedStacksScreenNeverReachesTheNewScreenWithItsID() {
    let w = WarningLog()
    let h = make(w)
    h.send(.setPath(2))
    h.send(.path(.element(id: 1, action: .stubborn)))
    h.send(.setPath(2))
    gate.open()
    h.settle()
    #expect(h.state.path.map(\.pings) == [[], []])
    #expect(w.messages.isEmpty, "\(w.messages)")
  }
}

// MARK: - A parent's own effect started in answer to a child that then goes away

struct A36Saver: Reducer {
  struct State: Equatable, Sendable {
    var rows: IdentifiedArrayOf<A36Leaf.State> = []
    var sheet: A36Leaf.State?
    var path = StackState<A36Leaf.State>()
    var saved: [String] = []
  }
  enum Action: Sendable, Equatable {
    case rows(IdentifiedAction<Int, A36Leaf.Action>)
    case sheet(PresentationAction<A36Leaf.Action>)
    case path(StackActionOf<A36Leaf>)
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
    .forEach(\.rows, action: .rows) { A36Leaf(clock: clock) }
    .presents(\.sheet, action: .sheet) { A36Leaf(clock: clock) }
    .navigationStack(\.path, action: .path) { A36Leaf(clock: clock) }
  }
}
extension CaseKey<A36Saver.Action, IdentifiedAction<Int, A36Leaf.Action>> {
  static var rows: Self {
    Self(A36Saver.Action.rows) { if case .rows(let a) = $0 { a } else { nil } }
  }
}
extension CaseKey<A36Saver.Action, PresentationAction<A36Leaf.Action>> {
  static var sheet: Self {
    Self(A36Saver.Action.sheet) { if case .sheet(let a) = $0 { a } else { nil } }
  }
}
extension CaseKey<A36Saver.Action, StackAction<A36Leaf.State, A36Leaf.Action>> {
  static var path: Self {
    Self(A36Saver.Action.path) { if case .path(let a) = $0 { a } else { nil } }
  }
}

@MainActor
@Suite struct NavigationScenarioParentEffectTests {
  let clock = TestClock()

  @Test func aParentsSaveStartedOnAReportOutlivesTheReporter() async {
    let w = WarningLog()
    var s = A36Saver.State()
    s.rows = [A36Leaf.State(tag: 1)]
    s.sheet = A36Leaf.State(tag: 2)
    s.path = [A36Leaf.State(tag: 3)]
    let h = Harness(initialState: s, warnings: w.handler, reducer: A36Saver(clock: clock))
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

struct A36Draft: Reducer {
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

struct A36DraftHost: Reducer {
  struct State: Equatable, Sendable {
    var draft: A36Draft.State?
    var log: [Int] = []
  }
  enum Action: Sendable, Equatable {
    case draft(PresentationAction<A36Draft.Action>)
  }
  let clock: TestClock
  var body: some ReducerOf<Self> {
    Reduce { state, action in
      if case .draft(.presented(.delegate(let id))) = action { state.log.append(id) }
      return .none
    }
    .presents(\.draft, action: .draft) { A36Draft(clock: clock) }
  }
}
extension CaseKey<A36DraftHost.Action, PresentationAction<A36Draft.Action>> {
  static var draft: Self {
    Self(A36DraftHost.Action.draft) { if case .draft(let a) = $0 { a } else { nil } }
  }
}

@MainActor
@Suite struct NavigationScenarioDraftTests {
  let clock = TestClock()
  func make(_ w: WarningLog) -> Harness<A36DraftHost> {
    Harness(
      initialState: A36DraftHost.State(draft: A36Draft.State(id: 1)), warnings: w.handler,
      reducer: A36DraftHost(clock: clock))
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

struct A36Occupants: Reducer {
  struct State: Equatable, Sendable {
    var child: A36Leaf.State?
    var path = StackState<A36Leaf.State>()
    var saved: StackState<A36Leaf.State>?
  }
  enum Action: Sendable, Equatable {
    case child(PresentationAction<A36Leaf.Action>)
    case path(StackActionOf<A36Leaf>)
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
      case .setChild(let tag): state.child = A36Leaf.State(tag: tag)
      case .deepLink(let n): state.path = StackState((0..<n).map { A36Leaf.State(tag: $0) })
      case .push: state.path.append(A36Leaf.State())
      case .save: state.saved = state.path
      case .restoreAndPush:
        state.path = state.saved!
        state.path.append(A36Leaf.State(tag: 42))
      case .child, .path: break
      }
      return .none
    }
    .presents(\.child, action: .child) { A36Leaf(clock: clock) }
    .navigationStack(\.path, action: .path) { A36Leaf(clock: clock) }
  }
}
extension CaseKey<A36Occupants.Action, PresentationAction<A36Leaf.Action>> {
  static var child: Self {
    Self(A36Occupants.Action.child) { if case .child(let a) = $0 { a } else { nil } }
  }
}
extension CaseKey<A36Occupants.Action, StackAction<A36Leaf.State, A36Leaf.Action>> {
  static var path: Self {
    Self(A36Occupants.Action.path) { if case .path(let a) = $0 { a } else { nil } }
  }
}

@MainActor
@Suite struct NavigationScenarioOccupantTests {
  let clock = TestClock()
  func make(_ w: WarningLog) -> Harness<A36Occupants> {
    Harness(
      initialState: A36Occupants.State(), warnings: w.handler, reducer: A36Occupants(clock: clock))
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

// MARK: - An undo that sets a list back to a copy from before a row's sheet was opened

struct A36Undo: Reducer {
  struct State: Equatable, Sendable {
    var rows: IdentifiedArrayOf<A36Row.State> = []
    var saved: IdentifiedArrayOf<A36Row.State> = []
  }
  enum Action: Sendable, Equatable {
    case rows(IdentifiedActionOf<A36Row>)
    case add(Int)
    case save
    case restore
  }
  let clock: TestClock
  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .add(let id): state.rows.append(A36Row.State(id: id))
      case .save: state.saved = state.rows
      case .restore: state.rows = state.saved
      case .rows: break
      }
      return .none
    }
    .forEach(\.rows, action: .rows) { A36Row(clock: clock) }
  }
}
extension CaseKey<A36Undo.Action, IdentifiedAction<Int, A36Row.Action>> {
  static var rows: Self {
    Self(A36Undo.Action.rows) { if case .rows(let a) = $0 { a } else { nil } }
  }
}

@MainActor
@Suite struct NavigationScenarioUndoTests {
  let clock = TestClock()
  func sheet(_ row: Int, _ a: A36Sheet.Action) -> A36Undo.Action {
    .rows(.element(id: row, action: .sheet(.presented(a))))
  }

  @Test func anUndoThatClosesARowsSheetEndsTheSheetsEffects() async {
    let w = WarningLog()
    let h = Harness(
      initialState: A36Undo.State(), warnings: w.handler, reducer: A36Undo(clock: clock))
    h.send(.add(1))
    h.send(.add(2))
    h.send(.save)
    h.send(.rows(.element(id: 1, action: .open)))
    h.send(sheet(1, .start))
    #expect(clock.sleeperCount == 1)
    h.send(.restore)
    #expect(h.state.rows[id: 1]?.sheet == nil)
    #expect(
      clock.sleeperCount == 0,
      "the sheet is gone: its effect must end with the action that removed it")
    h.send(.rows(.element(id: 1, action: .open)))
    await clock.advance(by: .seconds(1))
    #expect(h.state.rows[id: 1]?.sheet?.log == [], "the old sheet's tick reached the new sheet")
    #expect(w.messages.isEmpty, "\(w.messages)")
  }

  @Test func anUndoThatClosesARowsSheetEndsTheSheetsScreensEffects() async {
    let w = WarningLog()
    let h = Harness(
      initialState: A36Undo.State(), warnings: w.handler, reducer: A36Undo(clock: clock))
    h.send(.add(1))
    h.send(.save)
    h.send(.rows(.element(id: 1, action: .open)))
    h.send(sheet(1, .push(5)))
    h.send(sheet(1, .path(.element(id: 0, action: .start))))
    #expect(clock.sleeperCount == 1)
    h.send(.restore)
    #expect(clock.sleeperCount == 0)
    h.send(.rows(.element(id: 1, action: .open)))
    h.send(sheet(1, .push(6)))
    await clock.advance(by: .seconds(1))
    #expect(h.state.rows[id: 1]?.sheet?.path.first?.ticks == 0)
    #expect(w.messages.isEmpty, "\(w.messages)")
  }
}

struct A36UndoAbove: Reducer {
  struct State: Equatable, Sendable {
    var list = A36Undo.State()
    var saved: A36Undo.State?
    var savedRows: IdentifiedArrayOf<A36Row.State>?
  }
  enum Action: Sendable, Equatable {
    case list(A36Undo.Action)
    case save
    case restore
    case restoreRows
  }
  let clock: TestClock
  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .save:
        state.saved = state.list
        state.savedRows = state.list.rows
      case .restore: state.list = state.saved!
      case .restoreRows: state.list.rows = state.savedRows!
      case .list: break
      }
      return .none
    }
    Scope(state: \.list, action: .list) { A36Undo(clock: clock) }
  }
}
extension CaseKey<A36UndoAbove.Action, A36Undo.Action> {
  static var list: Self {
    Self(A36UndoAbove.Action.list) { if case .list(let a) = $0 { a } else { nil } }
  }
}

@MainActor
@Suite struct NavigationScenarioUndoAboveTests {
  let clock = TestClock()
  func sheet(_ row: Int, _ a: A36Sheet.Action) -> A36UndoAbove.Action {
    .list(.rows(.element(id: row, action: .sheet(.presented(a)))))
  }

  @Test(arguments: [false, true])
  func anUndoAboveAScopeThatClosesARowsSheetEndsItsEffects(rowsOnly: Bool) async {
    let w = WarningLog()
    let h = Harness(
      initialState: A36UndoAbove.State(), warnings: w.handler, reducer: A36UndoAbove(clock: clock))
    h.send(.list(.add(1)))
    h.send(.list(.add(2)))
    h.send(.save)
    h.send(.list(.rows(.element(id: 1, action: .open))))
    h.send(sheet(1, .start))
    h.send(sheet(1, .push(5)))
    h.send(sheet(1, .path(.element(id: 0, action: .start))))
    #expect(clock.sleeperCount == 2)
    h.send(rowsOnly ? .restoreRows : .restore)
    #expect(h.state.list.rows[id: 1]?.sheet == nil)
    #expect(
      clock.sleeperCount == 0,
      "the sheet is gone: its effects must end with the action that removed it")
    h.send(.list(.rows(.element(id: 1, action: .open))))
    h.send(sheet(1, .push(6)))
    await clock.advance(by: .seconds(1))
    #expect(
      h.state.list.rows[id: 1]?.sheet?.log == [], "the old sheet's tick reached the new sheet")
    #expect(h.state.list.rows[id: 1]?.sheet?.path.first?.ticks == 0)
    #expect(w.messages.isEmpty, "\(w.messages)")
  }
}

// MARK: - A screen that answers its own alert by closing itself

struct A36Confirm: Equatable, Sendable { var title = "Delete?" }
enum A36ConfirmAction: Equatable, Sendable { case yes, no }

struct A36AlertScreen: Reducer {
  struct State: Equatable, Sendable {
    var alert: A36Confirm?
    var deleted = false
  }
  enum Action: Sendable, Equatable {
    case alert(PresentationAction<A36ConfirmAction>)
    case deleteTapped
  }
  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .deleteTapped:
        state.alert = A36Confirm()
        return .none
      case .alert(.presented(.yes)):
        state.deleted = true
        return .dismiss
      case .alert:
        return .none
      }
    }
    .presents(\.alert, action: .alert)
  }
}
extension CaseKey<A36AlertScreen.Action, PresentationAction<A36ConfirmAction>> {
  static var alert: Self {
    Self(A36AlertScreen.Action.alert) { if case .alert(let a) = $0 { a } else { nil } }
  }
}

struct A36AlertHost: Reducer {
  struct State: Equatable, Sendable {
    var path = StackState<A36AlertScreen.State>()
    var sheet: A36AlertScreen.State?
  }
  enum Action: Sendable, Equatable {
    case path(StackActionOf<A36AlertScreen>)
    case sheet(PresentationAction<A36AlertScreen.Action>)
  }
  var body: some ReducerOf<Self> {
    EmptyReducer()
      .navigationStack(\.path, action: .path) { A36AlertScreen() }
      .presents(\.sheet, action: .sheet) { A36AlertScreen() }
  }
}
extension CaseKey<A36AlertHost.Action, StackAction<A36AlertScreen.State, A36AlertScreen.Action>> {
  static var path: Self {
    Self(A36AlertHost.Action.path) { if case .path(let a) = $0 { a } else { nil } }
  }
}
extension CaseKey<A36AlertHost.Action, PresentationAction<A36AlertScreen.Action>> {
  static var sheet: Self {
    Self(A36AlertHost.Action.sheet) { if case .sheet(let a) = $0 { a } else { nil } }
  }
}

@MainActor
@Suite struct NavigationScenarioAlertTests {
  @Test func aScreenAnsweringItsAlertWithDismissIsPopped() {
    let w = WarningLog()
    let h = Harness(
      initialState: A36AlertHost.State(
        path: [A36AlertScreen.State()], sheet: A36AlertScreen.State()),
      warnings: w.handler, reducer: A36AlertHost())
    h.send(.path(.element(id: 0, action: .deleteTapped)))
    h.send(.path(.element(id: 0, action: .alert(.presented(.yes)))))
    #expect(h.state.path.isEmpty)
    h.send(.sheet(.presented(.deleteTapped)))
    h.send(.sheet(.presented(.alert(.presented(.yes)))))
    #expect(h.state.sheet == nil)
    #expect(w.messages.isEmpty, "\(w.messages)")
  }
}

@MainActor
@Suite struct NavigationScenarioStaleSendTests {
  let clock = TestClock()
  @Test func aSendThroughAPoppedScreensStoreReturnsAFinishedTaskAndWarnsOnce() async {
    let w = WarningLog()
    let h = Harness(
      initialState: A36Rows.State(), warnings: w.handler, reducer: A36Rows(clock: clock))
    h.send(.push)
    let screen = h.store.scope(state: \.path, action: .path)[id: 0]!
    _ = screen.state
    h.send(.pop)
    let task = screen.send(.start)
    h.settle()
    #expect(!task.isRunning)
    await task.finish()
    #expect(clock.sleeperCount == 0)
    #expect(w.messages.count == 1, "\(w.messages)")
  }
}

// MARK: - A sheet in a row reports, and the root removes the row before the sheet's dismissal

struct A36SheetRow: Reducer {
  struct State: Equatable, Sendable, Identifiable {
    let id: Int
    var sheet: A36Leaf.State?
  }
  enum Action: Sendable, Equatable {
    case sheet(PresentationAction<A36Leaf.Action>)
  }
  let clock: TestClock
  var body: some ReducerOf<Self> {
    EmptyReducer().presents(\.sheet, action: .sheet) { A36Leaf(clock: clock) }
  }
}
extension CaseKey<A36SheetRow.Action, PresentationAction<A36Leaf.Action>> {
  static var sheet: Self {
    Self(A36SheetRow.Action.sheet) { if case .sheet(let a) = $0 { a } else { nil } }
  }
}
struct A36SheetRows: Reducer {
  struct State: Equatable, Sendable { var rows: IdentifiedArrayOf<A36SheetRow.State> = [] }
  enum Action: Sendable, Equatable { case rows(IdentifiedActionOf<A36SheetRow>) }
  let clock: TestClock
  var body: some ReducerOf<Self> {
    Reduce { state, action in
      if case .rows(.element(let id, .sheet(.presented(.delegate(.report))))) = action {
        state.rows.remove(id: id)
      }
      return .none
    }
    .forEach(\.rows, action: .rows) { A36SheetRow(clock: clock) }
  }
}
extension CaseKey<A36SheetRows.Action, IdentifiedAction<Int, A36SheetRow.Action>> {
  static var rows: Self {
    Self(A36SheetRows.Action.rows) { if case .rows(let a) = $0 { a } else { nil } }
  }
}

@MainActor
@Suite struct NavigationScenarioSheetRowTests {
  let clock = TestClock()
  @Test func aRowRemovedOnItsSheetsReportTakesTheSheetsDismissalWithIt() async {
    let w = WarningLog()
    let h = Harness(
      initialState: A36SheetRows.State(rows: [
        A36SheetRow.State(id: 1, sheet: A36Leaf.State(tag: 1)),
        A36SheetRow.State(id: 2, sheet: A36Leaf.State(tag: 2)),
      ]),
      warnings: w.handler, reducer: A36SheetRows(clock: clock))
    h.send(.rows(.element(id: 2, action: .sheet(.presented(.start)))))
    h.send(.rows(.element(id: 1, action: .sheet(.presented(.start)))))
    h.send(.rows(.element(id: 1, action: .sheet(.presented(.reportThenClose)))))
    #expect(h.state.rows.ids == [2])
    #expect(h.state.rows[id: 2]?.sheet != nil, "the other row's sheet stays")
    #expect(clock.sleeperCount == 1)
    await clock.advance(by: .seconds(1))
    #expect(h.state.rows[id: 2]?.sheet?.ticks == 1)
    #expect(w.messages.isEmpty, "\(w.messages)")
  }
}
