import Effects

/// The effects of a step through `ifLet` or `ifCaseLet`, with the child's lifetime ended where
/// the step ended it. One place for the rules both follow:
///
/// - Absent before and after: nothing ends.
/// - Presented (absent before): earlier effects under the identity, left running by an
///   ancestor that removed a child out of the reducer's sight, end before the new child's
///   start.
/// - The child changed its own id and keeps it: its earlier effects end, the ones it started
///   now go on. If the parent then removed it or changed its id again, all end.
/// - Dismissed by the reducer and presented again in the same step: the dismissed child's
///   effects end before the new one's start.
/// - Gone, or replaced by the parent with a child of another id: the old child's effects end,
///   those it started in this step included.
///
/// `before` and `after` are the child's id (or `true`, for children that are not
/// `Identifiable`), `nil` while absent; `idLeftByChild` is the id the child gave itself when
/// it changed it and started effects.
@inlinable
func childStepEffect<Action, ID: Equatable>(
  before: ID?,
  after: ID?,
  idLeftByChild: ID??,
  wasDismissed: Bool = false,
  childEffect: Effect<Action>,
  parentEffect: Effect<Action>,
  identity: some Hashable & Sendable
) -> Effect<Action> {
  guard before != nil else {
    guard after != nil else { return merged(childEffect, parentEffect) }
    return .merge(.endLifetime(of: identity), childEffect, parentEffect)
  }
  if let idLeftByChild {
    guard after == idLeftByChild else {
      return .merge(childEffect, parentEffect, .endLifetime(of: identity))
    }
    return .merge(.endLifetime(of: identity), childEffect, parentEffect)
  }
  if wasDismissed, after != nil {
    return .merge(.endLifetime(of: identity), childEffect, parentEffect)
  }
  guard after != before else { return merged(childEffect, parentEffect) }
  return .merge(childEffect, parentEffect, .endLifetime(of: identity))
}
