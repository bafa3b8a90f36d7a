import Effects
import Foundation
import Testing

@testable import Store

@MainActor
@Suite final class ActionLogTests {
  let directory: URL = {
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("action-log-tests-\(UUID().uuidString)")
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }()

  /// Each test runs on a fresh instance of the suite, so each removes its own directory.
  deinit { try? FileManager.default.removeItem(at: directory) }

  func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

  /// Records `actions` sent to a live store, returning the log's path and the final state.
  func record(
    _ actions: [Tally.Action],
    name: String = "log.jsonl",
    interval: Int = 3
  ) throws -> (String, Tally.State) {
    let store = Store(initialState: Tally.State()) { Tally() }
    let file = path(name)
    var tick = 0.0
    let recorder = try store.recordActions(
      to: file, feature: "Tally", checkpointInterval: interval,
      time: {
        tick += 0.5
        return tick
      })
    for action in actions { store.send(action) }
    try recorder.finish()
    return (file, store.state)
  }

  func replayer(factor: Int = 1) -> ActionLogReplayer<Tally> {
    ActionLogReplayer(feature: "Tally") { Tally(addFactor: factor) }
  }

  func lines(_ file: String) throws -> [String] {
    try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n").map(String.init)
  }

  func write(_ text: String, to name: String) throws -> String {
    let file = path(name)
    try Data(text.utf8).write(to: URL(fileURLWithPath: file))
    return file
  }

