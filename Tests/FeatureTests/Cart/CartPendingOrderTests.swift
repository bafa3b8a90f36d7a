import CartFeature
import Effects
import Foundation
import Store
import StoreTesting
import Testing

/// An order without an answer keeps its key: leaving the screen mid-checkout, or losing the
/// answer, then tapping Checkout again submits the same order under the same key, which the
/// service places once. A changed cart, a refusal or a reset starts afresh.
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

  @Test func tappingAgainAfterLeavingTheScreenSubmitsTheSameOrderOnce() async {
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
      $0.pendingOrder = nil
      $0.items = []
      $0.alert = .checkoutSucceeded(receipt)
    }
    #expect(orders.keys == [firstKey, firstKey])
    await store.finish()
  }

  @Test func anUnansweredOrderIsRetriedUnderItsKey() async {
    let store = makeCartStore(
      checkout: orders.recording(.failing(with: ConnectionLost())), clock: clock)
    await store.tapCheckout(startingOrder: firstKey)
    await store.receive(.checkoutFailed(.serviceUnavailable)) {
      $0.isCheckingOut = false
      $0.alert = .checkoutFailed(.serviceUnavailable)
    }
    await store.tapCheckout(startingOrder: firstKey)
    await store.receive(.checkoutFailed(.serviceUnavailable)) {
      $0.isCheckingOut = false
      $0.alert = .checkoutFailed(.serviceUnavailable)
    }
    #expect(orders.keys == [firstKey, firstKey])
    await store.finish()
  }

  @Test func aCartChangedSinceTheUnansweredOrderIsANewOrder() async {
    let store = makeCartStore(checkout: service, clock: clock)
    let tea = CartItem.tea.id
    await store.tapCheckout(startingOrder: firstKey)
    await store.send(.screenDisappeared) { $0.isCheckingOut = false }
    await store.send(.items(.element(id: tea, action: .quantityStepped(by: 1)))) {
      $0.items[id: tea]?.quantity = 3
    }
    var moreTea = CartItem.tea
    moreTea.quantity = 3
    let secondKey = UUID(counting: 1)
    await store.tapCheckout(startingOrder: secondKey, of: [moreTea, .milk])
    await clock.advance(by: .seconds(1))
    let receipt = Receipt(id: UUID(counting: 1), items: [moreTea, .milk])
    await store.receive(.checkoutSucceeded(receipt)) {
      $0.isCheckingOut = false
      $0.pendingOrder = nil
      $0.items = []
      $0.alert = .checkoutSucceeded(receipt)
    }
    #expect(orders.keys == [firstKey, secondKey])
    await store.finish()
  }

  @Test func aResetForgetsTheUnansweredOrder() async {
    let store = makeCartStore(checkout: service, clock: clock)
    await store.tapCheckout(startingOrder: firstKey)
    await store.send(.screenDisappeared) { $0.isCheckingOut = false }
    await store.send(.reset) {
      $0.pendingOrder = nil
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
