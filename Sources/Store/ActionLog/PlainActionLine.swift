/// Reads the `kind`, `seq`, `time` and `origin` of an action line as the recorder writes it,
/// without `JSONDecoder`.
///
/// Decoding a line's fields through a keyed container costs `JSONDecoder` about as much as a
/// small action, so a replay reads these four here, in one pass over plain JSON, and has
/// `JSONDecoder` decode the bytes of the line's action alone. A line this does not read (another kind of
/// line, a key it does not know, an escape in a string, a number that is not plain, anything
/// out of the ordinary) gives `nil`, and the replay decodes the whole line as before, with the
/// same messages when it is refused: this is a shortcut for lines `JSONDecoder` would read
/// the same way, never a second reader with rules of its own.
enum PlainActionLine {
  /// Whether replays decode every line whole, for tests that compare the two ways.
  @TaskLocal static var isDisabled = false

  /// The fields of a plain action line, and where its action's value is.
  struct Fields: Equatable {
    var sequence: Int
    var time: Double
    var origin: ActionOrigin
    /// The bytes of the action's JSON value, as offsets in the line.
    var action: Range<Int>
  }

  /// The fields of `line`, or `nil` when it is not a plain action line.
  ///
  /// A plain action line is one JSON object, with JSON whitespace anywhere between tokens,
  /// holding `kind` (the string `"action"`), `seq` (an integer), `origin` (`"user"` or
  /// `"effect"`), `action` (any JSON value nested less than 256 deep, which is not checked
  /// otherwise: `JSONDecoder` reads it), and optionally `time` (a finite number), each once,
  /// and nothing else. (`JSONDecoder` reads JSON nested up to 512 deep: a line one deeper
  /// than its action must be refused where the action alone is not.)
  ///
  /// - Complexity: O(*n*) for a line of *n* bytes.
  static func fields(of line: UnsafeRawBufferPointer) -> Fields? {
    var reader = Reader(bytes: line)
    var sequence: Int?
    var time: Double?
    var origin: ActionOrigin?
    var action: Range<Int>?
    var isAction = false
    guard reader.take(UInt8(ascii: "{")) else { return nil }
    repeat {
      guard let key = reader.plainString() else { return nil }
      guard reader.take(UInt8(ascii: ":")) else { return nil }
      switch Key(key, in: line) {
      case .kind?:
        guard !isAction, let value = reader.plainString(),
          Self.equals(value, "action", in: line)
        else { return nil }
        isAction = true
      case .seq?:
        guard sequence == nil, let value = reader.integer() else { return nil }
        sequence = value
      case .time?:
        guard time == nil, let value = reader.finiteNumber() else { return nil }
        time = value
      case .origin?:
        guard origin == nil, let value = reader.plainString() else { return nil }
        if Self.equals(value, "user", in: line) {
          origin = .user
        } else if Self.equals(value, "effect", in: line) {
          origin = .effect
        } else {
          return nil
        }
      case .action?:
        guard action == nil, let value = reader.valueExtent() else { return nil }
        action = value
      case nil:
        return nil
      }
    } while reader.take(UInt8(ascii: ","))
    guard reader.take(UInt8(ascii: "}")), reader.isAtEnd else { return nil }
    guard isAction, let sequence, let origin, let action else { return nil }
    return Fields(sequence: sequence, time: time ?? 0, origin: origin, action: action)
  }

  private enum Key {
    case kind, seq, time, origin, action

    init?(_ range: Range<Int>, in line: UnsafeRawBufferPointer) {
      if PlainActionLine.equals(range, "kind", in: line) {
        self = .kind
      } else if PlainActionLine.equals(range, "seq", in: line) {
        self = .seq
      } else if PlainActionLine.equals(range, "time", in: line) {
        self = .time
      } else if PlainActionLine.equals(range, "origin", in: line) {
        self = .origin
      } else if PlainActionLine.equals(range, "action", in: line) {
        self = .action
      } else {
        return nil
      }
    }
  }

  /// Whether the bytes at `range` are `text`'s UTF-8.
  private static func equals(
    _ range: Range<Int>, _ text: StaticString, in line: UnsafeRawBufferPointer
  ) -> Bool {
    guard range.count == text.utf8CodeUnitCount else { return false }
    return text.withUTF8Buffer { expected in
      expected.indices.allSatisfy { line[range.lowerBound + $0] == expected[$0] }
    }
  }

