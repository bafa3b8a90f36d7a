import Effects
import Observation
import Testing

@testable import Store

/// A long-lived store keeps nothing for good of what came and went: effects started and
/// ended (by finishing, by id, by lifetime), cancellation ids used once each, throttle and
/// debounce ids, timers, rows, sheets, cases and screens, and the stores and observers of
/// them. Each test runs many cycles and counts the entries of the tables that could keep them.
@MainActor
@Suite struct GrowthHuntTests {
  struct Row: Reducer {
    struct State: Equatable, Identifiable {
      var id: Int
      var loads = 0
    }
    enum Action: Sendable, Equatable {
      case load
      case loaded
      case cancelLoad
    }
    struct Load: Hashable, Sendable {}
    let clock: TestClock

    var body: some Reducer<State, Action> {
      Reduce { state, action in
        switch action {
        case .load:
          return .run { [clock] send in
            try await clock.sleep(for: .seconds(1))
            send(.loaded)
          }
          .cancellable(id: Load())
        case .loaded:
          state.loads += 1
          return .none
        case .cancelLoad:
          return .cancel(id: Load())
        }
      }
    }
  }

  /// An enum whose two cases each run a row.
  struct Switcher: Reducer {
    enum State: Equatable {
      case first(Row.State)
      case second(Row.State)
      case off
    }
    enum Action: Sendable, Equatable {
      case first(Row.Action)
      case second(Row.Action)
    }
    static let firstCase = CaseKey(State.first) { if case .first(let s) = $0 { s } else { nil } }
    static let secondCase = CaseKey(State.second) {
      if case .second(let s) = $0 { s } else { nil }
    }
    static let firstKey = CaseKey(Action.first) { if case .first(let a) = $0 { a } else { nil } }
    static let secondKey = CaseKey(Action.second) {
      if case .second(let a) = $0 { a } else { nil }
    }
    let clock: TestClock

    var body: some Reducer<State, Action> {
      EmptyReducer<State, Action>()
        .ifCaseLet(Self.firstCase, action: Self.firstKey) { Row(clock: clock) }
        .ifCaseLet(Self.secondCase, action: Self.secondKey) { Row(clock: clock) }
    }
  }

  struct Hub: Reducer {
    struct State: Equatable {
      var rows: IdentifiedArrayOf<Row.State> = []
      var sheet: Row.State?
      var mode = Switcher.State.off
      var path = StackState<Row.State>()
      var finished = 0
      var ticks = 0
    }
    enum Action: Sendable, Equatable {
      case request(Int)
      case cancel(Int)
      case debounced(Int)
      case throttled(Int, latest: Bool)
      case finished
      case startTimer
      case stopTimer
      case tick
      case addRow(Int)
      case removeRow(Int)
      case rows(IdentifiedAction<Int, Row.Action>)
      case present(Int)
      case dismiss
      case sheet(Row.Action)
      case setMode(Switcher.State)
      case mode(Switcher.Action)
      case push(Int)
      case pop
      case path(StackAction<Row.State, Row.Action>)
    }
    struct Timer: Hashable, Sendable {}
    let clock: TestClock

    static let rowsKey = CaseKey(Action.rows) { if case .rows(let a) = $0 { a } else { nil } }
    static let sheetKey = CaseKey(Action.sheet) { if case .sheet(let a) = $0 { a } else { nil } }
    static let modeKey = CaseKey(Action.mode) { if case .mode(let a) = $0 { a } else { nil } }
    static let pathKey = CaseKey(Action.path) { if case .path(let a) = $0 { a } else { nil } }

