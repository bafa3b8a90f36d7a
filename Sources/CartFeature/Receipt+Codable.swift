import Foundation

extension Receipt: Codable {
  private enum CodingKeys: String, CodingKey {
    case id, items
  }

  /// A receipt's line, decoded as the service wrote it: unlike a ``CartItem`` in the cart,
  /// its quantity may be outside ``CartItem/quantityRange``. The cart passes over a line of no
  /// units or fewer, and a line of more than an item holds removes it; a log that recorded
  /// such an answer must replay it.
  private struct Line: Decodable {
    var id: UUID
    var name: String
    var quantity: Int
    var note: String
  }

  /// Decodes a receipt, taking each line's quantity as written.
  ///
  /// - Parameter decoder: The decoder.
  /// - Throws: Any error decoding a field.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let lines = try container.decode([Line].self, forKey: .items)
    self.init(
      id: try container.decode(UUID.self, forKey: .id),
      items: lines.map {
        CartItem(id: $0.id, name: $0.name, quantity: $0.quantity, note: $0.note)
      }
    )
  }

  /// Encodes the receipt's id and its lines, each as a ``CartItem`` encodes itself.
  ///
  /// - Parameter encoder: The encoder.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(id, forKey: .id)
    try container.encode(items, forKey: .items)
  }
}
