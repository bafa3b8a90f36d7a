import Effects

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Why a line could not be decoded, in words: the replay's error messages.
extension ActionLogReplayer {
  /// A decoding error as one readable sentence: where in the line, and what.
  ///
  /// - Parameters:
  ///   - error: The error decoding `line` threw.
  ///   - line: The line, to name what the error does not: the case an enum does not have,
  ///     or, when the decoder calls the line invalid JSON without saying where, the first
  ///     problem ``JSONCheck`` finds.
  ///   - decode: Decodes a line as the failed decoding did. Given, and the line is valid
  ///     JSON, it finds the number that did not fit the type expected for it.
  static func explain(
    _ error: any Error, in line: Data? = nil, decoding decode: ((Data) throws -> Void)? = nil
  ) -> String {
    guard let error = error as? DecodingError else { return "\(error)" }
    func path(_ context: DecodingError.Context) -> String {
      context.codingPath.isEmpty ? "" : " at " + LogText.place(context.codingPath)
    }
    switch error {
    case .dataCorrupted(let context):
      if context.codingPath.isEmpty, let line,
        let diagnosis = diagnoseUnreadable(line, decoding: decode)
      {
        return diagnosis
      }
      let cause = context.underlyingError.map { " (\($0))" } ?? ""
      // With a place, the JSON was read: it is the value there that is refused, shown unless
      // the message shows it (Foundation's do not: "Attempted to decode UUID from invalid
      // UUID string.").
      let what = context.codingPath.isEmpty ? "invalid JSON or value" : "invalid value"
      var found = ""
      if !context.codingPath.isEmpty, let line,
        let value = JSONValue.reading(line, { $0.value(at: context.codingPath)?.rendered() })
          ?? nil,
        !context.debugDescription.contains(value)
      {
        found = " " + value
      }
      return "\(what)\(found)\(path(context)): \(context.debugDescription)\(cause)"
    case .keyNotFound(let key, let context):
      return "missing key \"\(key.stringValue)\"\(path(context))."
    case .typeMismatch(let type, let context):
      // An enum case this type does not have decodes as an object with no key it knows.
      if context.debugDescription.hasPrefix("Invalid number of keys"), let line,
        let keys = JSONValue.reading(line, { $0.value(at: context.codingPath)?.keys }) ?? nil
      {
        // Named with its enclosing types: a feature has an `Action` at every level.
        let name = TypeName.name(of: type)
        if keys.count == 1, let key = keys.first {
          return "\(LogText.quoted(key)) is not a case of \(name)\(path(context))."
        }
        let found =
          keys.isEmpty ? "none" : keys.sorted().map { LogText.quoted($0) }.joined(separator: ", ")
        return "expected one case of \(name)\(path(context)), found \(found)."
      }
      return JSONMismatch.explain(expected: type, context, path: path(context), in: line)
    case .valueNotFound(let type, let context):
      return JSONMismatch.explain(expected: type, context, path: path(context), in: line)
    @unknown default:
      return "\(error)"
    }
  }

