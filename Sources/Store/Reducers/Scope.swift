import Effects

/// Runs a child reducer on a part of the parent's state, for the parent actions that carry a
/// child action.
///
/// The child sees only its slice, and its effects' actions are embedded back into the parent's
/// action type. Actions of other cases pass through untouched. The child's effects belong to
/// the scope: their cancellation ids and lifetimes cannot collide with a sibling scope's, even
/// one running the same child reducer. (The parent cancels one of them with
/// `.cancel(id:inScope:action:)`; its own `.cancel(id:)` does not reach them.)
///
/// ```swift
/// var body: some Reducer<State, Action> {
///   Scope(state: \.cart, action: .cart) { Cart() }
///   Scope(state: \.account, action: .account) { Account() }
/// }
/// ```
public struct Scope<ParentState, ParentAction: Sendable, Child: Reducer>: Reducer {
  /// The key path, behind a closure: a key path literal that is only ever projected through
  /// is compiled to a plain field access, while one kept as a value is built (and retained
  /// and released) every time the reducer is, which is at every action. The closure, made
  /// from the literal, captures nothing; the key path is built only when an effect needs it.
  @usableFromInline let toChildState: () -> WritableKeyPath<ParentState, Child.State>
  @usableFromInline let toChildAction: CaseKey<ParentAction, Child.Action>
  @usableFromInline let child: Child

  /// Creates a scope.
  ///
  /// Write the key path as a literal (`\.cart`). It is taken as an expression, evaluated each
  /// time the scope runs, so that a literal compiles to a plain field access.
  ///
  /// After an action that may have removed a child where its own reducer could not see (a
  /// row removed by an ancestor of the `forEach` that runs it), the store looks for the
  /// places of running effects in its state, following the key path, and ends the effects of
  /// the children that are gone. It follows a key path through stored properties only: a
  /// computed property could trap, or build a costly value, when read out of turn. Behind a
  /// computed property, such an effect runs on until it sends, and what it sends is refused
  /// with a runtime warning (see "Identity and navigation"), unless the scope says the
  /// property is safe to read with ``init(state:action:computedStateIsSafeToRead:child:)``. A
  /// stored property with a `didSet` or `willSet` observer, or one a property wrapper holds,
  /// counts as computed here: its key path goes through its accessors, as a computed
  /// property's does, and a key path cannot tell them apart. Such a scope can say it is safe to
  /// read too.
  ///
  /// - Parameters:
  ///   - state: The key path from the parent's state to the child's.
  ///   - action: The parent action case that carries child actions.
  ///   - child: The child reducer.
  @inlinable
  public init<ChildState, ChildAction>(
    state: @autoclosure @escaping () -> WritableKeyPath<ParentState, ChildState>,
    action: CaseKey<ParentAction, ChildAction>,
    @ReducerBuilder<ChildState, ChildAction> child: () -> Child
  ) where ChildState == Child.State, ChildAction == Child.Action {
    self.toChildState = state
    self.toChildAction = action
    self.child = child()
  }

  /// Creates a scope whose key path goes through a computed property, and says whether the
  /// store may read it at any time, to follow it between actions.
  ///
  /// A child given shared state through a computed property, as below, where the root can
  /// remove items the shelf's rows run effects for (signing out, say), passes `true`: the
  /// store then finds the removed rows after the action and ends their effects.
  ///
  /// ```swift
  /// var shelf: Shelf.State {
  ///   get { Shelf.State(items: items, isCompact: shelfIsCompact) }
  ///   set { (items, shelfIsCompact) = (newValue.items, newValue.isCompact) }
  /// }
  /// ...
  /// Scope(state: \.shelf, action: .shelf, computedStateIsSafeToRead: true) { Shelf() }
  /// ```
  ///
  /// A key path through stored properties only is always followed, whatever the flag says.
  /// (An initializer of its own, so that a scope without it stays as small as it was: with
  /// one more stored property, a scope's key path was built at every action, not compiled
  /// to a field access, and ten nested scopes cost seven times as much.)
  ///
  /// - Parameters:
  ///   - state: The key path from the parent's state to the child's.
  ///   - action: The parent action case that carries child actions.
  ///   - computedStateIsSafeToRead: Whether reading `state` at any time is cheap and cannot
  ///     trap. The key path, once marked so, is followed wherever a scope uses it.
  ///   - child: The child reducer.
  @inlinable
  public init<ChildState, ChildAction>(
    state: @autoclosure @escaping () -> WritableKeyPath<ParentState, ChildState>,
    action: CaseKey<ParentAction, ChildAction>,
    computedStateIsSafeToRead: Bool,
    @ReducerBuilder<ChildState, ChildAction> child: () -> Child
  ) where ChildState == Child.State, ChildAction == Child.Action {
    self.init(state: state(), action: action, child: child)
    if computedStateIsSafeToRead { ScopeIdentity<ParentState, ChildState>.markSafeToRead(state()) }
  }

