import Effects
import Foundation
import Testing

@testable import Store

/// What the action-log hunt found: logs a replay misread, and contracts that had no test.
@MainActor
@Suite final class ActionLogHuntTests {
  let directory = TemporaryDirectory("action-log-hunt")

  nonisolated static let add =
    #"{"action":{"add":{"_0":1}},"kind":"action","origin":"user","seq":1,"time":0}"#

  /// The header line of a `Tally` log recorded from the initial state.
  func header() throws -> String {
    let file = directory.path("header.jsonl")
    let store = Store(initialState: Tally.State()) { Tally() }
    try store.recordActions(to: file, feature: "Tally").finish()
    return try directory.lines(file)[0]
  }

  /// The replay's error for a log of `lines`, or "no error" with the count it reached.
  func outcome(replaying lines: [String]) throws -> String {
    let file = directory.path("log.jsonl")
    try Data(lines.map { $0 + "\n" }.joined().utf8).write(to: URL(fileURLWithPath: file))
    do {
      let report = try ActionLogReplayer(feature: "Tally") { Tally() }.replay(path: file)
      return "no error (count \(report.finalState.count))"
    } catch {
      return "\(error)"
    }
  }

  /// A number whose exponent is past an `Int`'s range is not whole when the exponent is
  /// negative, and `JSONDecoder` reads it into an integer field as 0. The check for numbers
  /// that are not whole left such a number out (its exact value was "not known"), so
  /// `"seq":1e-99999999999999999999` was "sequence number 0", a header's version 0, and in
  /// the initial state or an action it was read as 0 without a word, as the format's
  /// documentation says `1E-400` is not.
  @Test(arguments: [
    (#""seq":1"#, "Line 2: the number 1e-99999999999999999999 at seq"),
    (#""_0":1"#, "Line 2: the number 1e-99999999999999999999 at action.add._0"),
    (
      #""count":0"#,
      "Line 1: not a valid log header: the number 1e-99999999999999999999 at initialState.count"
    ),
    (
      #""version":1"#,
      "Line 1: not a valid log header: the number 1e-99999999999999999999 at version"
    ),
  ])
  func aNumberWithAnExponentPastAnIntIsRefusedInAnIntegerField(field: String, named: String) throws
  {
    let tiny = "1e-99999999999999999999"
    let name = String(field.prefix { $0 != ":" })
    let written = "\(name):\(tiny)"
    var lines = [try header(), Self.add]
    let index = field == #""seq":1"# || field == #""_0":1"# ? 1 : 0
    #expect(lines[index].contains(field))
    lines[index] = lines[index].replacingOccurrences(of: field, with: written)
    #expect(
      try outcome(replaying: lines)
        == """
        \(named) does not fit the integer type expected there (it is not a whole number, \
        though the closest Double, 0, is).
        """)
  }

  /// The exact value such a number has: whole when its exponent is positive.
  @Test func aNumberWithAnExponentPastAnIntIsWholeByTheExponentsSign() {
    for text in ["1e-99999999999999999999", "-25.5E-9223372036854775809", "7e-9223372036854775808"]
    {
      #expect(JSONNumber(text).isWhole == false, "\(text)")
    }
    for text in ["1e99999999999999999999", "1.5e+9223372036854775808", "-3E9223372036854775808"] {
      #expect(JSONNumber(text).isWhole == true, "\(text)")
    }
  }

  typealias Choice = ActionLogMessagePromiseTests.Choice

  /// A log may start with a byte order mark; a divergence from its header named the initial
  /// state that does not round-trip only without one. The header was read again for the
  /// explanation with the mark in front of its JSON, which the reading of its fields took
  /// for no object: the explanation sent the reader to the reducer instead.
  @Test func aDivergenceFromTheHeaderIsExplainedTheSameWithAByteOrderMark() throws {
    let file = directory.path("maybe.jsonl")
    // A feature whose initial state does not round-trip (`.some(nil)` of an `Int??`).
    let store = Store(initialState: Choice.State()) { Choice() }
    let recorder = try store.recordActions(
      to: file, feature: "Maybe", checkpointInterval: 1, time: { 0 })
    store.send(.bump)
    try recorder.finish()
    let plain = try Data(contentsOf: URL(fileURLWithPath: file))
    func differences(_ data: Data) throws -> [String] {
      try data.write(to: URL(fileURLWithPath: file))
      do {
        _ = try ActionLogReplayer(feature: "Maybe") { Choice() }.replay(path: file)
      } catch ActionLogError.diverged(_, _, let differences, _) {
        return differences
      }
      Issue.record("the replay did not diverge")
      return []
    }
    let withoutMark = try differences(plain)
    #expect(withoutMark.contains { $0.hasPrefix("the initial state in the header on line 1") })
    #expect(try differences(Data([0xEF, 0xBB, 0xBF]) + plain) == withoutMark)
  }

  /// Records `actions` to `name`, with `schemaVersion`, and returns the log's path.
  func record(
    _ actions: [Tally.Action], to name: String, schemaVersion: String = "1"
  ) throws -> String {
    let file = directory.path(name)
    let store = Store(initialState: Tally.State()) { Tally() }
    let recorder = try store.recordActions(
      to: file, feature: "Tally", schemaVersion: schemaVersion, checkpointInterval: 2,
      time: { 0 })
    for action in actions { store.send(action) }
    try recorder.finish()
    return file
  }

  /// "When the action types change, pass a new `schemaVersion` to both: the replay then
  /// refuses old logs": a log recorded with one version is refused by a replayer of another,
  /// naming both fingerprints, and replays with its own.
  @Test func aLogOfAnotherSchemaVersionIsRefusedAndReplaysWithItsOwn() throws {
    let file = try record([.add(1), .named("a"), .add(2)], to: "v2.jsonl", schemaVersion: "2")
    let logged = try #require(directory.lines(file)[0].firstMatch(of: /"schema":"([0-9a-f]{16})"/))
    for version in ["1", "3"] {
      let replayer = ActionLogReplayer(feature: "Tally", schemaVersion: version) { Tally() }
      #expect {
        _ = try replayer.replay(path: file)
      } throws: { error in
        guard case .schemaMismatch(1, let log, let current)? = error as? ActionLogError else {
          return false
        }
        return log == String(logged.1) && current != log
      }
    }
    let report = try ActionLogReplayer(feature: "Tally", schemaVersion: "2") { Tally() }
      .replay(path: file)
    #expect(report.isComplete)
    #expect(report.finalState.count == 3)
    // The default version is "1": a log recorded without one replays without one.
    let plain = try record([.add(1)], to: "v1.jsonl")
    #expect(try ActionLogReplayer(feature: "Tally") { Tally() }.replay(path: plain).isComplete)
  }

