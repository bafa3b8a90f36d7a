import Effects
import Observation
import Testing

@testable import Store

/// An observer that tracks again inside its `onChange`, synchronously, and may act there.
@MainActor
final class EagerTracker {
  private(set) var firings = 0
  private let read: @MainActor () -> Void
  var onFire: (@MainActor () -> Void)?
  var reobserve = true

  init(_ read: @escaping @MainActor () -> Void) {
    self.read = read
    observe()
  }

  func observe() {
    withObservationTracking {
      read()
    } onChange: {
      MainActor.assumeIsolated {
        self.firings += 1
        self.onFire?()
        if self.reobserve { self.observe() }
      }
    }
  }
}

@MainActor
@Suite struct ObservationForgettingTests {
  let clock = TestClock()

  /// A list of rows 0, 1 and 2, and the store of row 1.
  func threeRowsAndTheSecondsStore() -> (Harness<Todos>, Store<Row.State, Row.Action>) {
    var state = Todos.State()
    for id in 0..<3 { state.rows.append(Row.State(id: id, title: "row \(id)")) }
    let harness = Harness(initialState: state, reducer: Todos(clock: clock))
    return (harness, harness.store.scope(state: \.rows, action: .rows)[id: 1]!)
  }

  @Test func twoObserversOneReobservingAtOnce() {
    let store = Store(initialState: Pair.State()) { Pair() }
    let eager = EagerTracker { _ = store.left }
    let lazy = Tracker { _ = store.left }
    store.send(.left(.incrementTapped))
    #expect(eager.firings == 1)
    #expect(lazy.firings == 1)
    store.send(.left(.incrementTapped))
    #expect(eager.firings == 2)
    #expect(lazy.firings == 1)  // not tracking any more
    lazy.observe()
    store.send(.left(.incrementTapped))
    #expect(eager.firings == 3)
    #expect(lazy.firings == 2)
  }

  @Test func reobservingTwoValuesThatBothChanged() {
    let store = Store(initialState: Pair.State()) { Pair() }
    let eager = EagerTracker {
      _ = store.left; _ = store.right
    }
    store.send(.resetTapped)  // log changes only
    store.send(.left(.incrementTapped))
    let afterLeft = eager.firings
    #expect(afterLeft >= 1)
    // Both change at once; then the right alone, then the left alone.
    store.send(.left(.incrementTapped))
    store.send(.right(.incrementTapped))
    store.send(.right(.incrementTapped))
    store.send(.left(.incrementTapped))
    #expect(eager.firings >= afterLeft + 4)
    let before = eager.firings
    store.send(.resetTapped)  // both to zero
    #expect(eager.firings > before)
    let b2 = eager.firings
    store.send(.right(.incrementTapped))
    #expect(eager.firings == b2 + 1)
  }

  @Test func anObserverSendingFromOnChange() {
    let store = Store(initialState: Pair.State()) { Pair() }
    var sentOnce = false
    let eager = EagerTracker { _ = store.left }
    eager.onFire = {
      guard !sentOnce else { return }
      sentOnce = true
      store.send(.left(.incrementTapped))
    }
    store.send(.left(.incrementTapped))
    #expect(store.left.count == 2)
    let f = eager.firings
    #expect(f >= 1)
    store.send(.left(.incrementTapped))
    #expect(eager.firings == f + 1)
    let other = Tracker { _ = store.left }
    store.send(.left(.incrementTapped))
    #expect(other.firings == 1)
  }

  @Test func aRowObservedAcrossChangesAndARefresh() {
    let (harness, row) = threeRowsAndTheSecondsStore()
    let view = Tracker { _ = row.title }
    let list = Tracker { _ = harness.store.scope(state: \.rows, action: .rows).ids }
    row.send(.renamed("a"))
    #expect(view.firings == 1)
    #expect(list.firings == 0)
    view.observe()
    row.send(.renamed("b"))
    #expect(view.firings == 2)
    view.observe()
    // Emptied and refilled: row 1 comes back with a fresh title.
    harness.send(.refreshRows([0, 1, 2]))
    #expect(view.firings == 3)
    #expect(row.title == "")
    view.observe()
    // A second observer of the same row, reading in its onChange.
    let eager = EagerTracker { _ = row.title }
    row.send(.renamed("c"))
    #expect(view.firings == 4)
    #expect(eager.firings == 1)
    row.send(.renamed("d"))
    #expect(eager.firings == 2)
    #expect(view.firings == 4)
  }

