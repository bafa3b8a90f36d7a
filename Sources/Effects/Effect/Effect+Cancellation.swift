extension Effect {
  /// Makes this effect cancellable under `id`.
  ///
  /// Ids are namespaced by identity: an effect started by the row with id `A` and one started
  /// by the row with id `B` can both use `CancelID.load` without cancelling each other, and
  /// ``cancel(id:)`` returned by row `A` cancels only row `A`'s effect.
  ///
  /// ```swift
  /// case .searchChanged(let query):
  ///   return .run { send in
  ///     send(.results(try await client.search(query)))
  ///   }
  ///   .cancellable(id: CancelID.search, cancelInFlight: true)
  /// ```
  ///
  /// - Parameters:
  ///   - id: The cancellation id. Any hashable, sendable value; a private enum case is usual.
  ///   - cancelInFlight: Whether to cancel effects already running under `id` before this one
  ///     starts. A concatenation this effect is a part of is not cancelled, though it runs
  ///     under `id` too: `.debounce(id:)` with the same `id`, which runs this effect after its
  ///     wait, still runs it.
  /// - Returns: A cancellable effect.
  public func cancellable(id: some Hashable & Sendable, cancelInFlight: Bool = false) -> Self {
    if isNone && !cancelInFlight { return self }
    return Self(operation: .cancellable(id: EffectID(id), cancelInFlight: cancelInFlight, self))
  }

  /// An effect that cancels every running effect made cancellable under `id`.
  ///
  /// Only effects in the same identity namespace are cancelled (see
  /// ``cancellable(id:cancelInFlight:)``). Actions those effects send after this runs never
  /// reach a reducer.
  ///
  /// - Parameter id: The cancellation id.
  /// - Returns: An effect that cancels.
  public static func cancel(id: some Hashable & Sendable) -> Self {
    Self(operation: .cancel(id: EffectID(id)))
  }

  /// Puts this effect inside the lifetime of `identity`.
  ///
  /// Reducers that run a child per element (or per optional child, or per enum case) use this
  /// so that the child's effects are cancelled when that identity goes away, and so that the
  /// child's cancellation ids do not collide with a sibling's. Feature code rarely calls it.
  ///
  /// - Parameter identity: The identity whose lifetime the effect belongs to, such as an
  ///   element's id.
  /// - Returns: The scoped effect.
  public func scoped(to identity: some Hashable & Sendable) -> Self {
    scoped(to: identity, token: nil)
  }

  /// Puts this effect inside the lifetime of `identity`, for the occupant of the identity's
  /// place that `token` names: the child's id, a stack screen's push. Effects of an earlier
  /// occupant with another token end when this one starts: they belong to a child that was
  /// replaced where the reducer that runs it could not see.
  ///
  /// - Parameters:
  ///   - identity: The identity whose lifetime the effect belongs to.
  ///   - token: Which occupant of the identity's place the effect belongs to, if it can
  ///     change hands.
  /// - Returns: The scoped effect.
  @usableFromInline
  package func scoped(to identity: some Hashable & Sendable, token: UInt64?) -> Self {
    if isNone { return self }
    return Self(operation: .scoped(identity: EffectID(identity), token: token, self))
  }

  /// An effect that ends the lifetime of `identity`, cancelling every effect scoped to it.
  ///
  /// This includes effects scoped to identities nested inside it.
  ///
  /// - Parameter identity: The identity whose lifetime ends.
  /// - Returns: An effect that cancels the identity's effects.
  public static func endLifetime(of identity: some Hashable & Sendable) -> Self {
    Self(operation: .endLifetime(identity: EffectID(identity), exceptOccupant: nil))
  }

  /// An effect that ends the effects scoped to `identity` for occupants of its place other
  /// than the one with `token` (see ``scoped(to:token:)``), and the ones nested in them.
  ///
  /// A stack's reducer returns it for each screen when the stack was set to a copy whose
  /// history it cannot follow: a screen there may have another push's id.
  ///
  /// - Parameters:
  ///   - identity: The identity whose earlier occupants' effects end.
  ///   - token: The token of the occupant whose effects go on.
  /// - Returns: An effect that cancels the earlier occupants' effects.
  @usableFromInline
  package static func endLifetime(
    of identity: some Hashable & Sendable, exceptOccupant token: UInt64
  ) -> Self {
    Self(operation: .endLifetime(identity: EffectID(identity), exceptOccupant: token))
  }

  /// An effect that keeps the lifetimes of the child identities (one level below the current
  /// namespace) for which `isAlive` holds, and ends the others.
  ///
  /// Reducers for collections return it after a step that changed which elements exist, so
  /// the effects of removed elements are cancelled. `isAlive` is called on the main actor,
  /// synchronously, while the store starts the effect.
  @usableFromInline
  package static func retainLifetimes(where isAlive: @escaping @Sendable (EffectID) -> Bool)
    -> Self
  {
    Self(operation: .retainLifetimes(isAlive: isAlive))
  }

  /// An effect that reports a runtime warning through the store's handler.
  ///
  /// - Parameter namingStoreAction: Whether the warning is raised where the reducer cannot
  ///   tell which of its ancestors' children it runs for (a screen's lifecycle, a row's
  ///   refused `.dismiss`): the store's action, which can, is then named after the message.
  @usableFromInline
  package static func warning(
    _ message: String, site: SourceSite, namingStoreAction: Bool = false
  ) -> Self {
    Self(
      operation: .warning(
        message: message, site: site, kind: namingStoreAction ? .namingStoreAction : .plain))
  }

  /// The runtime warning that an action was addressed to a child that is gone (a removed
  /// element, a `nil` child, another case), with the end of that child's lifetime: what a
  /// child reducer returns instead of running the child, and the mark that tells every
  /// reducer around it not to run for the action either (``isForMissingChild``).
  ///
  /// With `isOrdinary`, for a child that is not there where that is no mistake (a pop of a
  /// screen popped already, a `.dismiss` of a sheet dismissed already or never presented),
  /// the mark alone: nothing is reported, and `message` only says what it stands for, to a
  /// reader of the effect.
  @usableFromInline
  package static func missingChild(
    _ message: String, site: SourceSite, lifetime: some Hashable & Sendable,
    isOrdinary: Bool = false
  ) -> Self {
    .merge(
      Self(
        operation: .warning(
          message: message, site: site, kind: isOrdinary ? .staleChild : .missingChild)),
      .endLifetime(of: lifetime)
    )
  }

  /// The runtime warning that an action that would add a child was refused (a push whose id
  /// the stack gave out already, or one too large), marked as a missing child's is
  /// (``isForMissingChild``), so that no reducer around the one that refused it runs for it:
  /// it changes nothing. It ends no lifetime, as a missing child's does: the child that holds
  /// that id, if any, is not the one refused, and its effects go on. `message` is reported
  /// as it is.
  @usableFromInline
  package static func refusedChild(_ message: String, site: SourceSite) -> Self {
    Self(operation: .warning(message: message, site: site, kind: .refusedChild))
  }

  /// Whether this effect is, or contains, the report that the action was addressed to a
  /// child that is gone (``missingChild(_:site:lifetime:)``), or that a child was refused
  /// (``refusedChild(_:site:)``: a push a stack refused): a parent that finds it in its
  /// child's effect does not run for the action, so that the action changes nothing.
  ///
  /// Looks through `merge` and `scoped` (an identity's lifetime) only, where the library's
  /// reducers between the child and its ancestors put it: wrapped in a concatenation, a
  /// cancellable or a throttle by a reducer of one's own, it is not seen.
  ///
  /// - Complexity: O(*n*) in the merged parts; O(1) for `.none`.
  @inlinable
  package var isForMissingChild: Bool {
    switch operation {
    case .none: return false
    case .warning(_, _, let kind):
      return kind == .missingChild || kind == .staleChild || kind == .refusedChild
    case .merge(let effects): return effects.contains { $0.isForMissingChild }
    case .scoped(_, _, let effect): return effect.isForMissingChild
    default: return false
    }
  }

  /// Whether this effect does anything an observer could see: sends or dismisses, or runs
  /// work. Cancellations, lifetime bookkeeping and warnings alone are not work.
  ///
  /// - Complexity: O(*n*) in the effect's parts.
  package var hasWork: Bool {
    switch operation {
    case .send, .run, .dismiss, .sendWhileThere:
      return true
    case .none, .cancel, .endLifetime, .retainLifetimes, .warning:
      return false
    case .merge(let effects), .concatenate(let effects):
      return effects.contains { $0.hasWork }
    case .cancellable(_, _, let effect), .scoped(_, _, let effect), .throttle(_, let effect),
      .outlivingSendersTask(let effect):
      return effect.hasWork
    }
  }

  /// Calls `body` with each runtime warning this effect reports when it starts, in order, and
  /// where it was raised: what a replay, which runs reducers without starting their effects,
  /// reports. Allocates nothing, so a replay can ask it of every action's effect.
  ///
  /// - Parameters:
  ///   - skippingMissingChild: Whether to pass over the report that the action was addressed
  ///     to a child that is gone, as a store does for an action sent knowing that its child
  ///     may be gone (a row's end sent after the row left a filtered view).
  ///   - body: What to call with each warning.
  /// - Complexity: O(*n*) in the effect's parts; the work inside `run` is not looked at.
  package func forEachWarning(
    skippingMissingChild: Bool = false, _ body: (_ message: String, _ site: SourceSite) -> Void
  ) {
    forEachWarningOperation { message, site, kind in
      if skippingMissingChild, kind == .missingChild { return }
      body(message, site)
    }
  }

  /// Calls `body` with each runtime warning this effect reports when it starts, in order, as
  /// an effect of another action type that reports it the same way: what is left of an effect
  /// whose work will not run. A warning that names the store's action still does, and a
  /// missing child's is raised as one that names it, a refused child's as its message alone:
  /// the effect it was part of is not run, and its mark must not stop the reducers around the
  /// one that reports it, which acted on the action (a closing alert closed).
  ///
  /// - Complexity: O(*n*) in the effect's parts; the work inside `run` is not looked at.
  package func forEachWarning<Other>(as _: Other.Type, _ body: (Effect<Other>) -> Void) {
    forEachWarningOperation { message, site, kind in
      let kept: WarningKind =
        switch kind {
        case .missingChild: .namingStoreAction
        case .refusedChild: .plain
        default: kind
        }
      body(Effect<Other>(operation: .warning(message: message, site: site, kind: kept)))
    }
  }

  private func forEachWarningOperation(
    _ body: (_ message: String, _ site: SourceSite, _ kind: WarningKind) -> Void
  ) {
    switch operation {
    case .warning(let message, let site, let kind):
      // A stale child's mark reports nothing.
      if kind != .staleChild { body(message, site, kind) }
    case .none, .send, .run, .cancel, .endLifetime, .retainLifetimes, .dismiss, .sendWhileThere:
      return
    case .merge(let effects), .concatenate(let effects):
      for effect in effects { effect.forEachWarningOperation(body) }
    case .cancellable(_, _, let effect), .scoped(_, _, let effect), .throttle(_, let effect),
      .outlivingSendersTask(let effect):
      effect.forEachWarningOperation(body)
    }
  }
}
