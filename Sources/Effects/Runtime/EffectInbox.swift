/// The queue through which running effects report to their store: actions they send, and
/// their completion.
///
/// Effects push from any thread; the store drains on the main actor, in push order. Each push
/// calls the wake handler when the inbox goes from empty to non-empty, so a live store
/// schedules one drain per burst rather than one per action.
package final class EffectInbox<Action: Sendable>: Sendable {
  package enum Event: Sendable {
    case action(Action, EffectRecord)
    case finished(EffectRecord, (any Error)?)
  }

  private struct State {
    var events: [Event] = []
    var wake: (@Sendable () -> Void)?
  }
  private let state = Locked(State())

  package init() {}

  /// Sets the handler called when an event arrives in an empty inbox.
  package func onWake(_ wake: @escaping @Sendable () -> Void) {
    state.withLock { $0.wake = wake }
  }

  /// Queues an event.
  package func push(_ event: Event) {
    let wake = state.withLock { state -> (@Sendable () -> Void)? in
      state.events.append(event)
      return state.events.count == 1 ? state.wake : nil
    }
    wake?()
  }

  /// Removes and returns every queued event, oldest first.
  package func takeAll() -> [Event] {
    state.withLock { state in
      defer { state.events = [] }
      return state.events
    }
  }

  /// Whether no event is queued.
  package var isEmpty: Bool {
    state.withLock { $0.events.isEmpty }
  }
}
