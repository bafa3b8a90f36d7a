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
  private let deliver: @Sendable (Action) -> Void

  /// Creates a `Send` that hands each action to `deliver`.
  ///
  /// Stores create these for their effects; create one yourself to run an effect's operation
  /// outside a store, for example to collect what it sends.
  ///
  /// - Parameter deliver: Receives each action sent.
  public init(_ deliver: @escaping @Sendable (Action) -> Void) {
    self.deliver = deliver
  }

  /// Sends an action back into the store.
  ///
  /// - Parameter action: The action to send.
  public func callAsFunction(_ action: Action) {
    deliver(action)
  }

  /// A `Send` for a child's actions that embeds each one into this `Send`'s action type.
  ///
  /// - Parameter embed: Turns a child action into one of this `Send`'s actions.
  /// - Returns: A `Send` that accepts child actions.
  public func map<ChildAction: Sendable>(
    _ embed: @escaping @Sendable (ChildAction) -> Action
  ) -> Send<ChildAction> {
    Send<ChildAction> { self.deliver(embed($0)) }
  }
}
