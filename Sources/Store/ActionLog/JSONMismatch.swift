import Effects

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A value of the wrong JSON type, or missing, explained.
enum JSONMismatch {
  /// A value of the wrong JSON type, or missing, in the words of JSON rather than of the
  /// Swift types the decoder names (`Dictionary<String, Any>` for an object): "expected a
  /// JSON object (one record per line), found an array.", "expected an integer at seq, found
  /// the string "1"."
  static func explain(
    expected type: Any.Type, _ context: DecodingError.Context, path: String, in line: Data?
  ) -> String {
    let place =
      context.codingPath.isEmpty && ObjectIdentifier(type) == ObjectIdentifier([String: Any].self)
      ? " (one record per line)" : path
    let expected = "expected \(jsonName(of: type))\(place)"
    // What a log holds where a secret goes may be the secret, written in by hand: only its
    // kind is named. So is a value found inside a record where an object or an array goes,
    // which may hold a secret one level down (`"pinChanged":"1234"`, its `_0` left out).
    let isSecret = type is any RedactedValue.Type
    let isContainer =
      !context.codingPath.isEmpty
      && (ObjectIdentifier(type) == ObjectIdentifier([String: Any].self)
        || ObjectIdentifier(type) == ObjectIdentifier([Any].self))
    let hidesValue = isSecret || isContainer
    let found =
      line.flatMap { line in
        JSONValue.reading(
          line,
          {
            $0.value(at: context.codingPath).map { hidesValue ? kind(of: $0) : describe($0) }
          }) ?? nil
      } ?? (hidesValue ? nil : foundInDescription(context.debugDescription))
    guard let found else { return "\(expected): \(context.debugDescription)" }
    guard !isSecret else {
      return "\(expected), found \(found), not shown: where a Secret goes, it may be the secret."
    }
    return "\(expected), found \(found)."
  }

  /// A type the decoder expected, as the JSON value it reads.
  static func jsonName(of type: Any.Type) -> String {
    // By identity: a cast would let `[String: Int]` pass for `[String: Any]`.
    switch ObjectIdentifier(type) {
    case ObjectIdentifier([String: Any].self): "a JSON object"
    case ObjectIdentifier([Any].self): "a JSON array"
    case ObjectIdentifier(String.self): "a string"
    case ObjectIdentifier(Bool.self): "true or false"
    default:
      switch type {
      case is any RedactedValue.Type:
        "a \(TypeName.name(of: type)) (\"\(Secret<String>.placeholder)\", or its value)"
      case is any FixedWidthInteger.Type: "an integer"
      case is any BinaryFloatingPoint.Type: "a number"
      default: TypeName.name(of: type)
      }
    }
  }

  /// A JSON value, as what was found instead of what was expected.
  static func describe(_ value: JSONValue) -> String {
    switch value {
    case .null: "null"
    case .bool(let value): "\(value)"
    case .number: "the number \(value.rendered(limit: 40))"
    case .string: "the string \(value.rendered(limit: 40))"
    case .array: "an array"
    case .object: "an object"
    }
  }

  /// The kind of a JSON value, without the value: what was found where a ``Secret`` goes.
  static func kind(of value: JSONValue) -> String {
    switch value {
    case .null: "null"
    case .bool: "a boolean"
    case .number: "a number"
    case .string: "a string"
    case .array: "an array"
    case .object: "an object"
    }
  }

  /// What the decoder's own description says it found (`Expected to decode Int but found a
  /// string instead.`), in the same words as ``describe(_:)``; for when the line is not at
  /// hand.
  static func foundInDescription(_ description: String) -> String? {
    if description.hasSuffix("found null value instead") { return "null" }
    guard let start = description.firstRange(of: " but found ")?.upperBound,
      let end = description[start...].firstRange(of: " instead")?.lowerBound
    else { return nil }
    let found = String(description[start..<end])
    return ["a dictionary": "an object", "number": "a number", "bool": "true or false"][found]
      ?? found
  }
}
