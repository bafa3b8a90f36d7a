import Foundation

extension CartItem: Codable {
  private enum CodingKeys: String, CodingKey {
    case id, name, quantity, note
  }

  /// Decodes an item, refusing a quantity outside ``quantityRange``.
  ///
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError.dataCorrupted` when the quantity is out of range, or any error
  ///   decoding a field.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let quantity = try container.decode(Int.self, forKey: .quantity)
    guard Self.quantityRange.contains(quantity) else {
      throw DecodingError.dataCorruptedError(
        forKey: .quantity,
        in: container,
        debugDescription: "Quantity \(quantity) is outside \(Self.quantityRange)."
      )
    }
    self.init(
      id: try container.decode(UUID.self, forKey: .id),
      name: try container.decode(String.self, forKey: .name),
      quantity: quantity,
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
