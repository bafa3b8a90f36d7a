import Foundation
import Testing

@testable import Store

/// `JSONValue.parsingDifferences`, which reads two texts leaving out what is the same in
/// both, lists the differences a whole read of both lists.
@Suite struct JSONPairReadingTests {
  /// A random JSON value as text: objects, arrays, strings with escapes, numbers, literals.
  struct Maker {
    var random: SeededGenerator

    mutating func value(depth: Int) -> String {
      let kinds = depth > 4 ? 4 : 6
      switch Int.random(in: 0..<kinds, using: &random) {
      case 0: return ["null", "true", "false"].randomElement(using: &random)!
      case 1:
        return ["0", "-1", "2.5", "1e3", "12345678901234567890"].randomElement(using: &random)!
      case 2, 3: return string()
      case 4:
        let count = Int.random(in: 0..<5, using: &random)
        return "[" + (0..<count).map { _ in value(depth: depth + 1) }.joined(separator: ",") + "]"
      default:
        let keys = Set((0..<Int.random(in: 0..<5, using: &random)).map { _ in string() })
        return "{"
          + keys.sorted().map { "\($0):\(value(depth: depth + 1))" }
          .joined(separator: ",") + "}"
      }
    }

    mutating func string() -> String {
      [#""a""#, #""b""#, #""a\"b""#, #""\\""#, #""[{""#, #""\u00e9""#, #""""#, #""}]""#]
        .randomElement(using: &random)!
    }

    /// `text` with one value in it changed, added or removed.
    mutating func mutated(_ text: String) -> String {
      guard var value = JSONValue(parsing: Data(text.utf8)) else { return text }
      mutate(&value, depth: 0)
      return Self.text(value)
    }

    private mutating func mutate(_ value: inout JSONValue, depth: Int) {
      switch value {
      case .object(var fields) where !fields.isEmpty && Bool.random(using: &random):
        let key = fields.keys.sorted().randomElement(using: &random)!
        switch Int.random(in: 0..<4, using: &random) {
        case 0: fields[key] = nil
        case 1: fields["new\(Int.random(in: 0..<3, using: &random))"] = .bool(true)
        default: mutate(&fields[key]!, depth: depth + 1)
        }
        value = .object(fields)
      case .array(var elements) where !elements.isEmpty && Bool.random(using: &random):
        let position = Int.random(in: elements.indices, using: &random)
        switch Int.random(in: 0..<4, using: &random) {
        case 0: elements.remove(at: position)
        case 1: elements.insert(.null, at: position)
        default: mutate(&elements[position], depth: depth + 1)
        }
        value = .array(elements)
      default:
        value = [.null, .bool(false), .number(JSONNumber("7")), .string("z"), .array([])]
          .randomElement(using: &random)!
      }
    }

    static func text(_ value: JSONValue) -> String {
      switch value {
      case .null: "null"
      case .bool(let flag): "\(flag)"
      case .number(let number): number.text
      case .string(let string):
        String(decoding: try! JSONEncoder().encode(string), as: UTF8.self)
      case .array(let elements): "[" + elements.map(text).joined(separator: ",") + "]"
      case .object(let fields):
        "{"
          + fields.keys.sorted().map { key in
            "\(text(.string(key))):\(text(fields[key]!))"
          }.joined(separator: ",") + "}"
      }
    }
  }

  static func wholeReadDifferences(_ old: String, _ new: String) -> [String]? {
    guard let before = JSONValue(parsing: Data(old.utf8)),
      let after = JSONValue(parsing: Data(new.utf8))
    else { return nil }
    return before.differences(to: after).lines
  }

  static func pairReadDifferences(_ old: String, _ new: String) -> [String]? {
    guard let (before, after) = JSONValue.parsingDifferences(Data(old.utf8), Data(new.utf8))
    else { return nil }
    return before.differences(to: after).lines
  }

  @Test(arguments: 1...40)
  func aPairReadListsTheDifferencesOfAWholeRead(seed: UInt64) {
    var maker = Maker(random: SeededGenerator(state: seed))
    for _ in 0..<50 {
      let old = maker.value(depth: 0)
      var new = old
      for _ in 0...Int.random(in: 0..<3, using: &maker.random) { new = maker.mutated(new) }
      let expected = Self.wholeReadDifferences(old, new)
      #expect(expected != nil, "\(old)")
      #expect(Self.pairReadDifferences(old, new) == expected, "\(old)\n\(new)")
      #expect(Self.pairReadDifferences(old, old) == [])
    }
  }

  /// Each level of a difference's path is scanned again; past a budget the rest of the path
  /// is read whole (a review timed 205 ms against 11 for a whole read at 500 levels).
  @Test(arguments: [1, 3, 40, 300])
  func aDifferenceUnderAChainOfLevelsListsWhatAWholeReadLists(depth: Int) {
    let rows = (0..<200).map { #"{"id":\#($0),"name":"row \#($0)"}"# }.joined(separator: ",")
    for (open, close) in [("[", "]"), (#"{"a":"#, "}")] {
      let prefix = String(repeating: open, count: depth)
      let suffix = String(repeating: close, count: depth)
      let old = prefix + #"{"rows":["# + rows + #"],"x":1}"# + suffix
      let new = prefix + #"{"rows":["# + rows + #"],"x":2,"y":[]}"# + suffix
      let expected = Self.wholeReadDifferences(old, new)
      #expect(expected?.count == 2)
      #expect(Self.pairReadDifferences(old, new) == expected)
    }
  }

  @Test func spacesAroundValuesAreNotDifferences() {
    #expect(
      Self.pairReadDifferences(#"{"a":[1,2],"b":"x"}"#, #" { "a" : [ 1 , 2 ] , "b":"y" } "#)
        == [#"b: "x" → "y""#])
  }

  @Test func aRepeatedKeyCountsItsLastValueAsAWholeReadDoes() {
    #expect(Self.pairReadDifferences(#"{"a":1,"a":2}"#, #"{"a":2}"#) == [])
    #expect(Self.wholeReadDifferences(#"{"a":1,"a":2}"#, #"{"a":2}"#) == [])
  }

  @Test(arguments: [
    (#"{"a":1"#, #"{"a":1}"#), (#"{"a":1}"#, #"{"a":}"#), (#"[1,]"#, "[1]"), (#"{"a" 1}"#, "{}"),
    (#"{"a":"x}"#, #"{"a":"x"}"#), ("", "1"), ("1 2", "1"),
    (#"{"a":[1,{"b":tru}]}"#, #"{"a":[1,{"b":true}]}"#),
  ])
  func textThatIsNotJSONWhereItDiffersIsRefused(old: String, new: String) {
    #expect(Self.pairReadDifferences(old, new) == nil)
    #expect(Self.pairReadDifferences(new, old) == nil)
  }

  @Test func nestingPastTheLimitIsRefusedAsAWholeReadRefusesIt() {
    let deep = String(repeating: "[", count: 600) + "1" + String(repeating: "]", count: 600)
    let deeper = String(repeating: "[", count: 600) + "2" + String(repeating: "]", count: 600)
    #expect(JSONValue(parsing: Data(deep.utf8)) == nil)
    #expect(Self.pairReadDifferences(deep, deeper) == nil)
  }
}
