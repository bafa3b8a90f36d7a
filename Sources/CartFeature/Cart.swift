import Effects
import Foundation
import Store

/// A shopping cart: its items, an item editor pushed by id, a modal title editor, and
/// checkout.
///
/// The cart is the one owner of its items. Every screen that shows an item reads it from
/// ``State/items`` through a store, and changes it only by sending an action:
///
/// - **Shared**: the list's rows and the item editor screen run ``ItemEditor`` on the item
///   itself (`forEach` on `items`), so they share one store per item, keyed by its id.
/// - **Forward**: tapping a row pushes ``CartRoute/itemEditor(_:)`` with the item's *id* onto
///   ``State/path``. The editor screen gets its store by that id, so its edits land in
///   `items[id:]` and the list sees them at once; nothing is copied, so nothing can go stale.
///   Removing an item pops the first screen that showed it, with every screen above it.
/// - **Backward**: the ``TitleEditor`` sheet, presented with `presents`, reports
///   `saved(title)` or `cancelled` through delegate actions, then dismisses itself.
/// - **Commands**: checkout is an action: ``Action/checkoutTapped`` starts one cancellable
///   request (through ``Action/checkoutStarted(orderKey:)``); ``Action/screenDisappeared``
///   and ``Action/reset`` cancel it, as does letting go of the store. Cancelling the task
///   `send` returned does not (the request is marked `outlivingSendersTask()`), since
///   ``State/isCheckingOut`` would then stay set with no answer to come; so
///   `await store.send(.checkoutTapped).finish()` returns before the answer: watch
///   ``State/isCheckingOut`` instead. The order's key outlives the request (``State/pendingOrderKey``), so
///   checking out again after leaving the screen or losing the answer does not order twice.
/// - **Replayable**: a new item's id and a new order's key are made when the tap is handled and
///   carried in ``Action/itemAdded(_:)`` and ``Action/checkoutStarted(orderKey:)``, so a
///   recorded session replays to the same state whatever ids the generator makes then.
///
/// A view gets each child store from the cart's store:
///
/// ```swift
/// let rows = store.scope(state: \.items, action: .items)   // a store per item
/// let screens = store.scope(state: \.path, action: .path)  // the pushed routes
/// // The editor screen for a route is the store of the item it names:
/// if let item = rows[id: route.itemID] { ItemEditorView(store: item) }
/// let sheet = store.scope(state: \.titleEditor, action: .titleEditor)
/// ```
///
/// Dependencies come in through ``init(checkout:makeID:clock:)``, so a test cannot forget one.
public struct Cart: Reducer {
  /// The cart's state.
  public struct State: Equatable, Sendable, Codable {
    /// The cart's title, shown as the screen's title.
    public var title: String
    /// The items, in the order they were added: the one copy every screen reads.
    public var items: IdentifiedArrayOf<CartItem>
    /// The screens pushed on top of the list.
    public var path = StackState<CartRoute>()
    /// The title editor sheet, while it is presented.
    public var titleEditor: TitleEditor.State?
    /// Whether a checkout is in flight; a second one cannot start until it ends.
    public var isCheckingOut = false
    /// The key of the order last submitted, until the cart hears a definite answer: a
    /// receipt, or a refusal (``CheckoutError/paymentDeclined``,
    /// ``CheckoutError/itemUnavailable(name:)``).
    ///
    /// It outlives the request: the service may have received the order though the screen
    /// went away (``Action/screenDisappeared``) or the answer was lost
    /// (``CheckoutError/serviceUnavailable``). The next checkout submits under this key, so
    /// the service places at most one order for it. Submitted with what the cart holds then,
    /// which may differ from the first submission: a service that had the first answers with
    /// its receipt, which says what was bought (the cart removes that, and keeps the rest), and
    /// one that did not places what the cart holds now. ``Action/reset`` forgets it.
    public var pendingOrderKey: UUID?
    /// The message shown until dismissed, if any.
    public var alert: CartAlert?

    /// The title of a new cart, and of one after ``Cart/Action/reset``.
    public static let defaultTitle = "Cart"

