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

/// Finds a key repeated in one JSON object of a line, a trailing comma, or text that breaks
/// JSON's grammar where `JSONDecoder` does not look.
///
/// `JSONDecoder` keeps the first of two equal keys, where other readers (Python, `jq`) keep
/// the last, so a line with one means different things to different tools: the replay
/// refuses it. Keys are equal as Swift strings are: `"\u00E9"` and `"e\u0301"` (both "é",
/// composed and not) are one key to `JSONDecoder`, which compares them so, though their bytes
/// differ. `JSONDecoder` on Linux also reads a comma before a closing bracket (`[1,]`), which
/// JSON does not allow and other readers refuse, and it reads a string only where a type asks
/// for it, so an invalid escape (`"\x"`) in an object the feature's types ignore passes: the
/// replay refuses both. Nor does it look at a value no type reads beyond where it ends: a
/// control character in a string (a raw tab or byte 1, which JSON allows only escaped) and a
/// number JSON does not have (`01`, `1.`, `--1`, `1.2.3`) pass there too, and are refused.
///
/// A key that is not Unicode text (a UTF-16 surrogate without its pair, `"\ud800"`, which JSON's
/// grammar allows) is compared by its code points, as other readers compare it: `JSONDecoder`
/// cannot read it, and reads the line all the same when no type asks for that object's keys.
/// The scan goes on after it, so that a repeat, a trailing comma or a number after it is
/// still found.
///
/// One pass over the bytes, reusing its buffers from line to line; it does not otherwise
/// validate the JSON (the decoder does), and gives up quietly on text that is not. Strings
/// are looked into for control characters only when the line holds a byte below 0x20, found
/// eight bytes at a time first: nearly no line does.
struct DuplicateKeyScanner {
  /// What the scan found.
  enum Problem: Equatable, CustomStringConvertible {
    /// A key repeated in one object.
    case duplicate(Duplicate)
    /// A comma at `column` (counted in bytes from 1) right before the bracket that closes the
    /// object or array at `path` (empty for the line's own).
    case trailingComma(column: Int, path: String)
    /// An escape JSON does not have (`\x`, or `\u` without four hexadecimal digits), whose
    /// backslash is at `column`, in the string at `path` (a key's object, or a value's place).
    case invalidEscape(column: Int, path: String)
    /// A control character in a string, or a number JSON does not have: `JSONCheck`'s
    /// account of the line's first problem (naming its place and column), which it finds
    /// here too.
    case invalidJSON(String)

