import Effects
import Store

/// Edits one cart item in place: its quantity and its note; and asks the cart to remove it.
///
/// Its state *is* the ``CartItem``. The cart runs it with `forEach` on ``Cart/State/items``,
/// so each item has one store, keyed by its id, and both the item's row in the list and the
/// item editor screen pushed for it use that same store. An edit made on the editor screen
/// changes `items[id:]` itself, and the list shows it at once: there is no copy to sync back.
///
/// A quantity change that would leave ``CartItem/quantityRange`` is refused: the item is
/// unchanged, a held stepper stops repeating, and ``Action/Delegate/quantityRefused`` tells
/// the cart, which explains it. Steps that would overflow `Int` are refused the same way,
/// never trapped.
///
/// Holding the stepper repeats the step every ``repeatInterval`` on the injected clock until
/// ``Action/stepperReleased`` (or until the view cancels the handle `send` returned for
/// ``Action/stepperHeld(step:)``). The repeat belongs to the item: removing the item cancels
/// it, and two rows held at once do not cancel each other.
public struct ItemEditor: Reducer {
  /// The state: the item itself, where it lives in the cart.
  public typealias State = CartItem

  /// What the user can do to an item, and what the item tells the cart.
  public enum Action: Equatable, Sendable, Codable {
    /// The stepper was tapped: change the quantity by `by` (+1 or -1).
    case quantityStepped(by: Int)
    /// A quantity was typed in.
    case quantityEntered(Int)
    /// The stepper is being held: repeat `step` until it is released.
    case stepperHeld(step: Int)
    /// The held stepper was released.
    case stepperReleased
    /// The note was edited.
    case noteChanged(String)
    /// The user asked to remove the item.
    case removeTapped
    /// What the item tells the cart.
    case delegate(Delegate)

    /// The item's reports to the cart, which acts on them.
    public enum Delegate: Equatable, Sendable, Codable {
      /// A quantity change was refused: it would have left ``CartItem/quantityRange``.
      case quantityRefused
      /// The user asked to remove the item.
      case removeRequested
    }
  }

  /// How often a held stepper repeats its step.
  public static let repeatInterval: Duration = .milliseconds(150)

  enum CancelID: Hashable, Sendable {
    case autoRepeat
  }

  let clock: any Clock<Duration>

  /// Creates the reducer.
  ///
  /// - Parameter clock: The clock a held stepper repeats on.
  public init(clock: any Clock<Duration>) {
    self.clock = clock
  }

  /// Applies an edit to the item.
  ///
  /// - Parameters:
  ///   - state: The item.
  ///   - action: The edit.
  /// - Returns: The repeat of a held stepper, its cancellation, or a delegate action.
  public func reduce(into state: inout CartItem, action: Action) -> Effect<Action> {
    switch action {
    case .quantityStepped(let step):
      let (quantity, overflowed) = state.quantity.addingReportingOverflow(step)
      return setQuantity(overflowed ? nil : quantity, of: &state)

    case .quantityEntered(let quantity):
      return setQuantity(quantity, of: &state)

    case .stepperHeld(let step):
      return .run { [clock] send in
        while true {
          try await clock.sleep(for: Self.repeatInterval)
          send(.quantityStepped(by: step))
        }
      }
      .cancellable(id: CancelID.autoRepeat, cancelInFlight: true)

    case .stepperReleased:
      return .cancel(id: CancelID.autoRepeat)

    case .noteChanged(let note):
      state.note = note
      return .none

    case .removeTapped:
      return .send(.delegate(.removeRequested))

    case .delegate:
      return .none
    }
  }

  /// Sets the quantity if it is in range (`nil` stands for an overflow); otherwise refuses.
  private func setQuantity(_ quantity: Int?, of item: inout CartItem) -> Effect<Action> {
    guard let quantity, CartItem.quantityRange.contains(quantity) else {
      return .merge(.cancel(id: CancelID.autoRepeat), .send(.delegate(.quantityRefused)))
    }
    item.quantity = quantity
    return .none
  }
}
