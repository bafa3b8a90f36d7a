#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension JSONValue {
  /// Reads the JSON text `data`, keeping every number as written; `nil` when it is not
  /// JSON, or nests arrays and objects deeper than ``JSONCheck/maximumDepth``.
  ///
  /// Used where values are compared or shown (a divergence, a step's changes), not to
  /// decode lines: `JSONDecoder` has no way to give a number's text.
  ///
  /// - Complexity: O(*n*) for *n* bytes.
  init?(parsing data: Data) {
    var parser = JSONValueParser(bytes: [UInt8](data))
    guard let value = parser.value(depth: 0) else { return nil }
    parser.skipSpace()
    guard parser.index == parser.bytes.count else { return nil }
    self = value
  }
}

/// Reads JSON text into a ``JSONValue``.
private struct JSONValueParser {
  let bytes: [UInt8]
  var index = 0

  init(bytes: [UInt8]) {
    self.bytes = bytes
  }

  mutating func skipSpace() {
    while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
  }

  mutating func value(depth: Int) -> JSONValue? {
    skipSpace()
    guard index < bytes.count else { return nil }
    switch bytes[index] {
    case UInt8(ascii: "{"):
      guard depth < JSONCheck.maximumDepth else { return nil }
      return object(depth: depth)
    case UInt8(ascii: "["):
      guard depth < JSONCheck.maximumDepth else { return nil }
      return array(depth: depth)
    case UInt8(ascii: "\""):
      return string().map(JSONValue.string)
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
      return number()
    default:
      for (literal, value) in [
        ("true", JSONValue.bool(true)), ("false", .bool(false)), ("null", .null),
      ]
      where bytes[index...].starts(with: literal.utf8) {
        index += literal.utf8.count
        return value
      }
      return nil
    }
  }

  private mutating func object(depth: Int) -> JSONValue? {
    index += 1
    var fields: [String: JSONValue] = [:]
    skipSpace()
    if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
      index += 1
      return .object(fields)
    }
    while true {
      skipSpace()
      guard index < bytes.count, bytes[index] == UInt8(ascii: "\""), let key = string() else {
        return nil
      }
      skipSpace()
      guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return nil }
      index += 1
      guard let value = value(depth: depth + 1) else { return nil }
      fields[key] = value
      skipSpace()
      guard index < bytes.count else { return nil }
      index += 1
      switch bytes[index - 1] {
      case UInt8(ascii: ","): continue
      case UInt8(ascii: "}"): return .object(fields)
      default: return nil
      }
    }
  }

  private mutating func array(depth: Int) -> JSONValue? {
    index += 1
    var elements: [JSONValue] = []
    skipSpace()
    if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
      index += 1
      return .array(elements)
    }
    while true {
      guard let value = value(depth: depth + 1) else { return nil }
      elements.append(value)
      skipSpace()
      guard index < bytes.count else { return nil }
      index += 1
      switch bytes[index - 1] {
      case UInt8(ascii: ","): continue
      case UInt8(ascii: "]"): return .array(elements)
      default: return nil
      }
    }
  }

  /// A string, its escapes decoded.
  private mutating func string() -> String? {
    index += 1
    var text: [UInt8] = []
    while index < bytes.count {
      let byte = bytes[index]
      index += 1
      switch byte {
      case UInt8(ascii: "\""):
        return String(decoding: text, as: UTF8.self)
      case UInt8(ascii: "\\"):
        guard index < bytes.count else { return nil }
        let escaped = bytes[index]
        index += 1
        if let byte = JSONGrammar.escapedByte(escaped) {
          text.append(byte)
          continue
        }
        guard escaped == UInt8(ascii: "u"), var unit = hex() else { return nil }
        if (0xD800...0xDBFF).contains(unit), bytes[index...].starts(with: #"\u"#.utf8) {
          index += 2
          guard let low = hex(), (0xDC00...0xDFFF).contains(low) else { return nil }
          unit = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
        }
        // A lone surrogate is no character: shown as the replacement character.
        text += Array(String(Unicode.Scalar(unit).map(Character.init) ?? "\u{FFFD}").utf8)
      default:
        guard byte >= 0x20 else { return nil }
        text.append(byte)
      }
    }
    return nil
  }

  /// The four hexadecimal digits of a `\u` escape.
  private mutating func hex() -> UInt32? {
    guard let unit = JSONGrammar.hexUnit(in: bytes, at: index) else { return nil }
    index += 4
    return unit
  }

  /// A number, checked against JSON's grammar and kept as written.
  private mutating func number() -> JSONValue? {
    let start = index
    let scan = JSONGrammar.scanNumber(in: bytes, from: start)
    guard scan.problem == nil else { return nil }
    index = scan.end
    return .number(JSONNumber(String(decoding: bytes[start..<index], as: UTF8.self)))
  }
}
