// From an adversarial trial on navigation and identity lifetimes (fixtures shared between these
// *NavigationScenarioTests and Navigation*ScenarioTests files). Throttle and debounce windows
// against identities (popped, dismissed, removed and re-added, replaced), and late sends of
// effects that ignore cancellation.

import Effects
import Testing

@testable import Store

// MARK: - Timing operators and task handles against identities

struct NestRows: Reducer {
  struct Item: Equatable, Sendable, Identifiable {
    let id: Int
    var leaf = NestLeaf.State()
  }
  struct State: Equatable, Sendable {
    var rows: IdentifiedArrayOf<NestLeaf.State> = []
    var path = StackState<NestLeaf.State>()
  }
  enum Action: Sendable, Equatable {
    case rows(IdentifiedAction<Int, NestLeaf.Action>)
    case path(StackActionOf<NestLeaf>)
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
      case .add(let id): state.rows.append(NestLeaf.State(tag: id))
      case .remove(let id): state.rows.remove(id: id)
      case .removeThenAdd(let id):
        state.rows.remove(id: id)
        state.rows.append(NestLeaf.State(tag: id))
      case .push: state.path.append(NestLeaf.State())
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
    .forEach(\.rows, action: .rows) { NestLeaf(clock: clock) }
    .navigationStack(\.path, action: .path) { NestLeaf(clock: clock) }
  }
}
extension NestLeaf.State: Identifiable { var id: Int { tag } }
extension CaseKey<NestRows.Action, IdentifiedAction<Int, NestLeaf.Action>> {
  static var rows: Self {
    Self(NestRows.Action.rows) { if case .rows(let a) = $0 { a } else { nil } }
  }
}
extension CaseKey<NestRows.Action, StackAction<NestLeaf.State, NestLeaf.Action>> {
  static var path: Self {
    Self(NestRows.Action.path) { if case .path(let a) = $0 { a } else { nil } }
  }
}

