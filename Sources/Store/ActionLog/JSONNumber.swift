/// A JSON number as written, compared by its exact value.
///
/// Read into a `Double`, integers past 2^53, a `UInt64` near its maximum or a precise
/// `Decimal` would lose their last digits, so that two states that differ there would
/// compare equal, and `123456789012345678` would show as `1.2345678901234568e+17`. The text
/// is kept instead, and two numbers are equal when their digits and exponents say the same
/// value, however written (`1.50` and `15e-1`). `-0` and `0` differ, as their encodings do.
struct JSONNumber: Equatable, Sendable {
  /// The number as written.
  let text: String
  /// The value in one spelling: the sign, the significant digits without leading or
  /// trailing zeros, and the power of ten of the last one (`0` or `-0` for a zero, whatever
  /// its exponent); the text itself when it is not a JSON number (`00e1`, `01`, `.5`, `1.`:
  /// JSON writes no leading zero, and a digit on each side of a point) or, but for a zero,
  /// its exponent does not fit an `Int`.
  private let value: String
  /// Whether ``value`` is the number in one spelling, rather than the text.
  private let isNormalized: Bool

  /// A number of JSON text `text`.
  init(_ text: String) {
    self.text = text
    let normalized = Self.normalized(text)
    self.value = normalized ?? text
    self.isNormalized = normalized != nil
  }

  static func == (lhs: JSONNumber, rhs: JSONNumber) -> Bool {
    lhs.value == rhs.value
  }

  /// Whether the number's exact value is a whole number, however written (`3`, `3.0`,
  /// `3e2`; not `0.99999999999999999999`, `1E-400` or `1e-99999999999999999999`, which a
  /// `Double` rounds to one); `nil` when the text is not a JSON number.
  var isWhole: Bool? {
    if value == "0" || value == "-0" { return true }
    if let exponent { return exponent.power >= 0 }
    // A JSON number not normalized, and not zero: its exponent does not fit an `Int`. Its
    // digits, however many a line holds, cannot bring it back: a negative one leaves a
    // fraction (which `JSONDecoder` reads into an integer as 0), a positive one a whole
    // number.
    guard Self.isJSONNumber(text),
      let marker = text.utf8.firstIndex(where: { $0 | 0x20 == UInt8(ascii: "e") })
    else { return nil }
    return text.utf8[text.utf8.index(after: marker)] != UInt8(ascii: "-")
  }

  /// The power of ten of the normalized value's last significant digit, and where its `e`
  /// is; `nil` when the text is not a JSON number.
  private var exponent: (power: Int, marker: String.Index)? {
    // Not `value != text`: a number written in that spelling (`1e30`) is one too.
    guard isNormalized, let marker = value.lastIndex(of: "e"),
      let power = Int(value[value.index(after: marker)...])
    else { return nil }
    return (power, marker)
  }

  /// The number written with digits alone (`1e3` as `1000`, `-2.50e1` as `-25`), when it is
  /// whole and so written takes at most `limit` digits; `nil` otherwise.
  func digitsAlone(limit: Int) -> String? {
    if value == "0" || value == "-0" { return value }
    guard let (power, marker) = exponent, power >= 0 else { return nil }
    let isNegative = value.hasPrefix("-")
    let digits = value[value.index(value.startIndex, offsetBy: isNegative ? 1 : 0)..<marker]
    guard power <= limit - digits.count else { return nil }
    return (isNegative ? "-" : "") + digits + String(repeating: "0", count: power)
  }

  private static func normalized(_ text: String) -> String? {
    // What follows reads more than JSON's numbers (a leading zero, a point without digits on
    // one side): the rest is for the grammar to refuse.
    guard isJSONNumber(text) else { return nil }
    var bytes = Substring(text).utf8[...]
    let isNegative = bytes.first == UInt8(ascii: "-")
    if isNegative { bytes = bytes.dropFirst() }
    var digits: [UInt8] = []
    var exponent = 0
    var isFraction = false
    var isDigitSeen = false
    while let byte = bytes.first {
      if (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
        isDigitSeen = true
        // Leading zeros say nothing; a zero after the point still moves the exponent.
        if !(digits.isEmpty && byte == UInt8(ascii: "0")) { digits.append(byte) }
        if isFraction { exponent -= 1 }
      } else if byte == UInt8(ascii: "."), !isFraction {
        isFraction = true
      } else {
        break
      }
      bytes = bytes.dropFirst()
    }
    guard isDigitSeen else { return nil }
    // Trailing zeros moved into the exponent before the written one is added, which may be
    // as large as an `Int` goes: every step that can overflow is the checked addition.
    while digits.last == UInt8(ascii: "0") {
      digits.removeLast()
      exponent += 1
    }
    let sign = isNegative ? "-" : ""
    if let marker = bytes.first {
      guard marker == UInt8(ascii: "e") || marker == UInt8(ascii: "E") else { return nil }
      let power = bytes.dropFirst()
      // Zero times any power of ten is zero: its exponent is only checked, so that one past
      // an `Int` (`0e99999999999999999999`) still makes a zero.
      guard !digits.isEmpty else { return isExponent(power) ? sign + "0" : nil }
      guard let written = Int(String(decoding: power, as: UTF8.self)) else { return nil }
      let (sum, overflow) = exponent.addingReportingOverflow(written)
      guard !overflow else { return nil }
      exponent = sum
    }
    guard !digits.isEmpty else { return sign + "0" }
    return "\(sign)\(String(decoding: digits, as: UTF8.self))e\(exponent)"
  }

  /// Whether `text` is a JSON number, all of it, as the log's parser reads one (see
  /// ``JSONGrammar/scanNumber(in:from:)``).
  private static func isJSONNumber(_ text: String) -> Bool {
    func scansWhole<Bytes: RandomAccessCollection<UInt8>>(_ bytes: Bytes) -> Bool
    where Bytes.Index == Int {
      let scan = JSONGrammar.scanNumber(in: bytes, from: bytes.startIndex)
      return scan.problem == nil && scan.end == bytes.endIndex
    }
    return text.utf8.withContiguousStorageIfAvailable { scansWhole($0) }
      ?? scansWhole(Array(text.utf8))
  }

  /// Whether `bytes`, what follows an `e`, are an exponent as `Int(_:)` reads one: digits,
  /// after an optional sign.
  private static func isExponent(_ bytes: Substring.UTF8View) -> Bool {
    var digits = bytes
    if digits.first == UInt8(ascii: "+") || digits.first == UInt8(ascii: "-") {
      digits = digits.dropFirst()
    }
    return !digits.isEmpty
      && digits.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
  }
}
