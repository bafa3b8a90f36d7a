import Effects
import Testing

@testable import Store

/// Two counters that both change a total the app watches, as two screens change one shared
/// value, and an observer that logs each change of the total and reports it with an action.
struct Watched: Reducer {
  struct State: Equatable {
    var pair = Pair.State()
    var changes: [String] = []
  }
  enum Action: Sendable, Equatable {
    case pair(Pair.Action)
    case totalChanged(Int)
  }
  var clock: any Clock<Duration> = ImmediateClock()

  var body: some Reducer<State, Action> {
    Scope(state: \.pair, action: .pair) { Pair(clock: clock) }
      .onChange(of: { $0.pair.left.count + $0.pair.right.count }) { old, new in
        Reduce { state, action in
          state.changes.append("\(old)→\(new) by \(action)")
          return .send(.totalChanged(new))
        }
      }
  }
}

extension CaseKey<Watched.Action, Pair.Action> {
  static var pair: Self {
    Self(Watched.Action.pair) { if case .pair(let a) = $0 { a } else { nil } }
  }
}

@MainActor
@Suite struct OnChangeReducerTests {
  @Test func theObserverRunsWhenEitherChildChangesTheValueWithTheOldAndNewValues() {
    let harness = Harness(initialState: Watched.State(), reducer: Watched())
    harness.send(.pair(.left(.incrementTapped)))
    harness.send(.pair(.right(.incrementTapped)))
    harness.send(.pair(.left(.decrementTapped)))
    #expect(
      harness.state.changes == [
        "0→1 by pair(StoreTests.Pair.Action.left(StoreTests.Counter.Action.incrementTapped))",
        "1→2 by pair(StoreTests.Pair.Action.right(StoreTests.Counter.Action.incrementTapped))",
        "2→1 by pair(StoreTests.Pair.Action.left(StoreTests.Counter.Action.decrementTapped))",
      ])
  }

  @Test func theObserverDoesNotRunWhenTheValueStaysEqual() {
    var state = Watched.State()
    state.pair.left.count = 2
    let harness = Harness(initialState: state, reducer: Watched())
    // Logged by the pair, and setting both counts to 0 changes the total.
    harness.send(.pair(.resetTapped))
    #expect(harness.state.changes.count == 1)
    // Nothing to reset now: the total stays 0.
    harness.send(.pair(.resetTapped))
    harness.send(.totalChanged(0))
    #expect(harness.state.changes.count == 1)
    #expect(harness.state.pair.log.count == 2)
  }

  @Test func theObserversEffectsRunAfterTheChangeAndItSeesChangesMadeByEffects() async {
    let clock = TestClock()
    let harness = Harness(initialState: Watched.State(), reducer: Watched(clock: clock))
    harness.send(.pair(.right(.delayedIncrementTapped)))
    #expect(harness.state.changes.isEmpty)
    await clock.advance(by: .seconds(1))
    #expect(harness.state.pair.right.count == 1)
    #expect(
      harness.processed.map(\.action) == [
        .pair(.right(.delayedIncrementTapped)), .pair(.right(.incrementTapped)),
        .totalChanged(1),
      ])
  }

  @Test func aKeyPathNamesTheValue() {
    let counted = Scope(state: \Pair.State.left, action: .left) { Counter() }
      .onChange(of: \.left.count) { _, new in
        Reduce { state, _ in
          state.log.append("left is \(new)")
          return .none
        }
      }
    var state = Pair.State()
    _ = counted.reduce(into: &state, action: .left(.incrementTapped))
    _ = counted.reduce(into: &state, action: .right(.incrementTapped))
    #expect(state.log == ["left is 1"])
  }
}
