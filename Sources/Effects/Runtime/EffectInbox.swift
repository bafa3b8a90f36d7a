/// The queue through which running effects report to their store: actions they send, and
/// their completion.
///
/// Effects push from any thread; the store drains on the main actor, in push order. Each push
/// calls the wake handler when the inbox goes from empty to non-empty, so a live store
/// schedules one drain per burst rather than one per action.
package final class EffectInbox<Action: Sendable>: Sendable {
  package enum Event: Sendable {
    case action(Action, EffectRecord)
    /// The action a `catch:` made of the error the effect threw, or one its handler sent
    /// (`catch: { error, send in ... }`): dropped like any other if the effect is cancelled
    /// before it reaches a reducer, but with a runtime warning naming the error, which would
    /// otherwise be lost.
    case caught(Action, any Error, EffectRecord)
    case finished(EffectRecord, (any Error)?)
  }

  private struct State {
    /// The queued events from `head` on; those before it were taken.
    var events: [Event] = []
    var head = 0
    var wake: (@Sendable () -> Void)?
    /// Whether a drain is due: woken for, and not yet found the inbox empty.
    var isDrainDue = false
    /// Set once the store is gone: what effects push from then on goes here, not to the queue.
    var afterClose: (@Sendable (Event) -> Void)?
  }
  private let state = Locked(State())

  package init() {}

  /// Sets the handler called when an event arrives in an empty inbox.
  package func onWake(_ wake: @escaping @Sendable () -> Void) {
    state.withLock { $0.wake = wake }
  }

  /// Queues an event; once the inbox is closed, hands it to the closing handler instead.
  package func push(_ event: Event) {
    let (wake, afterClose) = state.withLock {
      state -> ((@Sendable () -> Void)?, (@Sendable (Event) -> Void)?) in
      if let afterClose = state.afterClose { return (nil, afterClose) }
      state.events.append(event)
      // One wake until a drain empties the inbox: a drain that leaves events queued asks for
      // the next one itself.
      guard !state.isDrainDue, let wake = state.wake else { return (nil, nil) }
      state.isDrainDue = true
      return (wake, nil)
    }
    afterClose?(event)
    wake?()
  }

  /// Removes and returns the oldest queued events, up to `limit` of them, oldest first, and
  /// whether events are left. While some are, no push wakes the inbox: the caller drains
  /// again.
  ///
  /// - Complexity: O(*k*) amortized for the *k* events returned.
  package func take(upTo limit: Int = .max) -> (events: [Event], more: Bool) {
    state.withLock { state in
      let end = state.head + min(limit, state.events.count - state.head)
      let taken = Array(state.events[state.head..<end])
      state.head = end
      if state.head == state.events.count {
        state.events.removeAll(keepingCapacity: state.events.capacity <= 4_096)
        state.head = 0
        state.isDrainDue = false
        return (taken, false)
      }
      if state.head >= 4_096 && state.head * 2 >= state.events.count {
        state.events.removeFirst(state.head)
        state.head = 0
      }
      return (taken, true)
    }
  }

  /// Closes the inbox, for a store that is gone: nobody drains it any more. Each event
  /// queued and not taken, then each event pushed from now on, goes to `handle` instead, on
  /// the thread that closes or pushes.
  package func close(handlingLate handle: @escaping @Sendable (Event) -> Void) {
    let queued = state.withLock { state -> [Event] in
      state.afterClose = handle
      state.wake = nil
      defer {
        state.events.removeAll()
        state.head = 0
      }
      return Array(state.events[state.head...])
    }
    for event in queued { handle(event) }
  }

  /// Whether no event is queued.
  package var isEmpty: Bool {
    state.withLock { $0.head == $0.events.count }
  }
}