  struct StepRefused: Error, Equatable {
    var sequence: Int
  }

  /// "An error it throws stops the replay and is thrown on as it is": the step after it is
  /// not called, and the error is the step's own, not an ``ActionLogError``.
  @Test func anErrorTheStepThrowsStopsTheReplayAndIsThrownAsItIs() throws {
    let file = try record([.add(1), .add(2), .add(3), .add(4)], to: "step.jsonl")
    var seen: [Int] = []
    #expect(throws: StepRefused(sequence: 3)) {
      _ = try ActionLogReplayer(feature: "Tally") { Tally() }.replay(path: file) { step in
        seen.append(step.sequence)
        if step.sequence == 3 { throw StepRefused(sequence: 3) }
      }
    }
    #expect(seen == [1, 2, 3])
  }

  /// A line of many numbers that are not whole but that a `Double` rounds to one
  /// (`0.99999999999999999999`) in a field no type reads, with such a number in `seq` after
  /// them: the search for the one read into an integer decoded the whole line once per such
  /// number, so an 8 MiB line of them (about 360,000) took hours to refuse or to pass. It now
  /// tries the first 64 alone, and the rest by halves: a few dozen decodes, and the same
  /// number named.
  @Test func aLineOfManyRoundedNumbersIsSearchedInFewDecodes() throws {
    let count = 5_000
    let padding = Array(repeating: "0.99999999999999999999", count: count).joined(separator: ",")
    let decoder = JSONDecoder()
    for (seq, expected) in [
      ("0.99999999999999999999", "the number 0.99999999999999999999 at seq does not fit"),
      ("1", nil),
    ] {
      let line = Data(
        #"{"pad":[\#(padding)],"action":{"add":{"_0":1}},"kind":"action","origin":"user","seq":\#(seq),"time":0}"#
          .utf8)
      var decodes = 0
      let found = ActionLogReplayer<Tally>.roundedInteger(in: line) {
        decodes += 1
        _ = try decoder.decode(ActionLogLine<Tally.Action>.self, from: $0)
      }
      if let expected {
        #expect(found?.hasPrefix(expected) == true, "\(found ?? "nil")")
      } else {
        #expect(found == nil)
      }
      #expect(decodes <= 64 + 2 * 14, "\(decodes) decodes for \(count + 1) numbers")
    }
  }
}
