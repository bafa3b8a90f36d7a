extension Effect {
  /// An effect that starts all of `effects` at once and finishes when they all have.
  ///
  /// - Parameter effects: The effects to run concurrently.
  /// - Returns: The merged effect.
  public static func merge(_ effects: Self...) -> Self {
    merge(effects)
  }

  /// An effect that starts all of `effects` at once and finishes when they all have.
  ///
  /// Effects that do nothing are dropped, so merging only `.none` values gives `.none`.
  ///
  /// - Parameter effects: The effects to run concurrently.
  /// - Returns: The merged effect.
  /// - Complexity: O(*n*) in the number of effects.
  public static func merge(_ effects: some Sequence<Self>) -> Self {
    var parts: [Self] = []
    for effect in effects {
      switch effect.operation {
      case .none: continue
      case .merge(let nested): parts.append(contentsOf: nested)
      default: parts.append(effect)
      }
    }
    switch parts.count {
    case 0: return .none
    case 1: return parts[0]
    default: return Self(operation: .merge(parts))
    }
  }

  /// An effect that runs this effect and `other` at the same time.
  ///
  /// Merging onto a merge adds to its parts: the result is one flat merge.
  ///
  /// - Parameter other: The effect to run alongside this one.
  /// - Returns: The merged effect.
  /// - Complexity: O(*n*) in the number of parts of both effects, as it copies them: growing
  ///   an effect one part at a time in a loop takes quadratic time. To merge many effects,
  ///   collect them in an array and merge that (`.merge(effects)`), in O(*n*).
  public func merge(with other: Self) -> Self {
    .merge([self, other])
  }

  /// An effect that runs `effects` one after another.
  ///
  /// Each effect starts when the one before it has finished, including every task it started.
  /// Effects with no asynchronous work (such as ``send(_:)``) run at once, so concatenating
  /// only synchronous effects keeps them synchronous. A ``send(_:)`` part is done once its
  /// action is sent: the effects that action starts belong to the store task of the action
  /// that returned the concatenation, as fed-back actions' effects do (unless the part is
  /// marked ``outlivingSendersTask()``), not to the sequence, which does not wait for them.
  /// Cancelling the concatenation cancels the part that is running and starts none of the
  /// rest; a part cancelled on its own, by its id (`.cancellable(id:)`, then `.cancel(id:)`),
  /// has finished, and the next part starts.
  ///
  /// A part that throws has finished: its error becomes its `catch:` action, or a runtime
  /// warning, and the next part starts. So `.concatenate(.run { _ in try await save() }, .dismiss)`
  /// dismisses even when the save fails. To go on only after a success, send an action from
  /// the end of the `.run` (`send(.saved)`) and return the next effect from that action's
  /// case.
  ///
  /// While the store is reducing (the concatenation was returned by a reducer), a leading run
  /// of parts without asynchronous work queues all its actions at once, behind the actions
  /// already queued, so an action one of them sends cannot stop the others. After a part with
  /// asynchronous work, each part's actions are reduced before the next part starts, so one
  /// that cancels the concatenation stops the rest.
  ///
  /// - Parameter effects: The effects to run in order.
  /// - Returns: The concatenated effect.
  public static func concatenate(_ effects: Self...) -> Self {
    concatenate(effects)
  }

  /// An effect that runs `effects` one after another.
  ///
  /// - Parameter effects: The effects to run in order.
  /// - Returns: The concatenated effect.
  /// - Complexity: O(*n*) in the number of effects.
  public static func concatenate(_ effects: some Sequence<Self>) -> Self {
    // A concatenation that comes first is spliced in, so that one grown in a loop
    // (`effect = effect.concatenate(with: next)`) is flat: its parts start in a loop, where
    // nested ones would start each other recursively, a stack frame per level. Only first:
    // there it starts as its own parts would, but later, started after its action was
    // reduced, a concatenation is one part, whose leading `.send`s are reduced together
    // (`debounce` runs its effect so, after the wait); spliced in, each would be a part of
    // its own, reduced before the next starts.
    var parts: [Self] = []
    for effect in effects {
      switch effect.operation {
      case .none: continue
      case .concatenate(let nested) where parts.isEmpty: parts.append(contentsOf: nested)
      default: parts.append(effect)
      }
    }
    switch parts.count {
    case 0: return .none
    case 1: return parts[0]
    default: return Self(operation: .concatenate(parts))
    }
  }

  /// An effect that runs this effect, then `other` once this one has finished.
  ///
  /// Concatenating onto a concatenation adds to its parts: the result is one flat sequence,
  /// however many times it is extended (`effect = effect.concatenate(with: next)` in a loop).
  /// Prepending (`effect = .concatenate(next, effect)`) nests instead, as a concatenation
  /// after another part runs as one part; thousands of levels of that overflow the stack.
  ///
  /// - Parameter other: The effect to run afterwards.
  /// - Returns: The concatenated effect.
  /// - Complexity: O(*n*) in the number of parts of both effects, as it copies them: growing
  ///   an effect one part at a time in a loop takes quadratic time. To concatenate many
  ///   effects, collect them in an array and concatenate that (`.concatenate(effects)`), in
  ///   O(*n*).
  public func concatenate(with other: Self) -> Self {
    .concatenate([self, other])
  }

  /// Transforms every action this effect sends.
  ///
  /// Parent reducers use this to embed a child's actions into their own.
  ///
  /// - Parameter transform: Turns one of this effect's actions into the new action type.
  /// - Returns: An effect that sends transformed actions.
  /// - Complexity: O(*n*) in the number of nodes of the effect; O(1) for ``none``.
  public func map<NewAction: Sendable>(
    _ transform: @escaping @Sendable (Action) -> NewAction
  ) -> Effect<NewAction> {
    switch operation {
    case .none:
      return .none
    case .send(let action):
      return .send(transform(action))
    case .run(let run):
      let body = run.body
      var newCatch: (@Sendable (any Error) -> NewAction)?
      if let catchAction = run.catchAction {
        newCatch = { error in transform(catchAction(error)) }
      }
      return Effect<NewAction>(
        operation: .run(
          Effect<NewAction>.Run(
            priority: run.priority,
            site: run.site,
            body: { send in try await body(send.map(transform)) },
            catchAction: newCatch
          )
        )
      )
    case .merge(let effects):
      return Effect<NewAction>(operation: .merge(effects.map { $0.map(transform) }))
    case .concatenate(let effects):
      return Effect<NewAction>(operation: .concatenate(effects.map { $0.map(transform) }))
    case .cancellable(let id, let cancelInFlight, let effect):
      return Effect<NewAction>(
        operation: .cancellable(id: id, cancelInFlight: cancelInFlight, effect.map(transform))
      )
    case .cancel(let id):
      return Effect<NewAction>(operation: .cancel(id: id))
    case .scoped(let identity, let token, let effect):
      return Effect<NewAction>(
        operation: .scoped(identity: identity, token: token, effect.map(transform)))
    case .endLifetime(let identity, let occupant):
      return Effect<NewAction>(
        operation: .endLifetime(identity: identity, exceptOccupant: occupant))
    case .retainLifetimes(let isAlive):
      return Effect<NewAction>(operation: .retainLifetimes(isAlive: isAlive))
    case .dismiss:
      return Effect<NewAction>(operation: .dismiss)
    case .sendWhileThere(let action):
      return Effect<NewAction>(operation: .sendWhileThere(transform(action)))
    case .warning(let message, let site, let kind):
      return Effect<NewAction>(operation: .warning(message: message, site: site, kind: kind))
    case .outlivingSendersTask(let effect):
      return Effect<NewAction>(operation: .outlivingSendersTask(effect.map(transform)))
    case .throttle(let throttle, let effect):
      return Effect<NewAction>(
        operation: .throttle(
          Effect<NewAction>.Throttle(
            id: throttle.id,
            interval: throttle.interval,
            clock: throttle.clock,
            latest: throttle.latest,
            site: throttle.site
          ),
          effect.map(transform)
        )
      )
    }
  }
}
