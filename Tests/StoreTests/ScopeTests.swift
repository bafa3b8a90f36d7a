import Effects
import Testing

@testable import Store

@MainActor
@Suite struct ScopeTests {
  @Test func aChildActionChangesOnlyTheChildsSlice() {
    var state = Pair.State()
    let effect = Pair().reduce(into: &state, action: .left(.incrementTapped))
    #expect(effect.isNone)
    #expect(state.left.count == 1)
    #expect(state.right.count == 0)
  }

  @Test func actionsOfOtherCasesPassThroughUntouched() {
    var state = Pair.State(left: .init(count: 3))
    _ = Scope(state: \Pair.State.left, action: .left) { Counter() }
      .reduce(into: &state, action: .right(.incrementTapped))
    #expect(state == Pair.State(left: .init(count: 3)))
  }

  @Test func childEffectsAreEmbeddedInTheParentsActions() async {
    let clock = TestClock()
    let harness = Harness(initialState: Pair.State(), reducer: Pair(clock: clock))
    harness.send(.right(.delayedIncrementTapped))
    await clock.advance(by: .seconds(1))
    #expect(harness.state.right.count == 1)
    #expect(
      harness.processed.map(\.action) == [
        .right(.delayedIncrementTapped), .right(.incrementTapped),
      ])
  }

  @Test func tenNestedScopesReachTheLeaf() {
    let store = Store(initialState: Nest10.initialState) { Nest10.make() }
    store.send(
      .child(
        .child(.child(.child(.child(.child(.child(.child(.child(.child(.incrementTapped)))))))))))
    #expect(store.state.child.child.child.child.child.child.child.child.child.child.count == 1)
    #expect(store.state.passed == 1)
    #expect(store.state.child.child.child.child.child.child.child.child.child.passed == 1)

    // The same leaf, reached through ten scoped stores.
    let leaf = down(down(down(down(down(down(down(down(down(down(store))))))))))
    leaf.send(.incrementTapped)
    #expect(leaf.count == 2)
    #expect(store.state.passed == 2)
  }

  func down<Inner: Reducer & Sendable>(_ store: Store<Level<Inner>.State, Level<Inner>.Action>)
    -> Store<
      Inner.State, Inner.Action
    >
  {
    store.scope(state: \.child, action: Level<Inner>.Action.childKey)
  }
}

/// One level of nesting: scopes into `Inner` and counts the actions that pass through.
struct Level<Inner: Reducer & Sendable>: Reducer, Sendable where Inner.Action: Equatable {
  struct State {
    var child: Inner.State
    var passed = 0
  }
  enum Action: Sendable, Equatable {
    case child(Inner.Action)
  }
  let inner: Inner

  var body: some Reducer<State, Action> {
    Scope(state: \.child, action: Action.childKey) { inner }
    Reduce { state, _ in
      state.passed += 1
      return .none
    }
  }
}

extension Level.Action {
  static var childKey: CaseKey<Self, Inner.Action> {
    CaseKey(Self.child) { if case .child(let a) = $0 { a } else { nil } }
  }
}

typealias Nest10 = Level<Level<Level<Level<Level<Level<Level<Level<Level<Level<Counter>>>>>>>>>>

func nest<Inner: Reducer & Sendable>(_ inner: Inner) -> Level<Inner> { Level(inner: inner) }

extension Level<Level<Level<Level<Level<Level<Level<Level<Level<Level<Counter>>>>>>>>>> {
  static func make() -> Self {
    nest(nest(nest(nest(nest(nest(nest(nest(nest(nest(Counter()))))))))))
  }

  static var initialState: State {
    let state = Level<Counter>.State(child: Counter.State())
    return State(
      child: .init(
        child: .init(
          child: .init(
            child: .init(child: .init(child: .init(child: .init(child: .init(child: state))))))))
    )
  }
}
