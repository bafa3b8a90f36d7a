import CartFeature
import Effects
import Foundation
import Store
import StoreTesting
import Testing

/// The cart's list: adding, removing, quantities and notes, seen from the cart.
@MainActor
@Suite struct CartTests {
  let clock = TestClock()

  // MARK: - Adding

  @Test func addingAnItemGivesItTheNextInjectedIDAndQuantityOne() async {
    let store = makeCartStore(Cart.State(), clock: clock)
    let bread = CartItem(id: UUID(counting: 0), name: "Bread")
    let eggs = CartItem(id: UUID(counting: 1), name: "Eggs")
    await store.send(.addItemTapped(name: "  Bread "))
    await store.receive(.itemAdded(bread)) { $0.items.append(bread) }
    await store.send(.addItemTapped(name: "Eggs"))
    await store.receive(.itemAdded(eggs)) { $0.items.append(eggs) }
    #expect(store.state.totalQuantity == 2)
    await store.finish()
  }

  @Test(arguments: ["", "   ", "\n\t"])
  func aBlankNameAddsNothing(name: String) async {
    let store = makeCartStore(clock: clock)
    await store.send(.addItemTapped(name: name))
    await store.finish()
  }

  @Test func anItemAddedTwiceIsKeptOnce() async {
    let store = makeCartStore(clock: clock)
    await store.send(.itemAdded(.tea))
    await store.finish()
  }

  /// The cart's own actions never make such an item; one built by hand is refused, so that
  /// every item in a cart keeps the range the editor and decoding keep.
  @Test(arguments: [
    CartItem(id: UUID(counting: 7), name: "Eggs", quantity: 0),
    CartItem(id: UUID(counting: 7), name: "Eggs", quantity: 100),
    CartItem(id: UUID(counting: 7), name: "Eggs", quantity: -1),
    CartItem(id: UUID(counting: 7), name: "  ", quantity: 1),
  ])
  func anItemOutsideTheRangeOrWithoutANameIsNotAdded(item: CartItem) async {
    let store = makeCartStore(clock: clock)
    await store.send(.itemAdded(item))
    await store.finish()
  }

  // MARK: - Quantities

  @Test func theTotalQuantityIsDerivedFromTheItems() {
    var state = Cart.State.teaAndMilk
    #expect(state.totalQuantity == 3)
    state.items[id: CartItem.tea.id]?.quantity = 10
    #expect(state.totalQuantity == 11)
    state.items.removeAll()
    #expect(state.totalQuantity == 0)
  }

  /// Items built by app code, outside the range, are counted as a receipt's lines are: none
  /// for no units or fewer, and `Int.max` past it. The sum overflowed and trapped, in the
  /// cart's header too (`AppFeature.State.cartHeader`).
  @Test func theTotalQuantityOfHugeItemsStopsAtIntMax() {
    let huge = Cart.State(items: [
      CartItem(id: UUID(counting: 1), name: "Tea", quantity: .max),
      CartItem(id: UUID(counting: 2), name: "Milk", quantity: 1),
      CartItem(id: UUID(counting: 3), name: "Eggs", quantity: -5),
    ])
    #expect(huge.totalQuantity == .max)
    let odd = Cart.State(items: [
      CartItem(id: UUID(counting: 1), name: "Tea", quantity: 3),
      CartItem(id: UUID(counting: 2), name: "Milk", quantity: 0),
      CartItem(id: UUID(counting: 3), name: "Eggs", quantity: -5),
    ])
    #expect(odd.totalQuantity == 3)
  }

  @Test func steppingAndEnteringAQuantityChangeOnlyThatItem() async {
    let store = makeCartStore(clock: clock)
    let tea = CartItem.tea.id
    await store.send(.items(.element(id: tea, action: .quantityStepped(by: 1)))) {
      $0.items[id: tea]?.quantity = 3
    }
    await store.send(.items(.element(id: tea, action: .quantityStepped(by: -1)))) {
      $0.items[id: tea]?.quantity = 2
    }
    await store.send(.items(.element(id: tea, action: .quantityEntered(99)))) {
      $0.items[id: tea]?.quantity = 99
    }
    await store.send(.items(.element(id: tea, action: .quantityEntered(1)))) {
      $0.items[id: tea]?.quantity = 1
    }
    #expect(store.state.items[id: CartItem.milk.id] == .milk)
    await store.finish()
  }