    var body: some Reducer<State, Action> {
      Scope(state: \.mode, action: Self.modeKey) { Switcher(clock: clock) }
      Reduce { state, action in
        switch action {
        case .request(let id):
          return .run { send in send(.finished) }.cancellable(id: id)
        case .cancel(let id):
          return .cancel(id: id)
        case .debounced(let id):
          return .run { send in send(.finished) }
            .debounce(id: id, for: .seconds(1), clock: clock)
        case .throttled(let id, let latest):
          return .run { send in send(.finished) }
            .throttle(id: id, for: .seconds(1), clock: clock, latest: latest)
        case .finished:
          state.finished += 1
          return .none
        case .startTimer:
          return .run { [clock] send in
            for await _ in clock.timer(interval: .seconds(1)) { send(.tick) }
          }
          .cancellable(id: Timer(), cancelInFlight: true)
        case .stopTimer:
          return .cancel(id: Timer())
        case .tick:
          state.ticks += 1
          return .none
        case .addRow(let id):
          state.rows.append(Row.State(id: id))
          return .none
        case .removeRow(let id):
          state.rows.remove(id: id)
          return .none
        case .present(let id):
          state.sheet = Row.State(id: id)
          return .none
        case .dismiss:
          state.sheet = nil
          return .none
        case .setMode(let mode):
          state.mode = mode
          return .none
        case .push(let id):
          state.path.append(Row.State(id: id))
          return .none
        case .pop:
          _ = state.path.popLast()
          return .none
        case .rows, .sheet, .mode, .path:
          return .none
        }
      }
      .forEach(\.rows, action: Self.rowsKey) { Row(clock: clock) }
      .ifLet(\.sheet, action: Self.sheetKey) { Row(clock: clock) }
      .navigationStack(\.path, action: Self.pathKey) { Row(clock: clock) }
    }
  }

  let clock = TestClock()
  let warnings = WarningLog()

  private func hub() -> Harness<Hub> {
    Harness(initialState: Hub.State(), warnings: warnings.handler, reducer: Hub(clock: clock))
  }

  private func expectIdle(
    _ harness: Harness<Hub>, _ comment: String, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let sizes = harness.core.runtime.tableSizes
    #expect(sizes == .idle, "\(comment): \(sizes)", sourceLocation: sourceLocation)
    #expect(clock.sleeperCount == 0, "\(comment)", sourceLocation: sourceLocation)
    #expect(warnings.messages.isEmpty, "\(warnings.messages)", sourceLocation: sourceLocation)
  }

  /// An id per request, used once: the effect finishes on its own, or is cancelled by its
  /// id; an id only cancelled, never started, leaves nothing either.
  @Test func cancellationIDsUsedOnceEachLeaveNothing() {
    let harness = hub()
    for id in 0..<3_000 {
      harness.send(.request(id))
      harness.send(.cancel(id + 1_000_000))
    }
    #expect(harness.state.finished == 3_000)
    expectIdle(harness, "after 3,000 requests")
    for id in 0..<2_000 {
      harness.store.send(.request(id))
      harness.store.send(.cancel(id))
    }
    harness.settle()
    expectIdle(harness, "after 2,000 requests cancelled")
  }

  /// Debounces and throttles with many distinct ids, whose windows all end.
  @Test func debounceAndThrottleIDsLeaveNothingOnceTheirWindowsEnd() async {
    let harness = hub()
    for round in 0..<8 {
      for id in round * 100..<(round + 1) * 100 {
        harness.send(.debounced(id))
        harness.send(.debounced(id))
        harness.send(.throttled(id, latest: true))
        harness.send(.throttled(id, latest: true))
        harness.send(.throttled(id + 1_000_000, latest: false))
        harness.send(.throttled(id + 1_000_000, latest: false))
      }
      await clock.advance(by: .seconds(1))
      harness.settle()
      await clock.advance(by: .seconds(1))
      harness.settle()
    }
    #expect(harness.state.finished == 800 * 5)
    expectIdle(harness, "after 800 ids")
  }

  /// A timer started and stopped again and again.
  @Test func timersStartedAndStoppedLeaveNothing() async {
    let harness = hub()
    for _ in 0..<800 {
      harness.send(.startTimer)
      await clock.advance(by: .seconds(1))
      harness.settle()
      harness.send(.stopTimer)
    }
    #expect(harness.state.ticks == 800)
    expectIdle(harness, "after 800 timers")
  }

  /// Rows added, loading, and removed while they load.
  @Test func rowsRemovedWhileTheyLoadLeaveNothing() {
    let harness = hub()
    for id in 0..<2_000 {
      harness.send(.addRow(id))
      harness.send(.rows(.element(id: id, action: .load)))
      if id % 3 == 0 { harness.send(.rows(.element(id: id, action: .cancelLoad))) }
      harness.send(.removeRow(id))
    }
    expectIdle(harness, "after 2,000 rows")
  }

  /// A sheet presented, loading, and dismissed while it loads.
  @Test func sheetsDismissedWhileTheyLoadLeaveNothing() {
    let harness = hub()
    for id in 0..<2_000 {
      harness.send(.present(id % 7))
      harness.send(.sheet(.load))
      harness.send(.dismiss)
    }
    expectIdle(harness, "after 2,000 sheets")
  }

