import Effects

extension Effect {
  /// An effect that cancels what one element of a collection made cancellable under
  /// `cancelID`, and nothing else.
  ///
  /// Each element's cancellation ids live in that element's namespace, so a parent's own
  /// ``Effect/cancel(id:)`` never reaches them. Return this from the reducer that
  /// `.forEach(collection, …)` is applied to (the same level), naming the collection by the
  /// same key path, with its root type written out (an effect does not know the state type):
  ///
  /// ```swift
  /// Reduce { state, action in
  ///   switch action {
  ///   case .stopDownload(let id):
  ///     return .cancel(id: Row.CancelID.download, inElement: id, of: \State.rows)
  ///   ...
  ///   }
  /// }
  /// .forEach(\.rows, action: .rows) { Row() }
  /// ```
  ///
  /// Other elements' effects under the same id keep running, and so do the element's other
  /// effects. Actions the cancelled effects send afterwards never reach a reducer. Nothing
  /// happens when no such element or effect exists.
  ///
  /// - Parameters:
  ///   - cancelID: The cancellation id the element's reducer used.
  ///   - id: The element's id.
  ///   - collection: The key path the `forEach` names, from the parent's state.
  /// - Returns: An effect that cancels.
  public static func cancel<State, ID: Hashable & Sendable, Element>(
    id cancelID: some Hashable & Sendable,
    inElement id: ID,
    of collection: WritableKeyPath<State, IdentifiedArray<ID, Element>>
  ) -> Self {
    .cancel(id: cancelID)
      .scoped(to: ElementIdentity(collection: KeyPathIdentity(keyPath: collection), id: id))
  }

  /// An effect that cancels what one screen of a navigation stack made cancellable under
  /// `cancelID`, and nothing else.
  ///
  /// The counterpart of ``cancel(id:inElement:of:)`` for a ``StackState``: return it from the
  /// reducer that `.navigationStack(stack, …)` is applied to.
  ///
  /// - Parameters:
  ///   - cancelID: The cancellation id the screen's reducer used.
  ///   - id: The screen's id.
  ///   - stack: The key path the `navigationStack` names, from the parent's state.
  /// - Returns: An effect that cancels.
  public static func cancel<State, Screen>(
    id cancelID: some Hashable & Sendable,
    inScreen id: StackElementID,
    of stack: WritableKeyPath<State, StackState<Screen>>
  ) -> Self {
    .cancel(id: cancelID, inElement: id, of: entriesPath(of: stack))
  }

  /// An effect that cancels what the child of a ``Scope`` made cancellable under `cancelID`,
  /// and nothing else.
  ///
  /// A scope's child has its cancellation ids to itself, so a parent's own
  /// ``Effect/cancel(id:)`` never reaches them (two sibling scopes running the same child
  /// reducer never cancel each other's effects). Return this from a reducer of the body that
  /// holds the `Scope` (at the same level), naming the scope by the key path and the case key
  /// it was given, with the key path's root type written out (an effect does not know the
  /// state type):
  ///
  /// ```swift
  /// var body: some Reducer<State, Action> {
  ///   Scope(state: \.search, action: .search) { Search() }
  ///   Reduce { state, action in
  ///     switch action {
  ///     case .clearTapped:
  ///       return .cancel(id: Search.CancelID.query, inScope: \State.search, action: .search)
  ///     ...
  ///     }
  ///   }
  /// }
  /// ```
  ///
  /// The child's other effects keep running, as do those of other scopes. Actions the
  /// cancelled effects send afterwards never reach a reducer. Nothing happens when no such
  /// effect runs. (Sending the child an action that returns its own `.cancel(id:)` does the
  /// same, and keeps the child's ids its own business.)
  ///
  /// - Parameters:
  ///   - cancelID: The cancellation id the child's reducer used.
  ///   - state: The key path the `Scope` was given, from the parent's state.
  ///   - action: The case key the `Scope` was given.
  /// - Returns: An effect that cancels.
  public static func cancel<ParentState, ChildState, ChildAction>(
    id cancelID: some Hashable & Sendable,
    inScope state: WritableKeyPath<ParentState, ChildState>,
    action: CaseKey<Action, ChildAction>
  ) -> Self {
    .cancel(id: cancelID)
      .scoped(
        to: ScopeIdentity(
          parent: ObjectIdentifier(Action.self), caseKey: action.identity,
          state: state as KeyPath<ParentState, ChildState>))
  }
}
