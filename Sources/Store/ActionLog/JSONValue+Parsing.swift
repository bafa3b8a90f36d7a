#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif
#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
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

extension JSONValue {
  /// What `body` makes of the JSON text `data`, read whole (as ``init(parsing:)`` reads it);
  /// `nil` when it is not JSON. The text is read, used and let go where the stack has room
  /// for its nesting (see `StackRoom`), so `body` must only read the value.
  ///
  /// - Complexity: O(*n*) for *n* bytes, besides `body`.
  static func reading<Result>(_ data: Data, _ body: (JSONValue) -> Result) -> Result? {
    StackRoom.run(reading: data) { JSONValue(parsing: data).map(body) }
  }
}

extension JSONValue {
  /// Reads two JSON texts to compare them, leaving out what is the same in both: a value
  /// that is the same byte for byte at the same place (the same key of objects at the same
  /// place, or the same position of arrays of the same length there) is read as `null` on
  /// both sides. ``differences(to:limit:)`` of the pair lists exactly what it lists for the
  /// texts read whole, since equal values make no line; a step that changed one row of
  /// thousands reads the path down to that row and the row, not every row twice.
  ///
  /// The texts are an encoder's (a state's canonical JSON): what is the same in both is
  /// only skipped, its grammar unchecked.
  ///
  /// - Returns: `nil` when what is read is not JSON.
  /// - Complexity: O(*n*) for *n* bytes: each level of a difference's path is scanned for
  ///   its keys or elements, four times the texts' size at most in all, then what is left of
  ///   the path is read whole; what differs is read whole.
  static func parsingDifferences(_ old: Data, _ new: Data) -> (old: JSONValue, new: JSONValue)? {
    var pair = JSONPairReader(
      old: JSONValueParser(bytes: [UInt8](old)), new: JSONValueParser(bytes: [UInt8](new)))
    guard let oldRange = pair.old.wholeValue(), let newRange = pair.new.wholeValue() else {
      return nil
    }
    return pair.values(oldRange, newRange, depth: 0)
  }
}

/// Two ``JSONValueParser``s read side by side, for ``JSONValue/parsingDifferences(_:_:)``.
private struct JSONPairReader {
  var old: JSONValueParser
  var new: JSONValueParser
  /// How many bytes the walk may still scan for the keys and elements of what differs:
  /// each level of a difference's path scans all below it again, so a difference under a
  /// chain of hundreds of levels would cost hundreds of scans. Past four scans of both texts,
  /// what is left of the path is read whole, which lists the same lines.
  private var scanBudget: Int

  init(old: JSONValueParser, new: JSONValueParser) {
    self.old = old
    self.new = new
    scanBudget = 4 * (old.bytes.count + new.bytes.count)
  }

  /// The values at `oldRange` of the old text and `newRange` of the new, `null` on both
  /// sides where they are the same bytes.
  mutating func values(_ oldRange: Range<Int>, _ newRange: Range<Int>, depth: Int)
    -> (old: JSONValue, new: JSONValue)?
  {
    if sameBytes(oldRange, newRange) { return (.null, .null) }
    scanBudget -= oldRange.count + newRange.count
    switch (old.bytes[oldRange.lowerBound], new.bytes[newRange.lowerBound]) {
    case _ where scanBudget < 0:
      break
    case (UInt8(ascii: "{"), UInt8(ascii: "{")) where depth < JSONCheck.maximumDepth:
      guard let oldMembers = old.members(at: oldRange.lowerBound, depth: depth),
        let newMembers = new.members(at: newRange.lowerBound, depth: depth)
      else { return nil }
      // The last of a repeated key counts, as when an object is read whole.
      let newByKey = Dictionary(newMembers, uniquingKeysWith: { _, last in last })
      let oldByKey = Dictionary(oldMembers, uniquingKeysWith: { _, last in last })
      var oldFields: [String: JSONValue] = [:]
      var newFields: [String: JSONValue] = [:]
      for (key, oldValue) in oldByKey {
        if let newValue = newByKey[key] {
          guard let pair = values(oldValue, newValue, depth: depth + 1) else { return nil }
          (oldFields[key], newFields[key]) = pair
        } else {
          guard let value = old.value(in: oldValue, depth: depth + 1) else { return nil }
          oldFields[key] = value
        }
      }
      for (key, newValue) in newByKey where oldByKey[key] == nil {
        guard let value = new.value(in: newValue, depth: depth + 1) else { return nil }
        newFields[key] = value
      }
      return (.object(oldFields), .object(newFields))
    case (UInt8(ascii: "["), UInt8(ascii: "[")) where depth < JSONCheck.maximumDepth:
      guard let oldElements = old.elements(at: oldRange.lowerBound, depth: depth),
        let newElements = new.elements(at: newRange.lowerBound, depth: depth)
      else { return nil }
      // Arrays of other lengths are compared element by element from both ends, and their
      // elements added or removed are shown: read whole.
      guard oldElements.count == newElements.count else { break }
      var oldValues: [JSONValue] = []
      var newValues: [JSONValue] = []
      oldValues.reserveCapacity(oldElements.count)
      newValues.reserveCapacity(newElements.count)
      for (oldElement, newElement) in zip(oldElements, newElements) {
        guard let pair = values(oldElement, newElement, depth: depth + 1) else { return nil }
        oldValues.append(pair.old)
        newValues.append(pair.new)
      }
      return (.array(oldValues), .array(newValues))
    default:
      break
    }
    guard let oldValue = old.value(in: oldRange, depth: depth),
      let newValue = new.value(in: newRange, depth: depth)
    else { return nil }
    return (oldValue, newValue)
  }

