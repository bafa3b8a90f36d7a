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

/// Finds a key repeated in one JSON object of a line, or a trailing comma.
///
/// `JSONDecoder` keeps the first of two equal keys, where other readers (Python, `jq`) keep
/// the last, so a line with one means different things to different tools: the replay
/// refuses it. Keys are equal as Swift strings are: `"\u00E9"` and `"e\u0301"` (both "é",
/// composed and not) are one key to `JSONDecoder`, which compares them so, though their bytes
/// differ. `JSONDecoder` on Linux also reads a comma before a closing bracket (`[1,]`), which
/// JSON does not allow and other readers refuse, so the replay refuses it too. One pass over
/// the bytes, reusing its buffers from line to line; it does not otherwise validate the JSON
/// (the decoder does), and gives up quietly on text that is not.
struct DuplicateKeyScanner {
  /// What the scan found.
  enum Problem: Equatable, CustomStringConvertible {
    /// A key repeated in one object.
    case duplicate(Duplicate)
    /// A comma at `column` (counted in bytes from 1) right before the bracket that closes the
    /// object or array at `path` (empty for the line's own).
    case trailingComma(column: Int, path: String)

    /// The problem, as part of a sentence naming the line.
    var description: String {
      switch self {
      case .duplicate(let duplicate):
        return duplicate.description
      case .trailingComma(let column, let path):
        let place = path.isEmpty ? "" : " at \(LogText.escaped(path))"
        return "invalid JSON: \(JSONCheck.trailingComma(at: column, place: place))."
      }
    }
  }

  /// A key repeated in one object, and where that object is.
  struct Duplicate: Equatable, CustomStringConvertible {
    /// The key, its escapes decoded.
    var key: String
    /// The object's place, such as `action.cart._0`, or empty for the line's own object.
    var path: String
    /// The key as first written, when its Unicode scalars differ from the repeat's (one
    /// composed, the other not): equal as Swift strings, but not to every reader.
    var firstSpelling: String? = nil

    /// The problem, as part of a sentence naming the line.
    var description: String {
      let place = path.isEmpty ? "the line's object" : "the object at \(LogText.escaped(path))"
      guard let firstSpelling else {
        return """
          the key \(LogText.quoted(key)) appears twice in \(place) (readers disagree on which \
          one counts).
          """
      }
      return """
        the key \(LogText.quoted(key)) appears twice in \(place), written \
        \(Self.quoted(firstSpelling)) and \(Self.quoted(key)): Swift reads them as one \
        key, other readers as two.
        """
    }

    /// `text` as a JSON string, in quotes: every scalar outside printable ASCII written as a
    /// `\u` escape, so that two spellings of one character look different (and a control
    /// character cannot reach the terminal), a quote or a backslash escaped. Past 120
    /// scalars, the rest is left out and counted, as ``LogText/quoted(_:limit:)`` does.
    private static func quoted(_ text: String) -> String {
      let scalars = text.unicodeScalars
      guard scalars.count <= 120 else {
        return quoted(String(String.UnicodeScalarView(scalars.prefix(120))))
          + "… (\(scalars.count) characters)"
      }
      return "\"" + escaped(scalars) + "\""
    }

    private static func escaped(_ scalars: String.UnicodeScalarView) -> String {
      scalars.map { scalar in
        if scalar == "\"" || scalar == "\\" { return "\\" + String(scalar) }
        guard !(" "..."~").contains(scalar) else { return String(scalar) }
        return String(scalar).utf16.map { unit in
          let hex = String(unit, radix: 16, uppercase: true)
          return "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        }.joined()
      }.joined()
    }
  }

  private struct Frame {
    var isObject: Bool
    /// Where this object's keys start in `keys`.
    var keyStart: Int
    var expectsKey: Bool
    /// For an array, the index of the current element.
    var position = 0
  }

  /// A key's text between its quotes, as byte offsets in the line.
  private struct Key {
    var start: Int
    var end: Int
    var hasEscape: Bool
    var isASCII: Bool
    /// The hash of the key's text as a Swift string, once it is needed (to compare the key
    /// with one that is not plain): equal strings hash the same, canonically equivalent
    /// spellings included, so keys whose hashes differ differ.
    var hash: Int? = nil
    /// Whether the key is ASCII with no escape, so that its bytes are its text: another key
    /// is equal to it exactly when its bytes are the same.
    var isPlain: Bool { isASCII && !hasEscape }
  }

  /// A key's text could not be read (invalid UTF-8, a lone surrogate, a bad escape): the
  /// line is not JSON that `JSONDecoder` reads, and the scan gives up.
  private struct Unreadable: Error {}

  /// Up to this many keys, each key is compared with the object's others as it is read;
  /// past it, the object's keys are sorted when it closes.
  private static let linearLimit = 16

