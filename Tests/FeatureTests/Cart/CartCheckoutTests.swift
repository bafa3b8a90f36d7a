import CartFeature
import Effects
import Foundation
import Store
import StoreTesting
import Testing

/// Checkout as a command: one request in flight at a time, cancelled when the screen goes
/// away; success empties the cart and confirms, failure keeps the cart and explains. (An
/// order without an answer keeps its key: `CartPendingOrderTests`.)
@MainActor
@Suite struct CartCheckoutTests {
  let clock = TestClock()
  let orders = SubmittedOrders()
  let receiptID = UUID(counting: 0xCAFE)
  /// The key of the first order a test's cart starts: its id generator's first id.
  let firstKey = UUID(counting: 0)

  /// The simulated service, answering after one second of the test clock.
  var liveCheckout: CheckoutClient {
    orders.recording(.live(clock: clock, delay: .seconds(1), makeID: .constant(receiptID)))
  }

  @Test func checkoutSubmitsTheItemsEmptiesTheCartAndConfirms() async {
    let store = makeCartStore(checkout: liveCheckout, clock: clock)
    await store.tapCheckout(startingOrder: firstKey)
    #expect(orders.all == [[.tea, .milk]])
    #expect(orders.keys == [firstKey])
    await clock.advance(by: .seconds(1))
    let receipt = Receipt(id: receiptID, items: [.tea, .milk])
    await store.receive(.checkoutSucceeded(receipt)) {
      $0.isCheckingOut = false
      $0.pendingOrderKey = nil
      $0.items = []
      $0.alert = .checkoutSucceeded(receipt)
    }
    #expect(store.state.alert?.message == "Thank you! Your order of 3 items is confirmed.")
    await store.send(.alertDismissed) { $0.alert = nil }
    await store.finish()
  }

  /// A refusal is a definite answer: the order is no longer pending. An unavailable service
  /// is not: it may have received the order, so the cart keeps its key.
  @Test(arguments: [
    (CheckoutError.paymentDeclined, false), (.itemUnavailable(name: "Tea"), false),
    (.serviceUnavailable, true),
  ])
  func aFailedCheckoutKeepsTheCartAndExplains(error: CheckoutError, keepsOrder: Bool) async {
    let store = makeCartStore(checkout: .failing(with: error), clock: clock)
    await store.tapCheckout(startingOrder: firstKey)
    await store.receive(.checkoutFailed(error)) {
      $0.isCheckingOut = false
      if !keepsOrder { $0.pendingOrderKey = nil }
      $0.alert = .checkoutFailed(error)
    }
    #expect(store.state.items == [.tea, .milk])
    #expect(store.state.alert?.message.contains("Your cart is unchanged") == true)
    await store.finish()
  }

  @Test func anErrorTheCartCannotExplainIsReportedAsServiceUnavailable() async {
    let store = makeCartStore(checkout: .failing(with: ConnectionLost()), clock: clock)
    await store.tapCheckout(startingOrder: firstKey)
    await store.receive(.checkoutFailed(.serviceUnavailable)) {
      $0.isCheckingOut = false
      $0.alert = .checkoutFailed(.serviceUnavailable)
    }
    await store.finish()
  }

  /// A declined order was answered: retrying is a new order, with a new key.
  @Test func retryingAfterAFailureClearsTheErrorWhileInFlight() async {
    let store = makeCartStore(checkout: .failing(with: CheckoutError.paymentDeclined), clock: clock)
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
    await store.finish()
  }

  @Test func unitsAddedWhileTheCheckoutIsInFlightStayInTheCart() async {
    let store = makeCartStore(checkout: liveCheckout, clock: clock)
    await store.tapCheckout(startingOrder: firstKey)
    // Two teas were submitted; a third is added before the receipt comes back.
    await store.send(.items(.element(id: CartItem.tea.id, action: .quantityStepped(by: 1)))) {
      $0.items[id: CartItem.tea.id]?.quantity = 3
    }
    await clock.advance(by: .seconds(1))
    let receipt = Receipt(id: receiptID, items: [.tea, .milk])
    await store.receive(.checkoutSucceeded(receipt)) {
      $0.isCheckingOut = false
      var tea = CartItem.tea
      tea.quantity = 1
      $0.pendingOrderKey = nil
      $0.items = [tea]
      $0.alert = .checkoutSucceeded(receipt)
    }
    await store.finish()
  }

  @Test func aSecondTapWhileInFlightDoesNotSubmitTwice() async {
    let store = makeCartStore(checkout: liveCheckout, clock: clock)
    await store.tapCheckout(startingOrder: firstKey)
    await store.send(.checkoutTapped)
    await clock.advance(by: .milliseconds(500))
    await store.send(.checkoutTapped)
    #expect(orders.all.count == 1)
    await clock.advance(by: .milliseconds(500))
    let receipt = Receipt(id: receiptID, items: [.tea, .milk])
    await store.receive(.checkoutSucceeded(receipt)) {
      $0.isCheckingOut = false
      $0.pendingOrderKey = nil
      $0.items = []
      $0.alert = .checkoutSucceeded(receipt)
    }
    await store.finish()
  }