@MainActor
@Suite struct NavigationScenarioTimingTests {
  let clock = TestClock()
  func make(_ w: WarningLog) -> Harness<NestRows> {
    Harness(initialState: NestRows.State(), warnings: w.handler, reducer: NestRows(clock: clock))
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
  func make(_ w: WarningLog) -> Harness<NestModeHost> {
    Harness(
      initialState: NestModeHost.State(), warnings: w.handler, reducer: NestModeHost(clock: clock))
  }

  @Test func anEnumScreensCaseDismissPopsTheScreen() {
    let w = WarningLog()
    let h = make(w)
    h.send(.push(.a(NestLeaf.State())))
    h.send(.push(.b(NestLeaf.State())))
    h.send(.path(.element(id: 0, action: .a(.close))))
    #expect(h.state.path.isEmpty)
    #expect(w.messages.isEmpty, "\(w.messages)")
  }

  @Test func anEnumScreensCaseDismissLaterPopsTheScreen() async {
    let w = WarningLog()
    let h = make(w)
    h.send(.push(.a(NestLeaf.State())))
    h.send(.push(.b(NestLeaf.State())))
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
    h.send(.push(.a(NestLeaf.State())))
    h.send(.path(.element(id: 0, action: .a(.closeLater))))
    h.send(.setScreen(0, .b(NestLeaf.State())))
    await clock.advance(by: .seconds(1))
    #expect(h.state.path.ids == [0])
    #expect(w.messages.isEmpty, "\(w.messages)")
  }

  @Test func aCaseDismissAtTheRootThatNobodyPresentsWarns() {
    let w = WarningLog()
    let h = make(w)
    h.send(.mode(.a(.close)))
    #expect(h.state.mode == .a(NestLeaf.State()))
    #expect(!w.messages.isEmpty, "a `.dismiss` that closes nothing warns")
  }
}

// MARK: - Effects that ignore cancellation and send after their identity ended

struct NestStub: Reducer {
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

struct NestStubPlain: Reducer {
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

enum NestStubMode: Equatable, Sendable {
  case one(NestStubPlain.State)
  case two(NestStubPlain.State)
}
enum NestStubModeAction: Equatable, Sendable {
  case one(NestStubPlain.Action)
  case two(NestStubPlain.Action)
}
extension CaseKey<NestStubMode, NestStubPlain.State> {
  static var one: Self { Self(NestStubMode.one) { if case .one(let s) = $0 { s } else { nil } } }
  static var two: Self { Self(NestStubMode.two) { if case .two(let s) = $0 { s } else { nil } } }
}
extension CaseKey<NestStubModeAction, NestStubPlain.Action> {
  static var one: Self {
    Self(NestStubModeAction.one) { if case .one(let s) = $0 { s } else { nil } }
  }
  static var two: Self {
    Self(NestStubModeAction.two) { if case .two(let s) = $0 { s } else { nil } }
  }
}

struct NestStubHost: Reducer {
  struct State: Equatable, Sendable {
    var rows: IdentifiedArrayOf<NestStub.State> = []
    var sheet: NestStubPlain.State?
    var child: NestStub.State?
    var mode: NestStubMode = .one(NestStubPlain.State())
    var path = StackState<NestStubPlain.State>()
  }
  enum Action: Sendable, Equatable {
    case rows(IdentifiedAction<Int, NestStub.Action>)
    case sheet(PresentationAction<NestStubPlain.Action>)
    case child(NestStub.Action)
    case mode(NestStubModeAction)
    case path(StackActionOf<NestStubPlain>)
    case setRows([Int])
    case setSheet(Bool)
    case setChild(Int?)
    case setMode(NestStubMode)
    case setPath(Int)
  }
  let gate: Gate
  var body: some ReducerOf<Self> {
    Scope(state: \.mode, action: .mode) {
      EmptyReducer()
        .ifCaseLet(.one, action: .one) { NestStubPlain(gate: gate) }
        .ifCaseLet(.two, action: .two) { NestStubPlain(gate: gate) }
    }
    Reduce { state, action in
      switch action {
      case .setRows(let ids):
        state.rows = IdentifiedArrayOf(ids.map { NestStub.State(id: $0) })
      case .setSheet(let on): state.sheet = on ? NestStubPlain.State() : nil
      case .setChild(let id): state.child = id.map { NestStub.State(id: $0) }
      case .setMode(let m): state.mode = m
      case .setPath(let n): state.path = StackState((0..<n).map { _ in NestStubPlain.State() })
      case .rows, .sheet, .child, .mode, .path: break
      }
      return .none
    }
    .forEach(\.rows, action: .rows) { NestStub(gate: gate) }
    .presents(\.sheet, action: .sheet) { NestStubPlain(gate: gate) }
    .ifLet(\.child, action: .child) { NestStub(gate: gate) }
    .navigationStack(\.path, action: .path) { NestStubPlain(gate: gate) }
  }
}
extension CaseKey<NestStubHost.Action, IdentifiedAction<Int, NestStub.Action>> {
  static var rows: Self {
    Self(NestStubHost.Action.rows) { if case .rows(let a) = $0 { a } else { nil } }
  }
}
extension CaseKey<NestStubHost.Action, PresentationAction<NestStubPlain.Action>> {
  static var sheet: Self {
    Self(NestStubHost.Action.sheet) { if case .sheet(let a) = $0 { a } else { nil } }
  }
}
extension CaseKey<NestStubHost.Action, NestStub.Action> {
  static var child: Self {
    Self(NestStubHost.Action.child) { if case .child(let a) = $0 { a } else { nil } }
  }
}
extension CaseKey<NestStubHost.Action, NestStubModeAction> {
  static var mode: Self {
    Self(NestStubHost.Action.mode) { if case .mode(let a) = $0 { a } else { nil } }
  }
}
extension CaseKey<NestStubHost.Action, StackAction<NestStubPlain.State, NestStubPlain.Action>> {
  static var path: Self {
    Self(NestStubHost.Action.path) { if case .path(let a) = $0 { a } else { nil } }
  }
}

@MainActor
@Suite struct NavigationScenarioLateSendTests {
  let gate = Gate()
  func make(_ w: WarningLog) -> Harness<NestStubHost> {
    Harness(
      initialState: NestStubHost.State(), warnings: w.handler, reducer: NestStubHost(gate: gate))
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
    h.send(.setMode(.two(NestStubPlain.State())))
    h.send(.setMode(.one(NestStubPlain.State())))
    gate.open()
    h.settle()
    #expect(h.state.mode == .one(NestStubPlain.State()))
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
