import Effects
import Testing

@testable import Store

/// Two siblings running the same child reducer: their effects must never touch each other.
struct Siblings: Reducer {
  struct State: Equatable {
    var left = Todos.State()
    var right = Todos.State()
    var leftLog = LogFeature.State()
    var rightLog = LogFeature.State()
  }
  enum Action: Sendable, Equatable {
    case left(Todos.Action)
    case right(Todos.Action)
    case leftLog(LogFeature.Action)
    case rightLog(LogFeature.Action)
  }
  let clock: TestClock

  var body: some Reducer<State, Action> {
    Scope(state: \.left, action: .left) { Todos(clock: clock) }
    Scope(state: \.right, action: .right) { Todos(clock: clock) }
    Scope(state: \.leftLog, action: .leftLog) { loader }
    Scope(state: \.rightLog, action: .rightLog) { loader }
  }

  /// Starts a one-second load under cancellation id "load", cancelling any load in flight.
  var loader: LogFeature {
    LogFeature { [clock] name in
      .run { send in
        try await clock.sleep(for: .seconds(1))
        send(.record("\(name) loaded"))
      }
      .cancellable(id: "load", cancelInFlight: true)
    }
  }
}

extension CaseKey<Siblings.Action, Todos.Action> {
  static var left: Self {
    Self(Siblings.Action.left) { if case .left(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<Siblings.Action, Todos.Action> {
  static var right: Self {
    Self(Siblings.Action.right) { if case .right(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<Siblings.Action, LogFeature.Action> {
  static var leftLog: Self {
    Self(Siblings.Action.leftLog) { if case .leftLog(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<Siblings.Action, LogFeature.Action> {
  static var rightLog: Self {
    Self(Siblings.Action.rightLog) { if case .rightLog(let a) = $0 { a } else { nil } }
  }
}

@MainActor
@Suite struct SiblingScopeTests {
  let clock = TestClock()

  func makeHarness() -> Harness<Siblings> {
    var state = Siblings.State()
    state.left.rows.append(Row.State(id: 1))
    state.right.rows.append(Row.State(id: 1))
    return Harness(initialState: state, reducer: Siblings(clock: clock))
  }

  @Test func dismissingOneSiblingsSheetLeavesTheOthersEffectsRunning() async {
    let harness = makeHarness()
    harness.send(.left(.editTapped(1)))
    harness.send(.right(.editTapped(1)))
    harness.send(.left(.editor(.presented(.autosaveTapped))))
    harness.send(.right(.editor(.presented(.autosaveTapped))))
    #expect(clock.sleeperCount == 2)
    harness.send(.left(.editor(.dismiss)))
    #expect(clock.sleeperCount == 1)
    await clock.advance(by: .seconds(5))
    #expect(harness.processed.last?.action == .right(.editor(.presented(.autosaved))))
  }

  @Test func removingARowInOneSiblingLeavesTheSameRowIDInTheOther() async {
    let harness = makeHarness()
    harness.send(.left(.rows(.element(id: 1, action: .loadTapped))))
    harness.send(.right(.rows(.element(id: 1, action: .loadTapped))))
    harness.send(.left(.removeRow(1)))
    await clock.advance(by: .seconds(1))
    #expect(harness.state.right.rows[id: 1]?.loads == 1)
  }

  @Test func siblingScopesDoNotShareCancellationIDs() async {
    let harness = makeHarness()
    harness.send(.leftLog(.start("left")))
    harness.send(.rightLog(.start("right")))
    #expect(clock.sleeperCount == 2)
    await clock.advance(by: .seconds(1))
    #expect(harness.state.leftLog.log == ["start left", "left loaded"])
    #expect(harness.state.rightLog.log == ["start right", "right loaded"])
  }
}
