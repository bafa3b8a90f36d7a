extension Effect {
  /// This effect, run outside the task of the action that started it.
  ///
  /// `store.send(_:)` returns a task for the effects an action starts, and for the effects
  /// of every action they feed back, however long the chain; a screen ties its work to its
  /// own lifetime by awaiting that task, and cancelling it (the screen went away) cancels
  /// the whole chain. That is right for the screen's work, and wrong for work a parent
  /// starts in answer to what the screen's effects report: a save the parent starts when a
  /// child screen's timer ends a meeting would be cancelled when the child's screen is
  /// popped. Mark such work as the parent's own:
  ///
  /// ```swift
  /// case .path(.element(_, .delegate(.meetingEnded(let meeting)))):
  ///   state.meetings.append(meeting)
  ///   return .run { [meetings = state.meetings] _ in try await storage.save(meetings) }
  ///     .outlivingSendersTask()
  /// ```
  ///
  /// The effect still belongs to the lifetime of the feature that returned it (an element, a
  /// presented child: removing it cancels it), to the store's, and to its cancellation ids;
  /// only the sender's task neither waits for it nor cancels it, and the same goes for what
  /// the actions it feeds back start. A debounced or throttled effect marked this way waits
  /// outside the sender's task too. Mark the outermost effect: inside a concatenation, a
  /// marked part starts only once the parts before it are done, and those are the sender's
  /// (the sequence does not wait for the marked part, though). A screen's lifecycle hook
  /// ignores the mark: no button awaits a hook, and the next hook waits for the one before.
  ///
  /// - Returns: The effect, in a task of its own.
  /// - Complexity: O(1).
  public func outlivingSendersTask() -> Self {
    if isNone { return self }
    return Self(operation: .outlivingSendersTask(self))
  }
}

extension Effect {
  /// This effect with every ``outlivingSendersTask()`` mark taken off, at any depth: for
  /// work whose sender's task belongs to the library and waits for it, as the next of a
  /// screen's lifecycle hooks waits for the one before. Marked, a part of a sequence is not
  /// waited for.
  ///
  /// - Complexity: O(*n*) in the effect's parts; O(1) when it holds no mark.
  package func removingOutlivingMarks() -> Self {
    guard holdsOutlivingMark else { return self }
    switch operation {
    case .none, .send, .run, .cancel, .endLifetime, .retainLifetimes, .warning, .sendWhileThere,
      .dismiss:
      return self
    case .outlivingSendersTask(let effect):
      return effect.removingOutlivingMarks()
    case .merge(let effects):
      return Self(operation: .merge(effects.map { $0.removingOutlivingMarks() }))
    case .concatenate(let effects):
      return Self(operation: .concatenate(effects.map { $0.removingOutlivingMarks() }))
    case .cancellable(let id, let cancelInFlight, let effect):
      return Self(
        operation: .cancellable(
          id: id, cancelInFlight: cancelInFlight, effect.removingOutlivingMarks()))
    case .scoped(let identity, let token, let effect):
      return Self(
        operation: .scoped(identity: identity, token: token, effect.removingOutlivingMarks()))
    case .throttle(let throttle, let effect):
      return Self(operation: .throttle(throttle, effect.removingOutlivingMarks()))
    }
  }

  /// Whether the effect holds an ``outlivingSendersTask()`` mark, at any depth.
  private var holdsOutlivingMark: Bool {
    switch operation {
    case .outlivingSendersTask:
      true
    case .none, .send, .run, .cancel, .endLifetime, .retainLifetimes, .warning, .sendWhileThere,
      .dismiss:
      false
    case .merge(let effects), .concatenate(let effects):
      effects.contains { $0.holdsOutlivingMark }
    case .cancellable(_, _, let effect), .scoped(_, _, let effect), .throttle(_, let effect):
      effect.holdsOutlivingMark
    }
  }
}
