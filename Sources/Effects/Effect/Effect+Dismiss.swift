extension Effect {
  /// An effect that dismisses the presented child that returns it.
  ///
  /// A child presented by its parent (an editor sheet, say) returns `.dismiss` to close
  /// itself: the presenting reducer turns it into its own dismiss action, which clears the
  /// child's state and ends the lifetime of its effects. A screen on a navigation stack
  /// returns it to pop itself (`navigationStack` turns it into `.popFrom(id:)`). The
  /// dismissal closes the child that returned it: if the child is gone by the time it
  /// arrives, or another child took its place (one with another id, for `Identifiable` child
  /// state; another pushed screen), it does nothing. Results go back to the parent as
  /// ordinary delegate actions, before the dismissal:
  ///
  /// ```swift
  /// case .saveTapped:
  ///   return .concatenate(.send(.delegate(.saved(state.title))), .dismiss)
  /// ```
  ///
  /// Returned by a reducer that nobody presents, it does nothing but report a runtime warning.
  public static var dismiss: Self {
    Self(operation: .dismiss)
  }

  /// Replaces every ``dismiss`` in this effect with sending `action`, once the effect is
  /// scoped to the child's lifetime: the action reaches the parent only while that child is
  /// still in its place, as far as the place's occupants can be told apart (by id, for an
  /// `Identifiable` child). A child that reports with a delegate action and dismisses itself,
  /// to a parent that answers the report by presenting another child with another id, closes
  /// itself, not the newcomer.
  ///
  /// - Parameter action: The presenting parent's dismiss action.
  /// - Returns: The effect, with dismissals resolved.
  @usableFromInline
  package func resolvingDismiss(with action: Action) -> Self {
    switch operation {
    case .dismiss:
      return Self(operation: .dismissal(action))
    case .none, .send, .run, .cancel, .endLifetime, .retainLifetimes, .warning, .dismissal:
      return self
    case .merge(let effects):
      return Self(operation: .merge(effects.map { $0.resolvingDismiss(with: action) }))
    case .concatenate(let effects):
      return Self(operation: .concatenate(effects.map { $0.resolvingDismiss(with: action) }))
    case .cancellable(let id, let cancelInFlight, let effect):
      return Self(
        operation: .cancellable(
          id: id,
          cancelInFlight: cancelInFlight,
          effect.resolvingDismiss(with: action)
        )
      )
    case .scoped(let identity, let token, let effect):
      return Self(
        operation: .scoped(
          identity: identity, token: token, effect.resolvingDismiss(with: action)))
    case .throttle(let throttle, let effect):
      return Self(operation: .throttle(throttle, effect.resolvingDismiss(with: action)))
    case .outlivingSendersTask(let effect):
      return Self(operation: .outlivingSendersTask(effect.resolvingDismiss(with: action)))
    }
  }
}
