import Effects
import Observation

/// Owns a feature's state, runs its reducer for each action, and runs the effects the reducer
/// returns, inside lifetimes the store owns.
///
/// ```swift
/// let store = Store(initialState: Counter.State()) { Counter() }
/// store.send(.incrementTapped)
/// print(store.count)  // 1
/// ```
///
/// A store is the one owner of its state: screens read it through the store (or a scoped child
/// store) and change it only by sending actions.
///
/// Observation is exact. Reading a value through the store inside `withObservationTracking`
/// (what SwiftUI does while it renders) tracks that value only: a change to another value
/// notifies nobody, a change to the value notifies once, and writing an equal value (of an
/// `Equatable` type) notifies nobody. A row's store is notified when its row changes, not when
/// a sibling does; a parent that lists rows through `scope(state:action:)` is notified when
/// rows are added, removed or reordered, not when a row's content changes.
///
/// What is tracked is what is read *through a store*: in `store.header.title`, the store
/// reads `header` (the rest is read from the value it returned), so a change anywhere in
/// `header` notifies. Read `title` through a store scoped to the header to track it alone.
/// A count is such a chain: `store.items.count` reads `items`, so a change to any item
/// notifies. `store.scope(state: \.items, action: .items).count` follows the ids alone (items
/// added, removed or moved); a computed property of the state read through the store
/// (`store.itemCount`) notifies only when its result changes, but is computed again after
/// every action while it is observed, so keep it cheap.
/// Observers are notified once the action's reducers have run: reading the store in
/// `onChange` gives the new state (an `@Observable` class calls it before the change). An
/// action an observer sends from `onChange` waits until every store has checked the change
/// it was told of: a store whose child was dismissed, or whose row was removed, learns it
/// first, so an observer that presents the child again, or adds the row back, makes a new
/// store for it. So that `send` returns before its action is reduced: the state read right
/// after it in the same `onChange` is the state before it, and the observer sees the action's
/// change when it is told of it, next. Several actions sent so are reduced in order, each
/// with the actions it feeds back before the next, all before the call that changed the
/// state (a `send`, or an effect's action) returns. Observers that send at every change they
/// are told of are a feedback loop: after 1,000 rounds of it, the store reports the loop as a
/// runtime warning and stops checking for that action (observers are told again from the next
/// one on). No action is lost: what they sent is still reduced, but what the last of it
/// changed is not checked, so an observer may show a value the state no longer holds.
///
/// Two reads are not followed exactly. A value of a type that is not `Equatable` is compared
/// by its bytes: one a computed property builds anew at each read (holding a new array each
/// time) differs at every check, so it notifies its observers after every action, whatever
/// the action changed; make such values `Equatable`. And a value read inside the tracking closure before an
/// action sent from that same closure (a view's body that sends) is not followed after that
/// action: send from `onChange` or from an event handler instead.
///
/// Effects started by the store are cancelled when the store, and every store scoped from it,
/// have been released: no effect outlives its store. A collection of child stores (the
/// ``IdentifiedStores`` that `scope(state: \.rows, action: .rows)` returns) counts as a store
/// scoped from it, even when it is empty: held (in a property, by a view), it keeps the
/// store's effects running after the store itself is released, until it is let go too.
@MainActor
@dynamicMemberLookup
public final class Store<State, Action: Sendable>: Observable {
  package let core: any StoreCore<State, Action>
  /// Child stores handed out by `scope`, so that scoping again returns the same store.
  var children: [ScopeKey: AnyObject] = [:]
  /// The id of the `Identifiable` child each optional or enum-case child store was made for.
  var childIDs: [ScopeKey: AnyHashable] = [:]
  /// The readers of the identified collections scoped into, by key path; see
  /// `CollectionReader`.
  var collectionReaders: [AnyKeyPath: AnyObject] = [:]
  /// What observers have read through this store; see `Store+Observation.swift`.
  let observation = ObservationRegistrar()
  var tracked: [TrackKey: Tracked] = [:]
  /// The registrar's keys made so far, kept once their values are forgotten: a value is read
  /// again at the next render, and a key path into a generic type is built anew, its types
  /// looked up by name, each time its expression runs (a quarter of the cost of a row update
  /// a view shows). Bounded: emptied when it reaches ``tokenCacheLimit`` keys.
  var tokens: [TrackKey: KeyPath<Store, Int>] = [:]
  var nextTokenNumber = 0
  /// Whether anything was ever read through this store: from then on it re-reads its state
  /// after each action it is checked for, even once nothing read is left to compare.
  var hasBeenRead = false
  var isWatching = false
  /// Whether an owner (the element-store cache) decides when this store re-checks what was
  /// read, so the store does not check after every action itself.
  var isCheckedByOwner = false
  /// How many `runScreen` calls are running, by lifecycle case: a screen's task restarted
  /// before the old one wound down overlaps it. Shared by the stores that a computed view's
  /// cache makes for one row (see `ElementStoreCache`), and, by scope and child's id, by the
  /// stores scoped from those (see `ScreenTaskCounts`). See `runScreen`.
  /// Made at the first `runScreen` (or by the cache that shares it, or from the counts of the
  /// store this one was scoped from, when those are shared), not with every store.
  var screenTasks: ScreenTaskCounts {
    get {
      if let madeScreenTasks { return madeScreenTasks }
      let made = ScreenTaskCounts()
      madeScreenTasks = made
      return made
    }
    set { madeScreenTasks = newValue }
  }
  /// `screenTasks`, once made.
  private(set) var madeScreenTasks: ScreenTaskCounts?

