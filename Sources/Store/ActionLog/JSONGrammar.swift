/// The parts of JSON's grammar that both of the module's scanners of a line read the same
/// way: `JSONCheck`, which names what is wrong, and the `JSONValue` parser, which keeps
/// numbers as written.
enum JSONGrammar {
  /// The byte a one-character escape after `\` stands for (`n` for a newline, `"` for a
  /// quote, ...); `nil` for `u`, which four hexadecimal digits follow, and for a byte JSON has
  /// no escape for.
  static func escapedByte(_ escape: UInt8) -> UInt8? {
    switch escape {
    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): escape
    case UInt8(ascii: "b"): 0x08
    case UInt8(ascii: "f"): 0x0C
    case UInt8(ascii: "n"): 0x0A
    case UInt8(ascii: "r"): 0x0D
    case UInt8(ascii: "t"): 0x09
    default: nil
    }
  }

  /// What keeps bytes from being a JSON number.
  enum NumberProblem {
    case noDigit
    case leadingZero
    case noDigitAfterPoint
    case noDigitInExponent
  }

  /// Where the number that starts at `start` (a `-` or a digit) ends, with no problem; or
  /// what is wrong with it, and where the scan stopped (the byte a digit was expected at).
  ///
  /// - Complexity: O(*n*) in the number's length.
  static func scanNumber<Bytes: RandomAccessCollection<UInt8>>(
    in bytes: Bytes, from start: Int
  ) -> (end: Int, problem: NumberProblem?) where Bytes.Index == Int {
    var index = start
    func digits() -> Int {
      let first = index
      while index < bytes.endIndex, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) {
        index += 1
      }
      return index - first
    }
    if index < bytes.endIndex, bytes[index] == UInt8(ascii: "-") { index += 1 }
    let integer = digits()
    guard integer > 0 else { return (index, .noDigit) }
    if integer > 1, bytes[index - integer] == UInt8(ascii: "0") { return (index, .leadingZero) }
    if index < bytes.endIndex, bytes[index] == UInt8(ascii: ".") {
      index += 1
      guard digits() > 0 else { return (index, .noDigitAfterPoint) }
    }
    if index < bytes.endIndex,
      bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E")
    {
      index += 1
      if index < bytes.endIndex,
        bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-")
      {
        index += 1
      }
      guard digits() > 0 else { return (index, .noDigitInExponent) }
    }
    return (index, nil)
  }

  /// Where the value that starts at `start` ends, read no further than to find its end: a
  /// string after its closing quote, an object or an array after its closing bracket (the
  /// strings in it skipped whole, so that brackets in them do not count), and a number or a
  /// literal at the next comma, closing bracket or whitespace. Whether the value is valid JSON
  /// is for a reader to say.
  ///
  /// - Returns: The offset after the value; `nil` when it does not end, is empty, or nests
  ///   arrays and objects more than `nestingLimit` deep.
  /// - Complexity: O(*n*) in the value's length.
  static func endOfValue<Bytes: RandomAccessCollection<UInt8>>(
    in bytes: Bytes, from start: Int, nestingLimit: Int
  ) -> Int? where Bytes.Index == Int {
    guard start < bytes.endIndex else { return nil }
    switch bytes[start] {
    case UInt8(ascii: "\""):
      return endOfString(in: bytes, from: start)
    case UInt8(ascii: "{"), UInt8(ascii: "["):
      var index = start
      var nesting = 0
      while index < bytes.endIndex {
        switch bytes[index] {
        case UInt8(ascii: "\""):
          guard let end = endOfString(in: bytes, from: index) else { return nil }
          index = end
          continue
        case UInt8(ascii: "{"), UInt8(ascii: "["):
          nesting += 1
          guard nesting <= nestingLimit else { return nil }
        case UInt8(ascii: "}"), UInt8(ascii: "]"):
          nesting -= 1
          if nesting == 0 { return index + 1 }
        default:
          break
        }
        index += 1
      }
      return nil
    default:
      var index = start
      while index < bytes.endIndex, !endsScalar(bytes[index]) { index += 1 }
      return index > start ? index : nil
    }
  }

  /// Whether `bytes` nest arrays and objects more than `levels` deep anywhere, the strings in
  /// them skipped whole (brackets in a string do not count). Text that is not JSON is scanned
  /// the same way, a closing bracket with none open counting for nothing.
  ///
  /// - Complexity: O(*n*) for *n* bytes, stopping at the first bracket past `levels`.
  static func nests<Bytes: RandomAccessCollection<UInt8>>(deeperThan levels: Int, _ bytes: Bytes)
    -> Bool where Bytes.Index == Int
  {
    var index = bytes.startIndex
    var nesting = 0
    while index < bytes.endIndex {
      switch bytes[index] {
      case UInt8(ascii: "\""):
        guard let end = endOfString(in: bytes, from: index) else { return false }
        index = end
        continue
      case UInt8(ascii: "{"), UInt8(ascii: "["):
        nesting += 1
        if nesting > levels { return true }
      case UInt8(ascii: "}"), UInt8(ascii: "]"):
        // A closing bracket with none open is not JSON, and does not make room for more.
        nesting = max(nesting - 1, 0)
      default:
        break
      }
      index += 1
    }
    return false
  }

  /// Where the string whose opening quote is at `start` ends: after its closing quote, its
  /// escapes skipped; `nil` when it does not end.
  static func endOfString<Bytes: RandomAccessCollection<UInt8>>(in bytes: Bytes, from start: Int)
    -> Int? where Bytes.Index == Int
  {
    var index = start + 1
    while index < bytes.endIndex {
      switch bytes[index] {
      case UInt8(ascii: "\""): return index + 1
      case UInt8(ascii: "\\"): index += 2
      default: index += 1
      }
    }
    return nil
  }

  /// Whether `byte` ends a number or a literal: a comma, a closing bracket or whitespace.
  static func endsScalar(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x09, 0x0A, 0x0D: true
    default: false
    }
  }

  /// Whether `byte` is JSON whitespace: a space, a tab, a carriage return or a newline.
  static func isSpace(_ byte: UInt8) -> Bool {
    byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r")
      || byte == UInt8(ascii: "\n")
  }

  /// Whether `byte` is a hexadecimal digit, in either case.
  static func isHexDigit(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "A")...UInt8(ascii: "F"),
      UInt8(ascii: "a")...UInt8(ascii: "f"):
      true
    default: false
    }
  }

  /// The UTF-16 code unit of the four hexadecimal digits at `start`, if there are four.
  /// (Four exactly: `Int(_:radix:)` alone would take a sign, as in `\u-041`.)
  static func hexUnit<Bytes: RandomAccessCollection<UInt8>>(in bytes: Bytes, at start: Int)
    -> UInt32? where Bytes.Index == Int
  {
    guard start >= bytes.startIndex, start + 4 <= bytes.endIndex else { return nil }
    var value: UInt32 = 0
    for byte in bytes[start..<(start + 4)] {
      let digit: UInt8
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
      default: return nil
      }
      value = value << 4 | UInt32(digit)
    }
    return value
  }
}