  /// A cursor over a line's bytes that skips JSON whitespace before each token.
  private struct Reader {
    let bytes: UnsafeRawBufferPointer
    var index = 0

    var isAtEnd: Bool {
      mutating get {
        skipWhitespace()
        return index == bytes.count
      }
    }

    mutating func skipWhitespace() {
      while index < bytes.count {
        switch bytes[index] {
        case 0x20, 0x09, 0x0A, 0x0D: index += 1
        default: return
        }
      }
    }

    /// Takes `byte` if it is the next token.
    mutating func take(_ byte: UInt8) -> Bool {
      skipWhitespace()
      guard index < bytes.count, bytes[index] == byte else { return false }
      index += 1
      return true
    }

    /// A string of printable ASCII without escapes, as the offsets of its text.
    mutating func plainString() -> Range<Int>? {
      guard take(UInt8(ascii: "\"")) else { return nil }
      let start = index
      while index < bytes.count {
        let byte = bytes[index]
        if byte == UInt8(ascii: "\"") {
          index += 1
          return start..<(index - 1)
        }
        guard byte >= 0x20, byte < 0x7F, byte != UInt8(ascii: "\\") else { return nil }
        index += 1
      }
      return nil
    }

    /// An integer written without a fraction or an exponent that fits `Int`.
    mutating func integer() -> Int? {
      skipWhitespace()
      let isNegative = index < bytes.count && bytes[index] == UInt8(ascii: "-")
      if isNegative { index += 1 }
      let start = index
      var value = 0
      while index < bytes.count, let digit = Self.digit(bytes[index]) {
        let (shifted, overflowShift) = value.multipliedReportingOverflow(by: 10)
        let (next, overflowAdd) =
          isNegative
          ? shifted.subtractingReportingOverflow(digit) : shifted.addingReportingOverflow(digit)
        guard !overflowShift, !overflowAdd else { return nil }
        value = next
        index += 1
      }
      // JSON allows no leading zero.
      guard index > start, !continuesNumber, bytes[start] != UInt8(ascii: "0") || index - start == 1
      else { return nil }
      return value
    }

    /// A JSON number whose `Double` is finite, and not zero unless every digit before its
    /// exponent is (`JSONDecoder` refuses a number too small for a `Double`, such as `1e-400`,
    /// which `Double(_:)` reads as zero).
    mutating func finiteNumber() -> Double? {
      skipWhitespace()
      let start = index
      if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
      let integerStart = index
      guard skipDigits() > 0 else { return nil }
      guard bytes[integerStart] != UInt8(ascii: "0") || index - integerStart == 1 else {
        return nil
      }
      if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
        index += 1
        guard skipDigits() > 0 else { return nil }
      }
      if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
        index += 1
        if index < bytes.count,
          bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-")
        {
          index += 1
        }
        guard skipDigits() > 0 else { return nil }
      }
      guard !continuesNumber else { return nil }
      let text = String(
        decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
      guard let value = Double(text), value.isFinite else { return nil }
      if value == 0 {
        let mantissa = text.prefix { $0 != "e" && $0 != "E" }
        guard mantissa.allSatisfy({ $0 == "0" || $0 == "." || $0 == "-" }) else { return nil }
      }
      return value
    }

    /// The offsets of the next JSON value: a string, an object or an array with what is in
    /// it (strings in it skipped whole, so that brackets in them do not count), or a number or
    /// literal up to the next comma, bracket or whitespace. Whether the value is valid JSON is
    /// for the decoder to say.
    mutating func valueExtent() -> Range<Int>? {
      skipWhitespace()
      let start = index
      guard let end = JSONGrammar.endOfValue(in: bytes, from: start, nestingLimit: 255) else {
        return nil
      }
      index = end
      return start..<end
    }

    /// Whether a number just read goes on with bytes that cannot follow it in JSON (`1x`,
    /// `1.`): then it is not one plain number.
    private var continuesNumber: Bool {
      index < bytes.count && !JSONGrammar.endsScalar(bytes[index])
    }

    private mutating func skipDigits() -> Int {
      let start = index
      while index < bytes.count, Self.digit(bytes[index]) != nil { index += 1 }
      return index - start
    }

    private static func digit(_ byte: UInt8) -> Int? {
      (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
        ? Int(byte - UInt8(ascii: "0")) : nil
    }
  }
}
