/// Feeds actions from a running effect back into the store that started it.
///
/// An effect built with `Effect.run(priority:fileID:line:operation:catch:)` is handed a `Send`.
/// Calling it is cheap and never blocks: the action is queued, and the store reduces it on the
/// main actor in the order it was sent. Once the effect's lifetime has ended (it was cancelled,
/// its element was removed, or its store was released), sent actions are dropped and never
/// reach a reducer.
///
/// ```swift
/// return .run { send in
///   for await name in client.displayNameChanges() {
///     send(.displayNameChanged(name))
///   }
/// }
/// ```
public struct Send<Action: Sendable>: Sendable {
  /// Hands an action on, with the error it answers when it was sent by an effect's
  /// `catch: { error, send in ... }` handler (`nil` for the rest), so that the runtime can
  /// report that error if the action is dropped.
  private let deliver: @Sendable (Action, (any Error)?) -> Void

  /// Creates a `Send` that hands each action to `deliver`.
  ///
  /// Stores create these for their effects; create one yourself to run an effect's operation
  /// outside a store, for example to collect what it sends.
  ///
  /// - Parameter deliver: Receives each action sent.
  public init(_ deliver: @escaping @Sendable (Action) -> Void) {
    self.deliver = { action, _ in deliver(action) }
  }

  /// Creates a `Send` that hands each action to `deliver`, with the error it answers when
  /// sent through a `Send` made by ``caught(_:)``.
  package init(reporting deliver: @escaping @Sendable (Action, (any Error)?) -> Void) {
    self.deliver = deliver
  }

  /// This `Send`, for the handler of an effect's `catch:`: each action it sends answers
  /// `error`, which the runtime names in a warning if the action is dropped (its effect
  /// cancelled before the action reached a reducer), as it does for the action the other
  /// `catch:` returns.
  package func caught(_ error: any Error) -> Send {
    Send(reporting: { action, _ in self.deliver(action, error) })
  }

  /// Sends an action back into the store.
  ///
  /// - Parameter action: The action to send.
  public func callAsFunction(_ action: Action) {
    deliver(action, nil)
  }

  /// A `Send` for a child's actions that embeds each one into this `Send`'s action type.
  ///
  /// - Parameter embed: Turns a child action into one of this `Send`'s actions.
  /// - Returns: A `Send` that accepts child actions.
  public func map<ChildAction: Sendable>(
    _ embed: @escaping @Sendable (ChildAction) -> Action
  ) -> Send<ChildAction> {
    Send<ChildAction>(reporting: { self.deliver(embed($0), $1) })
  }
}
