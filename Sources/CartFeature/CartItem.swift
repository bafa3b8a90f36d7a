import Foundation

/// One line of a cart: a named product, how many of it, and a note.
///
/// The item's ``id`` is its identity for as long as it is in the cart: it keys the item's row
/// store, the lifetime of its effects and the editor screen that shows it. Features never
/// call `UUID()` for it; ``Cart`` takes a `UUIDGenerator`, so tests know every id in advance.
///
/// ``quantity`` stays in ``quantityRange`` for every item the cart makes, edits or decodes:
/// ``Cart`` adds items of quantity 1, ``ItemEditor`` refuses any change that would leave the
/// range, ``Cart/Action/itemAdded(_:)`` ignores an item outside it, and a cart's state
/// refuses one when it decodes, so a state read back from an action log holds the same
/// invariant as a live one. Its ``name`` is never blank in a cart the same way (the cart drops
/// a blank name, and refuses one when it decodes). An item alone decodes whatever its
/// quantity or name: as an action's payload or a receipt's line, it is a message, which the
/// cart may ignore.
/// ``init(id:name:quantity:note:)`` itself does not check: a test may build any item.
public struct CartItem: Identifiable, Equatable, Hashable, Sendable {
  /// The quantities an item may have: 1 through 99.
  public static let quantityRange: ClosedRange<Int> = 1...99

  /// The item's identity, stable while it is in the cart.
  public let id: UUID
  /// The product's name, as the user typed it.
  public var name: String
  /// How many of the product: in ``quantityRange`` in every cart (see ``CartItem``).
  public var quantity: Int
  /// A free-form note for this line, such as "the ripe ones".
  public var note: String

  /// Creates an item.
  ///
  /// - Parameters:
  ///   - id: The item's identity, from the feature's `UUIDGenerator`.
  ///   - name: The product's name.
  ///   - quantity: How many; a cart takes only an item whose quantity is in
  ///     ``quantityRange``.
  ///   - note: A note for this line.
  public init(id: UUID, name: String, quantity: Int = 1, note: String = "") {
    self.id = id
    self.name = name
    self.quantity = quantity
    self.note = note
  }
}