  /// Runs the child reducer if `action` carries a child action; otherwise does nothing.
  ///
  /// - Parameters:
  ///   - state: The parent's state; only the child's slice changes.
  ///   - action: The parent's action.
  /// - Returns: The child's effect, with its actions embedded in the parent's.
  /// - Complexity: O(1) beyond the child reducer's own work: the slice is changed in place.
  @inlinable
  public func reduce(into state: inout ParentState, action: ParentAction) -> Effect<ParentAction> {
    guard let childAction = toChildAction.extract(action) else { return .none }
    let effect = child.reduce(into: &state[keyPath: toChildState()], action: childAction)
    if effect.isNone { return .none }
    return Self.embed(
      effect, toChildAction.embed, caseKey: toChildAction.identity, state: toChildState())
  }

  /// The child's effect in the parent's actions, in the scope's own namespace: two sibling
  /// scopes running the same child never cancel each other's effects.
  ///
  /// The namespace is the case key of the parent action that carries the child's actions
  /// (its identity: where it is declared, known without reflecting on the action), which
  /// tells sibling scopes apart, and the key path to the child's state, which the store
  /// follows to find the places of the child's effects in its state. Out of line, so that
  /// `reduce`, which runs for every action, stays small for the optimizer to inline and to
  /// turn its key path into a plain field access.
  @usableFromInline
  static func embed(
    _ effect: Effect<Child.Action>,
    _ embed: @escaping @Sendable (Child.Action) -> ParentAction,
    caseKey: CaseKeyIdentity,
    state: KeyPath<ParentState, Child.State>
  ) -> Effect<ParentAction> {
    effect.map(embed).scoped(
      to: ScopeIdentity(parent: ObjectIdentifier(ParentAction.self), caseKey: caseKey, state: state)
    )
  }
}

/// The lifetime namespace of a scope: the parent action type, the case key that carries the
/// child's actions, and the key path to the child's state.
///
/// `@unchecked Sendable`: key paths are immutable once created.
@usableFromInline
struct ScopeIdentity<ParentState, ChildState>: Hashable, @unchecked Sendable, LifetimePlace,
  PartOfItsFeature
{
  let parent: ObjectIdentifier
  let caseKey: CaseKeyIdentity
  let state: KeyPath<ParentState, ChildState>

  var canBeGone: Bool { false }

  /// The key path to the child, when it goes through stored properties only.
  var storedPath: AnyKeyPath? {
    MemoryLayout<ParentState>.offset(of: state) != nil ? state : nil
  }

  /// Through stored properties only, or marked safe to read by its scope: found by identity
  /// first, which costs less than a key path's hash, then by equality (a key path into a
  /// generic type is made anew each time its expression runs).
  var isReadable: Bool {
    MemoryLayout<ParentState>.offset(of: state) != nil
      || KeyPathCache.shared.cached(.safeToRead(ObjectIdentifier(state))) != nil
      || KeyPathCache.shared.isMarkedSafeToRead(state)
  }

  /// Marks `state` safe to read at any time, for as long as the caches keep it (a scope
  /// marks it again each time it is built, at every action).
  @usableFromInline
  static func markSafeToRead(_ state: KeyPath<ParentState, ChildState>) {
    let key = KeyPathCache.Key.safeToRead(ObjectIdentifier(state))
    guard KeyPathCache.shared.cached(key) == nil else { return }
    // Kept by identity too when it is the object marked, which a key path literal outside
    // generic code always is: then the next action finds it without hashing it. A generic
    // one, another object each time, would only fill the cache.
    guard KeyPathCache.shared.markSafeToRead(state) else { return }
    _ = KeyPathCache.shared.keep(state, for: key, from: state)
  }

  func locate(inLevel state: Any, wantsState: Bool) -> PlaceLookup {
    guard let parent = state as? ParentState else { return .unknown }
    return .present(parent[keyPath: self.state], wantsState: wantsState)
  }
}
