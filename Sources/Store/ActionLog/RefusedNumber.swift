#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A number of a line that `JSONDecoder` refused because it does not fit the type of its
/// field: 256 in a `UInt8`, -1 in a `UInt`, 1e39 in a `Float`. For such a number the decoder
/// says only "The given data was not valid JSON.", with no place (its coding path is empty),
/// though the line is JSON.
///
/// Found by decoding the line again with numbers set to 0, which every number type holds,
/// and what the field holds by decoding it with other numbers in that one's place. Only a
/// line that failed to decode pays for this.
struct RefusedNumber {
  /// Where the number's text is in the line.
  var range: Range<Int>
  /// The number, as written.
  var text: String
  /// What the field holds, as the message names it: "integer type", or "number type" for one
  /// that holds fractions (a `Float`, a `Decimal`).
  var expected: String
  /// Why the number does not fit it, when that could be told: "it is not a whole number".
  var reason: String?

  /// The number as a message names it: `the number 256 at action.set._0 does not fit the
  /// integer type expected there (it is outside the range of an unsigned 8-bit integer, 0 to
  /// 255).`
  func message(in line: Data) -> String {
    let path = JSONCheck.path(at: range.lowerBound, in: line)
    return """
      the number \(JSONCheck.Number.shown(text))\(path.isEmpty ? "" : " at \(path)") does not \
      fit the \(expected) expected there\(reason.map { " (\($0))" } ?? "").
      """
  }

  /// The number of `line` (JSON, as ``JSONCheck`` reads it) for which `decode` refuses the
  /// line as a whole, with what its field holds; `nil` when it cannot be told for sure, so
  /// that no valid number is blamed.
  ///
  /// A line of up to 64 numbers is tried one number at a time: the number without which (set
  /// to 0, the others as written) the line decodes. Setting several at once to 0 can make the
  /// line fail for another reason (a raw-value enum with no case for 0, a check of the
  /// type's own), which hid the refused number behind a valid one. Past 64 numbers, or with
  /// several refused, a binary search over the numbers set to 0 from one on finds the first,
  /// which is kept only if the line decodes once it and those after it are 0.
  ///
  /// - Complexity: O(min(*k*, 64) + log *k*) decodes of the line, for a line of *k* numbers,
  ///   and a few more to tell what the field holds; O(*n*) memory for a line of *n* bytes,
  ///   however many numbers it holds.
  static func find(in line: [UInt8], decoding decode: (Data) throws -> Void) -> RefusedNumber? {
    func isRefused(_ bytes: [UInt8]) -> Bool {
      do {
        try decode(Data(bytes))
        return false
      } catch DecodingError.dataCorrupted(let context) where context.codingPath.isEmpty {
        return true
      } catch {
        // Refused for another reason, which a number set to 0 may cause: not this one.
        return false
      }
    }
    func decodes(_ bytes: [UInt8]) -> Bool {
      (try? decode(Data(bytes))) != nil
    }
    var ranges: [Range<Int>] = []
    forEachNumber(in: line) { _, range in ranges.append(range) }
    // `bytes` with the numbers at `ordinals` set to 0, the same length as written, so that
    // the numbers stay where they were.
    func zeroing(_ ordinals: some Sequence<Int>, in bytes: [UInt8]) -> [UInt8] {
      var bytes = bytes
      for ordinal in ordinals {
        let range = ranges[ordinal]
        bytes[range.lowerBound] = UInt8(ascii: "0")
        for index in range.dropFirst() { bytes[index] = UInt8(ascii: " ") }
      }
      return bytes
    }
    guard !ranges.isEmpty else { return nil }
    // The line with the number at `ordinal` replaced: what the field holds is told from it.
    var base = line
    var ordinal: Int?
    if ranges.count <= 64 {
      ordinal = ranges.indices.first { decodes(zeroing([$0], in: line)) }
    }
    if ordinal == nil {
      guard !isRefused(zeroing(ranges.indices, in: line)) else { return nil }
      // Refused as written and read with every number 0: the first `k` such that setting
      // the numbers from the `k`-th on to 0 still leaves it refused is one past the first
      // refused number.
      var low = 1
      var high = ranges.count
      while low < high {
        let middle = (low + high) / 2
        if isRefused(zeroing(middle..<ranges.count, in: line)) {
          high = middle
        } else {
          low = middle + 1
        }
      }
      let first = low - 1
      // Kept only when the line decodes without it and the numbers after it: a failure of
      // another kind on the way may have led the search astray.
      guard decodes(zeroing(first..<ranges.count, in: line)) else { return nil }
      ordinal = first
      base = zeroing(first + 1..<ranges.count, in: line)
    }
    guard let ordinal else { return nil }
    let range = ranges[ordinal]
    // The line refused for this number alone, with it replaced by `probe`: whether the field
    // holds that.
    func holds(_ probe: String) -> Bool {
      var bytes = base
      bytes.replaceSubrange(range, with: Array(probe.utf8))
      return !isRefused(bytes)
    }
    let text = String(decoding: line[range], as: UTF8.self)
    if holds("0.5") {
      return RefusedNumber(
        range: range, text: text, expected: "number type",
        reason: floatingPointReason(text, holds: holds))
    }
    return RefusedNumber(
      range: range, text: text, expected: "integer type", reason: integerReason(text, holds: holds))
  }

