import CartFeature
import Effects
import Foundation
import Store
import StoreTesting
import Testing

extension CartItem {
  /// Two teas: room to step down once, and up to the limit.
  static let tea = CartItem(id: UUID(counting: 100), name: "Tea", quantity: 2)
  /// One milk, with a note.
  static let milk = CartItem(id: UUID(counting: 101), name: "Milk", note: "oat")
}

extension Cart.State {
  /// A cart holding ``CartItem/tea`` and ``CartItem/milk``.
  static let teaAndMilk = Cart.State(title: "Groceries", items: [.tea, .milk])
}

extension CheckoutClient {
  /// A client for tests that never check out: a call fails the test.
  static let unimplemented = CheckoutClient { _ in
    Issue.record("CheckoutClient.submit was called, but this test does not check out.")
    throw CheckoutError.serviceUnavailable
  }
}

/// The screen ids a cart's stack hands out, in push order.
func cartScreen(_ number: Int) -> StackElementID {
  StackElementID(rawValue: number)
}

/// A test store for the cart: new items get ids `…0000`, `…0001`, …; held steppers repeat on
/// `clock`; checkout must not happen unless the test passes a client.
@MainActor
func makeCartStore(
  _ state: Cart.State = .teaAndMilk,
  checkout: CheckoutClient = .unimplemented,
  clock: TestClock
) -> TestStoreOf<Cart> {
  TestStore(initialState: state) {
    Cart(checkout: checkout, makeID: .incrementing(), clock: clock)
  }
}

/// Records the orders a checkout client receives, so a test can count submissions.
final class SubmittedOrders: Sendable {
  private let orders = Locked<[[CartItem]]>([])

  /// Every order submitted so far, oldest first.
  var all: [[CartItem]] {
    orders.withLock { $0 }
  }

  /// A client that records each order, then hands it to `client`.
  func recording(_ client: CheckoutClient) -> CheckoutClient {
    CheckoutClient { items in
      self.orders.withLock { $0.append(items) }
      return try await client.submit(items)
    }
  }
}

/// An error that is not a `CheckoutError`, as a network layer might throw.
struct ConnectionLost: Error {}