  private var frames: [Frame] = []
  private var keys: [Key] = []
  /// Whether the last line holds a number that a `Double` may round to a whole number it is
  /// not: one with an exponent, or a fraction among more than 15 digits. `JSONDecoder` reads
  /// such a number into an integer field as that whole number (`0.99999999999999999999` as
  /// 1), so the replay checks the fields of such a line (see
  /// `ActionLogReplayer.roundedInteger(in:decoding:)`). With at most 15 digits and no
  /// exponent, a number that is not whole is more than half a unit in the last place of its
  /// `Double` away from any whole number, and is refused as such.
  private(set) var holdsRoundableNumber = false
  /// How many keys the scan of the last line decoded (each at most once): those that are
  /// not plain, and the plain ones compared with them.
  private(set) var decodedKeyCount = 0

  /// The first repeated key or trailing comma in `line`, or `nil` when there is none (or the
  /// line is not JSON).
  mutating func firstProblem(in line: Data) -> Problem? {
    frames.removeAll(keepingCapacity: true)
    keys.removeAll(keepingCapacity: true)
    decodedKeyCount = 0
    holdsRoundableNumber = false
    return line.withUnsafeBytes { scan($0) }
  }

  private mutating func scan(_ bytes: UnsafeRawBufferPointer) -> Problem? {
    let count = bytes.count
    var index = 0
    while index < count {
      switch bytes[index] {
      case UInt8(ascii: "\""):
        let start = index + 1
        guard let end = Self.closingQuote(after: start, bytes) else { return nil }
        index = end + 1
        guard let top = frames.indices.last, frames[top].isObject, frames[top].expectsKey
        else { continue }
        frames[top].expectsKey = false
        // Keys are short: a plain loop costs less than a call to `memchr`.
        var hasEscape = false
        var isASCII = true
        for offset in start..<end {
          hasEscape = hasEscape || bytes[offset] == UInt8(ascii: "\\")
          isASCII = isASCII && bytes[offset] < 0x80
        }
        let isLinear = keys.count - frames[top].keyStart < Self.linearLimit
        keys.append(Key(start: start, end: end, hasEscape: hasEscape, isASCII: isASCII))
        if isLinear {
          let last = keys.count - 1
          // By index: a slice of `keys` would retain its buffer at every key.
          var other = frames[top].keyStart
          while other < last {
            do {
              if try equal(other, last, bytes) {
                return .duplicate(duplicate(keys[other], keys[last], bytes))
              }
            } catch {
              return nil
            }
            other += 1
          }
        }
      case UInt8(ascii: "{"):
        frames.append(Frame(isObject: true, keyStart: keys.count, expectsKey: true))
        index += 1
      case UInt8(ascii: "["):
        frames.append(Frame(isObject: false, keyStart: keys.count, expectsKey: false))
        index += 1
      case UInt8(ascii: "}"), UInt8(ascii: "]"):
        guard let frame = frames.last else { return nil }
        // What comes before the bracket: in the compact lines the recorder writes, the byte
        // right before it, so this costs one comparison.
        var before = index - 1
        while before > 0, Self.isSpace(bytes[before]) { before -= 1 }
        if bytes[before] == UInt8(ascii: ",") {
          return .trailingComma(column: before + 1, path: path(of: frames.count - 1, bytes))
        }
        if keys.count - frame.keyStart > Self.linearLimit {
          do {
            if let (first, repeated) = try repeatedKey(in: frame.keyStart..<keys.count, bytes) {
              return .duplicate(duplicate(first, repeated, bytes))
            }
          } catch {
            return nil
          }
        }
        keys.removeLast(keys.count - frame.keyStart)
        frames.removeLast()
        index += 1
      case UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"):
        // Outside strings, after a digit: in a number (`true` and `false` have none before
        // their `e`).
        if !holdsRoundableNumber, index > 0, Self.isDigit(bytes[index - 1]) {
          holdsRoundableNumber = Self.mayRound(at: index, bytes)
        }
        index += 1
      case UInt8(ascii: ","):
        if let top = frames.indices.last {
          if frames[top].isObject {
            frames[top].expectsKey = true
          } else {
            frames[top].position += 1
          }
        }
        index += 1
      default:
        index += 1
      }
    }
    return nil
  }

  /// The index of the quote that ends the string whose text starts at `start`: the first
  /// one after an even number of backslashes. Found with `memchr`, which keeps a long string
  /// value (most of a checkpoint's bytes) cheap to step over.
  private static func closingQuote(after start: Int, _ bytes: UnsafeRawBufferPointer) -> Int? {
    var from = start
    while from < bytes.count {
      guard
        let found = memchr(bytes.baseAddress! + from, Int32(UInt8(ascii: "\"")), bytes.count - from)
      else { return nil }
      let quote = bytes.baseAddress!.distance(to: UnsafeRawPointer(found))
      var backslashes = 0
      while quote - backslashes > start, bytes[quote - backslashes - 1] == UInt8(ascii: "\\") {
        backslashes += 1
      }
      if backslashes.isMultiple(of: 2) { return quote }
      from = quote + 1
    }
    return nil
  }

