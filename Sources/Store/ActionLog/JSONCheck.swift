#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A strict reading of one line of JSON, to explain why `JSONDecoder` refused it: for a
/// syntax error, invalid UTF-8, nesting too deep or a number it cannot represent, its error
/// says only "The given data was not valid JSON." (on Linux, with no underlying error), and
/// names no place in the line.
///
/// Only used once decoding has failed, so it favours clear messages over speed.
struct JSONCheck {
  /// A number in the line. Its place is not kept: a line of many numbers under a long path
  /// would hold that path once per number. ``path(at:in:)`` finds it when it is named.
  struct Number {
    /// Where its text is in the line.
    var range: Range<Int>
    /// Its text, as written.
    var text: String
  }

  /// What the check found.
  struct Result {
    /// The first problem, with its place; `nil` when the line is JSON `JSONDecoder` reads.
    var problem: String?
    /// Where the numbers read before the problem (all of the line's when there is none) are
    /// that `JSONDecoder` reads into an integer type as a whole number they are not
    /// (``Number/isRoundedToAWholeNumber``), in order. All of them: with only the first
    /// hundred kept, a line with a hundred fractions before such a number hid it (the log
    /// hunt). Places alone, 16 bytes each (no such number is shorter than 17 bytes).
    var roundedNumbers: [Range<Int>]
    /// Where the problem is, such as `state.items[2].quantity`; empty at the top level or
    /// when there is none.
    var path = ""
    /// Whether the problem is a UTF-16 surrogate without its pair.
    var problemIsLoneSurrogate = false
    /// Where the `\u` escapes of UTF-16 surrogates without their pairs are, read before the
    /// problem, when they are allowed.
    var loneSurrogates: [Range<Int>] = []
    /// Whether the only problem is that the line ends too soon: every byte of it could start
    /// a line of JSON (what a writer cut off mid-line leaves), and more bytes would be needed.
    var endsTooSoon = false
  }

  /// How deep `JSONDecoder` nests arrays and objects; one level more is refused.
  static let maximumDepth = 512

  /// Checks `line`, after the byte order mark it may start with.
  ///
  /// A UTF-16 surrogate without its pair (`"\ud800"`) is a problem unless
  /// `allowingLoneSurrogates`: JSON's grammar allows it, and `JSONDecoder` reads a line that
  /// holds one where no type asks for that string, but refuses the line when a type does. So
  /// a line the decoder refused is checked strictly, to name it; a line it read, leniently, to
  /// find its numbers.
  ///
  /// - Complexity: O(*n*) in time for a line of *n* bytes, and O(*n*) in memory, whatever
  ///   its numbers and the length of their paths.
  static func check(_ line: Data, allowingLoneSurrogates: Bool = false) -> Result {
    StackRoom.run(reading: line) {
      var check = JSONCheck(bytes: [UInt8](line))
      check.allowsLoneSurrogates = allowingLoneSurrogates
      return check.run()
    }
  }

  /// The place of the value that starts at byte `offset` of `line` (a number from
  /// ``Result/roundedNumbers``), such as `state.items[2].quantity`; empty at the top level.
  /// A surrogate without its pair on the way is allowed (see ``check(_:allowingLoneSurrogates:)``).
  ///
  /// - Complexity: O(*n*) for a line of *n* bytes: the line is read again up to the value.
  static func path(at offset: Int, in line: Data) -> String {
    StackRoom.run(reading: line) {
      var check = JSONCheck(bytes: [UInt8](line))
      check.stopOffset = offset
      check.allowsLoneSurrogates = true
      return check.run().path
    }
  }

  private mutating func run() -> Result {
    // Skipped as `JSONDecoder` skips it: the replay allows one at the start of a log's first
    // line, and refuses it elsewhere before a line is explained. Columns still count it.
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
    do throws(Failure) {
      try value(depth: 0)
      skipSpace()
      if index < bytes.count {
        throw Failure("text after the end of the JSON value, at column \(index + 1)")
      }
      return Result(problem: nil, roundedNumbers: roundedNumbers, loneSurrogates: loneSurrogates)
    } catch {
      return Result(
        problem: error.message, roundedNumbers: roundedNumbers, path: shownPath,
        problemIsLoneSurrogate: error.isLoneSurrogate, loneSurrogates: loneSurrogates,
        endsTooSoon: error.endsTooSoon)
    }
  }

