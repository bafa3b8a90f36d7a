import Effects

/// What a ``Store`` reads and sends through: the root that owns the state, or a scoped view
/// of it.
@MainActor
package protocol StoreCore<State, Action>: AnyObject {
  associatedtype State
  associatedtype Action: Sendable

  /// Calls `body` with the address of the current state, which stays valid only during the
  /// call, and must not be written through.
  ///
  /// Stores read their state this way, rather than by copy: in unoptimized builds each copy of
  /// a value of a generic type takes stack of its own while the function that made it runs,
  /// and a read through nested stores nests a frame per level, so that copies of a large state
  /// overflowed the stack. `body` must not send actions.
  func withState<Result>(_ body: (UnsafePointer<State>) -> Result) -> Result

  /// Sends an action from the user.
  func send(_ action: Action) -> StoreTask

  /// Registers `hook` to run after each action the root dispatches, with the effects it
  /// queued; the hook returns `false` to be removed.
  func afterDispatch(_ hook: @escaping @MainActor () -> Bool)

  /// Reports a runtime warning through the root's handler.
  func warn(_ warning: RuntimeWarning)

  /// A core for a part of this one's state and actions.
  func scope<ChildState, ChildAction: Sendable>(
    state: KeyPath<State, ChildState>,
    action: CaseKey<Action, ChildAction>
  ) -> any StoreCore<ChildState, ChildAction>

  /// Whether the state this core views is still there, held by the identity it was made for
  /// (a removed element, a dismissed child, or one another identity took over is not).
  var isPresent: Bool { get }

  /// Sends `action` from an element's store whose element left the computed view of a
  /// collection the store was scoped through (a filter), to the reducers over the whole
  /// collection, where the element may still be; if it was removed, which the view cannot
  /// tell, the action is passed over with no warning. Other stores send nothing.
  ///
  /// - Returns: Whether the action was sent.
  func sendLeavingView(_ action: Action) -> Bool

  /// A number that changes whenever the root's reducer runs, and so whenever the state this
  /// core views may have changed: what is computed from the state holds while it does not.
  var stateVersion: Int { get }

  /// The reads of the root's state in progress, shared by every core of the root: an action
  /// sent to the root during one waits for it to end (see `StateReads`).
  var reads: StateReads { get }

  /// Runs the hooks this core keeps to itself, if any; see `DerivedCore`.
  func runOwnedHooks()

  /// Whether this core keeps a copy of its state, brought up to date when it is read (an
  /// element's, an optional child's: see `DerivedCore`). A core that keeps none reads its
  /// state where the root has it, and a read with no value to compare has no use.
  var keepsCopyOfState: Bool { get }

  /// Whether ``withState(_:)`` hands out the address where the root keeps the state, which
  /// stays the same while the root lives: the root's own, or a part of it reached through
  /// stored properties. A copy (a derived core's) or a computed value lies elsewhere.
  var stateLiesInPlace: Bool { get }

  /// Whether the state this core views is reached from the root's through a computed property
  /// (a step of a key path with no fixed offset), by this core's scope or one above it: a
  /// child state such a property builds may be built anew at each read, with the collections
  /// in it (a filtered view), so that an element gone from one of them may still be in the
  /// stored collection it was built from. A stored part, an optional child or a case of such a
  /// state is reached through it too.
  var viewsComputedState: Bool { get }

  /// A reader of the identified array stamps at `keyPath` that loads them from where the root
  /// stores them, with no copy of the state and no key path read, or `nil` when there is no
  /// such place: the path goes through a computed property, an optional or a class, or this
  /// core's state is kept apart from the root's (an element's, a child's).
  func inPlaceReader(_ keyPath: KeyPath<State, CollectionStamps>)
    -> (@MainActor () -> CollectionStamps)?
}

extension StoreCore {
  /// A copy of the current state.
  package var state: State {
    withState { $0.pointee }
  }

  package var isPresent: Bool { true }

  package func sendLeavingView(_ action: Action) -> Bool { false }

  package var keepsCopyOfState: Bool { false }

  package var stateLiesInPlace: Bool { false }

  package var viewsComputedState: Bool { false }

  /// Runs the hooks registered with this core that it keeps to itself, rather than passing
  /// them to the root: an element's core does, and its owner checks it only when the element
  /// may have changed. Other cores keep none.
  package func runOwnedHooks() {}

  package func inPlaceReader(_ keyPath: KeyPath<State, CollectionStamps>)
    -> (@MainActor () -> CollectionStamps)?
  {
    nil
  }
}

/// The root of a store tree, as a test store drives it.
@MainActor
package protocol RootStoreCore<State, Action>: StoreCore {
  /// The state, without registering an observation access.
  var untrackedState: State { get }
  /// The runtime that runs the root's effects.
  var runtime: EffectRuntime<Action> { get }
  /// Called after each action is reduced, with where it came from.
  var didReduce: ((Action, ActionOrigin) -> Void)? { get set }
  /// Called before each action is reduced, for an action log; returns whether
  /// `recordCheckpoint` is due once it is reduced.
  var recordAction: ((Action, ActionOrigin) -> Bool)? { get set }
  /// Called after an action is reduced when `recordAction` said a checkpoint is due.
  var recordCheckpoint: (() -> Void)? { get set }
  /// The action log this store records to, if any (a `RecordingLink`).
  var recording: AnyObject? { get set }
  /// Runs effect work on the test executor and reduces what it reports, until neither is left.
  func runEffectsUntilIdle()
  /// Runs effect work on the test executor and reduces what it reports, until neither is left
  /// or `jobLimit` jobs ran; returns whether the work came to a pause.
  func runEffects(jobLimit: Int) -> Bool
}
