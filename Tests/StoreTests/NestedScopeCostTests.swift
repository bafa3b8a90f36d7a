import Effects
import Store
import Testing

/// A feature that presents itself: a drill-down whose every level is an optional child
/// with an id.
private struct DrillDown: Reducer {
  struct State: Equatable, Identifiable {
    var id: Int
    var value = 0
    var boxed: [State] = []
    var child: State? {
      get {
        DrillDown.childReads += 1
        return boxed.first
      }
      set { boxed = newValue.map { [$0] } ?? [] }
    }
  }

  indirect enum Action: Sendable {
    case tapped
    case child(Action)
  }

  /// How many times a store read a level's child.
  nonisolated(unsafe) static var childReads = 0

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      if case .tapped = action { state.value += 1 }
      return .none
    }
    .ifLet(\.child, action: .child) { DrillDown() }
  }
}

extension CaseKey<DrillDown.Action, DrillDown.Action> {
  fileprivate static var child: Self {
    Self(DrillDown.Action.child) { if case .child(let a) = $0 { a } else { nil } }
  }
}

@MainActor
@Suite struct NestedScopeCostTests {
  /// A store for a level with an id read its parent twice (once for the child, once to see
  /// whether another child with another id had taken its place), so each level of nesting
  /// doubled the cost of a read: 20 levels took a million reads, and seconds per action.
  @Test func readingANestedChildWithAnIdCostsLinearlyInItsDepth() {
    let depth = 20
    var state = DrillDown.State(id: depth)
    for id in (0..<depth).reversed() {
      var parent = DrillDown.State(id: id)
      parent.child = state
      state = parent
    }
    let root = Store(initialState: state) { DrillDown() }
    var store = root
    for _ in 0..<depth {
      store = store.scope(state: \.child, action: .child)!
    }

    DrillDown.childReads = 0
    #expect(store.value == 0)
    #expect(DrillDown.childReads <= depth, "reads of a child for one read at depth \(depth)")

    DrillDown.childReads = 0
    store.send(.tapped)
    #expect(store.value == 1)
    // Every level checks after the action whether its child is still there, reading the
    // levels above it: polynomial in the depth (about 2,000 reads), not exponential.
    #expect(
      DrillDown.childReads <= depth * depth * depth,
      "reads of a child for one action with \(depth) nested stores")
  }
}