  /// A value read while another store's observers run during the same dispatch.
  @Test func aParentReadInARowObserversOnChange() {
    let (harness, row) = threeRowsAndTheSecondsStore()
    let parentView = Tracker { _ = harness.store.log }
    let eager = EagerTracker {
      _ = row.title; _ = harness.store.log
    }
    harness.send(.editTapped(1))
    harness.send(.editor(.presented(.delegate(.saved(1, "x")))))
    #expect(row.title == "x")
    #expect(parentView.firings == 1)
    let f = eager.firings
    #expect(f >= 1)
    harness.send(.editTapped(1))
    harness.send(.editor(.presented(.delegate(.cancelled))))
    #expect(eager.firings > f)
    #expect(parentView.firings == 1)
  }
}

extension ObservationForgettingTests {
  /// A row read once, then changed twice before its removal: the store kept past the removal
  /// shows the last change (needs `hasBeenRead`, as the entry is forgotten after the first).
  @Test func aRowReadOnceAndChangedTwiceShowsTheLastChangeAfterRemoval() {
    var state = Todos.State()
    for id in 0..<2 { state.rows.append(Row.State(id: id, title: "row \(id)")) }
    let harness = Harness(initialState: state, reducer: Todos(clock: clock))
    let row = harness.store.scope(state: \.rows, action: .rows)[id: 0]!
    _ = row.title
    row.send(.renamed("Milk"))
    row.send(.renamed("Oat milk"))
    harness.send(.removeRow(0))
    #expect(row.title == "Oat milk")
  }
}

/// A list of numbers, each settable.
struct Numbers: Reducer {
  struct State: Equatable {
    var values = Array(repeating: 0, count: 600)
  }
  enum Action: Sendable {
    case set(index: Int, value: Int)
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .set(let index, let value):
        state.values[index] = value
        return .none
      }
    }
  }
}

@MainActor
@Suite struct RegistrarKeyTests {
  typealias NumbersStore = Store<Numbers.State, Numbers.Action>

  /// A value read again (a view renders again after each change) is registered under the key
  /// made for it the first time, not a new one.
  @Test func aValueReadAgainReusesItsKey() {
    let store = NumbersStore(initialState: Numbers.State()) { Numbers() }
    let path = \Numbers.State.values[0]
    let tracker = Tracker { _ = store[dynamicMember: path] }
    let key = store.tokens[.value(path)]
    #expect(key != nil)
    store.send(.set(index: 0, value: 1))
    #expect(tracker.firings == 1)
    tracker.observe()
    #expect(store.tokens[.value(path)] === key)
    store.send(.set(index: 0, value: 2))
    #expect(tracker.firings == 2)
  }

  /// The keys are not kept without bound: hundreds of values read through one store empty the
  /// cache, and an observer registered under a key made before that is still notified.
  @Test func theKeysKeptAreBoundedAndObserversOfOlderKeysAreNotified() {
    let store = NumbersStore(initialState: Numbers.State()) { Numbers() }
    let tracker = Tracker { _ = store[dynamicMember: \.values[0]] }
    var largest = 0
    for index in 1..<600 {
      _ = store[dynamicMember: \.values[index]]
      largest = max(largest, store.tokens.count)
    }
    #expect(largest == NumbersStore.tokenCacheLimit)
    #expect(store.tokens.count < 600 - NumbersStore.tokenCacheLimit)
    store.send(.set(index: 0, value: 1))
    #expect(tracker.firings == 1)
    // Read again after the cache was emptied: a new key, which a change still notifies.
    tracker.observe()
    store.send(.set(index: 0, value: 2))
    #expect(tracker.firings == 2)
  }

  /// A key made after the cache was emptied is never one an observer still holds: the
  /// observer of the first value is not told about a value read later.
  @Test func anObserverIsNotNotifiedForAnotherValueAfterTheCacheEmpties() {
    let store = NumbersStore(initialState: Numbers.State()) { Numbers() }
    let first = Tracker { _ = store[dynamicMember: \.values[0]] }
    for index in 1...NumbersStore.tokenCacheLimit {
      _ = store[dynamicMember: \.values[index]]
    }
    store.send(.set(index: NumbersStore.tokenCacheLimit, value: 1))
    #expect(first.firings == 0, "the observer of values[0] was told about another value")
  }
}
