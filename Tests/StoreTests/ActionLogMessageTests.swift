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
    try error(replayingText: lines.map { $0 + "\n" }.joined())
  }

  /// The replay's error for a log that holds `text`.
  func error(replayingText text: String) throws -> String {
    try Data(text.utf8).write(to: URL(fileURLWithPath: file))
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

  /// `JSONDecoder` reads a number that is not whole into an integer field as the whole
  /// number its closest `Double` is: `"seq":0.99999999999999999999` replayed as action 1,
  /// and `1E-400` was read as 0 (and quoted as "sequence number 0"). `1.5` was refused
  /// already; these are now refused the same way, quoting the log's text.
  @Test(arguments: [
    (#""seq":0.99999999999999999999"#, "0.99999999999999999999 at seq", "1"),
    (#""seq":1E-400"#, "1E-400 at seq", "0"),
    (#""_0":12345678901234567.5"#, "12345678901234567.5 at action.add._0", "12345678901234568"),
  ])
  func aNumberThatIsNotWholeIsRefusedInAnIntegerField(
    written: String, named: String, closest: String
  ) throws {
    let field = written.hasPrefix(#""seq""#) ? #""seq":1"# : #""_0":1"#
    #expect(
      try error(replaying: [header(), Self.add.replacingOccurrences(of: field, with: written)])
        == """
        Line 2: the number \(named) does not fit the integer type expected there (it is not a \
        whole number, though the closest Double, \(closest), is).
        """)
  }

  @Test func aNumberThatIsNotWholeIsRefusedInTheHeadersIntegerFields() throws {
    let head = try header()
    for (field, written) in [
      (#""version":1"#, #""version":0.99999999999999999999"#),
      (#""checkpointInterval":"#, #""checkpointInterval":1E-400,"x":"#),
    ] {
      let message = try error(replaying: [head.replacingOccurrences(of: field, with: written)])
      #expect(
        message.hasPrefix("Line 1: not a valid log header: the number ")
          && message.contains("does not fit the integer type expected there (it is not a whole"),
        "\(message)")
    }
  }

  /// The numbers the refusal looks among were the first hundred that might not fit an
  /// integer, fractions included: a hundred fractions before the number hid it, and the
  /// line replayed as action 1 (the log hunt). Numbers no type reads that round to a whole
  /// number are set aside by halves, not one decode each.
  @Test func aNumberThatIsNotWholeIsFoundAfterAnyNumberOfOthers() throws {
    let head = try header()
    for padding in [
      Array(repeating: "1.5", count: 100), Array(repeating: "1.00000000000000000001", count: 300),
      (0..<250).map { $0 % 2 == 0 ? "0.25" : "7.00000000000000000001" },
    ] {
      let line = Self.add
        .replacingOccurrences(of: #""seq":1"#, with: #""seq":0.99999999999999999999"#)
        .replacingOccurrences(
          of: #"{"action""#, with: #"{"pad":["# + padding.joined(separator: ",") + #"],"action""#)
      #expect(
        try error(replaying: [head, line])
          == """
          Line 2: the number 0.99999999999999999999 at seq does not fit the integer type \
          expected there (it is not a whole number, though the closest Double, 1, is).
          """, "\(padding.count) numbers before it")
    }
    let paddedHead = head.replacingOccurrences(
      of: #""version":1"#, with: #""version":0.99999999999999999999"#
    )
    .replacingOccurrences(
      of: #"{"#,
      with: #"{"pad":["# + Array(repeating: "1.5", count: 100).joined(separator: ",") + "],",
      options: .anchored)
    let message = try error(replaying: [paddedHead])
    #expect(
      message.hasPrefix(
        "Line 1: not a valid log header: the number 0.99999999999999999999 at version"),
      "\(message)")
  }

  /// Numbers set by halves are not enough when a type reads a field only if another holds
  /// no integer (`try?` on the first): set together, the second is skipped, and the line
  /// reads. Each is then tried alone, as before the halves (the review).
  @Test func aNumberReadOnlyWhenAnotherFieldIsThereIsStillFound() throws {
    struct Lenient: Decodable {
      var a: Int?
      var b: Int
      enum CodingKeys: CodingKey { case a, b }
      init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        a = try? container.decode(Int.self, forKey: .a)
        b = a == nil ? 0 : try container.decode(Int.self, forKey: .b)
      }
    }
    let line = Data(#"{"a":0.99999999999999999999,"b":0.99999999999999999999}"#.utf8)
    let found = ActionLogReplayer<Tally>.roundedInteger(in: line) {
      _ = try JSONDecoder().decode(Lenient.self, from: $0)
    }
    #expect(
      found?.hasPrefix("the number 0.99999999999999999999 at b does not fit") == true,
      "\(found ?? "nil")")
  }

  /// Whole numbers written otherwise are read as the integers they are, and a number that
  /// is not whole still fits a `Double` field, however many digits or whatever exponent.
  @Test func wholeNumbersInOtherSpellingsAndPreciseDoublesStillReplay() throws {
    for (field, written) in [
      (#""seq":1"#, #""seq":1.0"#), (#""seq":1"#, #""seq":1e0"#), (#""_0":1"#, #""_0":10e-1"#),
      (#""time":0"#, #""time":0.99999999999999999999"#), (#""time":0"#, #""time":1e-5"#),
    ] {
      #expect(
        try error(replaying: [header(), Self.add.replacingOccurrences(of: field, with: written)])
          == "no error",
        "\(written)")
    }
  }

  /// Lines of the wrong shape, each with the replay's error for it. Typed, and out of the
  /// `@Test` attribute: an untyped literal there took the type checker 0.5 to 0.8 s, near the
  /// build's limit of one second per expression.
  nonisolated static let wrongShapes: [(String, String)] = [
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
  ]

  @Test(arguments: wrongShapes)
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

  // MARK: - Text from the log

  @Test(arguments: [
    (
      add.replacingOccurrences(of: #""add""#, with: #""ex\u001bp\nLine 9: fake""#),
      #"Line 2: "ex\u{1B}p\nLine 9: fake" is not a case of Tally.Action at action."#
    ),
    (
      add.replacingOccurrences(of: #"{"add":{"_0":1}}"#, with: #"{"a\u0007":{},"b\r":{}}"#),
      #"Line 2: expected one case of Tally.Action at action, found "a\u{7}", "b\r"."#
    ),
    (
      add.replacingOccurrences(of: #""origin":"user""#, with: #""origin":"us\u001b[2Jer""#),
      #"Line 2: invalid value at origin: "us\u{1B}[2Jer" is not an origin: expected "user" or "effect"."#
    ),
    (
      #"{"kind":"x\u0007\"y","seq":1}"#,
      #"Line 2: invalid value at kind: Unknown line kind "x\u{7}\"y"; expected "action", "checkpoint" or "stopped"."#
    ),
    (
      #"{"digest":"\u001b[0m\u0085","kind":"checkpoint","seq":0}"#,
      #"Line 2: invalid value at digest: "\u{1B}[0m\u{85}" is not a digest: expected 16 lowercase hexadecimal digits."#
    ),
    (
      add.replacingOccurrences(of: #""seq":1"#, with: #""seq":"1\u001b[8m""#),
      #"Line 2: expected an integer at seq, found the string "1\u{1B}[8m"."#
    ),
    (
      add.replacingOccurrences(of: #"{"_0":1}"#, with: #"{"_0":1,"\u001b":1,"\u001b":2}"#),
      #"Line 2: the key "\u{1B}" appears twice in the object at action.add (readers disagree on which one counts)."#
    ),
    (
      add.replacingOccurrences(of: #""kind""#, with: #""x\u0085y":{"a":1,"a":2},"kind""#),
      #"Line 2: the key "a" appears twice in the object at x\u{85}y (readers disagree on which one counts)."#
    ),
  ])
  func textFromTheLogIsEscapedInTheMessageThatQuotesIt(line: String, message: String) throws {
    #expect(try error(replaying: [try header(), line]) == message)
  }

  @Test func aFeatureNameFromTheLogIsEscaped() throws {
    let header = try header().replacingOccurrences(
      of: #""feature":"Tally""#, with: #""feature":"T\u001b[31m\nLine 2: ok""#)
    #expect(
      try error(replaying: [header])
        == #"Line 1: the log was recorded for feature "T\u{1B}[31m\nLine 2: ok", not "Tally"."#)
  }

  @Test func aStopReasonAndADivergenceFromTheLogAreEscaped() throws {
    let stop = #"{"kind":"stopped","reason":"disk\u001b[2J full\nLine 9: ok","seq":0}"#
    try Data("\(try header())\n\(stop)\n".utf8).write(to: URL(fileURLWithPath: file))
    let report = try ActionLogReplayer(feature: "Tally") { Tally() }.replay(path: file)
    #expect(
      report.warnings == [
        #"Line 2: the recording stopped after action 0: disk\u{1B}[2J full\nLine 9: ok"#
      ])

    let named =
      #"{"action":{"named":{"_0":"a\u001b"}},"kind":"action","origin":"user","seq":1,"time":0}"#
    let checkpoint =
      #"{"digest":"0000000000000000","kind":"checkpoint","seq":1,"state":{"count":0,"names":["b\u0007"],"pin":"<redacted>"}}"#
    #expect(
      try error(replaying: [try header(), named, checkpoint])
        == #"""
        Line 3: the replay diverged at checkpoint 1:
          recorded → replayed: names[0]: "b\u{7}" → "a\u{1B}"
          since the header (line 1), action 1 was replayed (line 2), and it decodes to what was recorded: look at what the reducer (or a dependency) does with it
        """#)
  }

  // MARK: - The header

  @Test func aLogWhoseHeaderIsMissingSaysSo() throws {
    #expect(
      try error(replaying: [Self.add])
        == """
        Line 1: not a valid log header: the first line is an action line, and the header is \
        missing: a log starts with a header line (kind "header"), which holds its format, \
        feature and initial state.
        """)
    #expect(
      try error(replaying: ["", #"{"digest":"0000000000000000","kind":"checkpoint","seq":0}"#])
        .hasPrefix("Line 2: not a valid log header: the first line is a checkpoint line, and"))
  }

  @Test func aHeaderOfAnotherKindOrFormatNamesWhatItFound() throws {
    let format = try header().replacingOccurrences(
      of: #""format":"swift-unidirectional-store.action-log""#,
      with: #""format":"other\u001b.log""#)
    #expect(
      try error(replaying: [format])
        == """
        Line 1: not a valid log header: expected format "swift-unidirectional-store.action-log", \
        found "other\\u{1B}.log": not an action log, or one of another library.
        """)
    let kind = try header().replacingOccurrences(
      of: #""kind":"header""#, with: #""kind":"hedaer""#)
    #expect(
      try error(replaying: [kind])
        == #"Line 1: not a valid log header: expected kind "header", found "hedaer"."#)
  }

  @Test func aSecondHeaderSaysALogHoldsOneAtItsFirstLine() throws {
    let header = try header()
    #expect(
      try error(replaying: ["", header, Self.add, header])
        == """
        Line 4: a second header: a log holds one header, at its first line (line 2 here). Two \
        logs joined into one file do not replay as one.
        """)
  }

  @Test func aHeaderCutOffWhileBeingWrittenSaysTheRecordingMayHaveStoppedThere() throws {
    let header = try header()
    let cut = String(header.prefix(header.count / 2))
    let message = try error(replayingText: cut)
    #expect(message.hasPrefix("Line 1: not a valid log header: invalid JSON: "), "\(message)")
    #expect(
      message.hasSuffix(
        """
        The line has no newline at its end: the recording may have been cut off while writing \
        its header.
        """), "\(message)")
    // With its newline, the line was written whole: damage, not a recording cut off.
    #expect(!(try error(replayingText: cut + "\n")).contains("cut off"))
  }
}
