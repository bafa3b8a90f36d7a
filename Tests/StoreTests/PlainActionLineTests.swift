import Foundation
import Testing

@testable import Store

/// The replay reads an action line's envelope itself and hands `JSONDecoder` the action's
/// value alone (`PlainActionLine`). These check that it reads exactly the lines the whole
/// decode reads the same way, and leaves every other line to it.
@Suite struct PlainActionLineTests {
  enum Action: Codable, Equatable {
    case add(Int)
    case rename(String)
    case reset
  }

  private func fields(_ line: String) -> PlainActionLine.Fields? {
    Data(line.utf8).withUnsafeBytes { PlainActionLine.fields(of: $0) }
  }

  /// The action's value, as the text between its offsets.
  private func actionText(_ line: String) -> String? {
    fields(line).map { fields in
      String(decoding: Array(line.utf8)[fields.action], as: UTF8.self)
    }
  }

  @Test func readsTheLinesTheRecorderWrites() {
    let line = #"{"action":{"add":{"_0":3}},"kind":"action","origin":"user","seq":12,"time":1.5}"#
    #expect(
      fields(line)
        == PlainActionLine.Fields(
          sequence: 12, time: 1.5, origin: .user, action: 10..<26))
    #expect(actionText(line) == #"{"add":{"_0":3}}"#)
    // Whitespace between tokens, any order of keys, no time (0, as the whole decode reads it).
    let spaced =
      "{ \"kind\" : \"action\",\t\"seq\": -0, \"origin\":\"effect\", \"action\": \"x\" }\r\n"
    #expect(
      fields(spaced)
        == PlainActionLine.Fields(sequence: 0, time: 0, origin: .effect, action: 61..<64))
  }

  /// Brackets, quotes and commas inside the action's strings do not end its value early.
  @Test func findsTheEndOfAnyActionValue() {
    let values = [
      #"{"rename":{"_0":"a}],\"b"}}"#, #"[1,[2,{"x":"]"}],3]"#, #""\\""#, "-12.5e3", "true",
      "null", #"{"reset":{}}"#,
    ]
    for value in values {
      #expect(actionText(#"{"kind":"action","seq":1,"origin":"user","action":\#(value)}"#) == value)
      #expect(
        actionText(#"{"action":\#(value),"kind":"action","seq":1,"origin":"user"}"#) == value)
    }
  }

  /// Anything out of the ordinary is left to the whole decode, which reads it or refuses it
  /// with its own message.
  @Test func leavesEveryOtherLineToTheWholeDecode() {
    let lines = [
      // Other kinds of line, and kinds that are not plain.
      #"{"kind":"checkpoint","seq":1,"digest":"0123456789abcdef"}"#,
      #"{"kind":"act\u0069on","seq":1,"origin":"user","action":{"reset":{}}}"#,
      // Missing, repeated or unknown fields.
      #"{"kind":"action","origin":"user","action":{"reset":{}}}"#,
      #"{"kind":"action","seq":1,"action":{"reset":{}}}"#,
      #"{"kind":"action","seq":1,"origin":"user"}"#,
      #"{"kind":"action","seq":1,"seq":2,"origin":"user","action":{"reset":{}}}"#,
      #"{"kind":"action","seq":1,"origin":"user","action":{"reset":{}},"note":1}"#,
      // Numbers that are not plain integers, or not finite.
      #"{"kind":"action","seq":1.0,"origin":"user","action":{"reset":{}}}"#,
      #"{"kind":"action","seq":01,"origin":"user","action":{"reset":{}}}"#,
      #"{"kind":"action","seq":1e2,"origin":"user","action":{"reset":{}}}"#,
      #"{"kind":"action","seq":99999999999999999999,"origin":"user","action":{"reset":{}}}"#,
      #"{"kind":"action","seq":"1","origin":"user","action":{"reset":{}}}"#,
      #"{"kind":"action","seq":1,"time":1e999,"origin":"user","action":{"reset":{}}}"#,
      #"{"kind":"action","seq":1,"time":1.,"origin":"user","action":{"reset":{}}}"#,
      #"{"kind":"action","seq":1,"time":null,"origin":"user","action":{"reset":{}}}"#,
      // An origin that is not one, or not plain.
      #"{"kind":"action","seq":1,"origin":"robot","action":{"reset":{}}}"#,
      #"{"kind":"action","seq":1,"origin":"us\u0065r","action":{"reset":{}}}"#,
      // Not one object: text after it, a trailing comma, a missing brace, an empty line.
      #"{"kind":"action","seq":1,"origin":"user","action":{"reset":{}}} x"#,
      #"{"kind":"action","seq":1,"origin":"user","action":{"reset":{}},}"#,
      #"{"kind":"action","seq":1,"origin":"user","action":{"reset":{}}"#,
      #"{"kind":"action","seq":1,"origin":"user","action":"#,
      "",
    ]
    for line in lines {
      #expect(fields(line) == nil, "\(line)")
    }
  }

  /// Over lines the recorder writes, the replay's reading and the whole decode agree.
  @Test func agreesWithTheWholeDecodeOnRecordedLines() throws {
    let encoder = makeLogEncoder()
    let decoder = JSONDecoder()
    let actions: [Action] = [.add(-4), .add(Int.max), .rename("a \"b\" } ] \\ é\n"), .reset]
    let times: [Double] = [0, 0.1, 1e-300, 123_456.789, 1.7976931348623157e308]
    var sequence = 0
    for action in actions {
      for time in times {
        for origin in [ActionOrigin.user, .effect] {
          sequence += 1
          let data = try encoder.encode(
            ActionLine(seq: sequence, time: time, origin: origin, action: action))
          let whole = try decoder.decode(ActionLogLine<Action>.self, from: data)
          let fields = try #require(data.withUnsafeBytes { PlainActionLine.fields(of: $0) })
          #expect(fields.sequence == whole.sequence)
          guard case .action(let wholeTime, let wholeOrigin) = whole.kind else {
            Issue.record("not an action line: \(whole.kind)")
            continue
          }
          #expect(fields.time == wholeTime)
          #expect(fields.origin == wholeOrigin)
          let value = data[
            (data.startIndex + fields.action.lowerBound)..<(data.startIndex
              + fields.action.upperBound)]
          #expect(try decoder.decode(Action.self, from: value) == whole.action)
        }
      }
    }
  }

  /// A line the shortcut leaves alone still replays, through the whole decode: here every
  /// action line spells its origin with an escape.
  @MainActor @Test func aLogOfLinesThatAreNotPlainReplaysTheSame() throws {
    let directory = TemporaryDirectory("plain-action-line-tests")
    let path = directory.path("escaped.jsonl")
    let store = Store(initialState: Ledger.State()) { Ledger() }
    let recorder = try store.recordActions(to: path, feature: "Ledger", time: { 0 })
    for amount in 1...5 { store.send(.setBig(amount)) }
    try recorder.finish()
    let text = try String(contentsOfFile: path, encoding: .utf8)
    let escaped = text.replacingOccurrences(of: #""origin":"user""#, with: #""origin":"us\u0065r""#)
    #expect(escaped != text)
    try escaped.write(toFile: path, atomically: true, encoding: .utf8)
    let replayer = ActionLogReplayer(feature: "Ledger") { Ledger() }
    let report = try replayer.replay(path: path)
    #expect(report.actionCount == 5)
    #expect(report.isComplete)
    #expect(report.finalState == store.state)
  }
}
