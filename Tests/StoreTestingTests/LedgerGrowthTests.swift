import Effects
import Store
import Testing

@testable import StoreTesting

/// A watcher whose every watch waits on the clock until its task is cancelled.
private struct Watcher: Reducer {
  struct State: Equatable {
    var watches = 0
  }
  enum Action: Equatable, Sendable {
    case watch
  }
  let clock: TestClock

  var body: some Reducer<State, Action> {
    Reduce { state, _ in
      state.watches += 1
      return .run { [clock] _ in try await clock.sleep(for: .seconds(60)) }
    }
  }
}

/// A test store keeps what it notes of the effects the test cancelled only while they run:
/// its ledger named each by id for the store's whole life, so a long test that cancelled its
/// tasks again and again grew it by an id an effect, for good.
@MainActor
@Suite struct LedgerGrowthTests {
  @Test func theEffectsATestCancelledAreForgottenOnceTheyEnd() async {
    let clock = TestClock()
    let store = TestStore(initialState: Watcher.State()) { Watcher(clock: clock) }
    for count in 1...2_000 {
      let task = await store.send(.watch) { $0.watches = count }
      task.cancel()
    }
    let marks = store.ledger.markCounts
    #expect(marks.cancelledByTest < 128, "\(marks.cancelledByTest) effects kept marked")
    #expect(clock.sleeperCount == 0)
    await store.finish()
  }
}
