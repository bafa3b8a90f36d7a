// From an adversarial trial on navigation and identity lifetimes (fixtures shared between these
// *NavigationScenarioTests and Navigation*ScenarioTests files). Enum screens and destinations:
// leaving and re-entering a case, stacks inside cases, dismissals of enum screens, cancelling into
// a case; stale stores.

import Effects
import Testing

@testable import Store

// MARK: - Enum state (ifCaseLet), stack in a case, scoped stores of cases

struct NestMode: Reducer {
  enum State: Equatable, Sendable {
    case a(NestLeaf.State)
    case b(NestLeaf.State)
    case nav(NestSheet.State)
  }
  enum Action: Sendable, Equatable {
    case a(NestLeaf.Action)
    case b(NestLeaf.Action)
    case nav(NestSheet.Action)
  }
  let clock: TestClock
  var body: some ReducerOf<Self> {
    EmptyReducer()
      .ifCaseLet(.a, action: .a) { NestLeaf(clock: clock) }
      .ifCaseLet(.b, action: .b) { NestLeaf(clock: clock) }
      .ifCaseLet(.nav, action: .nav) { NestSheet(clock: clock) }
  }
}
extension CaseKey<NestMode.State, NestLeaf.State> {
  static var a: Self { Self(NestMode.State.a) { if case .a(let s) = $0 { s } else { nil } } }
  static var b: Self { Self(NestMode.State.b) { if case .b(let s) = $0 { s } else { nil } } }
}
extension CaseKey<NestMode.State, NestSheet.State> {
  static var nav: Self { Self(NestMode.State.nav) { if case .nav(let s) = $0 { s } else { nil } } }
}
extension CaseKey<NestMode.Action, NestLeaf.Action> {
  static var a: Self { Self(NestMode.Action.a) { if case .a(let s) = $0 { s } else { nil } } }
  static var b: Self { Self(NestMode.Action.b) { if case .b(let s) = $0 { s } else { nil } } }
}
extension CaseKey<NestMode.Action, NestSheet.Action> {
  static var nav: Self { Self(NestMode.Action.nav) { if case .nav(let s) = $0 { s } else { nil } } }
}

struct NestModeHost: Reducer {
  struct State: Equatable, Sendable {
    var mode: NestMode.State = .a(NestLeaf.State())
    var dest: NestMode.State?
    var path = StackState<NestMode.State>()
  }
  enum Action: Sendable, Equatable {
    case mode(NestMode.Action)
    case dest(PresentationAction<NestMode.Action>)
    case path(StackActionOf<NestMode>)
    case set(NestMode.State)
    case setDest(NestMode.State?)
    case push(NestMode.State)
    case setScreen(StackElementID, NestMode.State)
    case stopIn(StackElementID)
    case stopMode
  }
  let clock: TestClock
  var body: some ReducerOf<Self> {
    Scope(state: \.mode, action: .mode) { NestMode(clock: clock) }
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
        if tag == 7 { state.dest = .b(NestLeaf.State(tag: 8)) }
        // Or by showing the same case for another item (the payload is Identifiable by tag).
        if tag == 17 { state.dest = .a(NestLeaf.State(tag: 18)) }
      case .mode, .dest, .path: break
      }
      return .none
    }
    .presents(\.dest, action: .dest) { NestMode(clock: clock) }
    .navigationStack(\.path, action: .path) { NestMode(clock: clock) }
  }
}
extension CaseKey<NestModeHost.Action, NestMode.Action> {
  static var mode: Self {
    Self(NestModeHost.Action.mode) { if case .mode(let s) = $0 { s } else { nil } }
  }
}
extension CaseKey<NestModeHost.Action, PresentationAction<NestMode.Action>> {
  static var dest: Self {
    Self(NestModeHost.Action.dest) { if case .dest(let s) = $0 { s } else { nil } }
  }
}
extension CaseKey<NestModeHost.Action, StackAction<NestMode.State, NestMode.Action>> {
  static var path: Self {
    Self(NestModeHost.Action.path) { if case .path(let s) = $0 { s } else { nil } }
  }
}

