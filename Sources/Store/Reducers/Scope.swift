import Effects

/// Runs a child reducer on a part of the parent's state, for the parent actions that carry a
/// child action.
///
/// The child sees only its slice, and its effects' actions are embedded back into the parent's
/// action type. Actions of other cases pass through untouched. The child's effects belong to
/// the scope: their cancellation ids and lifetimes cannot collide with a sibling scope's, even
/// one running the same child reducer.
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
  /// - Parameters:
  ///   - state: The key path from the parent's state to the child's, to the stored property
  ///     that holds it: the store finds the places of the child's effects in its state by
  ///     following it, which it does not do through computed properties.
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
struct ScopeIdentity<ParentState, ChildState>: Hashable, @unchecked Sendable, LifetimePlace {
  let parent: ObjectIdentifier
  let caseKey: CaseKeyIdentity
  let state: KeyPath<ParentState, ChildState>

  var canBeGone: Bool { false }

  var isReadable: Bool { MemoryLayout<ParentState>.offset(of: state) != nil }

  func locate(inLevel state: Any, wantsState: Bool) -> PlaceLookup {
    guard let parent = state as? ParentState else { return .unknown }
    return .present(parent[keyPath: self.state], wantsState: wantsState)
  }
}
