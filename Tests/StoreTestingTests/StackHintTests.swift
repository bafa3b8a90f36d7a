import Effects
import Store
import StoreTesting
import Testing

/// A feature's own counter named like a stack's.
private struct Todos: Reducer {
  struct State: Equatable {
    var todos: [String] = []
    var nextID = 0
  }
  enum Action: Equatable, Sendable { case add(String) }
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .add(let title):
      state.todos.append(title)
      state.nextID += 1
      return .none
    }
  }
}

/// A screen with a counter of its own named like a stack's.
private struct Tally: Equatable, Sendable {
  var items: [String] = []
  var nextID = 0
}

/// The advice a failure gives when only a stack's ids differ is for stacks alone, and a
/// screen's own `nextID` does not stop it.
@MainActor
@Suite struct StackHintTests {
  let messages = Messages()

  /// The "only a next id differs" advice is for a stack: a feature's own `nextID` left out
  /// of the assertion got it too, talking of a `StackState` the state does not have.
  @Test func aPlainNextIDPropertyIsNotTakenForAStack() async {
    let store = TestStore(initialState: Todos.State()) { Todos() }
    await withKnownIssue {
      await store.send(.add("Milk")) { $0.todos = ["Milk"] }
    } matching: {
      messages.capture($0)
    }
    #expect(messages.last.contains("-   nextID: 0\n+   nextID: 1"))
    #expect(!messages.last.contains("StackState"), "\(messages.last)")
  }
  /// A screen whose state has a `nextID` of its own shows it among the changed lines, under
  /// the screen's line, not the stack's: the hint is still given (a review found it lost).
  @Test func aStackOfScreensWithTheirOwnNextIDAssignedAnewGetsTheHint() async {
    let tally = Tally(items: ["Milk"], nextID: 1)
    let store = TestStore(initialState: PushingStack<Tally>.State()) { PushingStack<Tally>() }
    await store.send(.push(tally)) { $0.path.append(tally) }
    await store.send(.popAll) { $0.path.removeAll() }
    await withKnownIssue {
      await store.send(.push(tally)) { $0.path = StackState([tally]) }
    } matching: {
      messages.capture($0)
    }
    #expect(messages.last.contains("[id: #1]: "), "\(messages.last)")
    #expect(messages.last.hasSuffix("instead of assigning a new one."), "\(messages.last)")
  }
}
