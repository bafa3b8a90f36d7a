import Testing

@testable import Store

/// Text from a log is printed as a Swift string literal writes it: a control character in it
/// cannot act on a terminal, nor a newline start a line.
@Suite struct LogTextTests {
  @Test func quotedEscapesQuotesBackslashesAndEveryControlCharacter() {
    #expect(LogText.quoted("Tea") == #""Tea""#)
    #expect(LogText.quoted("a\"b\\c") == #""a\"b\\c""#)
    #expect(
      LogText.quoted("\u{1B}[31m\u{1B}]0;t\u{7}\r\n\t\0\u{7F}\u{85}\u{9B}\u{1F}")
        == #""\u{1B}[31m\u{1B}]0;t\u{7}\r\n\t\0\u{7F}\u{85}\u{9B}\u{1F}""#)
    // Printable text outside ASCII is left as it is.
    #expect(LogText.quoted("é e\u{301} 😀 \u{A0}") == "\"é e\u{301} 😀 \u{A0}\"")
  }

  @Test func escapedLeavesAllButControlCharactersAsTheyAre() {
    #expect(LogText.escaped(#"the key "k" at a\b"#) == #"the key "k" at a\b"#)
    #expect(LogText.escaped("a\u{1B}b\nc\u{85}é") == #"a\u{1B}b\nc\u{85}é"#)
  }

  @Test func bidirectionalFormattingAndSeparatorsAreEscaped() {
    // A right-to-left override would show the rest of the line reversed ("Trojan Source"); a
    // line separator breaks the line in some terminals.
    #expect(
      LogText.quoted("a\u{202E}gnp.exe\u{202C}b\u{2066}c\u{2069}\u{200F}\u{061C}\u{2028}\u{2029}")
        == #""a\u{202E}gnp.exe\u{202C}b\u{2066}c\u{2069}\u{200F}\u{61C}\u{2028}\u{2029}""#)
    #expect(LogText.escaped("key\u{202D}x\u{200E}") == #"key\u{202D}x\u{200E}"#)
    // Characters that share those first bytes are left as they are: quotes, dashes, Arabic.
    #expect(LogText.escaped("“a” – b … ؛ \u{2070}") == "“a” – b … ؛ \u{2070}")
  }

