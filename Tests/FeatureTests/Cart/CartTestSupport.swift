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
  static let unimplemented = CheckoutClient { _, _ in
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
  private let orders = Locked<[(items: [CartItem], key: UUID)]>([])

  /// The items of every order submitted so far, oldest first.
  var all: [[CartItem]] {
    orders.withLock { $0.map(\.items) }
  }

  /// The key of every order submitted so far, oldest first.
  var keys: [UUID] {
    orders.withLock { $0.map(\.key) }
  }

  /// A client that records each order, then hands it to `client`.
  func recording(_ client: CheckoutClient) -> CheckoutClient {
    CheckoutClient { items, key in
      self.orders.withLock { $0.append((items, key)) }
      return try await client.submit(items, key)
    }
  }
}

extension TestStore where State == Cart.State, Action == Cart.Action {
  /// Taps Checkout, and receives the order's start under `key`: the checkout is in flight,
  /// and `key` is the pending order's.
  func tapCheckout(
    startingOrder key: UUID,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    await send(.checkoutTapped, fileID: fileID, filePath: filePath, line: line, column: column)
    await receive(
      .checkoutStarted(orderKey: key),
      assert: {
        $0.isCheckingOut = true
        $0.pendingOrderKey = key
        $0.alert = nil
      },
      fileID: fileID, filePath: filePath, line: line, column: column)
  }
}

/// An error that is not a `CheckoutError`, as a network layer might throw.
struct ConnectionLost: Error {}
