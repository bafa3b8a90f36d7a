import Effects
import Observation
import Testing

@testable import Store

/// How often a store scoped under nested optional children reads the levels above it.
@MainActor
@Suite struct NestedScopeReadTests {
  /// Reads of each level's computed property, counted (only this suite reads them).
  @MainActor static var reads: [String: Int] = [:]

  struct Inner: Reducer {
    struct State: Equatable { var count = 0 }
    enum Action: Sendable { case tapped }
    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      state.count += 1
      return .none
    }
  }

  struct Middle: Reducer {
    struct State: Equatable {
      var inner: Inner.State? = Inner.State()
      var countedInner: Inner.State? {
        MainActor.assumeIsolated { NestedScopeReadTests.reads["inner", default: 0] += 1 }
        return inner
      }
    }
    enum Action: Sendable { case inner(Inner.Action) }
    var body: some Reducer<State, Action> {
      EmptyReducer().ifLet(
        \.inner,
        action: CaseKey(Action.inner) {
          if case .inner(let a) = $0 { a } else { nil }
        }
      ) { Inner() }
    }
  }

  struct Outer: Reducer {
    struct State: Equatable {
      var middle: Middle.State? = Middle.State()
      var countedMiddle: Middle.State? {
        MainActor.assumeIsolated { NestedScopeReadTests.reads["middle", default: 0] += 1 }
        return middle
      }
    }
    enum Action: Sendable { case middle(Middle.Action) }
    var body: some Reducer<State, Action> {
      EmptyReducer().ifLet(
        \.middle,
        action: CaseKey(Action.middle) {
          if case .middle(let a) = $0 { a } else { nil }
        }
      ) { Middle() }
    }
  }

  /// Each level is read three times per action (for the send, by the hook that checks the
  /// child is still there, and by the child store's look after the action), however many
  /// reads, sends and presence checks go through the stores below it: what a derived store
  /// looks at holds until the state version moves. (Each looked at every level above again:
  /// here the middle level was read 9 times an action, the inner 5, and a scoped send through
  /// eight levels of 16 KiB states took 16 times a direct send.)
  @Test func eachLevelIsReadThreeTimesPerAction() {
    let store = Store(initialState: Outer.State()) { Outer() }
    let middle = store.scope(
      state: \.countedMiddle,
      action: CaseKey(Outer.Action.middle) { if case .middle(let a) = $0 { a } else { nil } })!
    let inner = middle.scope(
      state: \.countedInner,
      action: CaseKey(Middle.Action.inner) { if case .inner(let a) = $0 { a } else { nil } })!
    let view = Tracker { _ = inner.count }
    Self.reads = [:]
    for _ in 0..<10 {
      inner.send(.tapped)
      view.observe()
    }
    #expect(inner.count == 10)
    #expect(Self.reads["middle", default: 0] <= 30, "\(Self.reads)")
    #expect(Self.reads["inner", default: 0] <= 30, "\(Self.reads)")
  }
}