@MainActor
@Suite struct NavigationScenarioEnumTests {
  let clock = TestClock()
  func make(_ w: WarningLog) -> Harness<NestModeHost> {
    Harness(
      initialState: NestModeHost.State(), warnings: w.handler, reducer: NestModeHost(clock: clock))
  }

  @Test func switchingAwayAndBackInTwoActionsDropsTheOldCasesTick() async {
    let w = WarningLog()
    let h = make(w)
    h.send(.mode(.a(.start)))
    h.send(.set(.b(NestLeaf.State())))
    h.send(.set(.a(NestLeaf.State(tag: 2))))
    #expect(clock.sleeperCount == 0)
    await clock.advance(by: .seconds(1))
    #expect(h.state.mode == .a(NestLeaf.State(tag: 2)))
    #expect(w.messages.isEmpty, "\(w.messages)")
  }

  @Test func aCaseStoreKeptPastASwitchAwayAndBackDoesNotDriveTheNewCase() {
    let w = WarningLog()
    let h = make(w)
    let modeStore = h.store.scope(state: \.mode, action: .mode)
    let aStore = modeStore.scope(state: .a, action: .a)
    #expect(aStore != nil)
    h.send(.set(.b(NestLeaf.State())))
    #expect(modeStore.scope(state: .a, action: .a) == nil)
    h.send(.set(.a(NestLeaf.State(tag: 2))))
    let aStore2 = modeStore.scope(state: .a, action: .a)
    #expect(aStore2 !== aStore, "a new stay in case a gets a new store")
    aStore?.send(.ping("stale"))
    h.settle()
    #expect(
      h.state.mode == .a(NestLeaf.State(tag: 2)), "the stale case store must not drive the new case"
    )
  }

  @Test func aStackInACaseEndsItsScreensEffectsWhenTheCaseIsLeft() async {
    let w = WarningLog()
    let h = make(w)
    h.send(.set(.nav(NestSheet.State())))
    h.send(.mode(.nav(.push(1))))
    h.send(.mode(.nav(.path(.element(id: 0, action: .start)))))
    #expect(clock.sleeperCount == 1)
    h.send(.set(.b(NestLeaf.State())))
    #expect(clock.sleeperCount == 0)
    h.send(.set(.nav(NestSheet.State())))
    h.send(.mode(.nav(.push(2))))
    await clock.advance(by: .seconds(1))
    #expect(h.state.mode == .nav(NestSheet.State(path: [NestLeaf.State(tag: 2)])))
    #expect(w.messages.isEmpty, "\(w.messages)")
  }

  @Test func aDestinationCasesDismissLeavesTheOtherCaseTheParentShowedInAnswer() async {
    // Doc: "the editor's `.dismiss` effect closes the editor, and does nothing if the parent
    // answered the editor's report by showing something else."
    let w = WarningLog()
    let h = make(w)
    h.send(.setDest(.a(NestLeaf.State(tag: 7))))
    h.send(.dest(.presented(.a(.reportThenClose))))
    #expect(h.state.dest == .b(NestLeaf.State(tag: 8)))
    #expect(w.messages.isEmpty, "\(w.messages)")
  }

  @Test func aDestinationCasesDismissLeavesTheSameCaseForAnotherIDShownInAnswer() async {
    let w = WarningLog()
    let h = make(w)
    h.send(.setDest(.a(NestLeaf.State(tag: 17))))
    h.send(.dest(.presented(.a(.reportThenClose))))
    #expect(h.state.dest == .a(NestLeaf.State(tag: 18)))
    #expect(w.messages.isEmpty, "\(w.messages)")
  }

  @Test func aDestinationCaseThatClosesLaterDoesNotCloseTheCaseShownSince() async {
    let w = WarningLog()
    let h = make(w)
    h.send(.setDest(.a(NestLeaf.State())))
    h.send(.dest(.presented(.a(.closeLater))))
    h.send(.setDest(.b(NestLeaf.State())))
    await clock.advance(by: .seconds(1))
    #expect(h.state.dest == .b(NestLeaf.State()))
    #expect(w.messages.isEmpty, "\(w.messages)")
  }

  @Test func aScreenThatChangesCaseEndsTheOldCasesEffectsOnly() async {
    let w = WarningLog()
    let h = make(w)
    h.send(.push(.a(NestLeaf.State())))
    h.send(.push(.a(NestLeaf.State())))
    h.send(.path(.element(id: 0, action: .a(.start))))
    h.send(.path(.element(id: 1, action: .a(.start))))
    h.send(.setScreen(0, .b(NestLeaf.State())))
    #expect(clock.sleeperCount == 1)
    await clock.advance(by: .seconds(1))
    #expect(h.state.path[id: 1] == .a(NestLeaf.State(ticks: 1)))
    #expect(h.state.path[id: 0] == .b(NestLeaf.State()))
    #expect(w.messages.isEmpty, "\(w.messages)")
  }

  @Test func cancelInScopeReachesAScopedEnumsCase() async {
    // Doc: "so do ... `.cancel(id:inScope:action:)` from a parent whose ... scoped child are
    // such an enum".
    let w = WarningLog()
    let h = make(w)
    h.send(.mode(.a(.start)))
    h.send(.push(.a(NestLeaf.State())))
    h.send(.path(.element(id: 0, action: .a(.start))))
    h.send(.stopMode)
    #expect(clock.sleeperCount == 1)
    await clock.advance(by: .seconds(1))
    #expect(h.state.mode == .a(NestLeaf.State()))
    #expect(h.state.path[id: 0] == .a(NestLeaf.State(ticks: 1)))
    #expect(w.messages.isEmpty, "\(w.messages)")
  }

  @Test func cancelInScreenReachesAnEnumScreensCase() async {
    let w = WarningLog()
    let h = make(w)
    h.send(.push(.a(NestLeaf.State())))
    h.send(.push(.b(NestLeaf.State())))
    h.send(.path(.element(id: 0, action: .a(.start))))
    h.send(.path(.element(id: 1, action: .b(.start))))
    h.send(.stopIn(0))
    #expect(clock.sleeperCount == 1)
    await clock.advance(by: .seconds(1))
    #expect(h.state.path[id: 1] == .b(NestLeaf.State(ticks: 1)))
    #expect(w.messages.isEmpty, "\(w.messages)")
  }

  @Test func aCaseThrottleInAScreenClosesWithTheScreen() async {
    // Doc: "A window opened further in, by a row or a sheet within the case, is that row's
    // or sheet's, and closes when it goes".
    let w = WarningLog()
    let h = make(w)
    h.send(.setDest(.a(NestLeaf.State())))
    h.send(.dest(.presented(.a(.throttled("1")))))
    h.send(.dest(.dismiss))
    h.send(.setDest(.a(NestLeaf.State())))
    h.send(.dest(.presented(.a(.throttled("2")))))
    #expect(
      h.state.dest == .a(NestLeaf.State(pings: ["2"])), "a new presentation opens a new window")
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
      initialState: NestRoot.State(), warnings: w.handler, reducer: NestRoot(clock: clock))
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
      initialState: NestRoot.State(), warnings: w.handler, reducer: NestRoot(clock: clock))
    h.send(.add(1))
    h.send(.rows(.element(id: 1, action: .open)))
    h.send(.rows(.element(id: 1, action: .sheet(.presented(.push(10))))))
    weak var weakLeaf: Store<NestLeaf.State, NestLeaf.Action>?
    var leaf: Store<NestLeaf.State, NestLeaf.Action>? = h.store.scope(state: \.rows, action: .rows)[
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
