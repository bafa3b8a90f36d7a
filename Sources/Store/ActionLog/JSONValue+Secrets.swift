extension JSONValue {
  /// This value with the placeholder of a ``Secret`` wherever `reencoded` (the same value
  /// decoded and encoded again) has one: what a log held there in plain text must not be
  /// quoted in a message, and is not a difference the replay made.
  ///
  /// A value is masked as the value in its place in `reencoded`: an object's member as the
  /// member of its key, an array's element as the element at its position. Where that place
  /// holds nothing of its kind (an element past the end of a shorter array, as when a set's
  /// repeated values decoded as one; an enum case the element at that position is not, as
  /// when a set's elements come in another order), it is masked wherever any value lined up
  /// with it holds a secret: any element of that array, and of the arrays it is in.
  ///
  /// - Parameters:
  ///   - reencoded: The value decoded and encoded again.
  ///   - hidingUnmatched: Whether a string, number or Boolean that nothing in `reencoded`
  ///     lines up with (when `reencoded` is another value of the type, not this one decoded)
  ///     is the placeholder too: it may be a secret, of a place the other value has not.
  /// - Complexity: O(*n* + *m*) for values of *n* and *m* nodes: each element is masked
  ///   against one element and one summary of the other array, however many shapes it has.
  func maskingSecrets(as reencoded: JSONValue, hidingUnmatched: Bool = false) -> JSONValue {
    masking(as: reencoded, places: SecretPlaces(of: reencoded), hidingUnmatched)
  }

  /// This value masked as `counterpart`, lined up with it, and as `places` (which holds
  /// `counterpart`) where it does not line up.
  private func masking(
    as counterpart: JSONValue, places: SecretPlaces?, _ hidingUnmatched: Bool
  ) -> JSONValue {
    switch (self, counterpart) {
    case (_, .string(let text)) where text == Secret<String>.placeholder:
      return counterpart
    case (.array(let values), .array(let others)):
      return .array(
        values.indices.map { index in
          index < others.count
            ? values[index].masking(as: others[index], places: places?.elements, hidingUnmatched)
            : values[index].masking(by: places?.elements, hidingUnmatched)
        })
    case (.object(let fields), .object(let others)):
      return .object(
        fields.reduce(into: [:]) { masked, field in
          let place = places?.fields[field.key]
          masked[field.key] =
            others[field.key].map {
              field.value.masking(as: $0, places: place, hidingUnmatched)
            } ?? field.value.masking(by: place, hidingUnmatched)
        })
    case (.array, _), (.object, _), (_, .array), (_, .object):
      return masking(by: places, hidingUnmatched)
    default:
      // A scalar lined up with one that is not a secret.
      return self
    }
  }

  /// This value masked wherever `places` says a value lined up with it holds a secret; with
  /// nothing lined up (`places` is `nil`), masked whole when `hidingUnmatched`.
  private func masking(by places: SecretPlaces?, _ hidingUnmatched: Bool) -> JSONValue {
    guard let places else { return hidingUnmatched ? hidden : self }
    switch self {
    case .null: return self
    case _ where places.isSecret: return .string(Secret<String>.placeholder)
    case .array(let values):
      return .array(values.map { $0.masking(by: places.elements, hidingUnmatched) })
    case .object(let fields):
      return .object(
        fields.reduce(into: [:]) { masked, field in
          masked[field.key] = field.value.masking(by: places.fields[field.key], hidingUnmatched)
        })
    default:
      return hidingUnmatched && !places.holdsPlainValue
        ? .string(Secret<String>.placeholder) : self
    }
  }

  /// This value with every string, number and Boolean in it the placeholder.
  private var hidden: JSONValue {
    switch self {
    case .null: self
    case .array(let values): .array(values.map(\.hidden))
    case .object(let fields): .object(fields.mapValues(\.hidden))
    default: .string(Secret<String>.placeholder)
    }
  }
}

/// What the values at one place of a JSON value hold, merged over every element of each array
/// the place is in: whether one is a secret's placeholder, whether one is a string, number or
/// Boolean that is not, and the same for their members and elements. A value that does not
/// line up with its counterpart is masked as these say.
private final class SecretPlaces {
  /// Whether a value here is the placeholder.
  private(set) var isSecret = false
  /// Whether a value here is a string, number or Boolean other than the placeholder.
  private(set) var holdsPlainValue = false
  /// The places of the objects' members, by key.
  private(set) var fields: [String: SecretPlaces] = [:]
  /// The place of the arrays' elements, if an array is here.
  private(set) var elements: SecretPlaces?

  /// The places of `value`.
  ///
  /// - Complexity: O(*n*) for a value of *n* nodes.
  convenience init(of value: JSONValue) {
    self.init()
    add(value)
  }

  private init() {}

  private func add(_ value: JSONValue) {
    switch value {
    case .null:
      break
    case .string(let text) where text == Secret<String>.placeholder:
      isSecret = true
    case .array(let values):
      let elements = self.elements ?? SecretPlaces()
      self.elements = elements
      for element in values { elements.add(element) }
    case .object(let members):
      for (key, member) in members {
        let place = fields[key] ?? SecretPlaces()
        fields[key] = place
        place.add(member)
      }
    case .bool, .number, .string:
      holdsPlainValue = true
    }
  }
}
