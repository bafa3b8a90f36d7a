import Foundation
import Testing

@testable import Store

/// How a value read from a log is shown in a difference, a divergence and the timeline (demo
/// hunt). The rendering cut its text again at 80 characters after the escapes were written,
/// so a short string of control characters lost its closing quote and its length, and the
/// cut could fall inside an escape: `"\u{7}\u{7}…\u{…`. A long number lost its length.
/// Escapes in a warning's literal counted as several characters, and could be split. An
/// invisible character (U+FEFF, a zero-width space) was not escaped, so a difference could
/// show two values that look the same.
@Suite struct LogValueRenderingTests {
  private struct Titled: Encodable {
    var title: String
  }

  @Test func aShortStringOfControlCharactersIsShownWholeWithItsClosingQuote() {
    let bells = String(repeating: "\u{7}", count: 18)
    #expect(
      JSONValue.string(bells).rendered()
        == "\"" + String(repeating: #"\u{7}"#, count: 18) + "\"")
    #expect(
      stateChanges(from: Titled(title: "Cart"), to: Titled(title: bells))
        == [#"title: "Cart" → ""# + String(repeating: #"\u{7}"#, count: 18) + "\""])
  }

  @Test func aLongStringIsCutAfterItsLimitWithItsClosingQuoteAndLength() {
    let long = String(repeating: "\u{1B}", count: 100)
    #expect(
      JSONValue.string(long).rendered(limit: 12)
        == "\"" + String(repeating: #"\u{1B}"#, count: 12) + "\"… (100 characters)")
    // However little room a value's members before it left, a string shows its start.
    #expect(
      JSONValue.string(long).rendered(limit: 3)
        == "\"" + String(repeating: #"\u{1B}"#, count: 8) + "\"… (100 characters)")
    #expect(
      JSONValue.string(String(repeating: "k", count: 8_000)).rendered()
        == "\"" + String(repeating: "k", count: 80) + "\"… (8000 characters)")
  }

  @Test func aLongNumberKeepsItsLength() {
    let digits = "1" + String(repeating: "0", count: 200)
    let number = JSONValue.reading(Data(#"{"n":\#(digits)}"#.utf8)) { $0 }
    #expect(
      number.flatMap { $0.value(at: [Key("n")])?.rendered() }
        == "1" + String(repeating: "0", count: 23) + "… (201 characters)")
    #expect(JSONValue.reading(Data("[12.5]".utf8)) { $0.rendered() } == "[12.5]")
  }

  @Test func aLongArrayOrObjectIsCutBetweenMembers() throws {
    let array = try #require(
      JSONValue.reading(
        Data(("[" + (1...1_000).map(String.init).joined(separator: ",") + "]").utf8)
      ) { $0 })
    let shown = array.rendered(limit: 20)
    #expect(shown == "[1, 2, 3, 4, 5, 6, 7, …]")
    let object = try #require(
      JSONValue.reading(Data(#"{"a":"\#(String(repeating: "x", count: 30))","b":1,"c":2}"#.utf8)) {
        $0
      })
    #expect(
      object.rendered(limit: 20)
        == #"{a: ""# + String(repeating: "x", count: 16) + #""… (30 characters), …}"#)
    // An enum case, as it encodes.
    let payload = try #require(
      JSONValue.reading(Data(#"{"edited":{"_0":"Tea\u0007"}}"#.utf8)) { $0 })
    #expect(payload.rendered() == #".edited("Tea\u{7}")"#)
  }

  @Test func aDeeplyNestedValueMakesAShortText() throws {
    let depth = 400
    let nested = try #require(
      JSONValue.reading(
        Data(
          (String(repeating: "[", count: depth) + "1" + String(repeating: "]", count: depth)).utf8)
      ) { $0 })
    let shown = nested.rendered(limit: 80)
    #expect(shown.count <= 2 * 80 + 4, "\(shown.count)")
    #expect(shown.hasPrefix(String(repeating: "[", count: 80) + "[…]"))
  }

  @Test func aWarningsLiteralCountsAnEscapeOnceAndKeepsItWhole() {
    let text = ".edited(\"" + String(repeating: "x", count: 200) + "\\u{1B}\")"
    #expect(
      LogText.cuttingQuotes(in: text)
        == ".edited(\"" + String(repeating: "x", count: 120) + "\"… (201 characters))")
    let split = ".edited(\"" + String(repeating: "x", count: 119) + "\\u{1B}yyy\")"
    #expect(
      LogText.cuttingQuotes(in: split)
        == ".edited(\"" + String(repeating: "x", count: 119) + #"\u{1B}"… (123 characters))"#)
    // A `\u` that is not followed by braces is an escape of one character, as before.
    #expect(
      LogText.cuttingQuotes(in: #"said "\uabc" at "# + String(repeating: "y", count: 200), limit: 2)
        == #"said "\ua"… (4 characters) at "# + String(repeating: "y", count: 200))
  }

  @Test func invisibleCharactersAreEscapedAndJoinersAreNot() {
    #expect(LogText.quoted("a\u{FEFF}da") == #""a\u{FEFF}da""#)
    #expect(
      LogText.escaped("a\u{200B}b\u{2060}c\u{AD}d\u{180E}e\u{FFF9}f\u{206A}")
        == #"a\u{200B}b\u{2060}c\u{AD}d\u{180E}e\u{FFF9}f\u{206A}"#)
    // A family emoji is three people joined by U+200D; Persian uses U+200C between letters.
    #expect(
      LogText.quoted("👨\u{200D}👩\u{200D}👧 می\u{200C}خواهم")
        == "\"👨\u{200D}👩\u{200D}👧 می\u{200C}خواهم\"")
    // Text that only shares first bytes with them is left as it is: CJK compatibility,
    // full-width forms, Mongolian.
    #expect(LogText.escaped("ＡＢ！ 豈 ᠠ") == "ＡＢ！ 豈 ᠠ")
  }

  /// A key of a coding path, for `JSONValue.value(at:)`.
  private struct Key: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ string: String) { stringValue = string }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }
}