  /// Sends an action; for a root store, specialized for its feature.
  @usableFromInline let sendAction: @MainActor (Action) -> StoreTask

  package init(core: any StoreCore<State, Action>) {
    self.core = core
    self.sendAction = { core.send($0) }
  }

  @usableFromInline
  init(
    root: RootCore<some Reducer<State, Action>>, send: @escaping @MainActor (Action) -> StoreTask
  ) {
    self.core = root
    self.sendAction = send
  }

  /// A store that sends through `send`, composed by the module that scoped it.
  init(core: any StoreCore<State, Action>, send: @escaping @MainActor (Action) -> StoreTask) {
    self.core = core
    self.sendAction = send
  }

  /// Creates a store that runs `reducer` on `initialState`.
  ///
  /// - Parameters:
  ///   - initialState: The state to start from.
  ///   - reducer: The feature's reducer.
  @inlinable
  public convenience init<R: Reducer>(
    initialState: State,
    @ReducerBuilder<State, Action> reducer: () -> R
  ) where R.State == State, R.Action == Action {
    // Moved, not copied: in a debug build each copy of a generic value takes stack of its own
    // while the function that made it runs, and a state of a few hundred KB is not rare.
    let root = RootCore(initialState: consume initialState, reducer: reducer())
    // Unretained: the root keeps this closure, so a strong capture would be a cycle; every
    // holder of the closure (this store, and the scoped stores made from it) also holds the
    // root strongly, so the root outlives every call. No reference counting on the hot path:
    // an `unowned(unsafe)` capture was still retained and released around each call, on the
    // slow path, since the root is weakly referenced (its runtime's callbacks), which gives
    // it a side table: about a quarter of a trivial action's time.
    let unretained = Unmanaged.passUnretained(root)
    let send: @MainActor (Action) -> StoreTask = { action in
      unretained._withUnsafeGuaranteedRef { $0.send(action) }
    }
    root.specializedSend = send
    self.init(root: root, send: send)
  }

  /// The current state.
  ///
  /// Reading it inside observation tracking registers the read: observers are notified when
  /// any part of the state changes. The store then keeps what it saw, to compare after each
  /// action, as ``subscript(dynamicMember:)`` says: an ``IdentifiedArray`` or ``StackState``
  /// in the state's stored properties is kept as its version stamps, with no copy of its
  /// elements, so a row action still writes the rows in place (one in an optional or an enum's
  /// case is copied with it). A view that reads the whole state is told of every
  /// change to any part of it, though: views should read the values they show (`store.title`,
  /// `store.rows`, or scoped stores), which are compared one by one.
  public var state: State {
    let state = readAgainAfterSends { core.state }
    track(\State.self, state)
    return state
  }

