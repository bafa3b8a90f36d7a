import Effects

/// The effects started by one action sent to a store: await them, or cancel them.
///
/// ``Store/send(_:)`` returns one. A screen ties its work to its own lifetime by awaiting it
/// in the task that belongs to the screen; cancelling that task cancels the effects:
///
/// ```swift
/// // In the screen's task:
/// await store.send(.screenAppeared).finish()
/// ```
///
/// The task covers the effects the action started, and those started by actions that its
/// effects fed back, however long the chain, with one exception: a parent's answer to what a
/// child's running effect reports later. When a child's task (its timer, a stream it follows)
/// sends an action its parent handles, such as `.delegate(.finished)`, what the parent, or a
/// sibling, starts in answer is theirs, not the child's: a task that awaited the child's
/// action neither waits for it nor cancels it, so a save the parent starts survives the
/// child's screen going away. That work still ends with its own identity's lifetime, and with
/// the store. The child's own work stays in the task, even when the parent's answer starts it;
/// and what the action set off at once, before `send` returned (a parent's answer to a
/// `.send` of the child's included), is the sender's, all of it.
public struct StoreTask: Hashable, Sendable {
  package let group: EffectGroup?

  @usableFromInline
  package init(group: EffectGroup?) {
    self.group = group
  }

  /// Cancels the effects. Actions they send afterwards never reach a reducer.
  ///
  /// Safe to call from any thread, more than once.
  public func cancel() {
    group?.cancel()
  }

  /// Waits until the effects have finished.
  ///
  /// Returns at once when the action started no effect. Cancelling the task that awaits
  /// cancels the effects and returns without waiting for them to wind down.
  public func finish() async {
    await group?.wait()
  }

  /// Whether the effects were cancelled, through ``cancel()`` or the awaiting task.
  ///
  /// An action that started no effect has nothing to cancel, and reports `false`.
  public var isCancelled: Bool {
    group?.isCancelled ?? false
  }

  /// Whether any effect started by the action, or by the actions it fed back, is running.
  public var isRunning: Bool {
    !(group?.isEmpty ?? true)
  }

  /// Whether two handles stand for the same action's effects.
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.group === rhs.group
  }

  /// Hashes the handle's identity.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(group.map(ObjectIdentifier.init))
  }
}
