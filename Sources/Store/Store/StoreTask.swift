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
/// effects fed back, however long the chain: a parent's answer to what a child's effect
/// reports included. Work that must outlive the screen that set it off, such as a save the
/// parent starts when a child screen's timer ends a meeting, is marked
/// `Effect.outlivingSendersTask()`: the task neither waits for it nor cancels it, and it
/// still ends with its own feature's lifetime, and with the store.
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

  /// Waits until the effects have finished: after ``cancel()``, until they have wound down
  /// (an effect that ignores its cancellation keeps it waiting).
  ///
  /// Returns at once when the action started no effect. Cancelling the task that awaits
  /// cancels the effects and returns without waiting for them to wind down.
  public func finish() async {
    await group?.wait()
  }

  /// Whether the effects were cancelled: through ``cancel()`` or the awaiting task, or
  /// because the store that started them was released.
  ///
  /// An action that started no effect has nothing to cancel, and reports `false`. Effects
  /// that end with their identity (a row removed, a sheet dismissed, a screen popped) or by
  /// `Effect.cancel(id:)` do not make this `true`: the handle stays uncancelled, and
  /// ``isRunning`` turns `false` once they have wound down, as ``finish()`` returns.
  public var isCancelled: Bool {
    // A group is made up front for an action sent while the store was busy (queued behind
    // the one it reduces): the action may start nothing.
    guard let group, group.hasHadMembers else { return false }
    return group.isCancelled
  }

  /// Whether any effect started by the action, or by the actions it fed back, is running
  /// (work marked `Effect.outlivingSendersTask()` does not count).
  public var isRunning: Bool {
    !(group?.isEmpty ?? true)
  }

  /// Whether two handles stand for the same action's effects. The handles of actions that
  /// were reduced at once and started no effect are all equal: each stands for nothing to
  /// wait for or cancel, and any of them does what another would.
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.group === rhs.group
  }

  /// Hashes the handle's identity.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(group.map(ObjectIdentifier.init))
  }
}

extension StoreTask: CustomStringConvertible {
  /// What the handle's effects are doing, in a few words, as a failed expectation prints it:
  /// `StoreTask(running)`, `StoreTask(finished)`, `StoreTask(cancelled)` (with
  /// `, winding down` while cancelled effects still run), or `StoreTask(no effects)`.
  public var description: String {
    "StoreTask(\(state))"
  }

  /// The handle's state in words: for ``description``, and for a test store's task.
  package var state: String {
    switch (isCancelled, isRunning) {
    case (true, true): "cancelled, winding down"
    case (true, false): "cancelled"
    case (false, true): "running"
    case (false, false): group?.hasHadMembers == true ? "finished" : "no effects"
    }
  }
}
