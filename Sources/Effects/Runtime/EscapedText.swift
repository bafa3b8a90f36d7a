/// Text escaped so that it prints on one line and shows every character it holds: the one
/// escaper behind every message that quotes a value, an action's payload as ``describe(_:)``
/// writes it as well as a value read from a log (Store's `LogText`) or a test's state dump.
///
/// A control character, a bidirectional formatting character, a line or paragraph separator
/// and a character that shows as nothing (see ``isEscaped(_:)``) are written as a Swift string
/// literal writes them (`\n`, `\u{1B}`, `\u{200B}`). Left as they are, two different strings
/// could print alike (`"ab"` and `"ab\u{200B}"`), an escape sequence could recolour a
/// terminal, and a right-to-left override could show the rest of a line in another order than
/// it is stored.
package enum EscapedText {
  /// `text` in double quotes, escaped as in a Swift string literal: `"Tea\u{1B}[31m\n"`.
  ///
  /// A quote, a backslash and every character ``isEscaped(_:)`` names are escaped, so the
  /// result is one line, shown in the order it is stored, that shows where the value ends and
  /// every character it holds. Past `limit` characters (Unicode scalars), the rest is left out
  /// and counted: `"Tea, milk"… (8000000 characters)`.
  ///
  /// - Parameters:
  ///   - text: The text to quote.
  ///   - limit: The most characters (Unicode scalars) written.
  ///   - escapingSpaces: Whether every space but U+0020 is escaped too (a no-break space,
  ///     U+00A0, an ideographic space, U+3000): for text compared with other text, where a
  ///     space that shows as any other would hide a difference.
  /// - Complexity: O(*n*) for a text of *n* characters.
  package static func quoted(
    _ text: some StringProtocol, limit: Int = 120, escapingSpaces: Bool = false
  ) -> String {
    // Nearly every text is printable ASCII with nothing to escape: checked on its bytes first.
    let utf8 = text.utf8
    let isPlain =
      utf8.count <= limit
      && utf8.allSatisfy { byte in
        byte >= 0x20 && byte < 0x7F && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\")
      }
    guard !isPlain else { return "\"\(text)\"" }
    return "\"" + escaping(text, limit: limit, isQuoted: true, escapingSpaces: escapingSpaces)
  }

  /// `text` with every character ``isEscaped(_:)`` names escaped as in a Swift string literal,
  /// and the rest left as it is: for text that is not quoted, such as a key in a path, or a
  /// message that quotes values of its own (a string's `debugDescription`, whose quotes and
  /// backslashes are escaped already). Past `limit` characters (Unicode scalars), the rest is
  /// left out and counted: `too long… (8000000 characters)`.
  ///
  /// - Parameters:
  ///   - text: The text to escape.
  ///   - limit: The most characters (Unicode scalars) written.
  ///   - escapingSpaces: Whether every space but U+0020 is escaped too, as
  ///     ``quoted(_:limit:escapingSpaces:)`` escapes them.
  /// - Complexity: O(*n*) for a text of *n* characters.
  package static func escaped(
    _ text: some StringProtocol, limit: Int = .max, escapingSpaces: Bool = false
  ) -> String {
    // Nearly every text (a key, a message) is printable ASCII, with nothing to escape:
    // checked on its bytes first. Any other is read scalar by scalar, so that what is escaped
    // depends on the Unicode data the program runs with alone (on Apple platforms, the
    // system's, which may be newer than the data it was tested with).
    let utf8 = text.utf8
    guard utf8.count > limit || utf8.contains(where: { $0 < 0x20 || $0 >= 0x7F }) else {
      return String(text)
    }
    return escaping(text, limit: limit, isQuoted: false, escapingSpaces: escapingSpaces)
  }

  /// The scalars of `text`, escaped, up to `limit` of them: with the closing quote when
  /// `isQuoted` (the opening one is the caller's), and a count of what was left out.
  private static func escaping(
    _ text: some StringProtocol, limit: Int, isQuoted: Bool, escapingSpaces: Bool
  ) -> String {
    let close = isQuoted ? "\"" : ""
    var result = ""
    var count = 0
    var flag = FlagTags()
    for scalar in text.unicodeScalars {
      guard count < limit else {
        flag.end(into: &result)
        // Unquoted, the text may hold escapes of its own (a message quoting a value): one cut
        // in two (`\u{20…`) would read as a different character, or as none.
        if !isQuoted { dropPartialEscape(from: &result) }
        return result + close + "… (\(text.unicodeScalars.count) characters)"
      }
      count += 1
      // Printable ASCII (a quote or a backslash only outside quotes) is written as it is,
      // before the Unicode properties below are looked up: a table search each, for most of
      // any text.
      if isPlainASCII(scalar, isQuoted: isQuoted) {
        if flag.isOpen { flag.end(into: &result) }
        result.unicodeScalars.append(scalar)
        continue
      }
      if escapingSpaces, scalar != " ", scalar.properties.isWhitespace, !isEscaped(scalar) {
        flag.end(into: &result)
        result += escapedForm(scalar)
        continue
      }
      append(scalar, to: &result, flag: &flag, isQuoted: isQuoted)
    }
    flag.end(into: &result)
    return result + close
  }

  /// Removes from the end of `text`, a text cut short (unquoted, or one holding literals, as
  /// an action's description does), an escape the cut split: a backslash that begins an
  /// escape (not the second of `\\`) followed by nothing, by `u`, or by `u{` and at most 8
  /// hexadecimal digits without the closing brace. A complete escape (`\n`, `\u{200B}`)
  /// stays.
  package static func dropPartialEscape(from text: inout String) {
    let tail = Array(text.unicodeScalars.suffix(12))
    guard let slash = tail.lastIndex(of: "\\") else { return }
    // The backslashes that end at `slash`, counted in the whole text (a run may begin before
    // the tail): an even run is escaped backslashes, all complete.
    let run = text.unicodeScalars.dropLast(tail.count - 1 - slash).reversed()
      .prefix { $0 == "\\" }.count
    guard run % 2 == 1 else { return }
    let after = tail[(slash + 1)...]
    let isPartial =
      after.isEmpty || Array(after) == ["u"]
      || (after.starts(with: ["u", "{"]) && after.count <= 10
        && after.dropFirst(2).allSatisfy { $0.properties.isASCIIHexDigit })
    guard isPartial else { return }
    text.unicodeScalars.removeLast(tail.count - slash)
  }

  /// Whether `scalar` is printable ASCII (U+0020...U+007E), other than a quote or a backslash
  /// when `isQuoted`: written as it is, ending any flag's tags before it.
  private static func isPlainASCII(_ scalar: Unicode.Scalar, isQuoted: Bool) -> Bool {
    guard (0x20...0x7E).contains(scalar.value) else { return false }
    return !isQuoted || (scalar != "\"" && scalar != "\\")
  }

  /// The tag characters read after a black flag (U+1F3F4), held until what follows says
  /// whether they are a flag's: written as they are when they spell one of the flags Unicode
  /// recommends and a cancel tag ends them (🏴, `gbeng`, U+E007F: England's), and escaped
  /// otherwise. Tag characters show as nothing, and any other sequence shows as a black flag
  /// alone: `"🏴\u{E0061}\u{E0064}…"` would hide text behind one.
  private struct FlagTags {
    /// Whether the last scalar written was a black flag, or a tag held after one.
    var isOpen = false
    /// The tags held.
    var held: [Unicode.Scalar] = []

    /// The tags of the flags Unicode recommends: England's, Scotland's and Wales's.
    static let flags: Set<[Unicode.Scalar]> = Set(
      ["gbeng", "gbsct", "gbwls"].map { name in
        name.unicodeScalars.map { Unicode.Scalar($0.value + 0xE0000)! }
      })

    /// Whether `scalar` is a tag letter (a to z) or digit.
    static func isTagLetterOrDigit(_ scalar: Unicode.Scalar) -> Bool {
      ("\u{E0030}"..."\u{E0039}").contains(scalar) || ("\u{E0061}"..."\u{E007A}").contains(scalar)
    }

    /// Writes the tags held, escaped: they are not a flag's.
    mutating func end(into result: inout String) {
      for tag in held { result += EscapedText.escapedForm(tag) }
      held = []
      isOpen = false
    }
  }

  /// Appends `scalar`: a quote or a backslash escaped when `isQuoted`, a character
  /// ``isEscaped(_:)`` names escaped, and a flag's tag characters as they are (see
  /// `FlagTags`).
  private static func append(
    _ scalar: Unicode.Scalar, to result: inout String, flag: inout FlagTags, isQuoted: Bool
  ) {
    if flag.isOpen {
      if FlagTags.isTagLetterOrDigit(scalar), flag.held.count < 7 {
        flag.held.append(scalar)
        return
      }
      if scalar == "\u{E007F}", FlagTags.flags.contains(flag.held) {
        for tag in flag.held { result.unicodeScalars.append(tag) }
        result.unicodeScalars.append(scalar)
        (flag.held, flag.isOpen) = ([], false)
        return
      }
      flag.end(into: &result)
    }
    switch scalar {
    case "\"" where isQuoted: result += "\\\""
    case "\\" where isQuoted: result += "\\\\"
    case "\0": result += "\\0"
    case "\t": result += "\\t"
    case "\n": result += "\\n"
    case "\r": result += "\\r"
    case _ where isEscaped(scalar): result += escapedForm(scalar)
    default: result.unicodeScalars.append(scalar)
    }
    flag.isOpen = scalar == "\u{1F3F4}"
  }

  /// `scalar` as a Swift string literal escapes it by its value: `\u{1B}`.
  private static func escapedForm(_ scalar: Unicode.Scalar) -> String {
    "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
  }

  /// Whether `scalar` is written escaped: a control character, a bidirectional formatting
  /// character (U+061C, U+200E, U+200F, U+202A...U+202E, U+2066...U+2069), a line or
  /// paragraph separator (U+2028, U+2029), or a character that shows as nothing: every
  /// default-ignorable code point (the soft hyphen, U+FEFF, the zero-width space, the word
  /// joiner, the Hangul fillers, the tag characters, and those not yet assigned) and the
  /// interlinear annotation characters (U+FFF9...U+FFFB). Unescaped, `"a\u{FEFF}da"` would
  /// show as `"ada"`, and a difference between the two as none. Left as they are: the
  /// joiners (U+200C, U+200D) and the variation selectors, which shape the characters around
  /// them (the parts of an emoji, a letter's form), and the tag characters of a flag (see
  /// `FlagTags`).
  package static func isEscaped(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar {
    case "\u{00}"..."\u{1F}", "\u{7F}"..."\u{9F}", "\u{061C}", "\u{200E}", "\u{200F}",
      "\u{2028}"..."\u{202E}", "\u{2066}"..."\u{2069}", "\u{FFF9}"..."\u{FFFB}":
      true
    case "\u{200C}", "\u{200D}", "\u{180B}"..."\u{180D}", "\u{180F}", "\u{FE00}"..."\u{FE0F}",
      "\u{E0100}"..."\u{E01EF}":
      false
    default:
      scalar.properties.isDefaultIgnorableCodePoint
    }
  }
}
