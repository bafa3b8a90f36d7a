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
      JSONValue.string(long).rendered(limit: 30)
        == "\"" + String(repeating: #"\u{1B}"#, count: 30) + "\"… (100 characters)")
    // However little room a value's members before it left, a string shows its start.
    #expect(
      JSONValue.string(long).rendered(limit: 3)
        == "\"" + String(repeating: #"\u{1B}"#, count: 20) + "\"… (100 characters)")
    #expect(
      JSONValue.string(String(repeating: "k", count: 8_000)).rendered()
        == "\"" + String(repeating: "k", count: 80) + "\"… (8000 characters)")
  }

  /// A string a little longer than the room is shown whole: cut, with its length, it would
  /// not be shorter (`"green, loose lea"… (17 characters)`, the second review).
  @Test func aStringALittleLongerThanTheRoomIsShownWhole() {
    let note = "green, loose leaf"
    #expect(JSONValue.string(note).rendered(limit: 16) == #""green, loose leaf""#)
    let uuid = "00000000-0000-0000-0000-000000000003"
    #expect(JSONValue.string(uuid).rendered(limit: 3) == "\"\(uuid)\"")
    let longer = String(repeating: "y", count: 37)
    #expect(
      JSONValue.string(longer).rendered(limit: 3)
        == "\"" + String(repeating: "y", count: 20) + "\"… (37 characters)")
  }

  /// A key or a case's name is cut as a string is, to the room left (it was cut at 120
  /// characters whatever the room: the second review).
  @Test func keysAreCutToTheRoomLeft() throws {
    let key = String(repeating: "k", count: 200)
    let object = try #require(JSONValue.reading(Data(#"{"\#(key)":1,"z":2}"#.utf8)) { $0 })
    #expect(
      object.rendered(limit: 40)
        == "{" + String(repeating: "k", count: 39) + "… (200 characters): 1, …}")
    let enumCase = try #require(JSONValue.reading(Data(#"{"\#(key)":{}}"#.utf8)) { $0 })
    #expect(
      enumCase.rendered(limit: 30) == "." + String(repeating: "k", count: 30) + "… (200 characters)"
    )
  }

  /// A key that would not read as one key unquoted (it holds `: ` or `, `, a brace, a space,
  /// or is empty) is quoted: `{a: 0, b: 1, c: 2}` was also how `{"a": 0, "b: 1, c": 2}` showed.
  @Test func aKeyThatWouldReadAsMoreThanOneIsQuoted() throws {
    let object = try #require(
      JSONValue.reading(Data(#"{"a":0,"b: 1, c":2,"":3,"x y":4,"{z}":5,"plain_key.1":6}"#.utf8)) {
        $0
      })
    #expect(
      object.rendered(limit: 200)
        == #"{"": 3, a: 0, "b: 1, c": 2, plain_key.1: 6, "x y": 4, "{z}": 5}"#)
    let enumCase = try #require(JSONValue.reading(Data(#"{"a, b":{}}"#.utf8)) { $0 })
    #expect(enumCase.rendered() == #"."a, b""#)
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
      object.rendered(limit: 20) == #"{a: ""# + String(repeating: "x", count: 30) + #"", …}"#)
    let wider = try #require(
      JSONValue.reading(Data(#"{"a":"\#(String(repeating: "x", count: 60))","b":1}"#.utf8)) {
        $0
      })
    #expect(
      wider.rendered(limit: 20)
        == #"{a: ""# + String(repeating: "x", count: 20) + #""… (60 characters), …}"#)
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

  /// A run of hexadecimal digits after `\u{` longer than a Swift literal's 8 ended no
  /// escape: none of it was counted, and a literal of 100,000 of them was kept whole (the
  /// second review).
  @Test func aWarningsEscapeHoldsAtMostEightDigits() {
    let hex = String(repeating: "A", count: 100_000)
    let cut = LogText.cuttingQuotes(in: ".edited(\"\\u{" + hex + "}\" tail)")
    #expect(cut.count < 200, "\(cut.count)")
    // The backslash counts as one, the `u`, the brace and 8 digits with it; the other 99,992
    // digits and the brace count as the literal's own.
    #expect(cut.hasSuffix(#"… (99994 characters) tail)"#), "\(cut.suffix(40))")
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
    // The second review: tag characters, U+2065, the Hangul fillers, which show as nothing.
    #expect(
      LogText.quoted("admin\u{E0041}\u{2065}\u{3164}\u{115F}\u{FFA0}\u{34F}")
        == #""admin\u{E0041}\u{2065}\u{3164}\u{115F}\u{FFA0}\u{34F}""#)
    #expect(LogText.key("a\u{E0020}b") == #".a\u{E0020}b"#)
    // A flag's tag characters (England's), variation selectors (an emoji's presentation, a
    // Mongolian letter's form) are left as they are.
    let england = "🏴\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F}"
    #expect(LogText.quoted(england) == "\"\(england)\"")
    #expect(LogText.quoted("\(england)\u{E0041}") == "\"\(england)\\u{E0041}\"")
    #expect(LogText.escaped("☺\u{FE0F} ᠠ\u{180B}") == "☺\u{FE0F} ᠠ\u{180B}")
  }

  /// Tag characters after a black flag were all left as they are, whatever followed, so text
  /// could hide behind a flag; a quote or backslash after the flag did not end it in `quoted`
  /// (the third review). Only a flag's complete sequence is left as it is.
  @Test func onlyAFlagsCompleteTagSequenceIsLeftAsItIs() {
    func tags(_ text: String) -> String {
      String(
        String.UnicodeScalarView(text.unicodeScalars.map { Unicode.Scalar($0.value + 0xE0000)! }))
    }
    func escapedTags(_ text: String) -> String {
      text.unicodeScalars.map {
        "\\u{" + String($0.value + 0xE0000, radix: 16, uppercase: true) + "}"
      }
      .joined()
    }
    let cancel = "\u{E007F}"
    // Hidden text, with or without a cancel tag; a cancel tag alone.
    #expect(
      LogText.quoted("🏴" + tags("admin password") + cancel)
        == "\"🏴" + escapedTags("admin password") + #"\u{E007F}""#)
    #expect(LogText.quoted("🏴" + tags("admin")) == "\"🏴" + escapedTags("admin") + "\"")
    #expect(LogText.quoted("🏴" + cancel) == #""🏴\u{E007F}""#)
    #expect(
      LogText.key("role🏴" + tags("admin") + cancel) == ".role🏴" + escapedTags("admin")
        + #"\u{E007F}"#)
    // A quote or a backslash ends what follows the flag.
    #expect(
      LogText.quoted("🏴\"" + tags("gbeng") + cancel) == #""🏴\""# + escapedTags("gbeng")
        + #"\u{E007F}""#)
    #expect(LogText.quoted("🏴\\" + tags("gb")) == #""🏴\\"# + escapedTags("gb") + "\"")
    // A cut in the middle of a sequence escapes what was held.
    #expect(
      LogText.quoted("🏴" + tags("gbeng") + cancel, limit: 3) == "\"🏴" + escapedTags("gb")
        + "\"… (7 characters)")
    // Flags: Scotland's after England's, then text.
    let flags = "🏴" + tags("gbeng") + cancel + "🏴" + tags("gbsct") + cancel + " ok"
    #expect(LogText.quoted(flags) == "\"\(flags)\"")
    #expect(LogText.escaped(flags) == flags)
  }

  /// `LogText.escaped` looks at a text's bytes first, and returns it as it is when none can
  /// start an escaped character: checked here for every scalar, against `quoted`, which does
  /// not look first (the first test of it was a reviewer's).
  @Test func theFirstBytesLookedForStartEveryEscapedCharacter() {
    var missed: [String] = []
    for value in UInt32(0)...0x10_FFFF {
      guard let scalar = Unicode.Scalar(value), scalar != "\"", scalar != "\\" else { continue }
      let text = String(scalar)
      let isEscapedInQuotes = LogText.quoted(text) != "\"" + text + "\""
      if isEscapedInQuotes != (LogText.escaped(text) != text) {
        missed.append(String(value, radix: 16))
      }
    }
    #expect(missed.isEmpty, "\(missed.prefix(20))")
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