  private struct Failure: Error {
    var message: String
    var isLoneSurrogate = false
    /// Whether the scan ran out of bytes in the middle of what it was reading.
    var endsTooSoon = false
    init(_ message: String, endsTooSoon: Bool = false) {
      self.message = message
      self.endsTooSoon = endsTooSoon
    }
  }

  private let bytes: [UInt8]
  private var index = 0
  private var path: [String] = []
  private var roundedNumbers: [Range<Int>] = []
  /// Where ``path(at:in:)`` stops: the offset of the value whose place it names.
  private var stopOffset: Int?
  /// Whether a UTF-16 surrogate without its pair passes (see
  /// ``check(_:allowingLoneSurrogates:)``).
  private var allowsLoneSurrogates = false
  private var loneSurrogates: [Range<Int>] = []

  private init(bytes: [UInt8]) {
    self.bytes = bytes
  }

  /// The current place, as ` at seq`, or nothing at the top level.
  private var place: String {
    path.isEmpty ? "" : " at " + shownPath
  }

  /// The current place, as `seq`, `state.items[2]` or `readings["a.b"]`, shortened as
  /// ``LogText/place(count:shown:keyLimit:component:)`` shortens one.
  private var shownPath: String {
    LogText.place(count: path.count) { index in
      let component = path[index]
      guard component.hasPrefix(".") else { return component }
      // A key, as written: named by its text, its escapes decoded, as the decoder reads it.
      let written = component.dropFirst()
      guard written.contains("\\"),
        case .string(let key)? = JSONValue(parsing: Data("\"\(written)\"".utf8))
      else { return LogText.key(written) }
      return LogText.key(key)
    }
  }

  private mutating func skipSpace() {
    while index < bytes.count, JSONGrammar.isSpace(bytes[index]) { index += 1 }
  }

  private func unexpected(_ expected: String) -> Failure {
    guard index < bytes.count else {
      return Failure("the line ends where \(expected) was expected", endsTooSoon: true)
    }
    let shown = Self.shown(bytes[index])
    return Failure("expected \(expected)\(place), found \(shown) at column \(index + 1)")
  }

  /// A byte as a message names it: a printable ASCII character in quotes (`"h"`), else by
  /// its value (`byte 239`).
  static func shown(_ byte: UInt8) -> String {
    (0x21...0x7E).contains(byte) ? "\"\(Character(Unicode.Scalar(byte)))\"" : "byte \(byte)"
  }

  private mutating func value(depth: Int) throws(Failure) {
    skipSpace()
    if index == stopOffset { throw Failure("the value asked for") }
    guard index < bytes.count else { throw unexpected("a value") }
    switch bytes[index] {
    case UInt8(ascii: "{"), UInt8(ascii: "["):
      guard depth < Self.maximumDepth else {
        throw Failure(
          """
          arrays and objects nested more than \(Self.maximumDepth) deep, at column \
          \(index + 1): more than JSONDecoder reads
          """
        )
      }
      try container(depth: depth)
    case UInt8(ascii: "\""):
      _ = try string()
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
      try number()
    default:
      for literal in ["true", "false", "null"] where bytes[index...].starts(with: literal.utf8) {
        index += literal.utf8.count
        return
      }
      var failure = unexpected("a value")
      // The start of a literal the line ends in (`tr`).
      failure.endsTooSoon = ["true", "false", "null"].contains {
        $0.utf8.starts(with: bytes[index...])
      }
      throw failure
    }
  }

