import Foundation
import Testing

@testable import Store

/// A line of the wrong shape is explained in the words of JSON, not of the Swift types the
/// decoder names (`Dictionary<String, Any>` for an object).
@MainActor
@Suite final class ActionLogMessageTests {
  let file = FileManager.default.temporaryDirectory
    .appendingPathComponent("action-log-messages-\(UUID().uuidString).jsonl").path

  deinit { try? FileManager.default.removeItem(atPath: file) }

  /// The replay's error for a log of `lines`.
  func error(replaying lines: [String]) throws -> String {
    try Data(lines.map { $0 + "\n" }.joined().utf8).write(to: URL(fileURLWithPath: file))
    do {
      _ = try ActionLogReplayer(feature: "Tally") { Tally() }.replay(path: file)
      return "no error"
    } catch {
      return "\(error)"
    }
  }

  func header() throws -> String {
    let store = Store(initialState: Tally.State()) { Tally() }
    try store.recordActions(to: file, feature: "Tally").finish()
    return String(try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n")[0])
  }

  nonisolated static let add =
    #"{"action":{"add":{"_0":1}},"kind":"action","origin":"user","seq":1,"time":0}"#

  @Test(arguments: [
    ("[1,2]", "Line 2: expected a JSON object (one record per line), found an array."),
    ("null", "Line 2: expected a JSON object (one record per line), found null."),
    (#""x""#, #"Line 2: expected a JSON object (one record per line), found the string "x"."#),
    ("3", "Line 2: expected a JSON object (one record per line), found the number 3."),
    ("true", "Line 2: expected a JSON object (one record per line), found true."),
    (
      add.replacingOccurrences(of: #""seq":1"#, with: #""seq":"1""#),
      #"Line 2: expected an integer at seq, found the string "1"."#
    ),
    (
      add.replacingOccurrences(of: #""seq":1"#, with: #""seq":null"#),
      "Line 2: expected an integer at seq, found null."
    ),
    (
      add.replacingOccurrences(of: #""time":0"#, with: #""time":"now""#),
      #"Line 2: expected a number at time, found the string "now"."#
    ),
    (
      add.replacingOccurrences(of: #""origin":"user""#, with: #""origin":3"#),
      "Line 2: expected a string at origin, found the number 3."
    ),
    (
      add.replacingOccurrences(of: #""origin":"user""#, with: #""origin":"bogus""#),
      #"Line 2: invalid value at origin: "bogus" is not an origin: expected "user" or "effect"."#
    ),
    (
      add.replacingOccurrences(of: #"{"_0":1}"#, with: "[1]"),
      "Line 2: expected a JSON object at action.add, found an array."
    ),
    (
      add.replacingOccurrences(of: #"{"add":{"_0":1}}"#, with: #"{"doubleTapped":null}"#),
      "Line 2: expected a JSON object at action.doubleTapped, found null."
    ),
    (
      add.replacingOccurrences(of: #"{"add":{"_0":1}}"#, with: #"{"named":{"_0":false}}"#),
      "Line 2: expected a string at action.named._0, found false."
    ),
  ])
  func aLineOfTheWrongShapeSaysWhatJSONWasExpectedAndFound(line: String, message: String)
    throws
  {
    #expect(try error(replaying: [try header(), line]) == message)
  }

  @Test func aHeaderOfTheWrongShapeSaysSoInTheWordsOfJSON() throws {
    #expect(
      try error(replaying: ["[]"])
        == "Line 1: not a valid log header: expected a JSON object (one record per line), found an array."
    )
    let names = try header().replacingOccurrences(of: #""names":[]"#, with: #""names":{}"#)
    #expect(
      try error(replaying: [names]).hasSuffix(
        "expected a JSON array at initialState.names, found an object."))
    let count = try header().replacingOccurrences(of: #""count":0"#, with: #""count":null"#)
    #expect(
      try error(replaying: [count]).hasSuffix(
        "expected an integer at initialState.count, found null."))
  }

  /// Without the line at hand, what was found is read from the decoder's own description.
  @Test func withoutTheLineTheDecodersOwnWordsAreTranslated() {
    func explain(_ type: Any.Type, _ description: String) -> String {
      JSONMismatch.explain(
        expected: type, .init(codingPath: [], debugDescription: description), path: " at x",
        in: nil)
    }
    #expect(
      explain(
        [String: Any].self, "Expected to decode Dictionary<String, Any> but found number instead.")
        == "expected a JSON object (one record per line), found a number.")
    #expect(
      explain([Any].self, "Expected to decode Array<Any> but found a dictionary instead.")
        == "expected a JSON array at x, found an object.")
    #expect(
      explain(UInt8.self, "Cannot get value of type UInt8 -- found null value instead")
        == "expected an integer at x, found null.")
    #expect(
      explain(Float.self, "Something else.") == "expected a number at x: Something else.")
  }
}
