import Effects

/// Text read from a log, made safe to print.
///
/// A log is input: a string in it may hold any character, its JSON escapes decoded, such as
/// an escape sequence that recolours a terminal, retitles its window, or (with a carriage
/// return or a newline) prints a line that looks like the replay's own, or a bidirectional
/// override that makes the terminal show the rest of the line in another order than it is
/// stored. Every value a message or a timeline quotes from a log goes through here, and comes
/// out with such characters written as a Swift string literal writes them.
package enum LogText {
  /// `text` in double quotes, escaped as in a Swift string literal: `"Tea\u{1B}[31m\n"`.
  ///
  /// A quote, a backslash, every control character (C0, DEL and C1), every bidirectional
  /// formatting character (embeddings, overrides, isolates and marks), the line and
  /// paragraph separators and the characters that show as nothing (a zero-width space,
  /// U+FEFF: see `EscapedText.isEscaped(_:)`, in Effects, whose escaper this is, shared with
  /// the messages that name actions) are escaped, so the result is one line, shown in the
  /// order it is stored, that shows where the value ends and every character it holds. Past
  /// `limit` characters (Unicode scalars), the rest is left out and counted:
  /// `"Tea, milk"… (8000000 characters)`.
  ///
  /// - Parameters:
  ///   - text: The text to quote.
  ///   - limit: The most characters (Unicode scalars) written.
  ///   - escapingSpaces: Whether every space but U+0020 is escaped too (a no-break space,
  ///     U+00A0, an ideographic space, U+3000): for text compared with other text, where a
  ///     space that shows as any other would hide a difference.
  package static func quoted(
    _ text: some StringProtocol, limit: Int = 120, escapingSpaces: Bool = false
  ) -> String {
    EscapedText.quoted(text, limit: limit, escapingSpaces: escapingSpaces)
  }

  /// `text`, a message that quotes values as Swift string literals do (a reducer's runtime
  /// warning describing an action: `.edited("Tea")`), with each literal cut after `limit`
  /// characters (Unicode scalars, an escape counted as one), as ``quoted(_:limit:)`` cuts a
  /// value: `.edited("xxx"… (200000 characters))`. A quote that is not closed has the rest of
  /// the text cut so.
  ///
  /// - Complexity: O(*n*) for a text of *n* characters.
  package static func cuttingQuotes(in text: String, limit: Int = 120) -> String {
    // Nearly every message is short, and one without a long literal comes out as it is.
    guard text.utf8.count > limit, text.utf8.contains(UInt8(ascii: "\"")) else { return text }
    var result = String.UnicodeScalarView()
    var isQuoted = false
    // After a backslash in a literal: the escaped character goes with it, kept or not.
    var isEscaped = false
    // After `\u`, and inside the braces that follow (`\u{1B}`), which go with the
    // backslash too; with the hexadecimal digits read in them.
    var braces = EscapeBraces.none
    var digits = 0
    var isKept = true
    var count = 0
    for scalar in text.unicodeScalars {
      guard isQuoted else {
        result.append(scalar)
        if scalar == "\"" { (isQuoted, count) = (true, 0) }
        continue
      }
      if isEscaped {
        isEscaped = false
        braces = scalar == "u" ? .expected : .none
        if isKept { result.append(scalar) }
        continue
      }
      // `{`, at most 8 hexadecimal digits (as in a Swift literal), then `}`; anything else
      // ends the escape, and is read as the literal's own text, counted and cut as any.
      let isInEscape =
        switch braces {
        case .none: false
        case .expected: scalar == "{"
        case .open: (scalar.properties.isASCIIHexDigit && digits < 8) || scalar == "}"
        }
      if isInEscape {
        braces = scalar == "}" ? .none : .open
        digits = braces == .open && scalar != "{" ? digits + 1 : 0
        if isKept { result.append(scalar) }
        continue
      }
      (braces, digits) = (.none, 0)
      if scalar == "\"" {
        isQuoted = false
        result.append(scalar)
        if count > limit { result += "… (\(count) characters)".unicodeScalars }
        continue
      }
      count += 1
      isKept = count <= limit
      isEscaped = scalar == "\\"
      if isKept { result.append(scalar) }
    }
    if isQuoted, count > limit { result += "… (\(count) characters)".unicodeScalars }
    return String(result)
  }

  /// Where ``cuttingQuotes(in:limit:)`` is in the braces of a `\u{1B}`.
  private enum EscapeBraces {
    /// Not in an escape's braces.
    case none
    /// Right after `\u`, where its `{` is expected.
    case expected
    /// After the `{`, before the `}`.
    case open
  }

  /// A place in a line as a message names it (`action.cart._0`, `x[2].name`), from its
  /// components: a key as `.key`, a position as `[2]` (a leading `.` is dropped). Each key is
  /// cut after `keyLimit` characters (Unicode scalars), as ``quoted(_:limit:)`` cuts a value,
  /// and a place of more than twice `shown` components keeps its first and last `shown`,
  /// with `…` between: a key of a million characters, or a million levels of nesting, make a
  /// short message.
  ///
  /// - Parameters:
  ///   - count: How many components the place has.
  ///   - shown: How many components are kept at each end of a longer place.
  ///   - keyLimit: How many characters of a key are kept.
  ///   - component: The component at an index in `0..<count`; called only for those shown.
  /// - Complexity: At most 2 × `shown` calls of `component`, and O(*m*) for the *m*
  ///   characters they return.
  package static func place(
    count: Int, shown: Int = 10, keyLimit: Int = 120, component: (Int) -> String
  ) -> String {
    let isCut = count > 2 * shown
    let indices = isCut ? Array(0..<shown) + Array((count - shown)..<count) : Array(0..<count)
    var result = ""
    for index in indices {
      if isCut, index == count - shown { result += "…" }
      let part = component(index)
      guard part.hasPrefix("."), part.unicodeScalars.count > keyLimit + 1 else {
        result += part
        continue
      }
      let scalars = part.unicodeScalars
      result.unicodeScalars += scalars.prefix(keyLimit + 1)
      result += "… (\(scalars.count - 1) characters)"
    }
    return result.hasPrefix(".") ? String(result.dropFirst()) : result
  }

  /// A key as a component of a place (see ``place(count:shown:keyLimit:component:)``): `.key`
  /// when it reads as one key, escaped as ``escaped(_:limit:)`` escapes text, and otherwise
  /// quoted in brackets, as ``quoted(_:limit:)`` quotes a value, cut after `limit` characters:
  /// `readings["a.b"]`, `readings[""]`.
  ///
  /// A key reads as one when it is not empty and holds none of the characters a place is
  /// written with (`.`, `[`, `]`), nor a quote, a backslash (so that an escape in a key is one
  /// ``escaped(_:limit:)`` wrote), a colon (which ends a place in `path: old → new`), or a
  /// space that is not escaped. Unquoted, the key `"a.b"` would read as field `b` of a field
  /// `a`, and `"x[0]"` as the first element of an array `x`. Field names and enum cases
  /// always read as one key.
  package static func key(_ key: some StringProtocol, limit: Int = 120) -> String {
    isPlainKey(key) ? "." + escaped(key) : "[" + quoted(key, limit: limit) + "]"
  }

  /// Whether `key` reads as one key in a place: see ``key(_:limit:)``.
  private static func isPlainKey(_ key: some StringProtocol) -> Bool {
    guard !key.isEmpty else { return false }
    // Through the bytes first: nearly every key is ASCII, and most are identifiers.
    var isASCII = true
    for byte in key.utf8 {
      switch byte {
      case UInt8(ascii: " "), UInt8(ascii: "."), UInt8(ascii: "["), UInt8(ascii: "]"),
        UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: ":"):
        return false
      case 0x80...: isASCII = false
      default: continue
      }
    }
    // A space outside ASCII that is not escaped (a no-break space, say) would not show.
    return isASCII
      || !key.unicodeScalars.contains { $0.properties.isWhitespace && !EscapedText.isEscaped($0) }
  }

  /// A coding path as a message names it (`action.cart._0`, `items[2].name`), cut as
  /// ``place(count:shown:keyLimit:component:)`` cuts one; empty for an empty path.
  package static func place(_ codingPath: [any CodingKey]) -> String {
    place(count: codingPath.count) { component(codingPath[$0]) }
  }

  /// A coding key as a component of a place: `[2]` for a position, and otherwise the key as
  /// ``key(_:limit:)`` writes it.
  package static func component(_ codingKey: any CodingKey) -> String {
    codingKey.intValue.map { "[\($0)]" } ?? key(codingKey.stringValue)
  }

  /// `items` as a list in a sentence, the first `limit` named: "a", "a and b", "a, b and c",
  /// or "a, b, c and 4 more".
  package static func list(_ items: [String], limit: Int) -> String {
    let shown = Array(items.prefix(limit))
    let rest = items.count - shown.count
    if rest > 0 { return shown.joined(separator: ", ") + " and \(rest) more" }
    guard let last = shown.last, shown.count > 1 else { return shown.joined() }
    return shown.dropLast().joined(separator: ", ") + " and " + last
  }

  /// `text` with every control character (C0, DEL and C1), bidirectional formatting
  /// character, line or paragraph separator and character that shows as nothing (see
  /// `EscapedText.isEscaped(_:)`) escaped as in a Swift string literal, and the rest left as
  /// it is: for text that is not quoted, such as a key in a path, or a message that quotes
  /// values of its own. Past `limit` characters (Unicode scalars), the rest is left out and
  /// counted: `too long… (8000000 characters)`.
  package static func escaped(_ text: some StringProtocol, limit: Int = .max) -> String {
    EscapedText.escaped(text, limit: limit)
  }
}