  /// Two keys that are equal among `keys[range]`: sorted by their bytes when all are plain;
  /// or else grouped by the hash of their text as Swift strings, which is consistent with
  /// `==` (`String.<` is not a total order consistent with it for canonically equivalent
  /// spellings, so sorting by it can keep two spellings of one key apart). Of several
  /// repeats, the one read first is named, after the first key equal to it.
  ///
  /// - Complexity: O(*k* log *k*) for *k* keys, each decoded at most once.
  private mutating func repeatedKey(in range: Range<Int>, _ bytes: UnsafeRawBufferPointer)
    throws(Unreadable) -> (Key, Key)?
  {
    if keys[range].allSatisfy(\.isPlain) {
      // Typed, with statements rather than a ternary in one chain: written as one expression,
      // the type checker took 0.7 to 0.9 s over it, near the build's limit of one second.
      typealias Keyed = (key: Key, text: [UInt8])
      let keyed: [Keyed] = keys[range].map { (key: Key) -> Keyed in
        (key: key, text: Self.text(of: key, bytes))
      }
      let sorted: [Keyed] = keyed.sorted { (first: Keyed, second: Keyed) -> Bool in
        if first.text == second.text { return first.key.start < second.key.start }
        return first.text.lexicographicallyPrecedes(second.text)
      }
      var found: (first: Key, repeated: Key)?
      var runStart = 0
      for index in sorted.indices.dropFirst() {
        guard sorted[index].text == sorted[index - 1].text else {
          runStart = index
          continue
        }
        if found.map({ sorted[index].key.start < $0.repeated.start }) ?? true {
          found = (sorted[runStart].key, sorted[index].key)
        }
      }
      return found
    }
    var hashed: [(hash: Int, index: Int)] = []
    hashed.reserveCapacity(range.count)
    for index in range { hashed.append((try hash(index, bytes), index)) }
    hashed.sort { ($0.hash, $0.index) < ($1.hash, $1.index) }
    var found: (first: Int, repeated: Int)?
    var runStart = 0
    while runStart < hashed.count {
      var runEnd = runStart + 1
      while runEnd < hashed.count, hashed[runEnd].hash == hashed[runStart].hash { runEnd += 1 }
      // Within a run, in the order the keys were read: the first equal pair found for each
      // later key has the earliest first key.
      for later in (runStart + 1)..<runEnd {
        let text = try Self.string(of: keys[hashed[later].index], bytes)
        for earlier in runStart..<later {
          guard try Self.string(of: keys[hashed[earlier].index], bytes) == text else { continue }
          if found.map({ hashed[later].index < $0.repeated }) ?? true {
            found = (hashed[earlier].index, hashed[later].index)
          }
          break
        }
      }
      runStart = runEnd
    }
    return found.map { (keys[$0.first], keys[$0.repeated]) }
  }

  /// Whether `keys[a]` and `keys[b]` are equal as Swift strings: by their bytes when both are
  /// plain, or else by their hashes, then (when those are equal) their text.
  private mutating func equal(_ a: Int, _ b: Int, _ bytes: UnsafeRawBufferPointer)
    throws(Unreadable) -> Bool
  {
    if _slowPath(!keys[a].isPlain || !keys[b].isPlain) {
      guard try hash(a, bytes) == hash(b, bytes) else { return false }
      return try Self.string(of: keys[a], bytes) == Self.string(of: keys[b], bytes)
    }
    let (first, second) = (keys[a], keys[b])
    guard first.end - first.start == second.end - second.start else { return false }
    return memcmp(
      bytes.baseAddress! + first.start, bytes.baseAddress! + second.start,
      first.end - first.start) == 0
  }

  /// The hash of `keys[index]`'s text, decoded once and kept.
  private mutating func hash(_ index: Int, _ bytes: UnsafeRawBufferPointer) throws(Unreadable)
    -> Int
  {
    if let hash = keys[index].hash { return hash }
    let hash = try decode(index, bytes).hashValue
    keys[index].hash = hash
    return hash
  }

  /// The text of `keys[index]`, counted in ``decodedKeyCount``.
  private mutating func decode(_ index: Int, _ bytes: UnsafeRawBufferPointer) throws(Unreadable)
    -> String
  {
    decodedKeyCount += 1
    return try Self.string(of: keys[index], bytes)
  }

