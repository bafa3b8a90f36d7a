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
}