  /// The number of `line` that `JSONDecoder` read into an integer field as a whole number
  /// it is not (`"seq":0.99999999999999999999` as action 1, `1E-400` as 0), which `decode`
  /// (decoding `line` as the replay did, successfully) reads: found by setting such numbers
  /// to `0.5`, which no integer type reads, until `decode` refuses the line as a whole. `nil`
  /// when there is none.
  ///
  /// Only run on a line ``DuplicateKeyScanner/holdsRoundableNumber`` flagged: nearly no
  /// line pays for it (an encoder never writes such a number; a hand-edited log may).
  ///
  /// The first ``numbersTriedAlone`` such numbers are tried one at a time: set together,
  /// numbers can hide one another from a type that reads a field only when another holds no
  /// integer (`try?` on the first). The rest, which only a crafted line holds, are set all
  /// at once, and when the line is refused so, the first of them it is refused with is found
  /// by halves: one decode per number took hours for a line of 8 MiB of them.
  ///
  /// - Complexity: O(*n* (min(*k*, 64) + log *k*)) for a line of *n* bytes with *k* such
  ///   numbers: one decode each (about 0.3 s for a line of 8 MiB, in a release build).
  static func roundedInteger(in line: Data, decoding decode: (Data) throws -> Void) -> String? {
    // A surrogate without its pair, which the decoder read past, must not hide the numbers
    // after it.
    let numbers = JSONCheck.check(line, allowingLoneSurrogates: true).roundedNumbers
    let original = [UInt8](line)
    var patched = original
    // Whether the line is refused as a whole with the numbers in `part` set to 0.5: the same
    // length (a fraction or an exponent takes three bytes at least), so that the other
    // numbers stay where they were. In place, byte by byte: a crafted line sets hundreds of
    // thousands at once.
    func isRefused(with part: ArraySlice<Range<Int>>) -> Bool {
      patched.withUnsafeMutableBufferPointer { bytes in
        for range in part {
          bytes[range.lowerBound] = UInt8(ascii: "0")
          bytes[range.lowerBound + 1] = UInt8(ascii: ".")
          bytes[range.lowerBound + 2] = UInt8(ascii: "5")
          for index in (range.lowerBound + 3)..<range.upperBound {
            bytes[index] = UInt8(ascii: " ")
          }
        }
      }
      defer {
        patched.withUnsafeMutableBufferPointer { bytes in
          for range in part {
            for index in range { bytes[index] = original[index] }
          }
        }
      }
      do {
        try decode(Data(patched))
        return false
      } catch DecodingError.dataCorrupted(let context) where context.codingPath.isEmpty {
        return true
      } catch {
        return false
      }
    }
    func message(_ range: Range<Int>) -> String {
      let number = JSONCheck.Number(
        range: range, text: String(decoding: original[range], as: UTF8.self))
      return """
        the number \(JSONCheck.Number.shown(number.text)) at \
        \(JSONCheck.path(at: range.lowerBound, in: line)) does not fit the integer type \
        expected there (\(number.integerProblem ?? "it is not a whole number")).
        """
    }
    let alone = numbers.prefix(numbersTriedAlone)
    if let range = alone.first(where: { isRefused(with: [$0][...]) }) { return message(range) }
    let rest = numbers.dropFirst(numbersTriedAlone)
    guard !rest.isEmpty, isRefused(with: rest) else { return nil }
    // The line is refused with all of `rest` set, and not with none: the shortest start of
    // it that refuses the line ends with the number it is refused with, when each field is
    // read whatever the others hold.
    var low = rest.startIndex
    var high = rest.endIndex - 1
    while low < high {
      let middle = (low + high) / 2
      if isRefused(with: rest[rest.startIndex...middle]) {
        high = middle
      } else {
        low = middle + 1
      }
    }
    // A type that reads a field only when another holds no integer can refuse the line for
    // a number the replay's decode never read: named only if the line is refused with it
    // alone.
    return isRefused(with: [rest[low]][...]) ? message(rest[low]) : nil
  }

  /// How many numbers ``roundedInteger(in:decoding:)`` tries one at a time before it sets
  /// the rest together: 64.
  static var numbersTriedAlone: Int { 64 }

  /// Why `JSONDecoder` refused `line` as a whole, when it did not say: the JSON problem
  /// ``JSONCheck`` finds, or the number that does not fit the type expected for it (see
  /// ``RefusedNumber``).
  private static func diagnoseUnreadable(
    _ line: Data, decoding decode: ((Data) throws -> Void)?
  ) -> String? {
    let check = JSONCheck.check(line)
    // The line as the numbers are tried in.
    var tried = [UInt8](line)
    if let problem = check.problem {
      guard check.problemIsLoneSurrogate, let decode else { return "invalid JSON: \(problem)." }
      // `JSONDecoder` reads a surrogate without its pair where no type asks for its string
      // (a key in an object a type ignores): the surrogates are the problem only when the
      // line decodes without them. Replaced by spaces (`\u0020`, as long), to look further.
      let lenient = JSONCheck.check(line, allowingLoneSurrogates: true)
      for range in lenient.loneSurrogates {
        tried.replaceSubrange(range, with: #"\u0020"#.utf8)
      }
      do {
        try decode(Data(tried))
        return "invalid JSON: \(problem)."
      } catch DecodingError.dataCorrupted(let context) where context.codingPath.isEmpty {
        // Still refused as a whole: something else too.
      } catch {
        return "invalid JSON: \(problem)."
      }
      if let other = lenient.problem { return "invalid JSON: \(other)." }
    }
    guard let decode else { return nil }
    // JSON, refused as a whole: a number that does not fit its field's type.
    return RefusedNumber.find(in: tried, decoding: decode)?.message(in: line)
  }
}