    /// Creates a cart with nothing pushed, presented or in flight.
    ///
    /// - Parameters:
    ///   - title: The cart's title.
    ///   - items: The items already in the cart.
    public init(title: String = defaultTitle, items: IdentifiedArrayOf<CartItem> = []) {
      self.title = title
      self.items = items
    }

    /// Decodes a cart, refusing a blank ``title`` (the title editor cannot save one) or an
    /// item with a blank name (``Action/itemAdded(_:)`` ignores one), and an item whose
    /// quantity is outside ``CartItem/quantityRange``, which no cart holds (a ``CartItem``
    /// alone decodes whatever its name and quantity), and a screen of ``path`` that no push
    /// could have left: one that shows an item not in the cart, or the item of the screen
    /// just below it; a cart checking out (``isCheckingOut``) with no
    /// ``pendingOrderKey``, which no checkout leaves; and an ``alert`` no action leaves: a
    /// checkout's answer shown while checking out (a checkout clears the alert as it starts,
    /// and its answer ends it), a receipt or a refusal shown with a ``pendingOrderKey`` left
    /// (they forget it; only ``CheckoutError/serviceUnavailable`` keeps it), or a refused
    /// quantity's alert naming a blank name.
    ///
    /// A cart saved while a checkout was in flight decodes as it was saved, checking out: a
    /// replay needs it so. Restored in a new store, no request answers it, and every checkout
    /// is ignored until the screen disappears; restore it through ``relaunched``.
    ///
    /// - Parameter decoder: The decoder.
    /// - Throws: `DecodingError.dataCorrupted` naming the blank title, the item and its name
    ///   or quantity, or the screen and its item, or the missing key, or the alert and the
    ///   field it contradicts; or any error decoding a field.
    public init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      // The fields of the item at `position` in the encoded `items`, for an error thrown there.
      func itemFields(at position: Int) throws -> KeyedDecodingContainer<ItemKey> {
        var list = try container.nestedUnkeyedContainer(forKey: .items)
        for _ in 0..<position { _ = try list.decode(CartItem.self) }
        return try list.nestedContainer(keyedBy: ItemKey.self)
      }
      title = try container.decode(String.self, forKey: .title)
      if title.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
        // The title editor cannot save a blank title, the cart ignores one, and a reset
        // gives back the default.
        throw DecodingError.dataCorruptedError(
          forKey: .title, in: container,
          debugDescription: """
            The cart's title \(LogText.quoted(title)) is blank: no cart has a blank title.
            """)
      }
      items = try container.decode(IdentifiedArrayOf<CartItem>.self, forKey: .items)
      if let position = items.firstIndex(where: {
        $0.name.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
      }) {
        // Thrown at the item's name, as a quantity is refused at the item's quantity.
        throw DecodingError.dataCorruptedError(
          forKey: .name, in: try itemFields(at: position),
          debugDescription: """
            Item \(position) (\(items[position].id)) has the blank name \
            \(LogText.quoted(items[position].name)): no cart holds an item without a name.
            """)
      }
      if let position = items.firstIndex(where: { !CartItem.quantityRange.contains($0.quantity) }) {
        let item = items[position]
        // Thrown at the item's quantity, so that a replay's message points at it (at
        // `items`, it showed the first items of the list, whichever was refused), with the
        // name cut as a log's messages cut values.
        throw DecodingError.dataCorruptedError(
          forKey: .quantity, in: try itemFields(at: position),
          debugDescription: """
            Item \(position) (\(item.id), \(LogText.quoted(item.name))) has quantity \
            \(item.quantity), outside \(CartItem.quantityRange): no cart holds such an item.
            """)
      }
      path = try container.decode(StackState<CartRoute>.self, forKey: .path)
      if let refusal = Self.screenRefusal(path: path, items: items) {
        throw DecodingError.dataCorrupted(
          DecodingError.Context(
            codingPath: container.codingPath + [
              CodingKeys.path, PathKey.entries, PathKey(intValue: refusal.position),
            ],
            debugDescription: refusal.reason))
      }
      titleEditor = try container.decodeIfPresent(TitleEditor.State.self, forKey: .titleEditor)
      isCheckingOut = try container.decode(Bool.self, forKey: .isCheckingOut)
      pendingOrderKey = try container.decodeIfPresent(UUID.self, forKey: .pendingOrderKey)
      if isCheckingOut, pendingOrderKey == nil {
        // `checkoutStarted` sets both, and every action that ends a checkout clears the flag
        // first: a hand-written log's header, say, not a cart.
        throw DecodingError.dataCorruptedError(
          forKey: .isCheckingOut, in: container,
          debugDescription: """
            The cart is checking out with no pendingOrderKey: no checkout starts without \
            its order's key.
            """)
      }
      alert = try container.decodeIfPresent(CartAlert.self, forKey: .alert)
      if let refusal = Self.alertRefusal(
        alert, isCheckingOut: isCheckingOut, pendingOrderKey: pendingOrderKey)
      {
        throw DecodingError.dataCorruptedError(
          forKey: .alert, in: container, debugDescription: refusal)
      }
    }

    /// Why no action leaves `alert` shown with the checkout as `isCheckingOut` and
    /// `pendingOrderKey` say, or `nil` if one can.
    ///
    /// A checkout's start clears the alert and is the only action that sets a key; its answer
    /// ends it, and a receipt or a refusal forgets the key (an unavailable service keeps it).
    /// A refused quantity's alert names an item, and no item has a blank name.
    private static func alertRefusal(
      _ alert: CartAlert?, isCheckingOut: Bool, pendingOrderKey: UUID?
    ) -> String? {
      switch alert {
      case .checkoutSucceeded?, .checkoutFailed?:
        if isCheckingOut {
          return """
            The cart shows a checkout's answer while checking out (isCheckingOut): a checkout \
            clears the alert as it starts, and only its answer, which ends it, shows one.
            """
        }
        if pendingOrderKey != nil, alert != .checkoutFailed(.serviceUnavailable) {
          return """
            The cart shows a checkout's definite answer with a pendingOrderKey left: a receipt \
            or a refusal forgets the key as it shows, and only a checkout's start, which \
            clears the alert, sets one.
            """
        }
        return nil
      case .quantityOutOfRange(let itemName)?:
        guard itemName.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { return nil }
        return """
          The alert names the blank item name \(LogText.quoted(itemName)): it names an item of \
          the cart, and no cart holds an item without a name.
          """
      case nil:
        return nil
      }
    }

    /// The keys of an item's quantity and name, where decoding refuses one outside the
    /// range or a blank one.
    private enum ItemKey: String, CodingKey {
      case quantity, name
    }

    /// The keys to a screen of ``path``, where decoding refuses one no push could have left.
    private struct PathKey: CodingKey {
      static let entries = PathKey(stringValue: "entries")
      var stringValue: String
      var intValue: Int?
      init(stringValue: String) { self.stringValue = stringValue }
      init(intValue: Int) { (stringValue, self.intValue) = ("\(intValue)", intValue) }
    }

    /// The first screen of `path` that no push could have left there, with its position
    /// from the bottom and why: one that names an item not in `items`, or the item of the
    /// screen just below it (``Action/rowTapped(_:)``'s rules, which a push keeps).
    private static func screenRefusal(
      path: StackState<CartRoute>, items: IdentifiedArrayOf<CartItem>
    ) -> (position: Int, reason: String)? {
      var below: CartRoute?
      for (position, route) in path.enumerated() {
        if !items.contains(id: route.itemID) {
          return (
            position,
            """
            Screen \(position) of the path shows item \(route.itemID), which is not in the \
            cart: no cart keeps a screen of an item it removed.
            """
          )
        }
        if below?.itemID == route.itemID {
          return (
            position,
            """
            Screen \(position) of the path shows item \(route.itemID), as the screen below it \
            does: no push shows an item's screen on its own.
            """
          )
        }
        below = route
      }
      return nil
    }

    /// The number of products in the cart, all items together.
    ///
    /// Derived from ``items`` on every read, so it can never disagree with them. Counted as
    /// ``Receipt/totalQuantity`` counts a receipt's lines, for a state built by app code
    /// (`CartItem`'s initializer does not check its quantity): an item of no units or fewer
    /// counts none, and a total past `Int.max` is `Int.max`, never a trap.
    ///
    /// - Complexity: O(*n*) in the number of items.
    public var totalQuantity: Int {
      items.reduce(0) { Receipt.adding($1.quantity, to: $0) }
    }
  }

  /// What can happen in the cart.
  public enum Action: Equatable, Sendable, Codable {
    /// The user added an item with this name. A name that is empty once trimmed is ignored.
    case addItemTapped(name: String)
    /// An item was added, with the id made for it. An item whose quantity is outside
    /// ``CartItem/quantityRange``, whose name is blank, or whose id is already in the cart is
    /// ignored.
    ///
    /// ``addItemTapped(name:)`` makes the id and sends it here rather than appending at once,
    /// so the id is in the action log: a replay, which reduces logged actions without running
    /// effects, adds the same item without needing the same id generator.
    case itemAdded(CartItem)
    /// The user tapped an item's row: push its editor, unless it is the screen on top
    /// already (a double tap pushes it once).
    case rowTapped(CartItem.ID)
    /// The user tapped the title: present the title editor.
    case editTitleTapped
    /// The user tapped Checkout. Ignored while a checkout is in flight or the cart is empty.
    ///
    /// Sends ``checkoutStarted(orderKey:)`` with ``State/pendingOrderKey`` while an order is
    /// without an answer, or else a new key.
    case checkoutTapped
    /// A checkout started under this order key: submits the items, and keeps the key as
    /// ``State/pendingOrderKey``. Ignored while a checkout is in flight or the cart is empty.
    ///
    /// ``checkoutTapped`` makes or reuses the key and sends it here rather than submitting at
    /// once, so the key is in the action log, as a new item's id is (``itemAdded(_:)``).
    case checkoutStarted(orderKey: UUID)
    /// The checkout service accepted the order. Each item the receipt lists loses the units
    /// bought, and goes once every unit was; a receipt line of no units or fewer (a service
    /// in error) changes nothing, and an item the cart no longer holds is passed over.
    case checkoutSucceeded(Receipt)
    /// The checkout service refused the order, or could not be reached.
    case checkoutFailed(CheckoutError)
    /// The cart screen went away: cancel the checkout in flight, if any.
    ///
    /// Cancelling stops waiting for the answer; it cannot take back a request the service
    /// already received. Checkout is possible again at once, under the same order key
    /// (``State/pendingOrderKey``), so a service that places one order per key does not place
    /// a second.
    ///
    /// The app sends it when it stops showing the cart. (A held stepper is the row view's to
    /// stop: it sends ``ItemEditor/Action/stepperReleased``, or cancels the handle `send`
    /// returned, when its gesture or view ends.)
    case screenDisappeared
    /// The user dismissed ``State/alert``.
    case alertDismissed
    /// Empties the cart: cancels a checkout in flight and forgets
    /// ``State/pendingOrderKey``, clears the alert, closes the title editor and every pushed
    /// screen, removes every item (ending the items' effects), and gives the cart back
    /// ``State/defaultTitle``: a title is the user's words too.
    case reset
    /// An action of one item, from its row or its editor screen.
    case items(IdentifiedAction<CartItem.ID, ItemEditor.Action>)
    /// A push or pop of the navigation stack. Routes have no actions of their own.
    ///
    /// A push keeps ``rowTapped(_:)``'s rules, whoever sends it (a navigation link, a
    /// hand-written log): one that names an item not in the cart, or the item whose screen
    /// is on top already, is taken back in the same step.
    case path(StackAction<CartRoute, Never>)
    /// An action of the title editor sheet, or its dismissal.
    ///
    /// The editor's `saved(title)` sets the title, trimmed, whoever sends it: a title that is
    /// empty once trimmed (only a hand-written log has one) is ignored, as the editor cannot
    /// save one.
    case titleEditor(PresentationAction<TitleEditor.Action>)
  }

  enum CancelID: Hashable, Sendable {
    case checkout
  }

  let checkout: CheckoutClient
  let makeID: UUIDGenerator
  let clock: any Clock<Duration>

  /// Creates the reducer with its dependencies.
  ///
  /// - Parameters:
  ///   - checkout: Submits orders.
  ///   - makeID: Makes the ids of new items and the keys of new orders.
  ///   - clock: The clock held steppers repeat on.
  public init(checkout: CheckoutClient, makeID: UUIDGenerator, clock: any Clock<Duration>) {
    self.checkout = checkout
    self.makeID = makeID
    self.clock = clock
  }

  /// The cart's logic, then each item's, the navigation stack's and the title editor's.
  public var body: some Reducer<State, Action> {
    Reduce(reduceCart)
      .forEach(\.items, action: .items) { ItemEditor(clock: clock) }
      // A route only names the item to show; the editor screen is that item's store, above.
      .navigationStack(\.path, action: .path)
      .presents(\.titleEditor, action: .titleEditor) { TitleEditor() }
  }

  private func reduceCart(_ state: inout State, _ action: Action) -> Effect<Action> {
    switch action {
    case .addItemTapped(let name):
      let name = name.trimmingCharacters(in: .whitespacesAndNewlines)
      guard !name.isEmpty else { return .none }
      return .send(.itemAdded(CartItem(id: makeID(), name: name)))

    case .itemAdded(let item):
      guard CartItem.quantityRange.contains(item.quantity),
        !item.name.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
      else { return .none }
      state.items.appendIfAbsent(item)
      return .none

    case .rowTapped(let id):
      guard state.editorMayShow(id, above: state.path.last) else { return .none }
      state.path.append(.itemEditor(id))
      return .none

    case .editTitleTapped:
      state.titleEditor = TitleEditor.State(title: state.title)
      return .none

    case .checkoutTapped:
      guard !state.isCheckingOut, !state.items.isEmpty else { return .none }
      return .send(.checkoutStarted(orderKey: state.pendingOrderKey ?? makeID()))

    case .checkoutStarted(let key):
      // A state flag rather than `cancelInFlight`: cancelling the first request and sending
      // a second could still place the order twice.
      guard !state.isCheckingOut, !state.items.isEmpty else { return .none }
      state.isCheckingOut = true
      state.pendingOrderKey = key
      state.alert = nil
      return .run { [checkout, items = state.items.elements] send in
        send(.checkoutSucceeded(try await checkout.submit(items, key)))
      } catch: { error in
        .checkoutFailed(CheckoutError(error))
      }
      .cancellable(id: CancelID.checkout)
      // Ended by `screenDisappeared` or `reset`, which clear `isCheckingOut`; cancelled with
      // the sender's task, it would leave the flag set and every later checkout refused.
      .outlivingSendersTask()

    case .checkoutSucceeded(let receipt):
      state.isCheckingOut = false
      state.pendingOrderKey = nil
      // Remove what was bought, not everything: an item added meanwhile was not bought, and
      // units stepped up meanwhile stay in the cart. A line that buys nothing (a quantity of
      // 0 or less, from a service in error) leaves its item alone, rather than adding units.
      var bought = receipt.unitsBought
      for (id, quantity) in bought {
        // Every unit bought (or the item gone): it stays in `bought`, and goes below.
        guard let held = state.items[id: id]?.quantity, quantity < held else { continue }
        state.items[id: id]?.quantity = held - quantity
        bought[id] = nil
      }
      state.removeItems { bought[$0.id] != nil }
      state.alert = .checkoutSucceeded(receipt)
      return .none

    case .checkoutFailed(let error):
      state.isCheckingOut = false
      // Refused: the service has the order and said no, so the next tap is a new order.
      // Unavailable: it may have the order, so the next tap keeps its key.
      if error != .serviceUnavailable { state.pendingOrderKey = nil }
      state.alert = .checkoutFailed(error)
      return .none

    case .screenDisappeared:
      state.isCheckingOut = false
      return .cancel(id: CancelID.checkout)

    case .alertDismissed:
      state.alert = nil
      return .none

    case .reset:
      state.isCheckingOut = false
      state.pendingOrderKey = nil
      state.alert = nil
      state.titleEditor = nil
      state.title = State.defaultTitle
      state.removeItems { _ in true }
      return .cancel(id: CancelID.checkout)

    case .items(.element(let id, .delegate(.removeRequested))):
      state.removeItems { $0.id == id }
      return .none

    case .items(.element(let id, .delegate(.quantityRefused))):
      if let item = state.items[id: id] {
        state.alert = .quantityOutOfRange(itemName: item.name)
      }
      return .none

    case .titleEditor(.presented(.delegate(.saved(let title)))):
      let title = title.trimmingCharacters(in: .whitespacesAndNewlines)
      guard !title.isEmpty else { return .none }
      state.title = title
      return .none

    case .titleEditor(.presented(.delegate(.cancelled))):
      // The editor only ever changed its own draft: the title is already as it was.
      return .none

    case .path(.push(let id, let route)):
      // The stack pushed it before this reducer runs; the screen below is what was on top.
      if !state.editorMayShow(route.itemID, above: state.path.dropLast().last) {
        state.path.pop(from: id)
      }
      return .none

    case .items, .path, .titleEditor:
      return .none
    }
  }
}

