import CartFeature
import Effects
import Foundation
import Store
import StoreTesting
import Testing

/// A checkout request is the cart's, not the tapping screen's, and a receipt only ever takes
/// units away.
@MainActor
@Suite struct CartCheckoutLifetimeTests {
  let clock = TestClock()
  let receiptID = UUID(counting: 0xCAFE)
  let firstKey = UUID(counting: 0)

  /// Cancelling the task `send` returned for the tap does not cancel the request: nothing
  /// would then clear `isCheckingOut`, and every later tap would be ignored.
  @Test func cancellingTheTapsTaskLeavesTheCheckoutToItsAnswer() async {
    let store = makeCartStore(
      checkout: .live(clock: clock, delay: .seconds(1), makeID: .constant(receiptID)),
      clock: clock)
    let tap = await store.send(.checkoutTapped)
    await store.receive(.checkoutStarted(orderKey: firstKey)) {
      $0.isCheckingOut = true
      $0.pendingOrderKey = self.firstKey
    }
    tap.cancel()
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

  /// The screen going away still ends the request, and clears the flag with it.
  @Test func theScreenGoingAwayStillCancelsTheRequest() async {
    let store = makeCartStore(
      checkout: .live(clock: clock, delay: .seconds(1), makeID: .constant(receiptID)),
      clock: clock)
    await store.tapCheckout(startingOrder: firstKey)
    await store.send(.screenDisappeared) { $0.isCheckingOut = false }
    await clock.advance(by: .seconds(5))
    await store.finish()
  }

  /// A receipt line of no units, or fewer, leaves its item as it was: the item at the top of
  /// the range (99) would otherwise have gone past it.
  @Test(arguments: [0, -5, Int.min])
  func aReceiptLineOfNoUnitsOrFewerChangesNothing(quantity: Int) async {
    let full = CartItem(id: CartItem.tea.id, name: "Tea", quantity: 99)
    let receipt = Receipt(
      id: receiptID,
      items: [CartItem(id: full.id, name: "Tea", quantity: quantity), .milk])
    let store = makeCartStore(
      Cart.State(title: "Groceries", items: [full, .milk]),
      checkout: CheckoutClient { _, _ in receipt }, clock: clock)
    await store.tapCheckout(startingOrder: firstKey)
    await store.receive(.checkoutSucceeded(receipt)) {
      $0.isCheckingOut = false
      $0.pendingOrderKey = nil
      $0.items = [full]
      $0.alert = .checkoutSucceeded(receipt)
    }
    await store.finish()
  }

  /// Lines that together buy more than an item holds, even past `Int.max`, remove it.
  @Test func linesBuyingMoreThanAnIntCanHoldRemoveTheItem() async {
    let receipt = Receipt(
      id: receiptID,
      items: [
        CartItem(id: CartItem.tea.id, name: "Tea", quantity: .max),
        CartItem(id: CartItem.tea.id, name: "Tea", quantity: .max),
      ])
    let store = makeCartStore(checkout: CheckoutClient { _, _ in receipt }, clock: clock)
    await store.tapCheckout(startingOrder: firstKey)
    await store.receive(.checkoutSucceeded(receipt)) {
      $0.isCheckingOut = false
      $0.pendingOrderKey = nil
      $0.items = [.milk]
      $0.alert = .checkoutSucceeded(receipt)
    }
    await store.finish()
  }
}

/// What a receipt's confirmation counts.
@Suite struct ReceiptTotalTests {
  @Test func aLineOfNoUnitsOrFewerCountsNoneAndATotalStopsAtIntMax() {
    let id = UUID(counting: 1)
    let odd = Receipt(
      id: id,
      items: [
        CartItem(id: id, name: "Tea", quantity: 2), CartItem(id: id, name: "Tea", quantity: -7),
        CartItem(id: id, name: "Tea", quantity: 0),
      ])
    #expect(odd.totalQuantity == 2)
    let huge = Receipt(
      id: id,
      items: [
        CartItem(id: id, name: "Tea", quantity: .max), CartItem(id: id, name: "Tea", quantity: 3),
      ])
    #expect(huge.totalQuantity == .max)
    #expect(CartAlert.checkoutSucceeded(huge).message.hasPrefix("Thank you!"))
  }
}

/// Bought units against items the cart holds, inside the range and outside it (a state built
/// by app code: `CartItem`'s initializer does not check).
@MainActor
@Suite struct CartReceiptUnitsTests {
  let receiptID = UUID(counting: 0xCAFE)

  func itemsAfter(buying lines: [Int], of quantity: Int) -> [CartItem] {
    let id = UUID(counting: 1)
    var state = Cart.State(items: [CartItem(id: id, name: "Tea", quantity: quantity)])
    let receipt = Receipt(
      id: receiptID, items: lines.map { CartItem(id: id, name: "Tea", quantity: $0) })
    _ = Cart(checkout: .unimplemented, makeID: .incrementing(), clock: TestClock())
      .reduce(into: &state, action: .checkoutSucceeded(receipt))
    return state.items.elements
  }

  @Test func everyUnitBoughtRemovesTheItem() {
    #expect(itemsAfter(buying: [99], of: 99).isEmpty)
    #expect(itemsAfter(buying: [50, 50], of: 99).isEmpty)
    #expect(itemsAfter(buying: [150], of: 150).isEmpty)
    #expect(itemsAfter(buying: [.max, .max], of: 150).isEmpty)
  }

  @Test func someUnitsBoughtLeaveTheRest() {
    #expect(itemsAfter(buying: [50, 5], of: 60).map(\.quantity) == [5])
    #expect(itemsAfter(buying: [-5, 4], of: 10).map(\.quantity) == [6])
    #expect(itemsAfter(buying: [100], of: 150).map(\.quantity) == [50])
  }
}
