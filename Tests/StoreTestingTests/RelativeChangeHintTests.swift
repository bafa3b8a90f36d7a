import Effects
import Store
import StoreTesting
import Testing

/// With exhaustivity off, an assertion closure runs on the state after the step, so one that
/// changes a value by what it is (`$0.count += 1`) counts twice and fails. A failing step that
/// changed the state reminds of it; the closure is not run again to find out (on the state
/// before the step, `$0.rows[id: 3]!` for a row the step added would trap).
@MainActor
@Suite struct RelativeChangeHintTests {
  struct Tally: Reducer {
    struct State: Equatable {
      var count = 0
      var names: [String] = []
    }
    enum Action: Equatable, Sendable {
      case increment
      case add(String)
      case addLater(String)
    }
    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .increment:
        state.count += 1
        return .none
      case .add(let name):
        state.names.append(name)
        return .none
      case .addLater(let name):
        return .send(.add(name))
      }
    }
  }

  let messages = Messages()
  let hint = "With exhaustivity off, the closure runs on the state after the step: if it changes"

  func makeStore() -> TestStore<Tally.State, Tally.Action> {
    let store = TestStore(initialState: Tally.State(count: 2)) { Tally() }
    store.exhaustivity = .off
    return store
  }

  @Test func aRelativeChangeInASendFailsWithTheHint() async {
    let store = makeStore()
    await withKnownIssue {
      await store.send(.increment) { $0.count += 1 }
    } matching: {
      messages.capture($0)
    }
    #expect(messages.all.count == 1, "\(messages.all)")
    #expect(messages.last.contains("-   count: 4"), "\(messages.last)")
    #expect(messages.last.contains("+   count: 3"), "\(messages.last)")
    #expect(messages.last.contains(hint), "\(messages.last)")
    #expect(messages.last.contains("`$0.count = 3`"), "\(messages.last)")
  }

  @Test func aRelativeChangeInAReceiveFailsWithTheHint() async {
    let store = makeStore()
    await store.send(.addLater("Ada"))
    await withKnownIssue {
      await store.receive(.add("Ada")) { $0.names.append("Ada") }
    } matching: {
      messages.capture($0)
    }
    #expect(messages.all.count == 1, "\(messages.all)")
    #expect(messages.last.contains(hint), "\(messages.last)")
  }

  /// A step that changed nothing gets no reminder: a relative closure gives the same there,
  /// run on the state before or after.
  @Test func aStepThatChangedNothingGetsNoReminder() async {
    let store = makeStore()
    await withKnownIssue {
      await store.send(.addLater("Ada")) { $0.count = 7 }
    } matching: {
      messages.capture($0)
    }
    #expect(messages.all.count == 1, "\(messages.all)")
    #expect(!messages.last.contains(hint), "\(messages.last)")
  }

  /// An exhaustive closure runs on the state before the step: a relative change is right.
  @Test func aRelativeChangeIsRightInAnExhaustiveTest() async {
    let store = TestStore(initialState: Tally.State(count: 2)) { Tally() }
    await store.send(.increment) { $0.count += 1 }
    await store.finish()
  }

  /// The closure runs once: it is not run again on the state before the step, where it
  /// could trap on what the step made (a force unwrap of a row the step added).
  @Test func theClosureRunsOnceAndMayReadWhatTheStepMade() async {
    let store = makeStore()
    var runs = 0
    await withKnownIssue {
      await store.send(.add("Ada")) {
        runs += 1
        $0.names[0] = "Bea"
      }
    } matching: {
      messages.capture($0)
    }
    #expect(runs == 1)
    #expect(messages.all.count == 1, "\(messages.all)")
    #expect(messages.last.contains(hint), "\(messages.last)")
  }
}
