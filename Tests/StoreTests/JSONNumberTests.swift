import Effects
import Foundation
import Testing

@testable import Store

/// Numbers in state diffs and divergences are compared and shown exactly, as written, not
/// through a `Double`.
@MainActor
@Suite struct JSONNumberTests {
  @Test func numbersAreEqualWhenTheirValuesAreWhateverTheSpelling() {
    #expect(JSONNumber("1.50") == JSONNumber("15e-1"))
    #expect(JSONNumber("100") == JSONNumber("1E+2"))
    #expect(JSONNumber("0.000") == JSONNumber("0"))
    #expect(JSONNumber("-0") != JSONNumber("0"))
    #expect(JSONNumber("9007199254740992") != JSONNumber("9007199254740993"))
    #expect(JSONNumber("18446744073709551615") != JSONNumber("18446744073709551614"))
    #expect(JSONNumber("0.10000000000000000001") != JSONNumber("0.10000000000000000002"))
  }

  /// An exponent at the edge of an `Int`, with trailing zeros that move it further, is kept
  /// as written instead of overflowing (a damaged log's last line is parsed this way before
  /// anything else checks it: it stopped the replay with an arithmetic overflow).
  @Test func anExponentPastAnIntIsKeptAsWritten() {
    let edge = "10e9223372036854775807"
    #expect(JSONNumber(edge).text == edge)
    #expect(JSONNumber(edge) != JSONNumber("1e9223372036854775807"))
    #expect(JSONNumber("1000e-9223372036854775808") == JSONNumber("1e-9223372036854775805"))
    #expect(
      JSONValue(parsing: Data(#"{"a":\#(edge)}"#.utf8)) == .object(["a": .number(JSONNumber(edge))])
    )
  }

  /// Zero with an exponent past an `Int` is still zero: the exponent was read into an `Int`
  /// before the digits were found to be all zeros, and such a zero was kept as written.
  @Test func zeroIsZeroWhateverItsExponent() {
    let huge = "99999999999999999999"
    #expect(JSONNumber("0e\(huge)") == JSONNumber("0"))
    #expect(JSONNumber("0.000E-\(huge)") == JSONNumber("0"))
    #expect(JSONNumber("0.00e+\(huge)") == JSONNumber("0.0"))
    #expect(JSONNumber("-0e\(huge)") == JSONNumber("-0"))
    #expect(JSONNumber("-0e\(huge)") != JSONNumber("0"))
    #expect(JSONNumber("0e\(huge)").isWhole == true)
    #expect(JSONNumber("-0.0e-\(huge)").digitsAlone(limit: 3) == "-0")
    #expect(JSONNumber("0e\(huge)").text == "0e\(huge)")
    // An exponent without digits is still not a number's.
    for text in ["0e", "0e+", "0e-", "0e+-1", "0e1x", "0ex"] {
      #expect(JSONNumber(text) != JSONNumber("0"), "\(text)")
      #expect(JSONNumber(text).isWhole == nil, "\(text)")
    }
  }

  /// Text that is not a JSON number is kept as it is, as the documentation says: read as a
  /// number, `00e1` equalled `0` and `01` equalled `1` (JSON writes no leading zero, nor a
  /// point without a digit on each side).
  @Test func textThatIsNotAJSONNumberIsKeptAsWritten() {
    let pairs = [
      ("00e1", "0"), ("01", "1"), ("-01", "-1"), ("00", "0"), (".5", "0.5"), ("1.", "1"),
      ("1.e2", "100"), ("-.0", "-0"),
    ]
    for (text, number) in pairs {
      #expect(JSONNumber(text) != JSONNumber(number), "\(text)")
      #expect(JSONNumber(text) == JSONNumber(text), "\(text)")
      #expect(JSONNumber(text).text == text)
      #expect(JSONNumber(text).isWhole == nil, "\(text)")
      #expect(JSONNumber(text).digitsAlone(limit: 40) == nil, "\(text)")
    }
    // JSON's own spellings of those values still compare by value.
    #expect(JSONNumber("0e1") == JSONNumber("0"))
    #expect(JSONNumber("0.5") == JSONNumber("5e-1"))
    #expect(JSONNumber("-0.0") == JSONNumber("-0"))
  }

  @Test func parsingKeepsNumbersAndDecodesStrings() {
    let value = JSONValue(
      parsing: Data(#"{"a":[123456789012345678,1e+308],"b":"x\n\u00e9\ud83d\ude00"}"#.utf8))
    #expect(
      value
        == .object([
          "a": .array([.number(JSONNumber("123456789012345678")), .number(JSONNumber("1e308"))]),
          "b": .string("x\né😀"),
        ]))
    #expect(JSONValue(parsing: Data(#"{"a":NaN}"#.utf8)) == nil)
    #expect(JSONValue(parsing: Data(#"[1,]"#.utf8)) == nil)
    #expect(JSONValue(parsing: Data(#"[01]"#.utf8)) == nil)
    // Past a Double's range, still a number, shown as written.
    #expect(JSONValue(parsing: Data("1e400".utf8))?.rendered() == "1e400")
  }

  @Test func stateChangesSeeEveryDigit() {
    var old = Ledger.State()
    old.big = 9_007_199_254_740_992
    var new = old
    new.big = 9_007_199_254_740_993
    #expect(stateChanges(from: old, to: new) == ["big: 9007199254740992 → 9007199254740993"])
    old.u64 = .max
    new = old
    new.u64 = .max - 1
    #expect(
      stateChanges(from: old, to: new) == ["u64: 18446744073709551615 → 18446744073709551614"])
    new = old
    old.amount = Decimal(string: "0.10000000000000000001")!
    new.amount = Decimal(string: "0.10000000000000000002")!
    #expect(
      stateChanges(from: old, to: new)
        == ["amount: 0.10000000000000000001 → 0.10000000000000000002"])
    new = Ledger.State()
    new.big = 123_456_789_012_345_678
    #expect(stateChanges(from: Ledger.State(), to: new) == ["big: 0 → 123456789012345678"])
  }

  @Test func aDivergenceInTheLastDigitsOfAnIntegerIsNamed() throws {
    let file = FileManager.default.temporaryDirectory
      .appendingPathComponent("json-number-\(UUID().uuidString).jsonl").path
    defer { try? FileManager.default.removeItem(atPath: file) }
    let store = Store(initialState: Ledger.State()) { Ledger() }
    let recorder = try store.recordActions(
      to: file, feature: "Ledger", checkpointInterval: 1, time: { 0 })
    store.send(.setBig(9_007_199_254_740_992))
    try recorder.finish()
    #expect {
      try ActionLogReplayer(feature: "Ledger") { Ledger(offset: 1) }.replay(path: file)
    } throws: { error in
      guard case .diverged(1, 3, let differences, _) = error as? ActionLogError else {
        return false
      }
      return differences.contains("recorded → replayed: big: 9007199254740992 → 9007199254740993")
    }
  }
}
