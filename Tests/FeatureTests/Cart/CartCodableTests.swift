import CartFeature
import Effects
import Foundation
import Store
import Testing

/// State and actions survive JSON, as the action log needs.
@Suite struct CartCodableTests {
  static let receipt = Receipt(id: UUID(counting: 7), items: [.tea])

  @Test func aBusyStateRoundTrips() throws {
    var state = Cart.State.teaAndMilk
    state.path.append(.itemEditor(CartItem.milk.id))
    state.path.append(.itemEditor(CartItem.tea.id))
    state.path.popLast()
    state.titleEditor = TitleEditor.State(title: "Draft")
    state.isCheckingOut = true
    state.pendingOrderKey = UUID(counting: 3)
    state.alert = .quantityOutOfRange(itemName: "Tea")
    let decoded = try roundTrip(state)
    #expect(decoded == state)
    // The stack's next id survives too, so a replayed push gets the same screen id.
    #expect(decoded.path.nextElementID == cartScreen(2))
  }

  @Test(arguments: [
    Cart.Action.addItemTapped(name: "Bread"),
    .itemAdded(.milk),
    .rowTapped(CartItem.tea.id),
    .editTitleTapped,
    .checkoutTapped,
    .checkoutStarted(orderKey: UUID(counting: 3)),
    .checkoutSucceeded(receipt),
    .checkoutFailed(.itemUnavailable(name: "Tea")),
    .screenDisappeared,
    .alertDismissed,
    .items(.element(id: CartItem.tea.id, action: .quantityStepped(by: -1))),
    .items(.element(id: CartItem.tea.id, action: .stepperHeld(step: 1))),
    .items(.element(id: CartItem.tea.id, action: .delegate(.quantityRefused))),
    .path(.push(id: cartScreen(3), state: .itemEditor(CartItem.milk.id))),
    .path(.popFrom(id: cartScreen(3))),
    .titleEditor(.presented(.draftChanged("Weekend"))),
    .titleEditor(.presented(.delegate(.saved("Weekend")))),
    .titleEditor(.dismiss),
  ])
  func everyKindOfActionRoundTrips(action: Cart.Action) throws {
    #expect(try roundTrip(action) == action)
  }

  @Test func anItemWithAQuantityOutOfRangeDoesNotDecode() throws {
    let json =
      #"{"id":"00000000-0000-0000-0000-000000000001","name":"Tea","quantity":100,"#
      + #""note":""}"#
    #expect(throws: DecodingError.self) {
      try JSONDecoder().decode(CartItem.self, from: Data(json.utf8))
    }
  }

  @Test func aCartWithARepeatedItemIDDoesNotDecode() throws {
    let item = #"{"id":"00000000-0000-0000-0000-000000000001","name":"Tea","quantity":1,"note":""}"#
    let json =
      #"{"title":"Cart","items":[\#(item),\#(item)],"path":{"entries":[],"nextID":0},"#
      + #""isCheckingOut":false}"#
    #expect(throws: DecodingError.self) {
      try JSONDecoder().decode(Cart.State.self, from: Data(json.utf8))
    }
  }

  private func roundTrip<Value: Codable>(_ value: Value) throws -> Value {
    try JSONDecoder().decode(Value.self, from: JSONEncoder().encode(value))
  }
}
