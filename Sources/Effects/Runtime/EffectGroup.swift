/// The effects started on behalf of one action sent to a store, awaited or cancelled together.
///
/// A group counts its member records. It is empty once they have all finished; effects that
/// their fed-back actions start join the same group, so awaiting a group waits for the whole
/// chain an action set off. A concatenation uses a private group per part to learn when the
/// part is done.
@usableFromInline
package final class EffectGroup: Sendable {
  private struct State {
    var members: [Int: EffectRecord] = [:]
    /// Whether any record ever joined: a group made before its action was reduced (one sent
    /// while the store was busy) may end up with none.
    var hasHadMembers = false
    var isCancelled = false
    /// Whether a member ended the concatenation this group is a part of (see
    /// ``endSequence()``).
    var endsSequence = false
    /// Whether the store that ran the members is gone: nobody reports their completion.
    var isAbandoned = false
    /// The tasks waiting for the group to be empty, by a number of each wait's own.
    var waiters: [Int: UnsafeContinuation<Void, Never>] = [:]
    var nextWaiter = 0
    /// Waits whose task was cancelled before they began to wait.
    var cancelledWaits: Set<Int> = []
    var onEmpty: (@MainActor @Sendable () -> Void)?
  }
  private let state = Locked(State())
  private let parent: EffectGroup?

  /// Creates a group. A group with a `parent` routes feedback to the parent's root.
  @usableFromInline
  package init(parent: EffectGroup? = nil) {
    self.parent = parent
  }

  /// The top-level group that fed-back actions join.
  package var root: EffectGroup {
    parent?.root ?? self
  }

  /// Whether no member is running.
  package var isEmpty: Bool {
    state.withLock { $0.members.isEmpty }
  }

  /// Whether the group was cancelled.
  package var isCancelled: Bool {
    state.withLock { $0.isCancelled }
  }

  /// Whether any record ever joined the group.
  package var hasHadMembers: Bool {
    state.withLock { $0.hasHadMembers }
  }

  /// The records still running, in start order.
  package var running: [EffectRecord] {
    state.withLock { $0.members.values.sorted { $0.id < $1.id } }
  }

  /// Adds a running record. A record added to a cancelled group is cancelled at once.
  package func add(_ record: EffectRecord) {
    let cancelled = state.withLock { state in
      state.members[record.id] = record
      state.hasHadMembers = true
      return state.isCancelled
    }
    if cancelled { record.cancel() }
  }

  /// Marks the group, a part of a concatenation, as ending it: when the group is empty, the
  /// parts after it do not run. A debounce's wait whose clock threw ends so, rather than run
  /// its work without the wait.
  package func endSequence() {
    state.withLock { $0.endsSequence = true }
  }

  /// Whether a member ended the concatenation this group is a part of.
  package var endsSequence: Bool {
    state.withLock { $0.endsSequence }
  }

  /// Runs `action` on the main actor once the group is empty.
  ///
  /// Used by concatenation to start its next part; set at most once, while non-empty.
  package func whenEmpty(_ action: @escaping @MainActor @Sendable () -> Void) {
    state.withLock { $0.onEmpty = action }
  }

  /// Removes a finished record, waking waiters and running the empty handler when it was the
  /// last one.
  @MainActor
  package func remove(_ record: EffectRecord) {
    let (waiters, onEmpty) = state.withLock {
      state -> ([UnsafeContinuation<Void, Never>], (@MainActor @Sendable () -> Void)?) in
      guard state.members.removeValue(forKey: record.id) != nil, state.members.isEmpty else {
        return ([], nil)
      }
      defer {
        state.waiters = [:]
        state.onEmpty = nil
      }
      return (Array(state.waiters.values), state.onEmpty)
    }
    for waiter in waiters { waiter.resume() }
    onEmpty?()
  }

  /// Cancels every member, and every record added later. Waiters wait on, until the members
  /// have wound down.
  ///
  /// Members are cancelled oldest first (a concatenation's running part with its driver), as
  /// wherever effects are cancelled together: the order their tasks wake in must not depend on
  /// a hash seed (a test store runs them in that order).
  package func cancel() {
    let members = state.withLock { state -> [EffectRecord] in
      state.isCancelled = true
      return state.members.values.sorted { $0.id < $1.id }
    }
    for member in members { member.cancel() }
  }

  /// Ends the group for good, when the store that ran its effects is gone: cancels its
  /// members, forgets them (nobody will report their completion any more) and wakes waiters.
  /// The group counts as cancelled and empty from then on.
  package func abandon() {
    let (members, waiters) = state.withLock {
      state -> ([EffectRecord], [UnsafeContinuation<Void, Never>]) in
      state.isCancelled = true
      state.isAbandoned = true
      defer {
        state.members = [:]
        state.waiters = [:]
        state.onEmpty = nil
      }
      return (state.members.values.sorted { $0.id < $1.id }, Array(state.waiters.values))
    }
    for member in members { member.cancel() }
    for waiter in waiters { waiter.resume() }
  }

  /// Suspends until the group is empty: its members finished, or, once cancelled, wound
  /// down. The calling task's cancellation cancels the group and returns at once, without
  /// waiting for them (other waiters wait on).
  package func wait() async {
    let wait = state.withLock { state in
      state.nextWaiter += 1
      return state.nextWaiter
    }
    await withTaskCancellationHandler {
      await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
        let done = state.withLock { state in
          if state.members.isEmpty || state.isAbandoned
            || state.cancelledWaits.remove(wait) != nil
          {
            return true
          }
          state.waiters[wait] = continuation
          return false
        }
        if done { continuation.resume() }
      }
    } onCancel: {
      cancel()
      // This wait ends now; if it has not begun, it ends as it begins.
      let waiter = state.withLock { state in
        guard let waiter = state.waiters.removeValue(forKey: wait) else {
          state.cancelledWaits.insert(wait)
          return UnsafeContinuation<Void, Never>?.none
        }
        return waiter
      }
      waiter?.resume()
    }
    // A cancellation that came as the wait ended found no waiter, and left its mark.
    state.withLock { _ = $0.cancelledWaits.remove(wait) }
  }
}