  @Test func anErrorEscapesWhatItsReasonHolds() {
    // Such as a `Codable` conformance's own error, quoting a value from the log.
    let error = ActionLogError.malformedLine(
      line: 2,
      reason: "invalid value: Cannot initialize Phase from invalid String value \u{1B}[2J\nx")
    #expect(
      error.description
        == #"Line 2: invalid value: Cannot initialize Phase from invalid String value \u{1B}[2J\nx"#
    )
    #expect(
      ActionLogError.featureMismatch(line: 1, log: "App\r\nLine 2: ok", expected: "App")
        .description == #"Line 1: the log was recorded for feature "App\r\nLine 2: ok", not "App"."#
    )
    #expect(
      ActionLogError.diverged(
        sequence: 3, line: 4, differences: ["a: \"x\u{7}\" → \"y\""], warnings: ["w\u{1B}"]
      )
      .description
        == "Line 4: the replay diverged at checkpoint 3:\n  a: \"x\\u{7}\" → \"y\"\n"
        + "Warnings before it:\n  w\\u{1B}")
  }

  @Test func aMessageHasEachStringItQuotesCutAsAQuotedValueIs() {
    let long = String(repeating: "x", count: 200)
    #expect(LogText.cuttingQuotes(in: #"short "Tea" text"#, limit: 5) == #"short "Tea" text"#)
    #expect(
      LogText.cuttingQuotes(in: ".edited(\"\(long)\"), then \"a\"", limit: 3)
        == #".edited("xxx"… (200 characters)), then "a""#)
    // An escape counts as one character, and is kept or left out whole.
    #expect(
      LogText.cuttingQuotes(in: #"said "ab\"cd\"ef" and left"#, limit: 3)
        == #"said "ab\""… (8 characters) and left"#)
    #expect(LogText.cuttingQuotes(in: "\"\(long)", limit: 3) == #""xxx… (200 characters)"#)
  }

  /// A message cut short (a replay's warning, after 1,000 characters) is not cut inside an
  /// escape the message wrote itself (an action's `"ab\u{200B}"`): `\u{20…` would read as
  /// another character, or as none. A complete escape, and an escaped backslash, stay.
  @Test func aCutDoesNotSplitAnEscapeTheTextHolds() {
    let lead = String(repeating: "a", count: 4)
    let escape = #"\u{200B}"#
    // 4 + 8 scalars; cut at each scalar of the escape.
    #expect(LogText.escaped(lead + escape + "b", limit: 4) == "aaaa… (13 characters)")
    #expect(LogText.escaped(lead + escape + "b", limit: 5) == "aaaa… (13 characters)")
    #expect(LogText.escaped(lead + escape + "b", limit: 6) == "aaaa… (13 characters)")
    #expect(LogText.escaped(lead + escape + "b", limit: 9) == "aaaa… (13 characters)")
    #expect(LogText.escaped(lead + escape + "b", limit: 11) == "aaaa… (13 characters)")
    #expect(
      LogText.escaped(lead + escape + "b", limit: 12) == #"aaaa\u{200B}… (13 characters)"#)
    #expect(LogText.escaped(lead + #"\n"# + "bb", limit: 5) == "aaaa… (8 characters)")
    #expect(LogText.escaped(lead + #"\n"# + "bb", limit: 6) == #"aaaa\n… (8 characters)"#)
    // An escaped backslash is complete, and the `u` after it text; its first half alone is not.
    #expect(LogText.escaped(lead + #"\\u{41}"#, limit: 7) == #"aaaa\\u… (11 characters)"#)
    #expect(LogText.escaped(lead + #"\\"#, limit: 5) == "aaaa… (6 characters)")
    #expect(LogText.escaped(lead + #"\\"#, limit: 6) == #"aaaa\\"#)
    // A run of backslashes longer than the end looked at is counted whole: 13 of 14 end
    // with a lone escaping one.
    let slashes = String(repeating: "\\", count: 14)
    #expect(
      LogText.escaped("a" + slashes, limit: 14)
        == "a" + String(repeating: "\\", count: 12) + "… (15 characters)")
  }

  @Test func aKeyThatDoesNotReadAsOneKeyIsQuotedInBrackets() {
    for plain in ["name", "_0", "12", "item-1", "é", "😀"] {
      #expect(LogText.key(plain) == ".\(plain)")
    }
    #expect(LogText.key("a.b") == #"["a.b"]"#)
    #expect(LogText.key("x[0]") == #"["x[0]"]"#)
    #expect(LogText.key("") == #"[""]"#)
    #expect(LogText.key("a b") == #"["a b"]"#)
    #expect(LogText.key("a: 1 → 2") == #"["a: 1 → 2"]"#)
    #expect(LogText.key(#"say "hi""#) == #"["say \"hi\""]"#)
    #expect(LogText.key("a\u{A0}b") == "[\"a\u{A0}b\"]")
    // Escaped, a control or formatting character cannot be taken for another key's text.
    #expect(LogText.key("x\u{85}y\u{202E}\n") == #".x\u{85}y\u{202E}\n"#)
    #expect(LogText.key("a\u{3000}b") == "[\"a\u{3000}b\"]")
    #expect(
      LogText.key("a.\(String(repeating: "k", count: 200))", limit: 3)
        == #"["a.k"… (202 characters)]"#)
    #expect(
      LogText.place(count: 3) { [".readings", LogText.key("a.b"), "[2]"][$0] }
        == #"readings["a.b"][2]"#)
  }

  @Test func listsNameTheFirstFewAndCountTheRest() {
    #expect(LogText.list([], limit: 3) == "")
    #expect(LogText.list(["a"], limit: 3) == "a")
    #expect(LogText.list(["a", "b"], limit: 3) == "a and b")
    #expect(LogText.list(["a", "b", "c"], limit: 3) == "a, b and c")
    #expect(LogText.list(["a", "b", "c", "d", "e"], limit: 3) == "a, b, c and 2 more")
  }
}