  /// What `read` reads, read again when an action sent during it (by a getter, or the
  /// `deinit` of a value it let go) was reduced as it ended: the value shown and compared is
  /// then the state's now. (The change happened inside the observer's tracking, before it was
  /// installed: it would never be told of it.) An action the second read sends is reduced
  /// too, and its change told at the check after the next action.
  @inline(__always)
  private func readAgainAfterSends<Value>(_ read: () -> Value) -> Value {
    let reads = core.reads
    let dispatches = reads.dispatchesAfterReads
    let value = read()
    return reads.dispatchesAfterReads == dispatches ? value : read()
  }

  /// Reads a value of the state.
  ///
  /// Inside observation tracking, observers are notified when the value changes. The store
  /// compares the value after each action with the one it saw (with `==` when it is
  /// `Equatable` and its bytes changed, by identity for a class, by the bytes it is stored in
  /// otherwise), so it keeps a copy: for a plain `Array` or `Dictionary` that copy shares the
  /// buffer, and the next change copies the collection. An object (or an optional one) of a
  /// class that is not `Equatable`, or of a protocol only classes conform to (`weak var
  /// delegate: (any Delegate)?`, `AnyObject`), is remembered weakly instead: the store keeps
  /// no object alive, and a `weak` property read through it becomes `nil` when its object goes.
  ///
  /// An ``IdentifiedArray`` or ``StackState`` is followed by its version stamps instead, with
  /// no copy (any write to an element counts as a change). So is one in the stored properties
  /// of a value read through stored properties, however deep (`store.list`, a struct holding
  /// the rows beside a title; `store.state`): the store's copy keeps the collection hollow,
  /// with its stamps, so a row action writes the rows in place while a view shows the value,
  /// and any write to the collection counts as a change of the value. One built anew at each
  /// read, with new stamps each time, is compared as above, and so is a value that holds one:
  /// a filtered view that a computed property builds, or a collection stored in a child state
  /// that a computed property builds with it, read through that child's store (or the store
  /// of an optional child or an enum's case that a computed property builds). A
  /// collection in an optional, an enum's case, an existential, an array, a dictionary or an
  /// object is kept in the copy, so the next change to it copies it while observed.
  ///
  /// Once the value has changed and its observers were notified (observation fires once per
  /// read), the store forgets it until it is read again, as a view does when it renders
  /// again. A value read outside tracking (in a button's handler, a log line) is so compared
  /// and kept only until its first change.
  ///
  /// Only the first step of a chain is read through the store: `store.header.title` tracks
  /// the whole `header`, and its observers are told of any change to it. To track `title`
  /// alone, read it through a store scoped to `header`.
  ///
  /// A read that sends an action (a computed property's getter that sends, or the `deinit`
  /// of a value the read lets go) has that action reduced as the read ends (see
  /// ``send(_:)``); the value is then read once more, and that is what is returned and
  /// compared after later actions. An action the second read sends is reduced too, and its
  /// change is told at the check after the next action.
  ///
  /// - Parameter keyPath: The path to the value.
  /// - Returns: The value.
  public subscript<Value>(dynamicMember keyPath: KeyPath<State, Value>) -> Value {
    let value = readAgainAfterSends { core.withState { copyOfValue(at: keyPath, in: $0) } }
    track(keyPath, value)
    return value
  }

  /// Sends an action: runs the reducer at once, then starts the effects it returned.
  ///
  /// Actions that `.send` effects feed back while the reducer runs are processed in order
  /// before `send` returns. Asynchronous effects start in tasks the store owns; the returned
  /// handle awaits or cancels them.
  ///
  /// An action sent from an observer's `onChange` while the stores check what the previous
  /// action changed is processed once they have all checked it: this `send` returns first,
  /// and its handle works as any other (see ``Store`` for the order).
  ///
  /// An action sent while the state of this store's root is being read (by a computed
  /// property's getter that a read through one of its stores runs, or by the `deinit` of a
  /// value the read lets go) is processed once the root's outermost read has ended, before
  /// that read returns to its caller: the read runs on the state where the root keeps it, and
  /// must not see it change halfway. Actions sent to other roots meanwhile are processed at
  /// once.
  ///
  /// - Parameter action: The action to process.
  /// - Returns: A handle on the effects the action started.
  @discardableResult
  @inlinable
  public func send(_ action: Action) -> StoreTask {
    sendAction(action)
  }
}

/// A store for the reducer `R`.
public typealias StoreOf<R: Reducer> = Store<R.State, R.Action>
