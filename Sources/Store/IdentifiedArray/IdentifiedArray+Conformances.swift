import Effects

extension IdentifiedArray: Equatable where Element: Equatable {
  /// Whether both arrays hold equal elements in the same order.
  ///
  /// - Complexity: O(*n*).
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.storage == rhs.storage
  }
}

extension IdentifiedArray: Hashable where Element: Hashable {
  /// Hashes the elements in order.
  ///
  /// - Complexity: O(*n*).
  public func hash(into hasher: inout Hasher) {
    hasher.combine(storage.count)
    for element in storage { hasher.combine(element) }
  }
}

extension IdentifiedArray: ExpressibleByArrayLiteral {
  /// Creates an array from a literal.
  ///
  /// - Parameter elements: The elements, in order.
  /// - Precondition: The ids are unique, as keys of a dictionary literal must be.
  /// - Complexity: O(*n*).
  public init(arrayLiteral elements: Element...) {
    self.init()
    if let (error, id) = appendUnique(elements) {
      preconditionFailure(
        Self.uniqueElementsTrapMessage("IdentifiedArray literal", error, id: id))
    }
  }
}

extension IdentifiedArray: Encodable where Element: Encodable {
  /// Encodes the elements as a JSON-style array, in order.
  ///
  /// - Parameter encoder: The encoder.
  /// - Throws: What the encoder throws, for the array or an element.
  /// - Complexity: O(*n*).
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.unkeyedContainer()
    for element in storage { try container.encode(element) }
  }
}

extension IdentifiedArray: Decodable where Element: Decodable {
  /// Decodes an array of elements, failing on a repeated id.
  ///
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError.dataCorrupted` naming the repeated id and its positions, or an
  ///   id that is not equal to itself (a floating-point NaN), at that element (of a repeated
  ///   id, the later): its coding path is the array's and the element's index key (`Index 2`,
  ///   as `JSONDecoder` gives an error inside an element). Or any error decoding an element.
  /// - Complexity: O(*n*).
  public init(from decoder: any Decoder) throws {
    var container = try decoder.unkeyedContainer()
    self.init()
    while !container.isAtEnd {
      let element = try container.decode(Element.self)
      if let existing = slot(of: element.id) {
        throw DecodingError.dataCorrupted(
          DecodingError.Context(
            codingPath: container.codingPath + [ElementKey(position: storage.count)],
            debugDescription: """
              Duplicate id \(describeID(element.id)) at positions \(existing) and \
              \(storage.count) of an IdentifiedArray; ids must be unique.
              """
          )
        )
      }
      guard element.id == element.id else {
        throw DecodingError.dataCorrupted(
          DecodingError.Context(
            codingPath: container.codingPath + [ElementKey(position: storage.count)],
            debugDescription: IdentifiedArrayError.idNotEqualToItself(
              describeID(element.id), position: storage.count
            ).description
          )
        )
      }
      appendIndexed(element)
    }
  }
}

/// The coding key of an element of an unkeyed container, as `JSONDecoder` writes it in a
/// coding path: `Index 2`, with 2 as its `intValue`.
private struct ElementKey: CodingKey {
  var stringValue: String
  var intValue: Int?

  init(position: Int) {
    (stringValue, intValue) = ("Index \(position)", position)
  }

  init?(stringValue: String) { nil }

  init?(intValue: Int) { self.init(position: intValue) }
}

extension IdentifiedArray: CustomStringConvertible {
  /// The elements, as an array prints them.
  ///
  /// - Complexity: O(*n*).
  public var description: String {
    elements.description
  }
}

/// Written inside an action's description as an array literal, as a test writes one, its
/// elements as the rest of the action's values are (its own description spells out their
/// modules).
extension IdentifiedArray: DescribedAsArray {
  package static var describedTypeName: String? { nil }
}

extension IdentifiedArray: CustomReflectable {
  /// A mirror that shows the elements as a collection, for dumps and test diffs.
  ///
  /// - Complexity: O(*n*).
  public var customMirror: Mirror {
    Mirror(self, unlabeledChildren: elements, displayStyle: .collection)
  }
}