    /// The problem, as part of a sentence naming the line.
    var description: String {
      switch self {
      case .duplicate(let duplicate):
        return duplicate.description
      case .trailingComma(let column, let path):
        let place = path.isEmpty ? "" : " at \(LogText.escaped(path))"
        return "invalid JSON: \(JSONCheck.trailingComma(at: column, place: place))."
      case .invalidEscape(let column, let path):
        let place = path.isEmpty ? "" : " at \(LogText.escaped(path))"
        return "invalid JSON: \(JSONCheck.invalidEscape(at: column, place: place))."
      case .invalidJSON(let problem):
        return "invalid JSON: \(problem)."
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
    /// composed, the other not): equal as Swift strings, but not to every reader. For a key
    /// that is not text, its first spelling when it differs (`\uD800` and `\ud800`).
    var firstSpelling: String? = nil
    /// Whether the key is not Unicode text (a UTF-16 surrogate without its pair): then
    /// ``key`` and ``firstSpelling`` are the key as written, escapes and all.
    var isNotText = false

    /// The problem, as part of a sentence naming the line.
    var description: String {
      let place = path.isEmpty ? "the line's object" : "the object at \(LogText.escaped(path))"
      if isNotText {
        let first = firstSpelling.map { " (first written \"\(LogText.escaped($0))\")" } ?? ""
        return """
          the key written "\(LogText.escaped(key))"\(first) appears twice in \(place) (readers \
          disagree on which one counts); it holds a UTF-16 surrogate without its pair, which \
          Swift cannot read as text.
          """
      }
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

  /// A key's text, as keys are compared: a Swift string, equal to another by canonical
  /// equivalence as `JSONDecoder` compares keys; or, for a key that is not Unicode text (a
  /// UTF-16 surrogate without its pair, or invalid UTF-8, which the replay refuses before the
  /// scan), its code points in UTF-8's encoding scheme extended to surrogates, equal to
  /// another's exactly, as other readers compare them (`JSONDecoder` cannot read it). A key of
  /// one kind never equals one of the other.
  private enum KeyText: Hashable {
    case string(String)
    case codePoints([UInt8])
  }

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
    // Strings that end after it are looked into for control characters.
    let firstControlByte = Self.firstByteBelowSpace(in: bytes)
    var index = 0
    while index < count {
      switch bytes[index] {
      case UInt8(ascii: "\""):
        let start = index + 1
        guard let end = Self.closingQuote(after: start, bytes) else { return nil }
        index = end + 1
        if let firstControlByte, end > firstControlByte,
          bytes[start..<end].contains(where: { $0 < 0x20 })
        {
          return Self.strictProblem(in: bytes)
        }
        guard let top = frames.indices.last, frames[top].isObject, frames[top].expectsKey
        else {
          // A value: its escapes are looked for with `memchr`.
          if let backslash = Self.firstInvalidEscape(in: start..<end, bytes) {
            return .invalidEscape(column: backslash + 1, path: placeOfString(bytes))
          }
          continue
        }
        // Keys are short: a plain loop costs less than a call to `memchr`, and tells whether
        // the key has an escape to check.
        var hasEscape = false
        var isASCII = true
        for offset in start..<end {
          hasEscape = hasEscape || bytes[offset] == UInt8(ascii: "\\")
          isASCII = isASCII && bytes[offset] < 0x80
        }
        if hasEscape, let backslash = Self.firstInvalidEscape(in: start..<end, bytes) {
          return .invalidEscape(column: backslash + 1, path: placeOfString(bytes))
        }
        frames[top].expectsKey = false
        let isLinear = keys.count - frames[top].keyStart < Self.linearLimit
        keys.append(Key(start: start, end: end, hasEscape: hasEscape, isASCII: isASCII))
        if isLinear {
          let last = keys.count - 1
          // By index: a slice of `keys` would retain its buffer at every key.
          var other = frames[top].keyStart
          while other < last {
            if equal(other, last, bytes) {
              return .duplicate(duplicate(keys[other], keys[last], bytes))
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
        while before > 0, JSONGrammar.isSpace(bytes[before]) { before -= 1 }
        if bytes[before] == UInt8(ascii: ",") {
          return .trailingComma(column: before + 1, path: path(count: frames.count - 1, bytes))
        }
        if keys.count - frame.keyStart > Self.linearLimit,
          let (first, repeated) = repeatedKey(in: frame.keyStart..<keys.count, bytes)
        {
          return .duplicate(duplicate(first, repeated, bytes))
        }
        keys.removeLast(keys.count - frame.keyStart)
        frames.removeLast()
        index += 1
      case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
        // Outside strings, a number starts here (`true`, `false` and `null` hold no digit),
        // and is read whole: what follows it must not go on as a number would.
        let start = index
        let scan = JSONGrammar.scanNumber(in: bytes, from: start)
        index = scan.end
        if scan.problem != nil || (index < count && Self.continuesNumber(bytes[index])) {
          return Self.strictProblem(in: bytes)
        }
        if !holdsRoundableNumber,
          let mark = bytes[start..<index].firstIndex(where: {
            $0 == UInt8(ascii: ".") || $0 | 0x20 == UInt8(ascii: "e")
          })
        {
          holdsRoundableNumber = Self.mayRound(at: mark, bytes)
        }
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
    -> (Key, Key)?
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
    for index in range { hashed.append((hash(index, bytes), index)) }
    hashed.sort { ($0.hash, $0.index) < ($1.hash, $1.index) }
    var found: (first: Int, repeated: Int)?
    var runStart = 0
    while runStart < hashed.count {
      var runEnd = runStart + 1
      while runEnd < hashed.count, hashed[runEnd].hash == hashed[runStart].hash { runEnd += 1 }
      // Within a run, in the order the keys were read: the first equal pair found for each
      // later key has the earliest first key.
      for later in (runStart + 1)..<runEnd {
        let text = Self.keyText(of: keys[hashed[later].index], bytes)
        for earlier in runStart..<later {
          guard Self.keyText(of: keys[hashed[earlier].index], bytes) == text else { continue }
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

  /// Whether `keys[a]` and `keys[b]` are equal (see `KeyText`): by their bytes when both are
  /// plain, or else by their hashes, then (when those are equal) their text.
  private mutating func equal(_ a: Int, _ b: Int, _ bytes: UnsafeRawBufferPointer) -> Bool {
    if _slowPath(!keys[a].isPlain || !keys[b].isPlain) {
      guard hash(a, bytes) == hash(b, bytes) else { return false }
      return Self.keyText(of: keys[a], bytes) == Self.keyText(of: keys[b], bytes)
    }
    let (first, second) = (keys[a], keys[b])
    guard first.end - first.start == second.end - second.start else { return false }
    return memcmp(
      bytes.baseAddress! + first.start, bytes.baseAddress! + second.start,
      first.end - first.start) == 0
  }

  /// The hash of `keys[index]`'s text, decoded once and kept.
  private mutating func hash(_ index: Int, _ bytes: UnsafeRawBufferPointer) -> Int {
    if let hash = keys[index].hash { return hash }
    decodedKeyCount += 1
    let hash = Self.keyText(of: keys[index], bytes).hashValue
    keys[index].hash = hash
    return hash
  }

  /// A key's text, as keys are compared (see `KeyText`).
  private static func keyText(of key: Key, _ bytes: UnsafeRawBufferPointer) -> KeyText {
    let raw = UnsafeRawBufferPointer(rebasing: bytes[key.start..<key.end])
    if key.isPlain { return .string(String(decoding: raw, as: UTF8.self)) }
    let codePoints = decoded(raw)
    guard let text = String(validating: codePoints, as: UTF8.self) else {
      return .codePoints(codePoints)
    }
    return .string(text)
  }

  /// A key's bytes with its escapes decoded (`"\u0061"` is `"a"`), to sort plain keys and to
  /// name places; as written when they are not Unicode text (`\ud800`).
  private static func text(of key: Key, _ bytes: UnsafeRawBufferPointer) -> [UInt8] {
    let raw = UnsafeRawBufferPointer(rebasing: bytes[key.start..<key.end])
    guard key.hasEscape else { return Array(raw) }
    let decoded = decoded(raw)
    return String(validating: decoded, as: UTF8.self) == nil ? Array(raw) : decoded
  }

  /// `raw`, the text of a JSON string between its quotes, with its escapes decoded: a UTF-16
  /// surrogate without its pair is encoded as a scalar would be (three bytes, which are not
  /// UTF-8), so that two such keys compare by their code points. An escape JSON does not have
  /// (the scan refuses one before it reads a key) is kept as written.
  private static func decoded(_ raw: UnsafeRawBufferPointer) -> [UInt8] {
    var text: [UInt8] = []
    text.reserveCapacity(raw.count)
    var index = 0
    while index < raw.count {
      let byte = raw[index]
      index += 1
      guard byte == UInt8(ascii: "\\"), index < raw.count else {
        text.append(byte)
        continue
      }
      let escaped = raw[index]
      if let byte = JSONGrammar.escapedByte(escaped) {
        text.append(byte)
        index += 1
        continue
      }
      guard escaped == UInt8(ascii: "u"), let unit = JSONGrammar.hexUnit(in: raw, at: index + 1)
      else {
        text.append(byte)
        continue
      }
      index += 5
      var value = UInt32(unit)
      if (0xD800...0xDBFF).contains(value), raw[index...].starts(with: "\\u".utf8),
        let low = JSONGrammar.hexUnit(in: raw, at: index + 2), (0xDC00...0xDFFF).contains(low)
      {
        index += 6
        value = 0x10000 + ((value - 0xD800) << 10) + (UInt32(low) - 0xDC00)
      }
      if let scalar = Unicode.Scalar(value) {
        UTF8.encode(scalar) { text.append($0) }
      } else {
        // A surrogate alone: its code point, encoded in three bytes as a scalar's would be.
        text += [
          0xE0 | UInt8(value >> 12), 0x80 | UInt8(value >> 6 & 0x3F), 0x80 | UInt8(value & 0x3F),
        ]
      }
    }
    return text
  }

  /// The offset of the backslash of the first escape JSON does not have among `bytes[range]`,
  /// a string's text between its quotes: `\` followed by something other than one of
  /// `"\/bfnrt`, or `\u` by other than four hexadecimal digits. A surrogate without its pair
  /// is allowed, as JSON's grammar allows it. Found with `memchr`: nearly no string holds a
  /// backslash.
  private static func firstInvalidEscape(in range: Range<Int>, _ bytes: UnsafeRawBufferPointer)
    -> Int?
  {
    var from = range.lowerBound
    while from < range.upperBound,
      let found = memchr(
        bytes.baseAddress! + from, Int32(UInt8(ascii: "\\")), range.upperBound - from)
    {
      let backslash = bytes.baseAddress!.distance(to: UnsafeRawPointer(found))
      // The closing quote is never escaped, so an escape ends within the string.
      let escaped = bytes[backslash + 1]
      if JSONGrammar.escapedByte(escaped) != nil {
        from = backslash + 2
      } else if escaped == UInt8(ascii: "u"), backslash + 6 <= range.upperBound,
        JSONGrammar.hexUnit(in: bytes, at: backslash + 2) != nil
      {
        from = backslash + 6
      } else {
        return backslash
      }
    }
    return nil
  }

  /// The offset of the first byte of `bytes` below 0x20 (a control character, or a tab,
  /// carriage return or newline, which JSON allows between tokens), or `nil` if there is none.
  ///
  /// - Complexity: O(*n*), read eight bytes at a time.
  private static func firstByteBelowSpace(in bytes: UnsafeRawBufferPointer) -> Int? {
    guard let base = bytes.baseAddress else { return nil }
    var index = 0
    // A byte below 0x20 borrows in its lane when 0x20 is taken from each byte; a byte of
    // 0x80 or more keeps its top bit clear in `~word`, so it never counts.
    while index + 8 <= bytes.count {
      let word = base.loadUnaligned(fromByteOffset: index, as: UInt64.self)
      if (word &- 0x2020_2020_2020_2020) & ~word & 0x8080_8080_8080_8080 != 0 { break }
      index += 8
    }
    while index < bytes.count {
      if bytes[index] < 0x20 { return index }
      index += 1
    }
    return nil
  }

  /// Whether `byte`, right after a number, would go on as part of one (`1.2.3`, `01`, `1e5e`):
  /// the number as written is not one JSON has.
  private static func continuesNumber(_ byte: UInt8) -> Bool {
    isDigit(byte) || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "+")
      || byte == UInt8(ascii: "-") || byte | 0x20 == UInt8(ascii: "e")
  }

  /// The line's first problem as the strict check names it, for a line this scan found text
  /// in that JSON does not allow (a control character in a string, a malformed number).
  /// A UTF-16 surrogate without its pair, which the replay allows where no type reads it, is
  /// allowed here too.
  private static func strictProblem(in bytes: UnsafeRawBufferPointer) -> Problem {
    let result = JSONCheck.check(Data(bytes), allowingLoneSurrogates: true)
    return .invalidJSON(result.problem ?? "text JSON does not allow")
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

  /// The duplicate `key` of the innermost open object, equal to its `first` key, with that
  /// object's place.
  private func duplicate(_ first: Key, _ key: Key, _ bytes: UnsafeRawBufferPointer) -> Duplicate {
    let path = path(count: frames.count - 1, bytes)
    guard case .string(let text) = Self.keyText(of: key, bytes),
      case .string(let firstText) = Self.keyText(of: first, bytes)
    else {
      // Keys that are not text, shown as written.
      let written = String(decoding: Self.text(of: key, bytes), as: UTF8.self)
      let firstWritten = String(decoding: Self.text(of: first, bytes), as: UTF8.self)
      return Duplicate(
        key: written, path: path, firstSpelling: firstWritten == written ? nil : firstWritten,
        isNotText: true)
    }
    return Duplicate(
      key: text, path: path,
      firstSpelling: firstText.unicodeScalars.elementsEqual(text.unicodeScalars) ? nil : firstText)
  }

  /// The place of the string the scan just read: a key's object, or a value's place in its
  /// object or array (`action.x`, `action.list[2]`); empty for a line that is a string.
  private func placeOfString(_ bytes: UnsafeRawBufferPointer) -> String {
    guard let top = frames.indices.last else { return "" }
    let isKey = frames[top].isObject && frames[top].expectsKey
    return path(count: isKey ? top : top + 1, bytes)
  }

  /// The place named by the members of the first `count` open objects and arrays that the
  /// scan is in (for each, the last key read or the current position), such as
  /// `action.cart._0`: with `count` the index of an open object or array, that one's place,
  /// or empty for the line's own.
  /// Shortened as ``LogText/place(count:shown:keyLimit:component:)`` shortens one: only the
  /// frames it shows are read.
  private func path(count: Int, _ bytes: UnsafeRawBufferPointer) -> String {
    LogText.place(count: count) { index in
      let frame = frames[index]
      guard frame.isObject else { return "[\(frame.position)]" }
      // The last key read in an object is the one the next frame (or the current value) sits
      // under (none in text that is not JSON, such as `{{`).
      let end = index + 1 < frames.count ? frames[index + 1].keyStart : keys.count
      guard end > frame.keyStart else { return ".?" }
      return LogText.key(String(decoding: Self.text(of: keys[end - 1], bytes), as: UTF8.self))
    }
  }
}
