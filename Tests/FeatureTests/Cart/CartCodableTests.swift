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

  @Test func aCartWithAnItemOutOfRangeDoesNotDecode() throws {
    let item =
      #"{"id":"00000000-0000-0000-0000-000000000001","name":"Tea","quantity":100,"note":""}"#
    let json =
      #"{"title":"Cart","items":[\#(item)],"path":{"entries":[],"nextID":0},"#
      + #""isCheckingOut":false}"#
    #expect {
      try JSONDecoder().decode(Cart.State.self, from: Data(json.utf8))
    } throws: { error in
      guard case .dataCorrupted(let context) = error as? DecodingError else { return false }
      return context.debugDescription
        == """
        Item 0 (00000000-0000-0000-0000-000000000001, "Tea") has quantity 100, outside \
        1...99: no cart holds such an item.
        """
        && context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }
          == ["items", "0", "quantity"]
    }
  }

  /// A path no push could have left, in a hand-written log's header say, is refused where
  /// the screen is: one showing an item not in the cart, or the item of the screen below it.
  /// (It decoded, and the replay's first checkpoint then diverged, pointing at the reducer.)
  @Test(arguments: [
    (
      [1, 2], 1,
      """
      Screen 1 of the path shows item 00000000-0000-0000-0000-000000000002, which is not in \
      the cart: no cart keeps a screen of an item it removed.
      """
    ),
    (
      [1, 1], 1,
      """
      Screen 1 of the path shows item 00000000-0000-0000-0000-000000000001, as the screen \
      below it does: no push shows an item's screen on its own.
      """
    ),
  ])
  func aCartWithAScreenNoPushLeavesDoesNotDecode(
    shown: [Int], refused: Int, message: String
  ) throws {
    let item =
      #"{"id":"00000000-0000-0000-0000-000000000001","name":"Tea","quantity":1,"note":""}"#
    let screens = shown.enumerated().map { position, item in
      #"{"id":\#(position),"element":{"itemEditor":{"_0":"#
        + #""00000000-0000-0000-0000-00000000000\#(item)"}}}"#
    }
    let json =
      #"{"title":"Cart","items":[\#(item)],"#
      + #""path":{"entries":[\#(screens.joined(separator: ","))],"nextID":\#(shown.count)},"#
      + #""isCheckingOut":false}"#
    #expect {
      try JSONDecoder().decode(Cart.State.self, from: Data(json.utf8))
    } throws: { error in
      guard case .dataCorrupted(let context) = error as? DecodingError else { return false }
      return context.debugDescription == message
        && context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }
          == ["path", "entries", "\(refused)"]
    }
  }

  /// A path of screens of items in the cart, none above one of its own item, decodes.
  @Test func aCartWithScreensOfItsItemsDecodes() throws {
    var cart = Cart.State(items: [.tea, .milk])
    cart.path.append(.itemEditor(CartItem.tea.id))
    cart.path.append(.itemEditor(CartItem.milk.id))
    cart.path.append(.itemEditor(CartItem.tea.id))
    let data = try JSONEncoder().encode(cart)
    #expect(try JSONDecoder().decode(Cart.State.self, from: data) == cart)
  }

  /// The refusal points at the refused item's quantity, not at the list, and cuts a long
  /// name: a replay showed the list's first items at `items` (good ones, whichever was
  /// refused), and the whole name.
  @Test func aCartsRefusalPointsAtTheItemAndCutsItsName() throws {
    let good = #"{"id":"00000000-0000-0000-0000-000000000001","name":"Tea","quantity":1,"note":""}"#
    let name = String(repeating: "x", count: 1_000)
    let bad =
      #"{"id":"00000000-0000-0000-0000-000000000002","name":"\#(name)","quantity":0,"note":""}"#
    let json =
      #"{"title":"Cart","items":[\#(good),\#(bad)],"path":{"entries":[],"nextID":0},"#
      + #""isCheckingOut":false}"#
    #expect {
      try JSONDecoder().decode(Cart.State.self, from: Data(json.utf8))
    } throws: { error in
      guard case .dataCorrupted(let context) = error as? DecodingError else { return false }
      return context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }
        == ["items", "1", "quantity"]
        && context.debugDescription.hasPrefix(
          "Item 1 (00000000-0000-0000-0000-000000000002, \"xxx")
        && context.debugDescription.count < 250
    }
  }

  /// An item alone is a message too (an added item, a receipt's line): it decodes whatever
  /// its quantity, as it was encoded, and the cart decides what to do with it.
  @Test(arguments: [0, -3, 100, Int.max, Int.min])
  func anItemAloneDecodesWhateverItsQuantity(quantity: Int) throws {
    let item = CartItem(id: UUID(counting: 1), name: "Tea", quantity: quantity)
    #expect(try roundTrip(item) == item)
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

  /// A cart checking out with no order key, which no checkout leaves (in a hand-written
  /// log's header, say), is refused at the flag; with the key, or not checking out, it decodes.
  @Test func aCartCheckingOutWithNoOrderKeyDoesNotDecode() throws {
    func json(checkingOut: Bool, key: String?) -> Data {
      let pending = key.map { #","pendingOrderKey":"\#($0)""# } ?? ""
      return Data(
        (#"{"title":"Cart","items":[],"path":{"entries":[],"nextID":0},"#
          + #""isCheckingOut":\#(checkingOut)\#(pending)}"#).utf8)
    }
    #expect {
      try JSONDecoder().decode(Cart.State.self, from: json(checkingOut: true, key: nil))
    } throws: { error in
      guard case .dataCorrupted(let context) = error as? DecodingError else { return false }
      return context.debugDescription
        == """
        The cart is checking out with no pendingOrderKey: no checkout starts without its \
        order's key.
        """
        && context.codingPath.map(\.stringValue) == ["isCheckingOut"]
    }
    let key = "00000000-0000-0000-0000-000000000003"
    let checkingOut = try JSONDecoder().decode(
      Cart.State.self, from: json(checkingOut: true, key: key))
    #expect(checkingOut.isCheckingOut && checkingOut.pendingOrderKey == UUID(counting: 3))
    // A key without a checkout is a cart that lost an answer: it retries under that key.
    let waiting = try JSONDecoder().decode(
      Cart.State.self, from: json(checkingOut: false, key: key))
    #expect(!waiting.isCheckingOut && waiting.pendingOrderKey == UUID(counting: 3))
  }

  private func roundTrip<Value: Codable>(_ value: Value) throws -> Value {
    try JSONDecoder().decode(Value.self, from: JSONEncoder().encode(value))
  }
}
