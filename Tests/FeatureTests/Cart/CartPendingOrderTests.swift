import CartFeature
import Effects
import Foundation
import Store
import StoreTesting
import Testing

/// An order without an answer keeps its key: leaving the screen mid-checkout, or losing the
/// answer, then checking out again submits under the same key, which the service places at
/// most once. A receipt, a refusal or a reset starts afresh.
@MainActor
@Suite struct CartPendingOrderTests {
  let clock = TestClock()
  let orders = SubmittedOrders()
  let firstKey = UUID(counting: 0)

  /// The simulated service, whose receipts count up from `…0000`: a second order placed
  /// would get `…0001`.
  var service: CheckoutClient {
    orders.recording(.live(clock: clock, delay: .seconds(1), makeID: .incrementing()))
  }

  @Test func checkingOutAgainAfterLeavingTheScreenDoesNotOrderTwice() async {
    let store = makeCartStore(checkout: service, clock: clock)
    await store.tapCheckout(startingOrder: firstKey)
    // The service has the order; the cart stops waiting for its answer.
    await store.send(.screenDisappeared) { $0.isCheckingOut = false }
    await clock.advance(by: .seconds(5))
    await store.tapCheckout(startingOrder: firstKey)
    await clock.advance(by: .seconds(1))
    // The first order's receipt: the service did not place a second.
    let receipt = Receipt(id: UUID(counting: 0), items: [.tea, .milk])
    await store.receive(.checkoutSucceeded(receipt)) {
      $0.isCheckingOut = false
      $0.pendingOrderKey = nil
      $0.items = []
      $0.alert = .checkoutSucceeded(receipt)
    }
    #expect(orders.keys == [firstKey, firstKey])
    await store.finish()
  }

  /// The cart changed after the first submission: the service, which had it, answers with
  /// the first order's receipt; the cart removes what was bought and keeps the tea added
  /// since, for a new order with a new key.
  @Test func aCartChangedSinceTheUnansweredOrderGetsThatOrdersReceipt() async {
    let store = makeCartStore(checkout: service, clock: clock)
    let tea = CartItem.tea.id
    await store.tapCheckout(startingOrder: firstKey)
    await store.send(.screenDisappeared) { $0.isCheckingOut = false }
    await store.send(.items(.element(id: tea, action: .quantityStepped(by: 1)))) {
      $0.items[id: tea]?.quantity = 3
    }
    await store.tapCheckout(startingOrder: firstKey)
    await clock.advance(by: .seconds(1))
    let receipt = Receipt(id: UUID(counting: 0), items: [.tea, .milk])
    await store.receive(.checkoutSucceeded(receipt)) {
      $0.isCheckingOut = false
      $0.pendingOrderKey = nil
      $0.items = [CartItem(id: tea, name: "Tea", quantity: 1)]
      $0.alert = .checkoutSucceeded(receipt)
    }
    #expect(orders.all.map(\.first?.quantity) == [2, 3])
    await store.send(.alertDismissed) { $0.alert = nil }
    await store.tapCheckout(startingOrder: UUID(counting: 1))
    await store.send(.screenDisappeared) { $0.isCheckingOut = false }
    await store.finish()
  }

  /// The first request never arrived: the service places what the cart holds at the retry.
  @Test func aLostRequestIsPlacedWithWhatTheCartHoldsAtTheRetry() async {
    let attempts = Locked(0)
    let flaky = CheckoutClient { items, _ in
      let attempt = attempts.withLock { count in
        count += 1
        return count
      }
      if attempt == 1 { throw ConnectionLost() }
      return Receipt(id: UUID(counting: 0xCAFE), items: items)
    }
    let store = makeCartStore(checkout: orders.recording(flaky), clock: clock)
    let milk = CartItem.milk.id
    await store.tapCheckout(startingOrder: firstKey)
    await store.receive(.checkoutFailed(.serviceUnavailable)) {
      $0.isCheckingOut = false
      $0.alert = .checkoutFailed(.serviceUnavailable)
    }
    await store.send(.items(.element(id: milk, action: .removeTapped)))
    await store.receive(.items(.element(id: milk, action: .delegate(.removeRequested)))) {
      $0.items.remove(id: milk)
    }
    await store.tapCheckout(startingOrder: firstKey)
    let receipt = Receipt(id: UUID(counting: 0xCAFE), items: [.tea])
    await store.receive(.checkoutSucceeded(receipt)) {
      $0.isCheckingOut = false
      $0.pendingOrderKey = nil
      $0.items = []
      $0.alert = .checkoutSucceeded(receipt)
    }
    #expect(orders.keys == [firstKey, firstKey])
    await store.finish()
  }

  /// Unavailable, then declined under the same key: the refusal answers the order, so the
  /// next checkout is a new one.
  @Test func aRefusalOfTheRetryEndsTheOrder() async {
    let attempts = Locked(0)
    let client = CheckoutClient { _, _ in
      let attempt = attempts.withLock { count in
        count += 1
        return count
      }
      throw attempt == 1 ? CheckoutError.serviceUnavailable : .paymentDeclined
    }
    let store = makeCartStore(checkout: orders.recording(client), clock: clock)
    await store.tapCheckout(startingOrder: firstKey)
    await store.receive(.checkoutFailed(.serviceUnavailable)) {
      $0.isCheckingOut = false
      $0.alert = .checkoutFailed(.serviceUnavailable)
    }
    await store.tapCheckout(startingOrder: firstKey)
    await store.receive(.checkoutFailed(.paymentDeclined)) {
      $0.isCheckingOut = false
      $0.pendingOrderKey = nil
      $0.alert = .checkoutFailed(.paymentDeclined)
    }
    await store.tapCheckout(startingOrder: UUID(counting: 1))
    await store.receive(.checkoutFailed(.paymentDeclined)) {
      $0.isCheckingOut = false
      $0.pendingOrderKey = nil
      $0.alert = .checkoutFailed(.paymentDeclined)
    }
    #expect(orders.keys == [firstKey, firstKey, UUID(counting: 1)])
    await store.finish()
  }

  /// A reset empties the cart, so any later checkout is a new order anyway: forgetting the
  /// key keeps the last user's order out of the next user's state.
  @Test func aResetForgetsTheUnansweredOrder() async {
    let store = makeCartStore(checkout: service, clock: clock)
    await store.tapCheckout(startingOrder: firstKey)
    await store.send(.screenDisappeared) { $0.isCheckingOut = false }
    await store.send(.reset) {
      $0.pendingOrderKey = nil
      $0.title = "Cart"
      $0.items = []
    }
    await store.finish()
  }

  /// Sent on its own (a log written by hand), a start is ignored as a tap would be.
  @Test func aStartWhileInFlightOrWithAnEmptyCartIsIgnored() async {
    let empty = makeCartStore(Cart.State(), clock: clock)
    await empty.send(.checkoutStarted(orderKey: firstKey))
    await empty.finish()

    let store = makeCartStore(checkout: service, clock: clock)
    await store.tapCheckout(startingOrder: firstKey)
    await store.send(.checkoutStarted(orderKey: UUID(counting: 7)))
    #expect(orders.keys == [firstKey])
    await store.send(.screenDisappeared) { $0.isCheckingOut = false }
    await store.finish()
  }
}
