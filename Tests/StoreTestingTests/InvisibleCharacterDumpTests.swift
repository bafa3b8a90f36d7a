import Store
import StoreTesting
import Testing

/// A value with a name a user typed.
private struct Contact: Equatable {
  var name: String
}

/// A row known by a name a user typed.
private struct Tag: Equatable, Identifiable {
  var id: String
  var uses = 0
}

/// Strings in a dump escape the characters that show as nothing, or as another character (a
/// zero-width space, a no-break space, a byte order mark, a right-to-left override, a line
/// separator, a C1 next-line, a soft hyphen): unescaped, a diff showed two lines that looked
/// the same.
@Suite struct InvisibleCharacterDumpTests {
  @Test(
    arguments: [
      ("\u{200B}", "\\u{200B}"), ("\u{A0}", "\\u{A0}"), ("\u{FEFF}", "\\u{FEFF}"),
      ("\u{202E}", "\\u{202E}"), ("\u{2028}", "\\u{2028}"), ("\u{85}", "\\u{85}"),
      ("\u{AD}", "\\u{AD}"), ("\u{1B}", "\\u{1B}"), ("\u{3000}", "\\u{3000}"),
    ])
  func anInvisibleCharacterIsEscaped(character: String, escape: String) {
    #expect(StateDump.render("a" + character + "b") == "\"a" + escape + "b\"")
  }

  @Test func aDiffShowsTheInvisibleCharacter() {
    #expect(
      StateDiff.diff(expected: Contact(name: "ab"), actual: Contact(name: "ab\u{200B}")) == """
          Contact(
        -   name: "ab"
        +   name: "ab\\u{200B}"
          )
        """)
  }

  /// A row's label shows its string id as the id's field does: the label printed the
  /// character as it is, so a row keyed `"a\u{200B}"` was labelled `[id: "a"]` to the eye.
  @Test func aRowsLabelShowsTheInvisibleCharacterInItsID() {
    let difference = StateDiff.diff(
      expected: IdentifiedArray<String, Tag>([Tag(id: "a")]),
      actual: IdentifiedArray<String, Tag>([Tag(id: "a\u{200B}")]))
    #expect(difference?.contains(#"-   [id: "a"]: Tag("#) == true, "\(difference ?? "")")
    #expect(difference?.contains(#"+   [id: "a\u{200B}"]: Tag("#) == true, "\(difference ?? "")")
    let changed = StateDiff.diff(
      expected: IdentifiedArray<String, Tag>([Tag(id: "a\u{A0}b")]),
      actual: IdentifiedArray<String, Tag>([Tag(id: "a\u{A0}b", uses: 1)]))
    #expect(changed?.contains(#"[id: "a\u{A0}b"]: Tag("#) == true, "\(changed ?? "")")
  }

  @Test func aLineOfTextThatSpansLinesShowsTheInvisibleCharacter() {
    let difference = StateDiff.diff(expected: "x\nab\u{A0}", actual: "x\nab ")
    #expect(difference?.contains("-   ab\\u{A0}\n+   ab\\u{20}") == true, "\(difference ?? "")")
  }

  @Test func charactersAndScalarsAreEscapedToo() {
    #expect(StateDump.render(Character("\u{200B}")) == "\"\\u{200B}\"")
    #expect(StateDump.render("\u{FEFF}" as Unicode.Scalar) == "\"\\u{FEFF}\"")
  }

  @Test func visibleTextStaysAsItIs() {
    // Joiners, variation selectors and a flag's tags shape what shows: an emoji stays whole.
    let text = "👨‍👩‍👧 🏴󠁧󠁢󠁥󠁮󠁧󠁿 ❤️ é́ Zoë"
    #expect(StateDump.render(text) == "\"" + text + "\"")
    #expect(StateDump.render("say \"hi\" \\ \t\r\n") == #""say \"hi\" \\ \t\r\n""#)
    #expect(StateDump.render(["key\u{200B}": 1]) == "[\n  \"key\\u{200B}\": 1\n]")
  }
}

/// Printable ASCII is written without a look at its Unicode properties; a flag's tags before
/// it are still judged as a whole, and written escaped unless they spell a flag.
@Suite struct PrintableASCIIDumpTests {
  @Test func asciiAfterAnUnfinishedFlagEscapesItsTags() {
    #expect(StateDump.render("🏴\u{E0067}\u{E0062}x") == "\"🏴\\u{E0067}\\u{E0062}x\"")
  }

  @Test func asciiAfterAFlagKeepsTheFlag() {
    let england = "🏴\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F}"
    #expect(StateDump.render(england + "a \"b\"\\") == "\"" + england + "a \\\"b\\\"\\\\\"")
  }
}
