/// A message the cart shows over its screens until the user dismisses it.
///
/// One optional value rather than a flag and a string per message: at most one shows at a
/// time, each carries the data it explains, and the text is derived, so it is never stored
/// twice or out of date.
public enum CartAlert: Equatable, Hashable, Sendable, Codable {
  /// A quantity change was refused because it would leave ``CartItem/quantityRange``.
  case quantityOutOfRange(itemName: String)
  /// The checkout failed; the cart is unchanged.
  case checkoutFailed(CheckoutError)
  /// The checkout succeeded: the confirmation, with what was bought.
  case checkoutSucceeded(Receipt)

  /// The text to show.
  public var message: String {
    switch self {
    case .quantityOutOfRange(let itemName):
      let range = CartItem.quantityRange
      return "The quantity of \(itemName) must stay between \(range.lowerBound) and "
        + "\(range.upperBound)."
    case .checkoutFailed(let error):
      return error.message
    case .checkoutSucceeded(let receipt):
      let count = receipt.totalQuantity
      return "Thank you! Your order of \(count) \(count == 1 ? "item" : "items") is confirmed."
    }
  }
}
