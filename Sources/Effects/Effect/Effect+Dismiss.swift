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
  /// Returned by a reducer that nobody presents, it does nothing but report a runtime warning:
  /// a `forEach` row or an `ifLet` child is not presented, and its `.dismiss` does not close
  /// the sheet or the stack screen its parent is shown in either. A case of an enum
  /// destination (`ifCaseLet` inside `presents`) closes the destination. A `Scope` child, and
  /// a lifecycle hook, are parts of the feature they run in: their `.dismiss` closes that
  /// feature, as its own would.
  public static var dismiss: Self {
    Self(operation: .dismiss)
  }

  /// Sends `action` while the child that returns this effect is still in its place, checked
  /// when the action is reduced: once the child is gone, or another occupant took its place
  /// (a child with another id, another push of a stack's screen), it is dropped quietly.
  /// A ``send(_:)`` sent at once is dropped too when the child was replaced, with a runtime
  /// warning, and reaches the parent when the child is gone, which finds no child and warns.
  /// For the library's own follow-up actions, which mean nothing once their child is gone: a
  /// resolved dismissal, a lifecycle hook's `hookFinished` (whose hook may have closed its
  /// screen).
  ///
  /// - Parameter action: The action to send.
  /// - Returns: The effect.
  @usableFromInline
  package static func sendWhileThere(_ action: Action) -> Self {
    Self(operation: .sendWhileThere(action))
  }

  /// Replaces every ``dismiss`` of the child itself in this effect (its reducer's, and those
  /// of its parts: see `PartOfItsFeature`) with sending `action`, once the effect is
  /// scoped to the child's lifetime: the action reaches the parent only while that child is
  /// still in its place, as far as the place's occupants can be told apart (by id, for an
  /// `Identifiable` child). A child that reports with a delegate action and dismisses itself,
  /// to a parent that answers the report by presenting another child with another id, closes
  /// itself, not the newcomer.
  ///
  /// A `.dismiss` inside a namespace the child made itself (a child of its own run by hand,
  /// its effects given `scoped(to:)`) is left as it is: it closes nothing, and reaches the
  /// store as a runtime warning, as it would in the child tested alone. It would otherwise
  /// close the whole child, a list's sheet for one of its rows.
  ///
  /// - Parameter action: The presenting parent's dismiss action.
  /// - Returns: The effect, with dismissals resolved.
  @usableFromInline
  package func resolvingDismiss(with action: Action) -> Self {
    replacingDismiss(with: .sendWhileThere(action), onlyInTheFeature: true)
  }

  /// Replaces every ``dismiss`` in this effect, those of the child's own children included,
  /// with the warning `makeWarning` returns: for a child that is not presented (a row of
  /// `forEach`, an `ifLet` child), whose `.dismiss` closes nothing. Left as it was, it would
  /// reach the nearest presented ancestor and close that (the sheet or the screen showing the
  /// list) in the child's stead.
  ///
  /// - Parameter makeWarning: Makes the warning; called only if the effect dismisses.
  /// - Returns: The effect, with no dismissal left.
  @usableFromInline
  package func refusingDismiss(_ makeWarning: () -> Self) -> Self {
    guard dismisses else { return self }
    return replacingDismiss(with: makeWarning(), onlyInTheFeature: false)
  }

  /// Whether the effect holds a ``dismiss`` not yet resolved.
  private var dismisses: Bool {
    switch operation {
    case .dismiss:
      true
    case .none, .send, .run, .cancel, .endLifetime, .retainLifetimes, .warning, .sendWhileThere:
      false
    case .merge(let effects), .concatenate(let effects):
      effects.contains { $0.dismisses }
    case .cancellable(_, _, let effect), .scoped(_, _, let effect), .throttle(_, let effect),
      .outlivingSendersTask(let effect):
      effect.dismisses
    }
  }

  /// Replaces every ``dismiss`` in this effect with `replacement`.
  ///
  /// - Parameters:
  ///   - replacement: What each ``dismiss`` becomes.
  ///   - onlyInTheFeature: Whether to leave the effects inside a namespace that is not part
  ///     of the feature (see `PartOfItsFeature`) as they are.
  private func replacingDismiss(with replacement: Self, onlyInTheFeature: Bool) -> Self {
    func replacing(_ effect: Self) -> Self {
      effect.replacingDismiss(with: replacement, onlyInTheFeature: onlyInTheFeature)
    }
    switch operation {
    case .dismiss:
      return replacement
    case .none, .send, .run, .cancel, .endLifetime, .retainLifetimes, .warning, .sendWhileThere:
      return self
    case .merge(let effects):
      return Self(operation: .merge(effects.map(replacing)))
    case .concatenate(let effects):
      return Self(operation: .concatenate(effects.map(replacing)))
    case .cancellable(let id, let cancelInFlight, let effect):
      return Self(
        operation: .cancellable(
          id: id,
          cancelInFlight: cancelInFlight,
          replacing(effect)
        )
      )
    case .scoped(let identity, let token, let effect):
      if onlyInTheFeature, !(identity.base is any PartOfItsFeature) { return self }
      return Self(operation: .scoped(identity: identity, token: token, replacing(effect)))
    case .throttle(let throttle, let effect):
      return Self(operation: .throttle(throttle, replacing(effect)))
    case .outlivingSendersTask(let effect):
      return Self(operation: .outlivingSendersTask(replacing(effect)))
    }
  }
}
