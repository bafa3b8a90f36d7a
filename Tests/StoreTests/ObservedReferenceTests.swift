import Effects
import Observation
import Testing

@testable import Store

/// An object a state refers to.
final class Delegate: Sendable {
  let name: String
  init(name: String) { self.name = name }
}

/// An object whose instances are equal by name.
final class Named: Equatable, Sendable {
  let name: String
  init(name: String) { self.name = name }
  static func == (lhs: Named, rhs: Named) -> Bool { lhs.name == rhs.name }
}

/// A state that refers to objects: weakly, strongly, and optionally.
struct Refers: Reducer {
  struct State {
    weak var delegate: Delegate?
    var owner: Delegate?
    var named = Named(name: "a")
    var count = 0
  }
  enum Action: Sendable {
    case setDelegate(Delegate?)
    case setOwner(Delegate?)
    case setNamed(Named)
    case tick
  }
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .setDelegate(let delegate): state.delegate = delegate
    case .setOwner(let owner): state.owner = owner
    case .setNamed(let named): state.named = named
    case .tick: state.count += 1
    }
    return .none
  }
}

/// Objects read through a store are remembered weakly, to compare after each action: the
/// store keeps nothing alive that the state let go (found by an adversary trial: a `weak`
/// property read through the store never became `nil`, as the store's copy held the object).
@MainActor
@Suite struct ObservedReferenceTests {
  @Test func aWeakPropertyReadThroughTheStoreBecomesNilWhenTheObjectGoes() {
    let store = Store(initialState: Refers.State()) { Refers() }
    var delegate: Delegate? = Delegate(name: "d")
    weak let watched = delegate
    store.send(.setDelegate(delegate))
    #expect(store.delegate?.name == "d")
    delegate = nil
    store.send(.tick)
    #expect(watched == nil)
    #expect(store.delegate == nil)
  }

  @Test func anObservedReferenceFiresWhenAnotherObjectOrNilIsPutThere() {
    let store = Store(initialState: Refers.State()) { Refers() }
    let first = Delegate(name: "1")
    store.send(.setOwner(first))
    let tracker = Tracker { _ = store.owner }
    store.send(.tick)
    store.send(.setOwner(first))
    #expect(tracker.firings == 0, "the same object")
    store.send(.setOwner(Delegate(name: "2")))
    #expect(tracker.firings == 1)
    tracker.observe()
    store.send(.setOwner(nil))
    #expect(tracker.firings == 2)
    tracker.observe()
    store.send(.tick)
    #expect(tracker.firings == 2, "nil, and nil again")
  }

  @Test func anObservedWeakPropertyFiresAtTheNextActionOnceItsObjectWent() {
    let store = Store(initialState: Refers.State()) { Refers() }
    var delegate: Delegate? = Delegate(name: "d")
    store.send(.setDelegate(delegate))
    let tracker = Tracker { _ = store.delegate }
    delegate = nil
    #expect(tracker.firings == 0, "nothing is sent when an object goes")
    store.send(.tick)
    #expect(tracker.firings == 1)
  }

  /// An `Equatable` object is compared with `==`, which needs the one last seen: the store
  /// keeps it, as it keeps a value.
  @Test func anEquatableObjectIsComparedWithEqualEqual() {
    let store = Store(initialState: Refers.State()) { Refers() }
    let tracker = Tracker { _ = store.named }
    store.send(.setNamed(Named(name: "a")))
    #expect(tracker.firings == 0, "another object, equal")
    store.send(.setNamed(Named(name: "b")))
    #expect(tracker.firings == 1)
  }
}
