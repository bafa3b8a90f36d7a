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
  /// Submits the items as the order of key `orderKey` and returns the receipt, or throws why
  /// it failed.
  ///
  /// It must honour task cancellation: the cart cancels it when its screen goes away. That
  /// stops the wait, not a request the service already received, so the cart's next checkout
  /// submits under the same key (see ``Cart/State/pendingOrderKey``): the service should place
  /// one order per key, and answer a key it has seen with that order's outcome, whatever items
  /// come with it (the cart may have changed since; the receipt says what was bought).
  public var submit: @Sendable (_ items: [CartItem], _ orderKey: UUID) async throws -> Receipt

  /// Creates a client.
  ///
  /// - Parameter submit: Submits the items under the order key and returns the receipt.
  public init(
    submit: @escaping @Sendable (_ items: [CartItem], _ orderKey: UUID) async throws -> Receipt
  ) {
    self.submit = submit
  }
}

extension CheckoutClient {
  /// A simulated service: accepts every order as it receives it, and answers after `delay`
  /// on `clock`.
  ///
  /// The answer's wait is a cancellable sleep on the injected clock, so the simulation behaves
  /// like a request in flight: with a `TestClock`, the order stays in flight until the test
  /// advances the clock, and cancelling the checkout ends the wait at once. As with a real
  /// service, the order was placed all the same: the client remembers each order key it
  /// accepted, and answers a key it has seen with that order's receipt (after `delay` again)
  /// instead of placing another. It remembers every key for as long as it lives.
  ///
  /// - Parameters:
  ///   - clock: The clock to wait on.
  ///   - delay: How long the simulated request takes.
  ///   - makeID: Makes the receipt's id, once per order key.
  /// - Returns: A client that accepts every order, once per key, and answers after `delay`.
  public static func live(
    clock: any Clock<Duration>,
    delay: Duration = .seconds(1),
    makeID: UUIDGenerator = .live
  ) -> Self {
    let placed = Locked<[UUID: Receipt]>([:])
    return CheckoutClient { items, orderKey in
      let receipt = placed.withLock { placed in
        if let receipt = placed[orderKey] { return receipt }
        let receipt = Receipt(id: makeID(), items: items)
        placed[orderKey] = receipt
        return receipt
      }
      try await clock.sleep(for: delay)
      return receipt
    }
  }

  /// A client that accepts every order at once, with a receipt of id `receiptID`.
  ///
  /// - Parameter receiptID: The id of every receipt.
  /// - Returns: A client that always succeeds.
  public static func succeeding(receiptID: UUID) -> Self {
    CheckoutClient { items, _ in Receipt(id: receiptID, items: items) }
  }

  /// A client that refuses every order at once with `error`.
  ///
  /// - Parameter error: The error to throw, a ``CheckoutError`` or any other.
  /// - Returns: A client that always fails.
  public static func failing(with error: any Error & Sendable) -> Self {
    CheckoutClient { _, _ in throw error }
  }
}
