import Effects
import Store
import StoreTesting
import Testing

/// A feature whose one action changes many values at once.
private struct Tally: Reducer {
  struct State: Equatable {
    var values = Array(0..<10)
    var total = 0
  }

  enum Action: Sendable, Equatable {
    case bumpAll
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    state.values = state.values.map { $0 + 1 }
    return .none
  }
}

/// A test store's `diffChangeLimit` at its extremes: a limit as large as `Int` holds (to say
/// "no limit" without `nil`) crashed the test process on the lines it allows (eight a change),
/// and a limit of none, or below, still counts the changes it leaves out.
@MainActor
@Suite struct DiffChangeLimitTests {
  let messages = Messages()

  @Test(arguments: [Int.max, Int.max / 8 + 1, Int.max - 1, 1 << 60])
  func aHugeLimitShowsEveryChange(limit: Int) async {
    let store = TestStore(initialState: Tally.State()) { Tally() }
    store.diffChangeLimit = limit
    await withKnownIssue {
      await store.send(.bumpAll) { $0.total = 1 }
    } matching: {
      messages.capture($0)
    }
    #expect(messages.last.contains("-     [9]: 9\n+     [9]: 10"), "\(messages.last)")
    #expect(messages.last.contains("-   total: 1\n+   total: 0"), "\(messages.last)")
    #expect(!messages.last.contains("left out"), "\(messages.last)")
  }

  @Test(arguments: [Int.max, Int.max / 8 + 1])
  func aHugeLimitDiffsValuesDirectly(limit: Int) {
    let difference = StateDiff.diff(
      expected: Array(0..<100), actual: Array(1..<101), changeLimit: limit)
    #expect(difference?.split(separator: "\n").count == 202)
  }

  @Test(arguments: [0, -1, Int.min])
  func aLimitOfNoChangeCountsThemAll(limit: Int) async {
    let store = TestStore(initialState: Tally.State()) { Tally() }
    store.diffChangeLimit = limit
    await withKnownIssue {
      await store.send(.bumpAll) { $0.total = 1 }
    } matching: {
      messages.capture($0)
    }
    #expect(messages.last.contains("… (11 more changes left out)"), "\(messages.last)")
    #expect(messages.last.contains("The diff shows the first 0 of 11 changes"), "\(messages.last)")
  }
}
