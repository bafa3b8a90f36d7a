import CartFeature
import Effects
import Foundation
import StoreTesting
import Testing

/// The item editor on its own: its state is the item, so it is tested on an item alone.
@MainActor
@Suite struct CartItemEditorTests {
  let clock = TestClock()

  func makeStore(quantity: Int = 2) -> TestStoreOf<ItemEditor> {
    var item = CartItem.tea
    item.quantity = quantity
    return TestStore(initialState: item) { ItemEditor(clock: clock) }
  }

  @Test func steppingChangesTheQuantityByTheStep() async {
    let store = makeStore()
    await store.send(.quantityStepped(by: 1)) { $0.quantity = 3 }
    await store.send(.quantityStepped(by: -1)) { $0.quantity = 2 }
    await store.finish()
  }

  @Test(arguments: CartItem.quantityRange.lowerBound...CartItem.quantityRange.upperBound)
  func everyQuantityInTheRangeCanBeEntered(quantity: Int) async {
    let store = makeStore(quantity: quantity == 50 ? 49 : 50)
    await store.send(.quantityEntered(quantity)) { $0.quantity = quantity }
    await store.finish()
  }

  @Test(arguments: [(1, -1), (99, 1), (50, .max), (50, .min)])
  func aStepPastTheRangeIsRefused(quantity: Int, step: Int) async {
    let store = makeStore(quantity: quantity)
    await store.send(.quantityStepped(by: step))
    await store.receive(.delegate(.quantityRefused))
    await store.finish()
  }

  @Test(arguments: [0, 100, -1, .max, .min])
  func aQuantityOutsideTheRangeIsRefused(quantity: Int) async {
    let store = makeStore()
    await store.send(.quantityEntered(quantity))
    await store.receive(.delegate(.quantityRefused))
    await store.finish()
  }

  @Test func editingTheNoteChangesTheNote() async {
    let store = makeStore()
    await store.send(.noteChanged("loose leaf")) { $0.note = "loose leaf" }
    await store.send(.noteChanged("")) { $0.note = "" }
    await store.finish()
  }

  @Test func removingAsksTheParent() async {
    let store = makeStore()
    await store.send(.removeTapped)
    await store.receive(.delegate(.removeRequested))
    await store.finish()
  }

  @Test func aHeldStepperRepeatsUntilReleased() async {
    let store = makeStore()
    await store.send(.stepperHeld(step: -1))
    await clock.advance(by: ItemEditor.repeatInterval * 0.5)
    await clock.advance(by: ItemEditor.repeatInterval * 0.5)
    await store.receive(.quantityStepped(by: -1)) { $0.quantity = 1 }
    await store.send(.stepperReleased)
    await clock.advance(by: ItemEditor.repeatInterval * 10)
    await store.finish()
  }

  @Test func holdingAgainRestartsTheRepeatRatherThanAddingOne() async {
    let store = makeStore()
    await store.send(.stepperHeld(step: 1))
    await store.send(.stepperHeld(step: 1))
    #expect(clock.sleeperCount == 1)
    await clock.advance(by: ItemEditor.repeatInterval)
    await store.receive(.quantityStepped(by: 1)) { $0.quantity = 3 }
    await store.send(.stepperReleased)
    await store.finish()
  }

  @Test func aHeldStepperStopsWhenItReachesTheRange() async {
    let store = makeStore(quantity: 2)
    await store.send(.stepperHeld(step: -1))
    await clock.advance(by: ItemEditor.repeatInterval * 2)
    await store.receive(.quantityStepped(by: -1)) { $0.quantity = 1 }
    await store.receive(.quantityStepped(by: -1))
    await store.receive(.delegate(.quantityRefused))
    #expect(clock.sleeperCount == 0)
    await store.finish()
  }

  @Test func cancellingTheHandleOfAHeldStepperStopsIt() async {
    let store = makeStore()
    // A view can tie the repeat to its gesture's task instead of sending a release.
    let hold = await store.send(.stepperHeld(step: 1))
    await clock.advance(by: ItemEditor.repeatInterval)
    await store.receive(.quantityStepped(by: 1)) { $0.quantity = 3 }
    hold.cancel()
    #expect(hold.isCancelled)
    await clock.advance(by: ItemEditor.repeatInterval * 10)
    await store.finish()
  }
}
