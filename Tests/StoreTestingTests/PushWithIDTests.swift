import Effects
import Store
import StoreTesting
import Testing

/// A screen that loads until it is told to stop, in a stack.
private struct Trail: Reducer {
  struct State: Equatable {
    var path = StackState<Screen.State>()
  }

  enum Action: Sendable, Equatable {
    case path(StackActionOf<Screen>)
  }

  var body: some ReducerOf<Self> {
    EmptyReducer().navigationStack(\.path, action: .path) { Screen() }
  }
}

private struct Screen: Reducer {
  struct State: Equatable, Sendable {
    var title = ""
  }

  enum Action: Sendable, Equatable {
    case watch
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    .run { _ in try await Task.sleep(for: .seconds(3_600)) }
  }
}

extension CaseKey<Trail.Action, StackActionOf<Screen>> {
  fileprivate static var path: Self {
    Self(Trail.Action.path) { if case .path(let a) = $0 { a } else { nil } }
  }
}

/// A `.push` with an id of its own (a deep link, a restored session) could not be asserted:
/// the stack's `push(_:id:)` was internal, and `append` gives the next id (TCA-migrant
/// trial). And a test store task tells whether its effects still run.
@MainActor
@Suite struct PushWithIDTests {
  @Test func aPushWithAnIDIsAssertedWithTheStacksPush() async {
    let store = TestStore(initialState: Trail.State()) { Trail() }
    let id = StackElementID(rawValue: 3)
    await store.send(.path(.push(id: id, state: Screen.State(title: "Deep")))) {
      $0.path.push(Screen.State(title: "Deep"), id: id)
    }
    var stack = store.state.path
    let reused = stack.push(Screen.State(), id: StackElementID(rawValue: 2))
    #expect(!reused, "ids are not reused")
    stack.append(Screen.State())
    #expect(stack.ids.last == StackElementID(rawValue: 4))
  }

  @Test func aTestStoreTaskTellsWhetherItsEffectsRun() async {
    let store = TestStore(initialState: Trail.State()) { Trail() }
    let id = StackElementID(rawValue: 0)
    await store.send(.path(.push(id: id, state: Screen.State()))) {
      $0.path.append(Screen.State())
    }
    let task = await store.send(.path(.element(id: id, action: .watch)))
    #expect(task.isRunning)
    task.cancel()
    #expect(!task.isRunning)
    await store.finish()
  }
}
