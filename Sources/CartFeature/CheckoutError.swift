/// Why a checkout failed, in terms the cart can explain to the user.
///
/// ``CheckoutClient/submit`` may throw any error; the cart turns the ones that are not a
/// `CheckoutError` into ``serviceUnavailable``, so what reaches state (and the action log) is
/// always one of these cases.
public enum CheckoutError: Error, Equatable, Hashable, Sendable, Codable {
  /// The payment was declined.
  case paymentDeclined
  /// An item can no longer be bought.
  case itemUnavailable(name: String)
  /// The service could not be reached, or failed in a way the cart cannot explain.
  case serviceUnavailable

  /// Classifies any error a checkout client threw.
  ///
  /// - Parameter error: The error thrown.
  public init(_ error: any Error) {
    self = error as? CheckoutError ?? .serviceUnavailable
  }

  /// A sentence to show the user.
  public var message: String {
    switch self {
    case .paymentDeclined:
      "Your payment was declined. Your cart is unchanged."
    case .itemUnavailable(let name):
      "\(name) is no longer available. Your cart is unchanged."
    case .serviceUnavailable:
      "Checkout is unavailable right now. Your cart is unchanged; please try again."
    }
  }
}