  func header(version: Int = 1, schema: String? = nil) throws -> String {
    let (file, _) = try record([], name: "header-\(UUID().uuidString).jsonl")
    var first = try lines(file)[0]
    if version != 1 {
      first = first.replacingOccurrences(of: #""version":1"#, with: #""version":\#(version)"#)
    }
    if let schema {
      first = first.replacingOccurrences(
        of: #""schema":"[0-9a-f]+""#, with: #""schema":"\#(schema)""#, options: .regularExpression)
    }
    return first
  }

  // MARK: - Round trip

  @Test(arguments: 1...20)
  func randomSessionsReplayToTheSameStateAndCheckpoints(seed: UInt64) throws {
    var random = SeededGenerator(state: seed)
    let actions: [Tally.Action] = (0..<200).map { _ in
      switch Int.random(in: 0..<4, using: &random) {
      case 0: .add(Int.random(in: -5...5, using: &random))
      case 1: .named("n\(Int.random(in: 0..<100, using: &random))")
      case 2: .doubleTapped
      default: .pinChanged(Secret("\(Int.random(in: 1000...9999, using: &random))"))
      }
    }
    let (file, final) = try record(actions, name: "random-\(seed).jsonl", interval: 7)
    var steps = 0
    let report = try replayer().replay(path: file) { _ in steps += 1 }
    #expect(report.finalState.count == final.count)
    #expect(report.finalState.names == final.names)
    #expect(report.isComplete)
    #expect(report.warnings.isEmpty)
    // Every doubleTapped feeds back a doubled, recorded with origin effect.
    let doubles = actions.filter { $0 == .doubleTapped }.count
    #expect(steps == actions.count + doubles)
    #expect(report.checkpointsVerified == steps / 7 + 1)
  }

  @Test func eachLineRecordsSequenceOriginAndTime() throws {
    let (file, _) = try record([.add(1), .doubleTapped], interval: 100)
    let content = try lines(file)
    #expect(content.count == 5)
    #expect(content[0].contains(#""format":"swift-unidirectional-store.action-log""#))
    #expect(
      content[1]
        == #"{"action":{"add":{"_0":1}},"kind":"action","origin":"user","seq":1,"time":0.5}"#)
    #expect(content[3].contains(#""origin":"effect""#))
    #expect(content[4].contains(#""final":true"#))
  }

  @Test func aReducersRuntimeWarningIsReportedWithItsLine() throws {
    let (file, _) = try record([.add(1), .named("ghost"), .add(2)], interval: 100)
    let report = try ActionLogReplayer(feature: "Tally") { GhostWarning() }.replay(path: file)
    #expect(report.isComplete)
    #expect(report.warnings.count == 1)
    #expect(report.warnings.first?.hasPrefix("Line 3 (action 2): No child is named ghost.") == true)
    #expect(report.warnings.first?.contains("ActionLogTests.swift") == true)
  }

  /// Tally, with a warning for one name, as a reducer warns of an action for a missing child.
  struct GhostWarning: Reducer {
    func reduce(into state: inout Tally.State, action: Tally.Action) -> Effect<Tally.Action> {
      let effect = Tally().reduce(into: &state, action: action)
      guard action == .named("ghost") else { return effect }
      return .merge(
        effect, .warning("No child is named ghost.", site: SourceSite(fileID: #fileID, line: #line))
      )
    }
  }

  @Test func replayCanStopAfterAnySequenceNumber() throws {
    let (file, _) = try record([.add(1), .add(2), .add(3), .add(4)])
    let report = try replayer().replay(path: file, until: 2)
    #expect(report.finalState.count == 3)
    #expect(report.actionCount == 2)
    #expect(!report.isComplete)
  }

  // MARK: - Drift

  @Test func aChangedReducerDivergesAtTheFirstCheckpointThatDiffers() throws {
    let (file, _) = try record([.named("a"), .named("b"), .named("c"), .add(1), .add(1), .add(1)])
    #expect {
      try replayer(factor: 10).replay(path: file)
    } throws: { error in
      guard
        case .diverged(let sequence, let line, let differences, let warnings) = error
          as? ActionLogError
      else { return false }
      return sequence == 6 && line == 9 && warnings.isEmpty
        && differences == [
          "recorded → replayed: count: 3 → 30",
          """
          since the last matching checkpoint (after action 3, line 5), actions 4 to 6 were \
          replayed (lines 6 to 8), and each decodes to what was recorded: look at what the \
          reducer (or a dependency) does with them
          """,
        ]
    }
  }

  @Test func aCheckpointStateWithANumberBeyondADoubleIsStillCompared() throws {
    let (file, _) = try record([.add(1)], interval: 1)
    var text = try lines(file)
    // Line 3 is action 1's checkpoint: a digest that differs, a number no Double holds.
    text[2] = #"{"digest":"0000000000000000","kind":"checkpoint","seq":1,"state":{"count":1e400}}"#
    let damaged = try write(text.joined(separator: "\n") + "\n", to: "state.jsonl")
    #expect {
      try replayer().replay(path: damaged)
    } throws: { error in
      guard case .diverged(1, 3, let differences, _) = error as? ActionLogError else {
        return false
      }
      return differences.first == "recorded → replayed: count: 1e400 → 1"
    }
  }

  @Test func aSchemaMismatchIsRefusedNamingBothFingerprints() throws {
    let file = try write(try header(schema: "00000000deadbeef") + "\n", to: "schema.jsonl")
    #expect {
      try replayer().replay(path: file)
    } throws: { error in
      let text = "\(error)"
      return text.contains("00000000deadbeef") && text.contains("current types' fingerprint")
        && text.hasPrefix("Line 1")
    }
  }

  @Test func anInitialStateTheCurrentTypesCannotDecodeIsRefusedNamingWhatIsMissing() throws {
    let head = try header()
    let renamed = head.replacingOccurrences(of: #""count":0"#, with: #""total":0"#)
    let file = try write(renamed + "\n", to: "shape.jsonl")
    #expect {
      try replayer().replay(path: file)
    } throws: { error in
      // Not a schema mismatch: the log's fingerprint is the current one, so the log may as
      // well be damaged; the message says both.
      guard case .badHeader(1, let reason) = error as? ActionLogError else { return false }
      return reason.contains(#"missing key "count""#) && reason.contains("damaged")
    }
  }

  @Test(arguments: [
    (#""checkpointInterval":0"#, "must be at least 1, not 0"),
    (#""checkpointInterval":-5"#, "must be at least 1, not -5"),
    ("", #"no "checkpointInterval" number: the field is missing, or null."#),
    (
      #""checkpointInterval":null"#,
      #"no "checkpointInterval" number: the field is missing, or null."#
    ),
  ])
  func aHeaderWithoutAPositiveCheckpointIntervalIsRefusedSayingSo(
    field: String, expected: String
  ) throws {
    let head = try header()
    // The field is not the header's last: removing it takes its comma too.
    let changed = head.replacingOccurrences(
      of: field.isEmpty ? #""checkpointInterval":[0-9]+,"# : #""checkpointInterval":[0-9]+"#,
      with: field, options: .regularExpression)
    #expect(changed != head)
    let file = try write(changed + "\n", to: "interval-\(UUID().uuidString).jsonl")
    #expect {
      try replayer().replay(path: file)
    } throws: { error in
      guard case .badHeader(1, let reason) = error as? ActionLogError else { return false }
      return reason.contains(expected)
    }
  }

  @Test func theFingerprintOfAPrivateTypeIsTheSameInEveryRun() {
    // The runtime names a private type with an address that changes from run to run.
    let name = String(reflecting: PrivateState.self)
    #expect(name.contains("(unknown context at $"))
    let fingerprinted = SchemaFingerprint.withoutAddresses("\(name)|\(name)|1|")
    #expect(!fingerprinted.contains("$"))
    #expect(fingerprinted.contains("(unknown context).PrivateState|"))
    #expect(
      SchemaFingerprint.withoutAddresses("Store.(unknown context at $55d1c3a0).S")
        == SchemaFingerprint.withoutAddresses("Store.(unknown context at $7f00aa10).S"))
  }

  @Test func untilStopsBeforeADamagedLineAfterTheStepAskedFor() throws {
    let (file, _) = try record([.add(1), .add(2), .add(3), .add(4)], interval: 100)
    var text = try lines(file)
    // Line 4 holds action 3: damaged, and then out of order.
    let outOfOrder = text[3].replacingOccurrences(of: #""seq":3"#, with: #""seq":9"#)
    for (damage, warning) in [("{oops", "Line 4: not a log line"), (outOfOrder, nil)] {
      text[3] = damage
      let damaged = try write(text.joined(separator: "\n") + "\n", to: "damaged.jsonl")
      let report = try replayer().replay(path: damaged, until: 2)
      #expect(report.stoppedAfter == 2)
      #expect(report.finalState.count == 3)
      // A line that cannot be read might have been action 2's checkpoint: said so.
      #expect(report.warnings.count == (warning == nil ? 0 : 1))
      if let warning { #expect(report.warnings.first?.hasPrefix(warning) == true) }
    }
    // Cut off right after the step asked for: stopped there, not "cut short".
    let cut = try write(text[0...2].joined(separator: "\n") + "\n{\"kind\":\"act", to: "cut.jsonl")
    let report = try replayer().replay(path: cut, until: 2)
    #expect(report.stoppedAfter == 2)
    #expect(report.warnings.isEmpty)
  }

  @Test func blankLinesBeforeTheHeaderAndARepeatedFinalCheckpointAreAccepted() throws {
    let (file, final) = try record([.add(1), .add(2)])
    let text = try lines(file)
    let padded = try write(
      "\n  \n" + text.joined(separator: "\n") + "\n" + text[text.count - 1] + "\n",
      to: "padded.jsonl")
    let report = try replayer().replay(path: padded)
    #expect(report.isComplete)
    #expect(report.finalState == final)
    // Lines are numbered from the file's first, blank or not.
    let headerOnly = try write("\n\n" + text[0] + "\n", to: "padded-header.jsonl")
    #expect(try replayer().replay(path: headerOnly).warnings.first?.hasPrefix("Line 3:") == true)
  }

  /// Blank is any mix of the JSON whitespace a line can hold, not only spaces.
  @Test func aLineOfTabsSpacesAndCarriageReturnsIsBlankWhereverItIs() throws {
    let (file, final) = try record([.add(1), .add(2)])
    let text = try lines(file)
    for blank in ["\t", "\t  ", " \t\r", "\r"] {
      let padded = try write(
        "\(blank)\n\(text[0])\n\(blank)\n\(text[1...].joined(separator: "\n"))\n\(blank)",
        to: "whitespace-\(UUID().uuidString).jsonl")
      let report = try replayer().replay(path: padded)
      #expect(report.isComplete, "\(blank.debugDescription)")
      #expect(report.finalState == final)
      #expect(report.warnings.isEmpty)
    }
  }

  @Test func headerErrorsNameTheHeadersLineAfterBlankLines() throws {
    let (file, _) = try record([])
    let head = try lines(file)[0]
    let cases = [
      (try header(schema: "0000000000000000"), "schema fingerprint \"0000000000000000\""),
      (try header(version: 7), "format version is 7"),
      (
        head.replacingOccurrences(of: #""feature":"Tally""#, with: #""feature":"Other""#),
        "recorded for feature \"Other\""
      ),
      (
        head.replacingOccurrences(of: #""kind":"header""#, with: #""kind":"action""#),
        "not a valid log header"
      ),
    ]
    for (header, message) in cases {
      let padded = try write("\n \n" + header + "\n", to: "padded-\(UUID().uuidString).jsonl")
      #expect {
        try replayer().replay(path: padded)
      } throws: { error in
        "\(error)".hasPrefix("Line 3: ") && "\(error)".contains(message)
      }
    }
  }

  /// A schema that is not a fingerprint was called a change of the types (fuzzing trial).
  @Test(arguments: ["", "XYZ", "7EFD774D8521C847", "7efd774d8521c84", "7efd774d8521c8470"])
  func aSchemaThatIsNotAFingerprintIsDamageNotAChangeOfTypes(_ schema: String) throws {
    let file = try write(try header(schema: schema) + "\n", to: "schema-\(UUID().uuidString).jsonl")
    #expect {
      try replayer().replay(path: file)
    } throws: { error in
      guard case .badHeader(1, let reason) = error as? ActionLogError else { return false }
      return reason.hasPrefix(
        "the schema fingerprint \"\(schema)\" is not one: a fingerprint is 16 lowercase hexadecimal digits, and the current types' is \""
      )
    }
  }

  @Test func aMalformedDigestIsADamagedLineNotADivergence() throws {
    let (file, _) = try record([.add(1)], interval: 1)
    let text = try lines(file).map {
      $0.replacingOccurrences(
        of: #""digest":"[0-9a-f]+""#, with: #""digest":"xyz""#, options: .regularExpression)
    }
    let damaged = try write(text.joined(separator: "\n") + "\n", to: "digest.jsonl")
    #expect {
      try replayer().replay(path: damaged)
    } throws: { error in
      guard case .malformedLine(3, let reason) = error as? ActionLogError else { return false }
      return reason.contains(#""xyz" is not a digest"#)
    }
  }

  // MARK: - Bad input

  func expectFailure(
    _ text: String, _ message: String, sourceLocation: SourceLocation = #_sourceLocation
  )
    throws
  {
    let file = try write(text, to: "bad-\(UUID().uuidString).jsonl")
    do {
      _ = try replayer().replay(path: file)
      Issue.record("expected a failure containing \(message)", sourceLocation: sourceLocation)
    } catch {
      #expect("\(error)".contains(message), "\(error)", sourceLocation: sourceLocation)
    }
  }

  @Test func badInputIsReportedWithItsLineNeverACrash() throws {
    let head = try header()
    let add = #"{"action":{"add":{"_0":1}},"kind":"action","origin":"user","seq":1,"time":0}"#
    try expectFailure("", "The log is empty")
    try expectFailure(add + "\n", "Line 1: not a valid log header")
    try expectFailure("{not json\n", "Line 1: not a valid log header")
    try expectFailure(try header(version: 99) + "\n", "format version is 99")
    // Another version is refused for its version, whatever shape its other fields have.
    let reshaped = try header(version: 2).replacingOccurrences(
      of: #""checkpointInterval":[0-9]+"#, with: #""checkpointInterval":{"every":10}"#,
      options: .regularExpression)
    try expectFailure(reshaped + "\n", "format version is 2")
    try expectFailure(head + "\n{oops\n", "Line 2: invalid JSON")
    try expectFailure(
      head + "\n" + add.replacingOccurrences(of: #""add""#, with: #""explode""#) + "\n",
      "Line 2:")
    try expectFailure(head + "\n" + add + "\n" + add + "\n", "Line 3: sequence number 1 where 2")
    try expectFailure(
      head + "\n" + add.replacingOccurrences(of: #""seq":1"#, with: #""seq":5"#) + "\n",
      "Line 2: sequence number 5 where 1")
    try expectFailure(
      head + "\n" + #"{"kind":"mystery","seq":1}"# + "\n",
      #"Line 2: invalid value at kind: Unknown line kind "mystery"; expected "action""#)
    let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
    try expectFailure(head + "\n" + deep + "\n", "Line 2:")
    try expectFailure(
      head + "\n" + add.replacingOccurrences(of: #""add""#, with: #""explode""#) + "\n",
      #"Line 2: "explode" is not a case of Tally.Action at action."#)
    try expectFailure(
      head.replacingOccurrences(of: #""count":0"#, with: #""count":1.5"#) + "\n",
      """
      Line 1: not a valid log header: the initial state is invalid: the number 1.5 at \
      initialState.count does not fit the integer type expected there (it is not a whole number) \
      (a damaged log, or a value whose type changed since the recording, such as a renamed enum \
      case).
      """
    )
    // A whole line of JSON that is not a log line is malformed, newline or not: only a line
    // that stops mid-JSON was cut off.
    try expectFailure(
      head + "\n" + add.replacingOccurrences(of: #""add""#, with: #""explode""#), "Line 2:")
  }

  @Test func aLineJSONDecoderCallsInvalidIsExplainedWithWhatAndWhere() throws {
    let head = try header()
    let add = #"{"action":{"add":{"_0":1}},"kind":"action","origin":"user","seq":1,"time":0}"#
    try expectFailure(
      head + "\n" + add.replacingOccurrences(of: #""seq":1"#, with: #""seq":99999999999999999999"#)
        + "\n",
      """
      Line 2: the number 99999999999999999999 at seq does not fit the integer type expected \
      there (it is outside the range of a 64-bit integer).
      """)
    try expectFailure(
      head + "\n" + add.replacingOccurrences(of: #""_0":1"#, with: #""_0":2.5"#) + "\n",
      """
      Line 2: the number 2.5 at action.add._0 does not fit the integer type expected there (it \
      is not a whole number).
      """)
    try expectFailure(
      head.replacingOccurrences(of: #""checkpointInterval":3"#, with: #""checkpointInterval":2.5"#)
        + "\n",
      "Line 1: not a valid log header: the number 2.5 at checkpointInterval does not fit")
    try expectFailure(
      head + "\n" + add.replacingOccurrences(of: #""time":0"#, with: #""time":1e400"#) + "\n",
      "Line 2: invalid JSON: the number 1e400 at time is too large for any number type.")
    let deep = String(repeating: "[", count: 600) + String(repeating: "]", count: 600)
    try expectFailure(
      head + "\n" + deep + "\n",
      "Line 2: invalid JSON: arrays and objects nested more than 512 deep, at column 513")
    try expectFailure(
      head + "\n"
        + add.replacingOccurrences(of: #"{"add":{"_0":1}}"#, with: #"{"named":{"_0":"\ud800"}}"#)
        + "\n",
      "Line 2: invalid JSON: a lone UTF-16 surrogate in a string at action.named._0")
    // Invalid UTF-8 in the initial state is damage, not a type that changed.
    var bytes = Data(head.replacingOccurrences(of: #""names":[]"#, with: #""names":["ab"]"#).utf8)
    bytes[bytes.firstRange(of: Data("ab".utf8))!.lowerBound] = 0xFF
    let file = path("utf8.jsonl")
    try bytes.write(to: URL(fileURLWithPath: file))
    #expect {
      try replayer().replay(path: file)
    } throws: { error in
      guard case .badHeader(1, let reason) = error as? ActionLogError else { return false }
      return reason.hasPrefix("invalid JSON: invalid UTF-8 in the string at initialState.names[0]")
        && !reason.contains("changed")
    }
  }

  /// `JSONDecoder` on Linux reads `[1,]` and `{"a":1,}`; JSON, and other readers, do not.
  @Test func aTrailingCommaIsRefusedNamingItsLineAndColumn() throws {
    let head = try header()
    let add = #"{"action":{"add":{"_0":1}},"kind":"action","origin":"user","seq":1,"time":0}"#
    func column(of text: String, in line: String) -> Int {
      line.utf8.distance(from: line.utf8.startIndex, to: line.range(of: text)!.lowerBound) + 1
    }
    let end = add.replacingOccurrences(of: #""time":0}"#, with: #""time":0,}"#)
    try expectFailure(
      head + "\n" + end + "\n",
      """
      Line 2: invalid JSON: a trailing comma, at column \(column(of: ",}", in: end)): JSON \
      allows no comma after the last element of an object or array.
      """)
    let nested = add.replacingOccurrences(of: #"{"_0":1}"#, with: #"{"_0":1 , }"#)
    try expectFailure(
      head + "\n" + nested + "\n",
      "Line 2: invalid JSON: a trailing comma at action.add, at column \(column(of: ", }", in: nested)):"
    )
    let names = head.replacingOccurrences(of: #""names":[]"#, with: #""names":["a",\#t]"#)
    try expectFailure(
      names + "\n",
      """
      Line 1: not a valid log header: invalid JSON: a trailing comma at initialState.names, at \
      column \(column(of: ",\t]", in: names)):
      """)
  }

  @Test func aLineThatRepeatsAKeyIsRefusedNamingTheKeyAndTheLine() throws {
    let head = try header()
    let add = #"{"action":{"add":{"_0":1}},"kind":"action","origin":"user","seq":1,"time":0}"#
    // JSONDecoder would keep the first of each; Python and jq the last.
    try expectFailure(
      head + "\n"
        + add.replacingOccurrences(
          of: #""kind":"action""#, with: #""kind":"action","kind":"checkpoint""#)
        + "\n",
      #"Line 2: the key "kind" appears twice in the line's object"#)
    try expectFailure(
      head + "\n" + add.replacingOccurrences(of: #"{"_0":1}"#, with: #"{"_0":1,"_0":2}"#) + "\n",
      #"Line 2: the key "_0" appears twice in the object at action.add"#)
    // Written differently, the same key.
    try expectFailure(
      head + "\n" + add.replacingOccurrences(of: #""seq":1"#, with: #""seq":1,"s\u0065q":2"#)
        + "\n",
      #"Line 2: the key "seq" appears twice in the line's object"#)
    try expectFailure(
      head.replacingOccurrences(of: #""version":1"#, with: #""version":1,"version":2"#) + "\n",
      #"Line 1: not a valid log header: the key "version" appears twice"#)
  }

  @Test func theDuplicateKeyScannerFindsRepeatsInLargeObjectsAndNotAcrossObjects() {
    var scanner = DuplicateKeyScanner()
    func duplicate(_ json: String) -> DuplicateKeyScanner.Duplicate? {
      guard case .duplicate(let found)? = scanner.firstProblem(in: Data(json.utf8)) else {
        return nil
      }
      return found
    }
    // Equal keys in different objects, or as values, are not repeats.
    #expect(duplicate(#"{"a":{"a":1},"b":[{"a":"a"},{"a":2}],"c":"a","d":{}}"#) == nil)
    #expect(duplicate(#"{"a\"b":1,"a":2,"b":"{\"a\":1,\"a\":2}"}"#) == nil)
    let many = (0..<40).map { #""k\#($0)":\#($0)"# }.joined(separator: ",")
    #expect(duplicate("{\(many)}") == nil)
    #expect(
      duplicate(#"{"x":[1,{"y":{"# + many + #","k7":0}}]}"#)
        == .init(key: "k7", path: "x[1].y"))
    // Text that is not JSON is left to the decoder.
    for garbage in ["{{", "}}", #"{"a":"#, #"{"a":1,"a"#, "\"", #"[{"a":1,"a":1"#] {
      _ = duplicate(garbage)
    }
    #expect(duplicate(#"[{"a":1,"a":1"#) == .init(key: "a", path: "[0]"))
  }

  @Test func theStrictCheckFindsNoProblemInValidJSON() throws {
    let (file, _) = try record([.add(1), .named("a \"quoted\" / é 😀"), .pinChanged("1")])
    let valid =
      try lines(file) + [
        #" { "a" : [ 1 , -0.5e+3 , 2E-2 , true , false , null , { } , [ ] ] } "#,
        #"["\u00e9\ud83d\ude00\n\t\\\/", 0, -0, 123456789012345678901234567890]"#,
      ]
    for line in valid {
      #expect(JSONCheck.check(Data(line.utf8)).problem == nil, "\(line)")
    }
  }

  /// `Int(_:radix:)` takes a sign: the check must not.
  @Test func theStrictCheckRefusesASignedUnicodeEscape() {
    for line in [#"["\u-041"]"#, #"["\u+abc"]"#, #"["\u12"]"#] {
      #expect(
        JSONCheck.check(Data(line.utf8)).problem?.contains("invalid \\u escape") == true,
        "\(line)")
    }
  }

  @Test func aLineOfExactlyTheLimitIsReadAndOneByteMoreIsNot() throws {
    let atLimit = String(repeating: "a", count: 16)
    let file = try write(atLimit + "\n" + atLimit + "b\n", to: "limit.jsonl")
    let reader = try LineReader(path: file, limit: 16)
    guard case .complete(let line, 1)? = try reader.next() else {
      Issue.record("the line at the limit was not read whole")
      return
    }
    #expect(line == Data(atLimit.utf8))
    guard case .tooLong(2)? = try reader.next() else {
      Issue.record("the line past the limit was not refused")
      return
    }
    #expect(try reader.next() == nil)
  }

  @Test func aCarriageReturnEndingALineDoesNotCountTowardTheLimit() throws {
    // A log of lines at the limit, copied through a tool that ends lines in CRLF, stays
    // readable; a line a byte longer (before its CRLF) does not, nor one whose byte past the
    // limit is not a carriage return, nor one with a carriage return and a byte more.
    let atLimit = String(repeating: "a", count: 16)
    let file = try write(
      atLimit + "\r\n" + atLimit + "\r", to: "limit-crlf.jsonl")
    let reader = try LineReader(path: file, limit: 16)
    guard case .complete(let line, 1)? = try reader.next() else {
      Issue.record("the CRLF line at the limit was not read whole")
      return
    }
    #expect(line == Data((atLimit + "\r").utf8))
    guard case .truncated(let cut, 2)? = try reader.next() else {
      Issue.record("the cut CRLF line at the limit was not read whole")
      return
    }
    #expect(cut == Data((atLimit + "\r").utf8))
    #expect(try reader.next() == nil)

    for tooLong in [
      atLimit + "b\r\n", atLimit + "b", atLimit + "\rb\n", atLimit + "bb", atLimit + "b\r",
    ] {
      let file = try write(tooLong, to: "past-limit.jsonl")
      let reader = try LineReader(path: file, limit: 16)
      guard case .tooLong(1)? = try reader.next() else {
        Issue.record("a line past the limit was not refused: \(tooLong.debugDescription)")
        continue
      }
    }
  }

  @Test func aLineWithNoEndIsRefusedOnceItPassesTheLimit() throws {
    // /dev/zero never ends, and holds no newline: a reader that read to the line's end would
    // never return.
    let reader = try LineReader(path: "/dev/zero", limit: 1000)
    guard case .tooLong(1)? = try reader.next() else {
      Issue.record("the endless line was not refused")
      return
    }
    #expect(try reader.next() == nil)
    #expect {
      try replayer().replay(path: "/dev/zero")
    } throws: { error in
      error as? ActionLogError
        == .lineTooLong(line: 1, limit: ActionLogFormat.maximumLineLength)
    }
  }

  @Test func aDirectoryIsRefusedAsNotALogFile() throws {
    #expect(
      throws: ActionLogError.cannotRead(
        path: directory.path, reason: "it is a directory, not a log file")
    ) {
      try replayer().replay(path: directory.path)
    }
  }

  // The recorder's line limit is lowered to 4 KiB here, so these tests need no 8 MiB lines.

  @Test func aCheckpointTooLargeForALineKeepsOnlyItsDigestAndStillVerifies() throws {
    let store = Store(initialState: Tally.State()) { Tally() }
    let file = path("big-state.jsonl")
    let recorder = try store.recordActions(to: file, feature: "Tally")
    recorder.lineLimit = 4096
    let half = String(repeating: "x", count: 2048)
    store.send(.named(half))
    store.send(.named(half))
    try recorder.finish()
    let last = try lines(file).last ?? ""
    #expect(last.hasPrefix(#"{"digest":"#) && !last.contains(#""state""#))
    let report = try replayer().replay(path: file)
    #expect(report.isComplete)
    #expect(report.checkpointsVerified == 1)
  }

  @Test func anActionTooLargeForALineStopsTheRecordingWithAnError() throws {
    let warnings = WarningLog()
    let store = RuntimeWarningHandler.$current.withValue(warnings.handler) {
      Store(initialState: Tally.State()) { Tally() }
    }
    let recorder = try store.recordActions(to: path("huge.jsonl"), feature: "Tally")
    recorder.lineLimit = 4096
    store.send(.add(1))
    store.send(.named(String(repeating: "x", count: 4096)))
    store.send(.add(2))
    #expect(recorder.actionCount == 1)  // the oversized one was not written
    #expect(recorder.error.map { "\($0)".contains("longer than the 4096 a replay reads") } == true)
    // Said at once, with the action shortened, and once.
    #expect(warnings.messages.count == 1)
    #expect(
      warnings.messages.first?.contains(
        #"stopped recording: action 2, Tally.Action.named("xxxxx"#) == true)
    #expect(warnings.messages.first.map { $0.count < 1000 } == true)
    #expect(throws: ActionLogError.self) { try recorder.finish() }
    let report = try replayer().replay(path: path("huge.jsonl"))
    #expect(report.actionCount == 1)
    #expect(report.warnings.count == 1)
    #expect(
      report.warnings.first?.contains(
        "the recording stopped after action 1: action 2, Tally.Action.named(") == true)
    #expect(report.warnings.first?.contains("longer than the 4096 a replay reads") == true)
  }

  @Test func aCheckpointIntervalBelowOneIsAnErrorNotATrap() {
    let store = Store(initialState: Tally.State()) { Tally() }
    #expect(throws: ActionLogError.self) {
      try store.recordActions(to: path("zero.jsonl"), feature: "Tally", checkpointInterval: 0)
    }
  }

  @Test func aFiftyMegabyteLineIsRefusedWithoutReadingItWhole() throws {
    let head = try header()
    let huge =
      #"{"kind":"action","junk":""# + String(repeating: "x", count: 50 * 1024 * 1024) + "\"}"
    try expectFailure(
      head + "\n" + huge + "\n", "Line 2: longer than the limit of 8388608 bytes; the log was")
  }

  @Test func aTruncatedLastLineReplaysTheCompleteLinesAndWarns() throws {
    let (file, _) = try record([.add(1), .add(2), .add(3), .add(4)], interval: 100)
    let content = try String(contentsOfFile: file, encoding: .utf8)
    // Cut inside the last action line (the final checkpoint is dropped too).
    let lastAction = content.range(of: #""seq":4"#)!.lowerBound
    let cut = try write(String(content[..<lastAction]), to: "cut.jsonl")
    let report = try replayer().replay(path: cut)
    #expect(report.finalState.count == 6)
    #expect(report.warnings.count == 1)
    #expect(report.warnings.first?.hasPrefix("Line 5: incomplete") == true)
  }

  @Test func aPartialLineAfterTheFinalCheckpointIsDamageNotACutOffRecording() throws {
    let (file, final) = try record([.add(1), .add(2)], interval: 100)
    let content = try String(contentsOfFile: file, encoding: .utf8)
    let damaged = try write(content + #"{"action":{"add""#, to: "after-final.jsonl")
    #expect {
      try replayer().replay(path: damaged)
    } throws: { error in
      guard case .malformedLine(5, let reason) = error as? ActionLogError else { return false }
      return reason.contains("after the final checkpoint")
    }
    // Spaces with no newline are a blank line, skipped as everywhere else.
    let spaced = try write(content + "  ", to: "spaces-after-final.jsonl")
    let report = try replayer().replay(path: spaced)
    #expect(report.isComplete && report.finalState == final && report.warnings.isEmpty)
  }

  @Test func aLogCutBetweenLinesReplaysAndWarnsThatItHasNoFinalCheckpoint() throws {
    let (file, _) = try record([.add(1), .add(2)], interval: 100)
    let kept = try lines(file).dropLast()  // the final checkpoint
    let cut = try write(kept.joined(separator: "\n") + "\n", to: "cut-between.jsonl")
    let report = try replayer().replay(path: cut)
    #expect(report.actionCount == 2)
    #expect(!report.isComplete)
    #expect(
      report.warnings == [
        """
        Line 3: the log ends there, after action 2, without its final checkpoint: the \
        recording was cut short, or is still being written.
        """
      ])
    // Blank lines after the last action do not move where the log is said to end (the log
    // hunt: the warning named the last blank line).
    let trailed = try write(
      kept.joined(separator: "\n") + "\n\n  \n\n", to: "cut-between-blank.jsonl")
    #expect(try replayer().replay(path: trailed).warnings == report.warnings)
  }

  @Test func aLogCutAtAnyByteReplaysEveryCompleteLine() throws {
    let (file, _) = try record((1...12).map { .add($0) }, interval: 4)
    let bytes = try Data(contentsOf: URL(fileURLWithPath: file))
    let headerEnd = bytes.firstIndex(of: UInt8(ascii: "\n"))! + 1
    for cut in stride(from: headerEnd, to: bytes.count, by: 7) {
      let name = "cut-\(cut).jsonl"
      try bytes.prefix(cut).write(to: URL(fileURLWithPath: path(name)))
      let report = try replayer().replay(path: path(name))
      let completeActions = String(decoding: bytes.prefix(cut), as: UTF8.self)
        .split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        .filter { $0.contains(#""kind":"action""#) }.count
      #expect(report.actionCount == completeActions)
      // Summed outside `#expect`, where `reduce(0, +)` is slow to type-check.
      let total: Int = (0...completeActions).reduce(0, +)
      #expect(report.finalState.count == total)
    }
  }

  // MARK: - Secrets and files

  @Test func secretsNeverReachTheLog() throws {
    let (file, _) = try record([.pinChanged("4321"), .add(1), .pinChanged("9876")])
    let text = try String(contentsOfFile: file, encoding: .utf8)
    #expect(!text.contains("4321"))
    #expect(!text.contains("9876"))
    #expect(text.contains("<redacted>"))
  }

  @Test func theLogIsOwnerOnly() throws {
    let (file, _) = try record([.add(1)])
    let attributes = try FileManager.default.attributesOfItem(atPath: file)
    #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
  }

  /// A second recorder would take the actions from the first, whose log would end without
  /// them and fail to replay: it is refused until the first finishes.
  @Test func aStoreRecordsToOneLogAtATime() throws {
    let store = Store(initialState: Tally.State()) { Tally() }
    let first = try store.recordActions(to: path("first.jsonl"), feature: "Tally")
    #expect {
      try store.recordActions(to: path("second.jsonl"), feature: "Tally")
    } throws: { error in
      "\(error)".contains("already records its actions to \(self.path("first.jsonl"))")
    }
    store.send(.add(1))
    try first.finish()
    #expect(try replayer().replay(path: path("first.jsonl")).actionCount == 1)
    // Once the first has finished, or is gone, another can start.
    let second = try store.recordActions(to: path("second.jsonl"), feature: "Tally")
    store.send(.add(2))
    try second.finish()
    #expect(try replayer().replay(path: path("second.jsonl")).actionCount == 1)
  }

  /// A recorder nobody keeps stops recording: the store says so at the next action, once.
  @Test func aRecorderReleasedBeforeFinishingIsReportedAtTheNextAction() throws {
    let warnings = WarningLog()
    let store = RuntimeWarningHandler.$current.withValue(warnings.handler) {
      Store(initialState: Tally.State()) { Tally() }
    }
    _ = try store.recordActions(to: path("dropped.jsonl"), feature: "Tally")
    store.send(.add(1))
    store.send(.add(2))
    #expect(warnings.messages.count == 1)
    #expect(
      warnings.messages.first?.contains("dropped.jsonl was released before its finish()") == true)
    #expect(
      warnings.messages.first?.contains("Tally.Action.add(1) and the actions after it") == true)
    // A recorder that finished and was then let go is no surprise.
    var finished: ActionLogRecorder<Tally.State, Tally.Action>? = try store.recordActions(
      to: path("finished.jsonl"), feature: "Tally")
    try finished?.finish()
    finished = nil
    store.send(.add(3))
    #expect(warnings.messages.count == 1)
  }

  func permissions(_ file: String) throws -> Int? {
    (try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? NSNumber)?
      .intValue
  }

  @Test func anExistingFileIsOverwrittenKeepingItsMode() throws {
    let file = try write("not a log\n", to: "existing.jsonl")
    try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file)
    let (recorded, _) = try record([.add(1)], name: "existing.jsonl")
    #expect(recorded == file)
    #expect(try permissions(file) == 0o644)
    #expect(try replayer().replay(path: file).isComplete)
  }

  @Test func aHeaderThatCannotBeWrittenDeletesOnlyAFileTheRecorderCreated() throws {
    // An initial state too large for one line: the header cannot be written.
    let huge = Tally.State(names: [String(repeating: "x", count: ActionLogFormat.maximumLineLength)]
    )
    let existing = try write("someone else's\n", to: "existing.jsonl")
    try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: existing)
    for file in [existing, path("new.jsonl")] {
      let store = Store(initialState: huge) { Tally() }
      #expect(throws: ActionLogError.self) {
        try store.recordActions(to: file, feature: "Tally")
      }
    }
    // The file that was there stays, with its mode; the new one leaves nothing behind.
    #expect(try permissions(existing) == 0o644)
    #expect(!FileManager.default.fileExists(atPath: path("new.jsonl")))
  }

  @Test func onlyARootStoreRecords() throws {
    let store = Store(initialState: Pair.State()) { Pair() }
    let child = store.scope(state: \.left, action: .left)
    _ = child
    let tally = Store(initialState: Tally.State()) { Tally() }
    #expect(throws: ActionLogError.self) {
      try tally.scope(state: \.self, action: CaseKey({ $0 }, extract: { $0 }))
        .recordActions(to: path("scoped.jsonl"), feature: "Tally")
    }
  }

  @Test func stateChangesListChangedFieldsByPath() {
    var after = Tally.State()
    after.count = 2
    after.names = ["x"]
    #expect(
      stateChanges(from: Tally.State(), to: after) == ["count: 0 → 2", #"names[0] added: "x""#])
    #expect(stateChanges(from: after, to: after).isEmpty)
  }

  struct Panel: Encodable {
    enum Mode: Encodable {
      case idle
      case editing(draft: String)
    }
    var mode = Mode.idle
    var readings: [String: Int] = [:]
  }

  /// An enum case that changes is one line; a dictionary of one entry whose key changes
  /// is compared key by key, as one of two entries is (a coverage trial: it read as a case).
  @Test func anotherEnumCaseIsOneChangeAndAnotherKeyIsTwo() {
    #expect(
      stateChanges(from: Panel(), to: Panel(mode: .editing(draft: "x")))
        == [#"mode: .idle → .editing(draft: "x")"#])
    #expect(
      stateChanges(from: Panel(readings: ["a": 1]), to: Panel(readings: ["b": 1]))
        == ["readings.a: 1 → (absent)", "readings.b: (absent) → 1"])
    #expect(
      stateChanges(from: Panel(readings: ["a": 1, "c": 2]), to: Panel(readings: ["b": 1, "c": 2]))
        == ["readings.a: 1 → (absent)", "readings.b: (absent) → 1"])
  }
}

private struct PrivateState {}