  /// Whether the old text's bytes at `oldRange` are the new text's at `newRange`.
  private func sameBytes(_ oldRange: Range<Int>, _ newRange: Range<Int>) -> Bool {
    guard oldRange.count == newRange.count else { return false }
    return old.bytes.withUnsafeBytes { oldBytes in
      new.bytes.withUnsafeBytes { newBytes in
        memcmp(
          oldBytes.baseAddress! + oldRange.lowerBound,
          newBytes.baseAddress! + newRange.lowerBound, oldRange.count) == 0
      }
    }
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
    var fields: [String: JSONValue] = [:]
    let isWhole = readList(closing: UInt8(ascii: "}")) { parser in
      guard let key = parser.memberKey(), let value = parser.value(depth: depth + 1) else {
        return false
      }
      fields[key] = value
      return true
    }
    return isWhole ? .object(fields) : nil
  }

  private mutating func array(depth: Int) -> JSONValue? {
    var elements: [JSONValue] = []
    let isWhole = readList(closing: UInt8(ascii: "]")) { parser in
      guard let value = parser.value(depth: depth + 1) else { return false }
      elements.append(value)
      return true
    }
    return isWhole ? .array(elements) : nil
  }

  /// Reads an object or an array from its opening bracket at `index` to past its `closing`
  /// one: `item` reads each member or element (called at its first byte, spaces skipped) and
  /// says whether it was one; the commas between them are checked here.
  private mutating func readList(closing: UInt8, _ item: (inout JSONValueParser) -> Bool)
    -> Bool
  {
    index += 1
    skipSpace()
    if index < bytes.count, bytes[index] == closing {
      index += 1
      return true
    }
    while true {
      skipSpace()
      guard item(&self) else { return false }
      skipSpace()
      guard index < bytes.count else { return false }
      index += 1
      switch bytes[index - 1] {
      case UInt8(ascii: ","): continue
      case closing: return true
      default: return false
      }
    }
  }

  /// An object member's key, read with the colon and the spaces after it.
  private mutating func memberKey() -> String? {
    guard index < bytes.count, bytes[index] == UInt8(ascii: "\""), let key = string() else {
      return nil
    }
    skipSpace()
    guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return nil }
    index += 1
    skipSpace()
    return key
  }

  /// Where the text's one value is, spaces around it left out; `nil` when the text is not
  /// one value.
  mutating func wholeValue() -> Range<Int>? {
    skipSpace()
    let start = index
    guard skipValue(depth: 0) else { return nil }
    let end = index
    skipSpace()
    guard index == bytes.count else { return nil }
    return start..<end
  }

  /// The value at `range`, read whole; `nil` unless it is JSON that ends there.
  mutating func value(in range: Range<Int>, depth: Int) -> JSONValue? {
    index = range.lowerBound
    guard let value = value(depth: depth), index == range.upperBound else { return nil }
    return value
  }

  /// The keys of the object starting at `start`, each with where its value is.
  mutating func members(at start: Int, depth: Int) -> [(String, Range<Int>)]? {
    index = start
    var members: [(String, Range<Int>)] = []
    let isWhole = readList(closing: UInt8(ascii: "}")) { parser in
      guard let key = parser.memberKey() else { return false }
      let valueStart = parser.index
      guard parser.skipValue(depth: depth + 1) else { return false }
      members.append((key, valueStart..<parser.index))
      return true
    }
    return isWhole ? members : nil
  }

  /// Where the elements of the array starting at `start` are.
  mutating func elements(at start: Int, depth: Int) -> [Range<Int>]? {
    index = start
    var elements: [Range<Int>] = []
    let isWhole = readList(closing: UInt8(ascii: "]")) { parser in
      let elementStart = parser.index
      guard parser.skipValue(depth: depth + 1) else { return false }
      elements.append(elementStart..<parser.index)
      return true
    }
    return isWhole ? elements : nil
  }

  /// Moves past the value at `index` without reading it (see `JSONGrammar.endOfValue`),
  /// its arrays and objects nested no deeper than a whole read allows at `depth`; `false`
  /// where it cannot find the end.
  mutating func skipValue(depth: Int) -> Bool {
    guard
      let end = JSONGrammar.endOfValue(
        in: bytes, from: index, nestingLimit: JSONCheck.maximumDepth - depth)
    else { return false }
    index = end
    return true
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
          let next = index
          index += 2
          guard let low = hex() else { return nil }
          if (0xDC00...0xDFFF).contains(low) {
            unit = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
          } else {
            // A high surrogate followed by another escape than its pair is lone, which
            // JSON's grammar allows: the escape after it is read on its own (it may start a
            // pair), as `JSONCheck` reads it.
            index = next
          }
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