  /// An enum switched between its cases, each loading as it is left.
  @Test func casesSwitchedWhileTheyLoadLeaveNothing() {
    let harness = hub()
    for id in 0..<4_000 {
      if id % 2 == 0 {
        harness.send(.setMode(.first(Row.State(id: id))))
        harness.send(.mode(.first(.load)))
      } else {
        harness.send(.setMode(.second(Row.State(id: id))))
        harness.send(.mode(.second(.load)))
      }
    }
    harness.send(.setMode(.off))
    expectIdle(harness, "after 4,000 cases")
  }

  /// Screens pushed, loading, and popped while they load.
  @Test func screensPoppedWhileTheyLoadLeaveNothing() {
    let harness = hub()
    for id in 0..<1_500 {
      harness.send(.push(id))
      harness.send(.push(id))
      let ids = harness.state.path.ids
      harness.send(.path(.element(id: ids[0], action: .load)))
      harness.send(.path(.element(id: ids[1], action: .load)))
      harness.send(.pop)
      harness.send(.pop)
    }
    expectIdle(harness, "after 1,500 pairs of screens")
  }

  /// What the root store keeps for the stores scoped from it: its after-action hooks, its
  /// children, the values it follows for observers.
  private func storeSizes(_ harness: Harness<Hub>) -> [String: Int] {
    let caches = harness.store.children.values.compactMap {
      $0 as? ElementStoreCache<Int, Row.State, Row.Action>
    }
    let screens = harness.store.children.values.compactMap {
      $0 as? ElementStoreCache<StackElementID, Row.State, Row.Action>
    }
    return [
      "hooks": harness.core.dispatchHooks.count,
      "children": harness.store.children.count,
      "tracked": harness.store.tracked.count,
      "tokens": harness.store.tokens.count,
      "rowStores": caches.reduce(0) { $0 + $1.heldStoreCount + $1.retiredIDCount },
      "screenStores": screens.reduce(0) { $0 + $1.heldStoreCount + $1.retiredIDCount },
    ]
  }

  /// Row stores scoped, observed, sent to, and released as their rows go; sheets' and
  /// screens' and cases' stores too.
  @Test func storesScopedObservedAndReleasedLeaveNothing() {
    let harness = hub()
    weak var lastRow: Store<Row.State, Row.Action>?
    weak var lastSheet: Store<Row.State, Row.Action>?
    weak var lastScreen: Store<Row.State, Row.Action>?
    weak var lastCase: Store<Row.State, Row.Action>?
    var sizes: [[String: Int]] = []
    for id in 0..<1_000 {
      harness.send(.addRow(id))
      harness.send(.present(id))
      harness.send(.push(id))
      harness.send(.setMode(id % 2 == 0 ? .first(Row.State(id: id)) : .off))
      do {
        let row = harness.store.scope(state: \.rows, action: Hub.rowsKey)[id: id]!
        let sheet = harness.store.scope(state: \.sheet, action: Hub.sheetKey)!
        let screen = harness.store.scope(state: \.path, action: Hub.pathKey).last!
        let mode = harness.store.scope(state: \.mode, action: Hub.modeKey)
        let first = mode.scope(state: Switcher.firstCase, action: Switcher.firstKey)
        withObservationTracking {
          _ = row.loads
          _ = sheet.loads
          _ = screen.loads
          _ = first?.loads
          _ = harness.store.finished
        } onChange: {
        }
        row.send(.load)
        sheet.send(.load)
        screen.send(.load)
        first?.send(.load)
        lastRow = row
        lastSheet = sheet
        lastScreen = screen
        lastCase = first
      }
      harness.send(.removeRow(id))
      harness.send(.dismiss)
      harness.send(.pop)
      harness.send(.setMode(.off))
      #expect(lastRow == nil && lastSheet == nil && lastScreen == nil && lastCase == nil)
      if id % 100 == 99 { sizes.append(storeSizes(harness)) }
    }
    // The removed rows' and screens' stores are listed until a sweep finds them let go: at
    // most 64 ids while nothing holds them. The rest stays as it was.
    let fixed = sizes.map { $0.filter { !$0.key.hasSuffix("Stores") } }
    #expect(Set(fixed).count == 1, "\(sizes)")
    #expect(sizes.allSatisfy { $0["rowStores"]! <= 64 && $0["screenStores"]! <= 64 }, "\(sizes)")
    expectIdle(harness, "after 1,000 of each")
  }
}
