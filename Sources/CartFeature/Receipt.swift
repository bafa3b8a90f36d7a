import Foundation

/// What a successful checkout bought: the confirmation the cart shows.
public struct Receipt: Equatable, Hashable, Sendable, Codable {
  /// The order's identity, as the checkout service gave it.
  public var id: UUID
  /// The items bought, as they were submitted.
  public var items: [CartItem]

  /// Creates a receipt.
  ///
  /// - Parameters:
  ///   - id: The order's identity.
  ///   - items: The items bought.
  public init(id: UUID, items: [CartItem]) {
    self.id = id
    self.items = items
  }

  /// The number of products bought, all items together: a line of no units or fewer (from a
  /// service in error) counts none, and a total past `Int.max` is `Int.max`.
  ///
  /// - Complexity: O(*n*) in the number of items.
  public var totalQuantity: Int {
    items.reduce(0) { total, item in
      guard item.quantity > 0 else { return total }
      let (sum, overflow) = total.addingReportingOverflow(item.quantity)
      return overflow ? .max : sum
    }
  }
}