extension Cart.State {
  /// This cart as a new launch of the app starts from it, restored from a copy saved in an
  /// earlier one: not checking out, with the order's key kept.
  ///
  /// A copy saved while a checkout was in flight says it checks out (``isCheckingOut``), and
  /// decodes so, as a replay needs it. In a new process no request is there to answer it, and
  /// every checkout would be ignored. Here it is not checking out, as after
  /// ``Cart/Action/screenDisappeared``, and ``pendingOrderKey`` stays: the service may have
  /// the order, so the next checkout submits under the same key, and is not placed twice.
  /// Everything else is kept.
  ///
  /// ```swift
  /// let saved = try JSONDecoder().decode(Cart.State.self, from: data)
  /// let store = Store(initialState: saved.relaunched) { Cart(...) }
  /// ```
  public var relaunched: Self {
    var relaunched = self
    relaunched.isCheckingOut = false
    return relaunched
  }

  /// Whether the editor of the item with `id` may be pushed above the screen `top`: the
  /// item is in the cart, and its editor is not that screen already (a double tap pushes it
  /// once).
  func editorMayShow(_ id: CartItem.ID, above top: CartRoute?) -> Bool {
    items.contains(id: id) && top?.itemID != id
  }

  /// Removes the items that match, and pops the first screen that showed one of them,
  /// with every screen above it: no route may name an item that is gone.
  ///
  /// The cart's `forEach` reducers then end the removed items' and popped screens' effects.
  mutating func removeItems(where shouldBeRemoved: (CartItem) -> Bool) {
    items.removeAll(where: shouldBeRemoved)
    if let orphan = path.firstID(where: { !items.contains(id: $0.itemID) }) {
      path.pop(from: orphan)
    }
  }
}

extension CaseKey<Cart.Action, IdentifiedAction<CartItem.ID, ItemEditor.Action>> {
  /// The key of ``items(_:)``: for `forEach` and `scope`.
  public static var items: Self {
    Self(Cart.Action.items) { if case .items(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<Cart.Action, StackAction<CartRoute, Never>> {
  /// The key of ``path(_:)``: for `navigationStack` and `scope`.
  public static var path: Self {
    Self(Cart.Action.path) { if case .path(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<Cart.Action, PresentationAction<TitleEditor.Action>> {
  /// The key of ``titleEditor(_:)``: for `presents` and `scope`.
  public static var titleEditor: Self {
    Self(Cart.Action.titleEditor) { if case .titleEditor(let a) = $0 { a } else { nil } }
  }
}
