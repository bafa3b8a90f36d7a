import Foundation
import Store
import StoreTesting
import Testing

/// A value holding styled text.
private struct Note: Equatable {
  var body: AttributedString
}

/// Foundation values whose stored properties are their implementation print as one line: an
/// `AttributedString` showed its rope (`_guts`, `BigString(_rope: …`) with a version number
/// drawn anew each run, and hid the change of its text.
@Suite struct FoundationLeafDumpTests {
  @Test func attributedTextPrintsItsCharacters() {
    #expect(StateDump.render(AttributedString("hello")) == #"AttributedString("hello")"#)
    #expect(
      StateDiff.diff(
        expected: Note(body: AttributedString("hello")),
        actual: Note(body: AttributedString("help"))) == """
            Note(
          -   body: AttributedString("hello")
          +   body: AttributedString("help")
            )
          """)
  }

  @Test func attributedTextPrintsItsRunsWithTheirAttributesSorted() {
    var text = AttributedString("see ")
    var link = AttributedString("docs")
    link.link = URL(string: "https://example.com")
    link.languageIdentifier = "en"
    link.alternateDescription = "multi\nline"
    text += link
    let expected = """
      AttributedString("see ", "docs" {NSAlternateDescription = multi\\nline, \
      NSLanguage = en, NSLink = https://example.com})
      """
    #expect(StateDump.render(text) == expected)
    let range = text.startIndex..<text.index(text.startIndex, offsetByCharacters: 5)
    #expect(
      StateDump.render(text[range]) == """
        AttributedSubstring("see ", "d" {NSAlternateDescription = multi\\nline, \
        NSLanguage = en, NSLink = https://example.com})
        """)
    var changed = text
    changed.link = nil
    #expect(StateDiff.diff(expected: text, actual: changed) != nil)
  }

  /// An attribute's value is escaped as a string leaf is: a line break and a backslash
  /// followed by `n` printed the same, and a zero-width space printed as nothing.
  @Test func attributeValuesAreEscaped() {
    func described(_ value: String) -> String {
      var text = AttributedString("a")
      text.alternateDescription = value
      return StateDump.render(text)
    }
    #expect(described("x\ny") == #"AttributedString("a" {NSAlternateDescription = x\ny})"#)
    #expect(described("x\\ny") == #"AttributedString("a" {NSAlternateDescription = x\\ny})"#)
    #expect(
      described("x\u{200B}") == #"AttributedString("a" {NSAlternateDescription = x\u{200B}})"#)
    #expect(
      described("say \"hi\"") == #"AttributedString("a" {NSAlternateDescription = say \"hi\"})"#)
  }

  @Test func timeZonesAndCalendarsPrintTheirDescription() throws {
    let paris = try #require(TimeZone(identifier: "Europe/Paris"))
    #expect(StateDump.render(paris) == "Europe/Paris")
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = paris
    let rendered = StateDump.render(calendar)
    #expect(!rendered.contains("\n"), "\(rendered)")
    #expect(rendered.contains("Europe/Paris"), "\(rendered)")
  }

  /// A number `JSONSerialization` made (an `NSNumber`) showed its CoreFoundation header and
  /// the bits of its value: `_pad: 4615063718147915776` for 3.5, and for a boolean a pointer,
  /// new each run.
  @Test func foundationNumbersPrintTheirValue() throws {
    #expect(StateDump.render(NSNumber(value: 3.5)) == "3.5")
    #expect(StateDump.render(NSNumber(value: 3)) == "3")
    let decoded = try JSONSerialization.jsonObject(with: Data(#"{"ok": true}"#.utf8))
    // As Foundation describes a boolean number: `NSNumber(value: true) == NSNumber(value: 1)`.
    #expect(StateDump.render(decoded) == "[\n  \"ok\": 1\n]")
    #expect(
      StateDiff.diff(expected: [NSNumber(value: 3.5)], actual: [NSNumber(value: 4.5)]) == """
          [
        -   [0]: 3.5
        +   [0]: 4.5
          ]
        """)
    // A Swift number or boolean is not taken for one.
    #expect(StateDump.render([true as Any, 1 as Any]) == "[\n  [0]: true\n  [1]: 1\n]")
  }
}
