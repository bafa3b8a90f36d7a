import Effects
import Foundation
import Testing

@testable import Store

/// Keys that differ in bytes but are equal as Swift strings are one key to `JSONDecoder`,
/// and so a repeat, like two keys spelled the same.
@Suite struct DuplicateKeyScannerTests {
  func duplicate(_ json: String) -> DuplicateKeyScanner.Duplicate? {
    var scanner = DuplicateKeyScanner()
    guard case .duplicate(let found)? = scanner.firstProblem(in: Data(json.utf8)) else {
      return nil
    }
    return found
  }

  @Test func composedAndDecomposedSpellingsOfAKeyAreARepeat() {
    let found = duplicate("{\"\u{E9}\":1,\"e\u{301}\":2}")
    #expect(found == .init(key: "e\u{301}", path: "", firstSpelling: "\u{E9}"))
    #expect(
      found?.description == #"""
        the key "e\#u{301}" appears twice in the line's object, written "\u00E9" and \#
        "e\u0301": Swift reads them as one key, other readers as two.
        """#)
    // An escape, a singleton decomposition (the Kelvin sign is K), a character outside the
    // Basic Multilingual Plane.
    #expect(duplicate(#"{"a":{"\u00e9":1,"e\#u{301}":2}}"#)?.path == "a")
    #expect(duplicate("{\"K\":1,\"\u{212A}\":2}")?.firstSpelling == "K")
    #expect(
      duplicate("{\"\u{1D15F}\":1,\"\u{1D158}\u{1D165}\":2}")?.description.contains(
        #"written "\uD834\uDD5F" and "\uD834\uDD58\uD834\uDD65""#) == true)
    // Keys written the same way are reported as before, with no spellings.
    #expect(duplicate(#"{"é":1,"é":2}"#) == .init(key: "é", path: ""))
  }

  @Test func distinctKeysOutsideASCIIAreNotARepeat() {
    #expect(duplicate(#"{"é":1,"è":2,"e":3,"ё":4,"\u00e8x":5}"#) == nil)
    let many = (0..<40).map { "\"k\u{E9}\($0)\":\($0)" }.joined(separator: ",")
    #expect(duplicate("{\(many)}") == nil)
  }

  /// Past 16 keys an object's keys are sorted, not compared one by one: canonically equal
  /// keys must still meet.
  @Test func aRepeatInALargeObjectIsFoundWhateverItsSpelling() {
    let many = (0..<40).map { #""k\#($0)":\#($0)"# }.joined(separator: ",")
    let found = duplicate("{\"x\":[{\"\u{E9}\":0,\(many),\"e\u{301}\":1}]}")
    #expect(found?.path == "x[0]")
    #expect(found?.firstSpelling.map { Array($0.unicodeScalars) } == ["\u{E9}"])
    #expect(found.map { Array($0.key.unicodeScalars) } == ["e", "\u{301}"])
  }

  /// Past 16 keys they were sorted with `String.<`, which is not an order consistent with
  /// `==` for canonically equivalent spellings: `"e\u{301}3" < "\u{E9}30"` is false while
  /// `"\u{E9}3" < "\u{E9}30"` is true, so among 100 keys `"\u00e9N"` the decomposed
  /// `"e\u03013"` did not land next to `"\u00e93"`, and the repeat was missed.
  @Test func aDecomposedRepeatAmongManyComposedKeysIsFound() {
    let keys = (0..<100).map { #""\u00e9\#($0)":1"# }.joined(separator: ",")
    let found = duplicate(#"{"a":{"# + keys + #","e\u03013":2}}"#)
    #expect(found?.path == "a")
    #expect(found?.firstSpelling.map { Array($0.unicodeScalars) } == ["\u{E9}", "3"])
    #expect(found.map { Array($0.key.unicodeScalars) } == ["e", "\u{301}", "3"])
    // Of two repeats, the one read first is named, whatever the hashes.
    let two = (0..<20).map { #""k\#($0)":1"# }.joined(separator: ",")
    #expect(duplicate("{" + two + #","k7":2,"k3":3}"#) == .init(key: "k7", path: ""))
    #expect(duplicate("{\"\u{E9}\":0," + two + #","k7":2,"e\u0301":3}"#)?.key == "k7")
  }

  /// A key with an escape or a character outside ASCII was decoded through a new
  /// `JSONDecoder` each time it was compared with another key of its object, up to 16
  /// times: a valid 8 MB line of such keys took 11.7 s in a release build (0.13 s with plain
  /// keys). Each key is now decoded at most once.
  @Test(arguments: [true, false])
  func eachKeyOfALineIsDecodedAtMostOnce(isEscaped: Bool) {
    let keys = (0..<16).map { isEscaped ? #""\u0061\#($0)":0"# : "\"\u{E9}\($0)\":0" }
    let object = "{" + keys.joined(separator: ",") + "}"
    let line = #"{"x":["# + Array(repeating: object, count: 100).joined(separator: ",") + "]}"
    var scanner = DuplicateKeyScanner()
    #expect(scanner.firstProblem(in: Data(line.utf8)) == nil)
    #expect(scanner.decodedKeyCount <= 16 * 100, "\(scanner.decodedKeyCount) keys decoded")
    // Keys that differ only past an escape are still told apart, and equal ones found.
    #expect(duplicate(#"{"\u0061b":1,"ab":2}"#) == .init(key: "ab", path: ""))
    #expect(duplicate(#"{"\u0061b":1,"ac":2,"a\u0063":3}"#) == .init(key: "ac", path: ""))
    #expect(duplicate(#"{"\u00e9":1,"\u00e8":2}"#) == nil)
  }

  /// Two different keys of invalid UTF-8 were both repaired into U+FFFD, and called one key
  /// written twice. They are compared by their bytes now (the replay refuses such a line
  /// before the scan).
  @Test func keysOfInvalidUTF8AreNeverCalledARepeat() {
    var scanner = DuplicateKeyScanner()
    let line =
      Data(#"{""#.utf8) + Data([0xFF]) + Data(#"":1,""#.utf8) + Data([0xFE]) + Data(#"":2}"#.utf8)
    #expect(scanner.firstProblem(in: line) == nil)
  }

  /// A key with a UTF-16 surrogate without its pair is not Unicode text: `JSONDecoder` reads
  /// a line holding one when no type asks for that object's keys. The scan gave up at such a
  /// key, so a repeat, a trailing comma or a number after it went unseen; it now compares
  /// such keys by their code points, as other readers do, and goes on.
  @Test func keysThatAreNotTextAreComparedByTheirCodePoints() {
    let found = duplicate(#"{"x":{"\ud800":1,"a":2,"\uD800":3}}"#)
    #expect(
      found == .init(key: #"\uD800"#, path: "x", firstSpelling: #"\ud800"#, isNotText: true))
    #expect(
      found?.description == #"""
        the key written "\uD800" (first written "\ud800") appears twice in the object at x \#
        (readers disagree on which one counts); it holds a UTF-16 surrogate without its pair, \#
        which Swift cannot read as text.
        """#)
    #expect(
      duplicate(#"{"\ud800x":1,"\ud800x":2}"#)
        == .init(key: #"\ud800x"#, path: "", isNotText: true))
    // Another surrogate, the replacement character, a pair, the surrogate with more text: all
    // different keys.
    #expect(duplicate(#"{"\ud800":1,"\udc00":2,"\ufffd":3,"\ud800x":5}"#) == nil)
    #expect(duplicate("{\"\\ud800\":1,\"\u{FFFD}\":2}") == nil)
    #expect(duplicate(#"{"\ud800":1,"\ud800\udc00":2,"\udc00\ud800":3}"#) == nil)
    // Past 16 keys, where keys are grouped by their hashes.
    let many = (0..<40).map { #""k\#($0)":\#($0)"# }.joined(separator: ",")
    #expect(duplicate(#"{"\udfff":0,"# + many + #","\uDFFF":1}"#)?.isNotText == true)
    #expect(duplicate(#"{"\udfff":0,"# + many + #","\udffe":1}"#) == nil)
  }

  @Test func theScanGoesOnAfterAKeyThatIsNotText() {
    func problem(_ json: String) -> DuplicateKeyScanner.Problem? {
      var scanner = DuplicateKeyScanner()
      return scanner.firstProblem(in: Data(json.utf8))
    }
    #expect(
      problem(#"{"x":{"\ud800":1,"b":2,"b":3}}"#) == .duplicate(.init(key: "b", path: "x")))
    #expect(problem(#"{"x":{"\ud800":1},"a":[1,]}"#) == .trailingComma(column: 25, path: "a"))
    var scanner = DuplicateKeyScanner()
    let line = #"{"x":{"\ud800":1},"a":0.99999999999999999999}"#
    #expect(scanner.firstProblem(in: Data(line.utf8)) == nil)
    #expect(scanner.holdsRoundableNumber)
  }

  /// `JSONDecoder` reads a string only where a type asks for it, so an escape JSON does not
  /// have, in an object the types ignore, passed the replay; other readers refuse the line.
  @Test func anInvalidEscapeIsFoundWithItsColumnAndPlace() {
    func problem(_ json: String) -> DuplicateKeyScanner.Problem? {
      var scanner = DuplicateKeyScanner()
      return scanner.firstProblem(in: Data(json.utf8))
    }
    #expect(problem(#"{"a":"\x"}"#) == .invalidEscape(column: 7, path: "a"))
    #expect(problem(#"{"a":{"ok":1,"b\q":1}}"#) == .invalidEscape(column: 16, path: "a"))
    #expect(problem(#"{"a":["ok","\u12G4"]}"#) == .invalidEscape(column: 13, path: "a[1]"))
    #expect(problem(#"{"a":"\u12"}"#) == .invalidEscape(column: 7, path: "a"))
    #expect(problem(#""\'""#) == .invalidEscape(column: 2, path: ""))
    #expect(
      problem(#"{"a":"\x"}"#)?.description
        == "invalid JSON: an invalid escape in a string at a, at column 7.")
    // Every escape JSON has, a surrogate without its pair, an escaped backslash before an x.
    #expect(problem(#"{"a":"\"\\\/\b\f\n\r\t\u00e9\ud800\uDC00","\\x":"\\"}"#) == nil)
    // The strict check, which explains a line the decoder refuses, says the same.
    #expect(
      JSONCheck.check(Data(#"{"a":"\x"}"#.utf8)).problem
        == "an invalid escape in a string at a, at column 7")
  }

  @Test @MainActor func aReplayRefusesAHeaderWithBothSpellingsOfAKey() throws {
    let file = FileManager.default.temporaryDirectory
      .appendingPathComponent("nfc-\(UUID().uuidString).jsonl").path
    defer { try? FileManager.default.removeItem(atPath: file) }
    let store = Store(initialState: Gauge.State()) { Gauge() }
    try store.recordActions(to: file, feature: "Gauge").finish()
    let log = try String(contentsOfFile: file, encoding: .utf8).replacingOccurrences(
      of: #""readings":{}"#, with: "\"readings\":{\"\u{E9}\":1,\"e\u{301}\":2}")
    try Data(log.utf8).write(to: URL(fileURLWithPath: file))
    #expect {
      try ActionLogReplayer(feature: "Gauge") { Gauge() }.replay(path: file)
    } throws: { error in
      guard case .badHeader(1, let reason) = error as? ActionLogError else { return false }
      return reason.hasSuffix(
        #"in the object at initialState.readings, written "\u00E9" and "e\u0301": Swift reads them as one key, other readers as two."#
      )
    }
  }

  @Test func aTrailingCommaIsFoundWithItsColumnAndPlace() {
    func problem(_ json: String) -> DuplicateKeyScanner.Problem? {
      var scanner = DuplicateKeyScanner()
      return scanner.firstProblem(in: Data(json.utf8))
    }
    #expect(problem(#"{"a":1,}"#) == .trailingComma(column: 7, path: ""))
    #expect(problem("{\"a\":[1, 2 ,\t\r\n ]}") == .trailingComma(column: 12, path: "a"))
    #expect(problem(#"[{"a":[{},{"b":{},}]}]"#) == .trailingComma(column: 18, path: "[0].a[1]"))
    // Commas in strings, and between elements, are not trailing.
    #expect(problem(#"{"a,":"x,","b":[",",{}],"c":{"d":[1,2]}}"#) == nil)
    // Whichever comes first: a repeated key, or a trailing comma.
    #expect(problem(#"{"a":1,"a":2,}"#) == .duplicate(.init(key: "a", path: "")))
  }

  /// The strict check, which explains a line the decoder refuses, says the same.
  @Test func theStrictCheckNamesATrailingComma() {
    #expect(
      JSONCheck.check(Data(#"{"a":[1,2, ]}"#.utf8)).problem
        == "a trailing comma at a, at column 10: JSON allows no comma after the last element of an object or array"
    )
    #expect(
      JSONCheck.check(Data(#"{"a":1,}"#.utf8)).problem?.hasPrefix("a trailing comma, at column 7")
        == true)
  }
}
