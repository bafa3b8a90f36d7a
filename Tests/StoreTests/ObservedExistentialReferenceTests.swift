import Effects
import Observation
import Testing

@testable import Store

/// A delegate protocol, as such protocols are written: only classes conform.
protocol Delegating: AnyObject, Sendable {
  var name: String { get }
}

/// A protocol any type may conform to.
protocol Labelled {}

/// A data source, as such protocols are written: only classes conform, and it has a primary
/// associated type, so `any Source<Int>` is an extended existential, described apart.
protocol Source<Element>: AnyObject, Sendable {
  associatedtype Element
  var name: String { get }
}

final class Listener: Delegating, Labelled, Source {
  typealias Element = Int
  let name: String
  init(name: String) { self.name = name }
}

/// A state that refers to objects through existentials only classes conform to.
struct RefersThroughProtocols: Reducer {
  struct State {
    weak var delegate: (any Delegating)?
    weak var anyListener: (any AnyObject & Sendable)?
    weak var source: (any Source<Int>)?
    var current: any Delegating = Listener(name: "first")
    var count = 0
  }
  enum Action: Sendable {
    case setDelegate((any Delegating)?)
    case setAnyListener((any AnyObject & Sendable)?)
    case setSource((any Source<Int>)?)
    case setCurrent(any Delegating)
    case tick
  }
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .setDelegate(let delegate): state.delegate = delegate
    case .setAnyListener(let listener): state.anyListener = listener
    case .setSource(let source): state.source = source
    case .setCurrent(let current): state.current = current
    case .tick: state.count += 1
    }
    return .none
  }
}

/// A `weak var delegate: (any Delegating)?` read through the store was kept alive for good:
/// the store remembered objects weakly only when their type was a class, and an existential
/// type is not one, so the value was kept as a value, with a strong reference (observation
/// hunt). Such a type is now told from its metadata.
@MainActor
@Suite struct ObservedExistentialReferenceTests {
  @Test func aWeakDelegateOfAProtocolTypeReadThroughTheStoreBecomesNilWhenItGoes() {
    let store = Store(initialState: RefersThroughProtocols.State()) { RefersThroughProtocols() }
    var delegate: Listener? = Listener(name: "d")
    weak let watched = delegate
    store.send(.setDelegate(delegate))
    #expect(store.delegate?.name == "d")
    delegate = nil
    store.send(.tick)
    #expect(watched == nil)
    #expect(store.delegate == nil)
  }

  @Test func aWeakAnyObjectReadThroughTheStoreBecomesNilWhenItGoes() {
    let store = Store(initialState: RefersThroughProtocols.State()) { RefersThroughProtocols() }
    var listener: Listener? = Listener(name: "l")
    weak let watched = listener
    store.send(.setAnyListener(listener))
    #expect(store.anyListener != nil)
    listener = nil
    store.send(.tick)
    #expect(watched == nil)
    #expect(store.anyListener == nil)
  }

  /// `any Source<Int>`, a constrained protocol with a primary associated type, is described
  /// by other metadata than `any Delegating` (the second review).
  @Test func aWeakDataSourceOfAConstrainedProtocolTypeBecomesNilWhenItGoes() {
    let store = Store(initialState: RefersThroughProtocols.State()) { RefersThroughProtocols() }
    var source: Listener? = Listener(name: "s")
    weak let watched = source
    store.send(.setSource(source))
    #expect(store.source?.name == "s")
    source = nil
    store.send(.tick)
    #expect(watched == nil)
    #expect(store.source == nil)
  }

  @Test func anObservedObjectOfAProtocolTypeFiresForAnotherObjectOnly() {
    let first = Listener(name: "1")
    let store = Store(initialState: RefersThroughProtocols.State(current: first)) {
      RefersThroughProtocols()
    }
    let tracker = Tracker { _ = store.current }
    store.send(.tick)
    store.send(.setCurrent(first))
    #expect(tracker.firings == 0, "the same object")
    let second = Listener(name: "2")
    store.send(.setCurrent(second))
    #expect(tracker.firings == 1)
    #expect(store.current.name == "2")
  }

  @Test func existentialsOnlyClassesConformToAreToldApart() {
    #expect(isClassBoundExistential(AnyObject.self))
    #expect(isClassBoundExistential((any Delegating).self))
    #expect(isClassBoundExistential((any AnyObject & Sendable).self))
    #expect(isClassBoundExistential((any Listener & Labelled).self))
    #expect(!isClassBoundExistential(Any.self))
    #expect(!isClassBoundExistential((any Labelled).self))
    #expect(!isClassBoundExistential((any Error).self))
    #expect(!isClassBoundExistential((any Sendable).self))
    #expect(!isClassBoundExistential((any Hashable).self))
    #expect(!isClassBoundExistential(Listener.self))
    #expect(!isClassBoundExistential(Int.self))
    #expect(!isClassBoundExistential(Optional<any Delegating>.self))
    #expect(!isClassBoundExistential(Int.Type.self))
    #expect(!isClassBoundExistential((() -> Void).self))
    #expect(isClassBoundExistential((any Source<Int>).self))
    #expect(isClassBoundExistential((any Source<Int> & Sendable).self))
    #expect(!isClassBoundExistential((any Collection<Int>).self))
    #expect(!isClassBoundExistential((any Source<Int>).Type.self))
    #expect(!isClassBoundExistential((any Delegating).Type.self))
  }
}