  private mutating func container(depth: Int) throws(Failure) {
    let isObject = bytes[index] == UInt8(ascii: "{")
    let close = UInt8(ascii: isObject ? "}" : "]")
    index += 1
    skipSpace()
    if index < bytes.count, bytes[index] == close {
      index += 1
      return
    }
    var position = 0
    while true {
      if isObject {
        skipSpace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
          throw unexpected("a key in quotes")
        }
        let key = try string()
        skipSpace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
          throw unexpected("\":\" after the key \(LogText.quoted(key))")
        }
        index += 1
        path.append("." + key)
      } else {
        path.append("[\(position)]")
      }
      try value(depth: depth + 1)
      path.removeLast()
      position += 1
      skipSpace()
      guard index < bytes.count, bytes[index] == UInt8(ascii: ",") || bytes[index] == close else {
        throw unexpected("\",\" or \"\(Character(Unicode.Scalar(close)))\"")
      }
      index += 1
      if bytes[index - 1] == close { return }
      // Said as such: "expected a value, found "]"" would not name the comma.
      let comma = index - 1
      skipSpace()
      if index < bytes.count, bytes[index] == close {
        throw Failure(Self.trailingComma(at: comma + 1, place: place))
      }
    }
  }

  /// An escape JSON does not have, whose backslash is at `column`, in the string at `place`
  /// (` at action.name`, or nothing at the top level), which `JSONDecoder` reads where no type
  /// asks for the string.
  static func invalidEscape(at column: Int, place: String) -> String {
    "an invalid escape in a string\(place), at column \(column)"
  }

  /// A comma before a closing bracket at `column`, in the object or array at `place` (` at
  /// action`, or nothing for the line's own), which `JSONDecoder` on Linux reads and JSON
  /// does not allow.
  static func trailingComma(at column: Int, place: String) -> String {
    """
    a trailing comma\(place), at column \(column): JSON allows no comma after the last \
    element of an object or array
    """
  }

  /// Reads a string, returning its text (escapes left as written: it only names places).
  private mutating func string() throws(Failure) -> String {
    let start = index
    index += 1
    while true {
      guard index < bytes.count else {
        throw Failure(
          "a string\(place) that starts at column \(start + 1) is not closed", endsTooSoon: true)
      }
      let byte = bytes[index]
      if byte == UInt8(ascii: "\"") { break }
      if byte < 0x20 {
        throw Failure(
          "a control character (byte \(byte)) in a string\(place), at column \(index + 1)")
      }
      if byte == UInt8(ascii: "\\") { try escape() } else { index += 1 }
    }
    let content = bytes[(start + 1)..<index]
    index += 1
    guard let text = String(validating: content, as: UTF8.self) else {
      let bad = content.withUnsafeBytes { UTF8Check.firstInvalidOffset(in: $0) } ?? 0
      throw Failure(
        """
        invalid UTF-8 in the string\(place) that starts at column \(start + 1), at column \
        \(start + 2 + bad)
        """)
    }
    return text
  }

  private mutating func escape() throws(Failure) {
    let start = index
    index += 1
    guard index < bytes.count else { throw unexpected("an escaped character") }
    if "\"\\/bfnrt".utf8.contains(bytes[index]) {
      index += 1
      return
    }
    guard bytes[index] == UInt8(ascii: "u") else {
      throw Failure(Self.invalidEscape(at: start + 1, place: place))
    }
    let unit = try hex()
    if (0xDC00...0xDFFF).contains(unit) { return try loneSurrogate(at: start) }
    guard (0xD800...0xDBFF).contains(unit) else { return }
    guard bytes[index...].starts(with: #"\u"#.utf8) else { return try loneSurrogate(at: start) }
    let next = index
    index += 1
    guard (0xDC00...0xDFFF).contains(try hex()) else {
      try loneSurrogate(at: start)
      // The escape after it is read on its own: it may start a pair.
      index = next
      return
    }
  }

  /// A UTF-16 surrogate without its pair, whose escape starts at `start`: a problem, or,
  /// when ``allowsLoneSurrogates``, one of ``Result/loneSurrogates``.
  private mutating func loneSurrogate(at start: Int) throws(Failure) {
    guard allowsLoneSurrogates else {
      var failure = Failure("a lone UTF-16 surrogate in a string\(place), at column \(start + 1)")
      failure.isLoneSurrogate = true
      throw failure
    }
    loneSurrogates.append(start..<(start + 6))
  }

  /// Reads the `u` and four hexadecimal digits of a `\u` escape.
  private mutating func hex() throws(Failure) -> Int {
    let start = index - 1
    index += 1
    guard let unit = JSONGrammar.hexUnit(in: bytes, at: index) else {
      // Fewer than four hexadecimal digits, and then the line's end.
      let endsTooSoon =
        index + 4 > bytes.count
        && bytes[index...].allSatisfy(JSONGrammar.isHexDigit)
      throw Failure(
        "an invalid \\u escape in a string\(place), at column \(start + 1)",
        endsTooSoon: endsTooSoon)
    }
    index += 4
    return Int(unit)
  }

  private mutating func number() throws(Failure) {
    let start = index
    let scan = JSONGrammar.scanNumber(in: bytes, from: start)
    index = scan.end
    switch scan.problem {
    case nil: break
    case .leadingZero?:
      throw Failure("a number with a leading zero\(place), at column \(start + 1)")
    case .noDigit?: throw unexpected("a digit")
    case .noDigitAfterPoint?: throw unexpected("a digit after the decimal point")
    case .noDigitInExponent?: throw unexpected("a digit in the exponent")
    }
    // A number the line ends in may be cut short: more digits could follow it.
    let reachesEnd = index == bytes.count
    // An integer of up to 18 digits fits every number type and an `Int64`: nothing to
    // check, or to keep (most numbers; a line may hold a million).
    if index - start <= 18,
      !bytes[start..<index].contains(where: {
        $0 == UInt8(ascii: ".") || $0 | 0x20 == UInt8(ascii: "e")
      })
    {
      return
    }
    let text = String(decoding: bytes[start..<index], as: UTF8.self)
    let read = Double(text)
    // Before the checks below: `1E-400` is read as 0 into an integer type.
    if let read, read.rounded() == read,
      Number(range: start..<index, text: text).isRoundedToAWholeNumber
    {
      roundedNumbers.append(start..<index)
    }
    guard let value = read, value.isFinite else {
      throw Failure(
        "the number \(Number.shown(text))\(place) is too large for any number type",
        endsTooSoon: reachesEnd)
    }
    // Not zero as written, and zero as a `Double`: `JSONDecoder` refuses it, with no place.
    let significand = text.prefix { $0 != "e" && $0 != "E" }
    if value == 0, significand.contains(where: { ("1"..."9").contains($0) }) {
      throw Failure(
        """
        the number \(Number.shown(text))\(place) is too small for any number type (it is not \
        zero, and the closest Double is)
        """, endsTooSoon: reachesEnd)
    }
  }
}