  /// A key's text, compared as `JSONDecoder` compares keys: by canonical equivalence.
  private static func string(of key: Key, _ bytes: UnsafeRawBufferPointer) throws(Unreadable)
    -> String
  {
    let raw = UnsafeRawBufferPointer(rebasing: bytes[key.start..<key.end])
    if key.isPlain { return String(decoding: raw, as: UTF8.self) }
    guard let text = String(validating: try decoded(raw), as: UTF8.self) else {
      throw Unreadable()
    }
    return text
  }

  /// A key's bytes, with its escapes decoded (`"\u0061"` is `"a"`).
  private static func text(of key: Key, _ bytes: UnsafeRawBufferPointer) -> [UInt8] {
    let raw = UnsafeRawBufferPointer(rebasing: bytes[key.start..<key.end])
    guard key.hasEscape, let decoded = try? decoded(raw) else { return Array(raw) }
    return decoded
  }

  /// `raw`, the text of a JSON string between its quotes, with its escapes decoded; it
  /// throws on an escape JSON does not have, or a UTF-16 surrogate without its pair.
  private static func decoded(_ raw: UnsafeRawBufferPointer) throws(Unreadable) -> [UInt8] {
    var text: [UInt8] = []
    text.reserveCapacity(raw.count)
    var index = 0
    func unit() throws(Unreadable) -> UInt32 {
      guard index + 4 <= raw.count else { throw Unreadable() }
      var value: UInt32 = 0
      for byte in raw[index..<(index + 4)] {
        guard let digit = Character(Unicode.Scalar(byte)).hexDigitValue else {
          throw Unreadable()
        }
        value = value << 4 | UInt32(digit)
      }
      index += 4
      return value
    }
    while index < raw.count {
      let byte = raw[index]
      index += 1
      guard byte == UInt8(ascii: "\\") else {
        text.append(byte)
        continue
      }
      guard index < raw.count else { throw Unreadable() }
      let escaped = raw[index]
      index += 1
      if let byte = JSONGrammar.escapedByte(escaped) {
        text.append(byte)
        continue
      }
      guard escaped == UInt8(ascii: "u") else { throw Unreadable() }
      var value = try unit()
      if (0xD800...0xDBFF).contains(value) {
        guard index + 2 <= raw.count, raw[index] == UInt8(ascii: "\\"),
          raw[index + 1] == UInt8(ascii: "u")
        else { throw Unreadable() }
        index += 2
        let low = try unit()
        guard (0xDC00...0xDFFF).contains(low) else { throw Unreadable() }
        value = 0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00)
      }
      guard let scalar = Unicode.Scalar(value) else { throw Unreadable() }
      UTF8.encode(scalar) { text.append($0) }
    }
    return text
  }

  /// Whether the number whose `.`, `e` or `E` is at `index` has an exponent, or more than 15
  /// digits.
  private static func mayRound(at index: Int, _ bytes: UnsafeRawBufferPointer) -> Bool {
    guard bytes[index] == UInt8(ascii: ".") else { return true }
    var start = index
    while start > 0, isDigit(bytes[start - 1]) { start -= 1 }
    var end = index + 1
    while end < bytes.count, isDigit(bytes[end]) { end += 1 }
    return end - start - 1 > 15
      || (end < bytes.count && (bytes[end] == UInt8(ascii: "e") || bytes[end] == UInt8(ascii: "E")))
  }

  private static func isDigit(_ byte: UInt8) -> Bool {
    (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
  }

  /// Whether `byte` is JSON whitespace.
  private static func isSpace(_ byte: UInt8) -> Bool {
    byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r")
      || byte == UInt8(ascii: "\n")
  }

  /// The duplicate `key` of the innermost open object, equal to its `first` key, with that
  /// object's place.
  private func duplicate(_ first: Key, _ key: Key, _ bytes: UnsafeRawBufferPointer) -> Duplicate {
    // Both were read to be found equal.
    let text = (try? Self.string(of: key, bytes)) ?? ""
    let firstText = (try? Self.string(of: first, bytes)) ?? ""
    return Duplicate(
      key: text, path: path(of: frames.count - 1, bytes),
      firstSpelling: firstText.unicodeScalars.elementsEqual(text.unicodeScalars) ? nil : firstText)
  }

  /// The place of the open object or array `frames[depth]`, such as `action.cart._0`, or
  /// empty for the line's own.
  /// Shortened as ``LogText/place(count:shown:keyLimit:component:)`` shortens one: only the
  /// frames it shows are read.
  private func path(of depth: Int, _ bytes: UnsafeRawBufferPointer) -> String {
    LogText.place(count: depth) { index in
      let frame = frames[index]
      guard frame.isObject else { return "[\(frame.position)]" }
      // The last key read in an object is the one the next frame sits under (none in text
      // that is not JSON, such as `{{`).
      let end = frames[index + 1].keyStart
      guard end > frame.keyStart else { return ".?" }
      return "." + String(decoding: Self.text(of: keys[end - 1], bytes), as: UTF8.self)
    }
  }
}