  @Test(arguments: [
    ItemEditor.Action.quantityStepped(by: -2),
    .quantityStepped(by: 98),
    .quantityStepped(by: .max),
    .quantityStepped(by: .min),
    .quantityEntered(0),
    .quantityEntered(100),
    .quantityEntered(-1),
  ])
  func aQuantityOutsideTheRangeIsRefusedAndExplained(change: ItemEditor.Action) async {
    let store = makeCartStore(clock: clock)
    let tea = CartItem.tea.id
    // The item is unchanged: the send asserts no state change.
    await store.send(.items(.element(id: tea, action: change)))
    await store.receive(.items(.element(id: tea, action: .delegate(.quantityRefused)))) {
      $0.alert = .quantityOutOfRange(itemName: "Tea")
    }
    #expect(store.state.alert?.message == "The quantity of Tea must stay between 1 and 99.")
    await store.send(.alertDismissed) { $0.alert = nil }
    await store.finish()
  }

  // MARK: - Notes

  @Test func editingANoteChangesOnlyThatItem() async {
    let store = makeCartStore(clock: clock)
    await store.send(.items(.element(id: CartItem.milk.id, action: .noteChanged("barista")))) {
      $0.items[id: CartItem.milk.id]?.note = "barista"
    }
    #expect(store.state.items[id: CartItem.tea.id] == .tea)
    await store.finish()
  }

  // MARK: - Removing

  @Test func removingAnItemFromItsRowAsksTheCartWhichRemovesIt() async {
    let store = makeCartStore(clock: clock)
    let tea = CartItem.tea.id
    await store.send(.items(.element(id: tea, action: .removeTapped)))
    await store.receive(.items(.element(id: tea, action: .delegate(.removeRequested)))) {
      $0.items.remove(id: tea)
    }
    #expect(store.state.totalQuantity == 1)
    await store.finish()
  }

  /// The same, with the row's report matched by its element, through the library's key into
  /// one element's actions (that it matches no other row's is `CaseKeyChildActionsTests`').
  @Test func aRowsReportIsMatchedThroughItsElementsKey() async {
    let store = makeCartStore(clock: clock)
    let tea = CartItem.tea.id
    await store.send(.items(.element(id: tea, action: .removeTapped)))
    await store.receive(CaseKey.items[id: tea]) { $0.items.remove(id: tea) }
    await store.finish()
  }

  @Test func anActionForAnItemThatIsGoneIsCaughtAsAWarning() async {
    let store = makeCartStore(clock: clock)
    let gone = UUID(counting: 999)
    await withKnownIssue {
      await store.send(.items(.element(id: gone, action: .noteChanged("late"))))
    } matching: { issue in
      issue.comments.contains { $0.rawValue.contains("no element has that id") }
    }
    await store.finish()
  }

  // MARK: - Held steppers

  @Test func heldSteppersRepeatPerRowAndReleasingOneStopsOnlyIt() async {
    let store = makeCartStore(clock: clock)
    let tea = CartItem.tea.id
    let milk = CartItem.milk.id
    // Both rows use the same cancellation id; ids are namespaced by item, so they coexist.
    await store.send(.items(.element(id: tea, action: .stepperHeld(step: 1))))
    await store.send(.items(.element(id: milk, action: .stepperHeld(step: 1))))
    await clock.advance(by: ItemEditor.repeatInterval)
    await store.receive(.items(.element(id: tea, action: .quantityStepped(by: 1)))) {
      $0.items[id: tea]?.quantity = 3
    }
    await store.receive(.items(.element(id: milk, action: .quantityStepped(by: 1)))) {
      $0.items[id: milk]?.quantity = 2
    }
    await store.send(.items(.element(id: tea, action: .stepperReleased)))
    await clock.advance(by: ItemEditor.repeatInterval)
    await store.receive(.items(.element(id: milk, action: .quantityStepped(by: 1)))) {
      $0.items[id: milk]?.quantity = 3
    }
    await store.send(.items(.element(id: milk, action: .stepperReleased)))
    #expect(clock.sleeperCount == 0)
    await store.finish()
  }

  @Test func aHeldStepperStopsAtTheLimitAndTheCartExplainsWhy() async {
    var state = Cart.State.teaAndMilk
    state.items[id: CartItem.tea.id]?.quantity = 98
    let store = makeCartStore(state, clock: clock)
    let tea = CartItem.tea.id
    await store.send(.items(.element(id: tea, action: .stepperHeld(step: 1))))
    await clock.advance(by: ItemEditor.repeatInterval)
    await store.receive(.items(.element(id: tea, action: .quantityStepped(by: 1)))) {
      $0.items[id: tea]?.quantity = 99
    }
    await clock.advance(by: ItemEditor.repeatInterval)
    await store.receive(.items(.element(id: tea, action: .quantityStepped(by: 1))))
    await store.receive(.items(.element(id: tea, action: .delegate(.quantityRefused)))) {
      $0.alert = .quantityOutOfRange(itemName: "Tea")
    }
    // The refusal cancelled the repeat: nothing is left to release.
    #expect(clock.sleeperCount == 0)
    await store.finish()
  }
}
