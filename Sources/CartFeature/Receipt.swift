import Foundation

/// What a successful checkout bought: the confirmation the cart shows.
public struct Receipt: Equatable, Hashable, Sendable, Codable {
  /// The order's identity, as the checkout service gave it.
  public var id: UUID
  /// The items bought, as the service lists them: a line's quantity is whatever the service
  /// says, in ``CartItem/quantityRange`` or not (see ``Cart/Action/checkoutSucceeded(_:)``).
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
    items.reduce(0) { Self.adding($1.quantity, to: $0) }
  }

  /// The units bought of each item the receipt bought any of, counted as ``totalQuantity``
  /// counts them.
  ///
  /// - Complexity: O(*n*) in the number of items.
  var unitsBought: [CartItem.ID: Int] {
    var bought: [CartItem.ID: Int] = [:]
    for item in items where item.quantity > 0 {
      bought[item.id] = Self.adding(item.quantity, to: bought[item.id] ?? 0)
    }
    return bought
  }

  /// `total` with a line's `quantity` added: none when it is 0 or less, and `Int.max` past it.
  /// The cart's ``Cart/State/totalQuantity`` counts its items so too.
  static func adding(_ quantity: Int, to total: Int) -> Int {
    guard quantity > 0 else { return total }
    let (sum, overflow) = total.addingReportingOverflow(quantity)
    return overflow ? .max : sum
  }
}