  @Test func leavingTheScreenCancelsTheCheckoutInFlight() async {
    let store = makeCartStore(checkout: liveCheckout, clock: clock)
    await store.tapCheckout(startingOrder: firstKey)
    #expect(clock.sleeperCount == 1)
    await store.send(.screenDisappeared) { $0.isCheckingOut = false }
    #expect(clock.sleeperCount == 0)
    // The answer never comes: a cancelled effect's actions never reach the reducer.
    await clock.advance(by: .seconds(5))
    #expect(store.state.items == [.tea, .milk])
    await store.finish()
  }

  @Test func leavingTheScreenWithNothingInFlightChangesNothing() async {
    let store = makeCartStore(clock: clock)
    await store.send(.screenDisappeared)
    await store.finish()
  }

  @Test func anEmptyCartDoesNotCheckOut() async {
    let store = makeCartStore(Cart.State(), clock: clock)
    await store.send(.checkoutTapped)
    await store.finish()
  }

  @Test func anItemAddedDuringCheckoutStaysInTheCart() async {
    let store = makeCartStore(checkout: liveCheckout, clock: clock)
    await store.tapCheckout(startingOrder: firstKey)
    let bread = CartItem(id: UUID(counting: 1), name: "Bread")
    await store.send(.addItemTapped(name: "Bread"))
    await store.receive(.itemAdded(bread)) { $0.items.append(bread) }
    await clock.advance(by: .seconds(1))
    let receipt = Receipt(id: receiptID, items: [.tea, .milk])
    await store.receive(.checkoutSucceeded(receipt)) {
      $0.isCheckingOut = false
      $0.pendingOrderKey = nil
      $0.items = [bread]
      $0.alert = .checkoutSucceeded(receipt)
    }
    await store.finish()
  }

  @Test func aCheckoutThatSucceedsPopsTheEditorsOfTheItemsBought() async {
    let store = makeCartStore(checkout: liveCheckout, clock: clock)
    await store.send(.rowTapped(CartItem.tea.id)) { $0.path.append(.itemEditor(CartItem.tea.id)) }
    await store.tapCheckout(startingOrder: firstKey)
    await clock.advance(by: .seconds(1))
    let receipt = Receipt(id: receiptID, items: [.tea, .milk])
    await store.receive(.checkoutSucceeded(receipt)) {
      $0.isCheckingOut = false
      $0.pendingOrderKey = nil
      $0.items = []
      $0.path.removeAll()
      $0.alert = .checkoutSucceeded(receipt)
    }
    await store.finish()
  }

  /// What was bought comes off what is in the cart now: an item stepped down below what was
  /// bought, or removed, while the order was in flight, leaves nothing behind.
  @Test func itemsSteppedDownOrRemovedDuringCheckoutEndRight() async {
    let store = makeCartStore(checkout: liveCheckout, clock: clock)
    let (tea, milk) = (CartItem.tea.id, CartItem.milk.id)
    await store.tapCheckout(startingOrder: firstKey)
    await store.send(.items(.element(id: tea, action: .quantityStepped(by: -1)))) {
      $0.items[id: tea]?.quantity = 1
    }
    await store.send(.items(.element(id: milk, action: .removeTapped)))
    await store.receive(.items(.element(id: milk, action: .delegate(.removeRequested)))) {
      $0.items.remove(id: milk)
    }
    await clock.advance(by: .seconds(1))
    let receipt = Receipt(id: receiptID, items: [.tea, .milk])
    await store.receive(.checkoutSucceeded(receipt)) {
      $0.isCheckingOut = false
      $0.pendingOrderKey = nil
      $0.items = []
      $0.alert = .checkoutSucceeded(receipt)
    }
    await store.finish()
  }

  /// A reset with everything open: the sheet closes, the screens pop, a held stepper and the
  /// checkout stop, and the title goes back to the default.
  @Test func aResetWithTheSheetOpenAScreenPushedAndAStepperHeldEndsAll() async {
    let store = makeCartStore(checkout: liveCheckout, clock: clock)
    let tea = CartItem.tea.id
    await store.send(.rowTapped(tea)) { $0.path.append(.itemEditor(tea)) }
    await store.send(.items(.element(id: tea, action: .stepperHeld(step: 1))))
    await store.send(.editTitleTapped) { $0.titleEditor = TitleEditor.State(title: "Groceries") }
    await store.tapCheckout(startingOrder: firstKey)
    #expect(clock.sleeperCount == 2)
    await store.send(.reset) {
      $0.isCheckingOut = false
      $0.pendingOrderKey = nil
      $0.titleEditor = nil
      $0.title = "Cart"
      $0.items = []
      $0.path.removeAll()
    }
    #expect(clock.sleeperCount == 0)
    await clock.advance(by: .seconds(5))
    #expect(orders.all.count == 1)
    await store.finish()
  }
}
