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
  /// to `0.5`, which no integer type reads, until `decode` refuses the line as a whole. The
  /// first in the line when there are several; `nil` when there is none.
  ///
  /// Only run on a line ``DuplicateKeyScanner/holdsRoundableNumber`` flagged: nearly no
  /// line pays for it.
  ///
  /// - Complexity: O(*n* log *k*) for a line of *n* bytes with *k* such numbers, when one is
  ///   found: halves of them are set at once, and only a half the line is refused with is
  ///   looked into. (One decode per number took 30 to 60 s for a line of 8 MiB with a hundred
  ///   of them.) O(*n* *k*) when none is, or when setting numbers refuses the line for
  ///   another reason (a type that checks its value): each is then tried alone too, since a
  ///   type may read a field only when another holds no number.
  static func roundedInteger(in line: Data, decoding decode: (Data) throws -> Void) -> String? {
    // A surrogate without its pair, which the decoder read past, must not hide the numbers
    // after it.
    let numbers = JSONCheck.check(line, allowingLoneSurrogates: true).roundedNumbers
    var patched = [UInt8](line)
    // Whether the line is refused as a whole with the numbers in `part` set to 0.5; `nil`
    // when it is refused for another reason.
    func refusesWhole(_ part: ArraySlice<Range<Int>>) -> Bool? {
      let originals = part.map { Array(patched[$0]) }
      for range in part {
        // The same length (a fraction or an exponent takes three bytes at least), so that the
        // other numbers stay where they were.
        patched.replaceSubrange(
          range, with: Array("0.5".utf8) + repeatElement(UInt8(ascii: " "), count: range.count - 3))
      }
      defer {
        for (range, original) in zip(part, originals) {
          patched.replaceSubrange(range, with: original)
        }
      }
      do {
        try decode(Data(patched))
        return false
      } catch DecodingError.dataCorrupted(let context) where context.codingPath.isEmpty {
        return true
      } catch {
        return nil
      }
    }
    // The first number of `part` that the line is refused with, alone.
    func first(in part: ArraySlice<Range<Int>>) -> Range<Int>? {
      guard !part.isEmpty else { return nil }
      switch refusesWhole(part) {
      case false?: return nil
      case true? where part.count == 1: return part.first
      case nil where part.count == 1: return nil
      default:
        let middle = part.startIndex + part.count / 2
        return first(in: part[..<middle]) ?? first(in: part[middle...])
      }
    }
    // A group the line is read with may still hold such a number: a type that reads one
    // field only when another is there (`try?` on the first) skips the second once the first
    // is set too (the review). Then each is tried alone, as before the halves.
    guard
      let range = first(in: numbers[...])
        ?? numbers.first(where: { refusesWhole([$0][...]) == true })
    else { return nil }
    let number = JSONCheck.Number(
      range: range, text: String(decoding: patched[range], as: UTF8.self))
    return """
      the number \(JSONCheck.Number.shown(number.text)) at \
      \(JSONCheck.path(at: range.lowerBound, in: line)) does not fit the integer type \
      expected there (\(number.integerProblem ?? "it is not a whole number")).
      """
  }

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
