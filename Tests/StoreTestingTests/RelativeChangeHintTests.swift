import Effects
import Store
import StoreTesting
import Testing

/// With exhaustivity off, an assertion closure runs on the state after the step, so one that
/// changes a value by what it is (`$0.count += 1`) counts twice and fails. The failure says
/// so when the closure, run on the state before the step, gives the actual state.
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
  let hint = "Run on the state before the step, the assertion closure gives the actual state"

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
    #expect(messages.last.contains("`$0.count = 2`"), "\(messages.last)")
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

  /// A plain wrong value gets no hint: run on the state before, it does not match either.
  @Test func aWrongValueFailsWithoutTheHint() async {
    let store = makeStore()
    await withKnownIssue {
      await store.send(.increment) { $0.count = 7 }
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

  /// A closure that throws once more, run on the state before, gets no hint: the first
  /// failure stands as it is.
  @Test func aClosureThatThrowsTheSecondTimeGetsNoHint() async {
    struct Again: Error {}
    let store = makeStore()
    var runs = 0
    await withKnownIssue {
      await store.send(.increment) {
        runs += 1
        if runs > 1 { throw Again() }
        $0.count += 1
      }
    } matching: {
      messages.capture($0)
    }
    #expect(runs == 2)
    #expect(messages.all.count == 1, "\(messages.all)")
    #expect(messages.last.contains("differs from the expected state"), "\(messages.last)")
    #expect(!messages.last.contains(hint), "\(messages.last)")
  }
}
