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
  ///   id that is not equal to itself (a floating-point NaN), or any error decoding an
  ///   element.
  /// - Complexity: O(*n*).
  public init(from decoder: any Decoder) throws {
    var container = try decoder.unkeyedContainer()
    self.init()
    while !container.isAtEnd {
      let element = try container.decode(Element.self)
      if let existing = slot(of: element.id) {
        throw DecodingError.dataCorrupted(
          DecodingError.Context(
            codingPath: container.codingPath,
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
            codingPath: container.codingPath,
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