  /// Why `text` does not fit a field that holds 0.5, when the field is one that can be told
  /// by the numbers it refuses: a `Float` refuses 1e39, and a `Decimal` (as `JSONDecoder` reads
  /// one) 1e200, which a `Double` holds.
  private static func floatingPointReason(_ text: String, holds: (String) -> Bool) -> String? {
    let isSmall = Double(text).map { abs($0) < 1 } ?? false
    if !holds("1e39") {
      return isSmall
        ? "it is not zero, but nearer zero than the smallest Float, about 1.4e-45"
        : "it is outside the range of a Float, about -3.4e38 to 3.4e38"
    }
    if !holds("1e200") {
      return isSmall
        ? "it is not zero, but nearer zero than a Decimal as JSONDecoder reads one"
        : "it is larger than a Decimal as JSONDecoder reads one"
    }
    return nil
  }

  /// The largest and smallest values of the integer types, by width: what an integer field is
  /// told by.
  private static let integerRanges: [(bits: Int, signed: (String, String), unsigned: String)] = [
    (8, ("-128", "127"), "255"),
    (16, ("-32768", "32767"), "65535"),
    (32, ("-2147483648", "2147483647"), "4294967295"),
    (64, ("-9223372036854775808", "9223372036854775807"), "18446744073709551615"),
    (
      128,
      ("-170141183460469231731687303715884105728", "170141183460469231731687303715884105727"),
      "340282366920938463463374607431768211455"
    ),
  ]

  /// Why `text` does not fit an integer field: it is not whole, it is written with an exponent
  /// or a fraction, which the field reads only when it is small, or it is out of the field's
  /// range (of the widest type whose largest value the field holds).
  private static func integerReason(_ text: String, holds: (String) -> Bool) -> String? {
    let number = JSONNumber(text)
    if number.isWhole == false { return "it is not a whole number" }
    if text.contains(where: { "eE.".contains($0) }), let digits = number.digitsAlone(limit: 40),
      holds(digits)
    {
      return """
        JSONDecoder reads a whole number written with an exponent or a fraction into an \
        integer only up to about 1.8e19 either way: write it with digits alone, \(digits)
        """
    }
    let isSigned = holds("-1")
    let fitting = integerRanges.prefix { holds(isSigned ? $0.signed.1 : $0.unsigned) }
    guard let range = fitting.last else { return nil }
    // As it was said before other widths were told apart.
    if isSigned, range.bits == 64 { return "it is outside the range of a 64-bit integer" }
    return isSigned
      ? """
      it is outside the range of a\(range.bits == 8 ? "n" : "") \(range.bits)-bit integer, \
      \(range.signed.0) to \(range.signed.1)
      """
      : "it is outside the range of an unsigned \(range.bits)-bit integer, 0 to \(range.unsigned)"
  }

  /// Calls `body` with the position among the line's numbers and the range of each number of
  /// `line`, JSON, in order.
  private static func forEachNumber(in line: [UInt8], _ body: (Int, Range<Int>) -> Void) {
    var index = 0
    var ordinal = 0
    while index < line.count {
      switch line[index] {
      case UInt8(ascii: "\""):
        // A string, whose digits are not a number: skipped to its closing quote.
        index += 1
        while index < line.count, line[index] != UInt8(ascii: "\"") {
          index += line[index] == UInt8(ascii: "\\") ? 2 : 1
        }
        index += 1
      case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
        let end = max(JSONGrammar.scanNumber(in: line, from: index).end, index + 1)
        body(ordinal, index..<end)
        ordinal += 1
        index = end
      default:
        index += 1
      }
    }
  }
}
