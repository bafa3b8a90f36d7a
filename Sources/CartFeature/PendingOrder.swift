import Foundation

/// An order the cart submitted and has no answer for yet.
///
/// The checkout service may have received it even when the cart stopped waiting (the screen
/// went away) or could not hear back (``CheckoutError/serviceUnavailable``). So the cart keeps
/// it until it hears a definite answer, and checking out the same items again submits them
/// under the same ``key``: a service that places each key's order once then answers with the
/// first order's outcome instead of placing a second.
public struct PendingOrder: Equatable, Hashable, Sendable, Codable {
  /// The key the service knows the order by, made by the cart when the order starts.
  public var key: UUID
  /// The items submitted, as they were then.
  public var items: [CartItem]

  /// Creates a pending order.
  ///
  /// - Parameters:
  ///   - key: The key the service knows the order by.
  ///   - items: The items submitted.
  public init(key: UUID, items: [CartItem]) {
    self.key = key
    self.items = items
  }
}
