import Effects
import Foundation

/// Submits an order: the cart's one dependency on the outside world.
///
/// A struct of closures rather than a protocol, so each test builds exactly the behaviour it
/// needs in one expression. The cart receives it in its initializer, so a missing dependency
/// is a compile error, not a crash at runtime.
///
/// ```swift
/// let store = Store(initialState: Cart.State()) {
///   Cart(checkout: .live(clock: ContinuousClock()), makeID: .live, clock: ContinuousClock())
/// }
/// ```
public struct CheckoutClient: Sendable {
  /// Submits the items and returns the receipt, or throws why it failed.
  ///
  /// It must honour task cancellation: the cart cancels it when its screen goes away.
  public var submit: @Sendable (_ items: [CartItem]) async throws -> Receipt

  /// Creates a client.
  ///
  /// - Parameter submit: Submits the items and returns the receipt.
  public init(submit: @escaping @Sendable (_ items: [CartItem]) async throws -> Receipt) {
    self.submit = submit
  }
}

extension CheckoutClient {
  /// A simulated service: waits `delay` on `clock`, then accepts every order.
  ///
  /// The wait is a cancellable sleep on the injected clock, so the simulation behaves like a
  /// request in flight: with a `TestClock`, the order stays in flight until the test advances
  /// the clock, and cancelling the checkout ends it at once.
  ///
  /// - Parameters:
  ///   - clock: The clock to wait on.
  ///   - delay: How long the simulated request takes.
  ///   - makeID: Makes the receipt's id.
  /// - Returns: A client that accepts every order after `delay`.
  public static func live(
    clock: any Clock<Duration>,
    delay: Duration = .seconds(1),
    makeID: UUIDGenerator = .live
  ) -> Self {
    CheckoutClient { items in
      try await clock.sleep(for: delay)
      return Receipt(id: makeID(), items: items)
    }
  }

  /// A client that accepts every order at once, with a receipt of id `receiptID`.
  ///
  /// - Parameter receiptID: The id of every receipt.
  /// - Returns: A client that always succeeds.
  public static func succeeding(receiptID: UUID) -> Self {
    CheckoutClient { items in Receipt(id: receiptID, items: items) }
  }

  /// A client that refuses every order at once with `error`.
  ///
  /// - Parameter error: The error to throw, a ``CheckoutError`` or any other.
  /// - Returns: A client that always fails.
  public static func failing(with error: any Error & Sendable) -> Self {
    CheckoutClient { _ in throw error }
  }
}