extension JSONCheck.Number {
  /// Whether `JSONDecoder` reads the number into an integer type as a whole number it is
  /// not: it is not whole, but the closest `Double` is (`0.99999999999999999999` as 1,
  /// `1E-400` as 0, `12345678901234567.5` as 12345678901234567).
  var isRoundedToAWholeNumber: Bool {
    guard JSONNumber(text).isWhole == false, let value = Double(text) else { return false }
    return value.rounded() == value
  }

  /// A number's text as a message shows it: whole up to 40 characters, else its start and
  /// its length, so that a number of a million digits does not fill the screen.
  static func shown(_ text: String) -> String {
    text.count <= 40 ? text : "\(text.prefix(24))… (\(text.count) characters)"
  }

  /// Why the number may not fit an integer, if it is not a whole number (exactly: a
  /// `Double` rounds `0.99999999999999999999` to one) or is out of the range of a 64-bit
  /// integer.
  var integerProblem: String? {
    if Int64(text) != nil { return nil }
    guard let value = Double(text) else { return nil }
    if value.rounded() != value { return "it is not a whole number" }
    if JSONNumber(text).isWhole == false {
      let shown = Int64(exactly: value).map(String.init) ?? "\(value)"
      return "it is not a whole number, though the closest Double, \(shown), is"
    }
    if !text.contains(where: { "eE.".contains($0) }) || abs(value) >= 0x1p63 {
      return "it is outside the range of a 64-bit integer"
    }
    return nil
  }
}
