import Foundation

extension CartItem: Codable {
  private enum CodingKeys: String, CodingKey {
    case id, name, quantity, note
  }

  /// Decodes an item as ``encode(to:)`` wrote it, whatever its quantity or name: an item is
  /// also a message (``Cart/Action/itemAdded(_:)``, a ``Receipt``'s line), and the cart
  /// ignores an added item outside ``quantityRange``, or with a blank name, live, so a log
  /// that recorded one must read it back. A cart's state refuses such an item when it
  /// decodes (``Cart/State/init(from:)``).
  ///
  /// - Parameter decoder: The decoder.
  /// - Throws: Any error decoding a field.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      id: try container.decode(UUID.self, forKey: .id),
      name: try container.decode(String.self, forKey: .name),
      quantity: try container.decode(Int.self, forKey: .quantity),
      note: try container.decode(String.self, forKey: .note)
    )
  }

  /// Encodes the item's four fields.
  ///
  /// - Parameter encoder: The encoder.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(id, forKey: .id)
    try container.encode(name, forKey: .name)
    try container.encode(quantity, forKey: .quantity)
    try container.encode(note, forKey: .note)
  }
}
