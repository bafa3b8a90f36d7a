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
  /// (the sequence does not wait for the marked part, though).
  ///
  /// - Returns: The effect, in a task of its own.
  /// - Complexity: O(1).
  public func outlivingSendersTask() -> Self {
    if isNone { return self }
    return Self(operation: .outlivingSendersTask(self))
  }
}
