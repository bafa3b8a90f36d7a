import Effects
import Foundation
import Testing

@testable import Store

/// What a replay says about input that is large, repeated, read from a pipe, or not UTF-8:
/// bounded messages and memory, and no claim it cannot back (log adversary trial).
@MainActor
@Suite final class ActionLogBoundsTests {
  let directory = TemporaryDirectory("action-log-bounds-tests")

  /// Records `actions` through `Tally()` with a final checkpoint, returning the log's path.
  func record(_ actions: [Tally.Action], interval: Int = 100) throws -> String {
    let store = Store(initialState: Tally.State()) { Tally() }
    let file = directory.appendingPathComponent("\(UUID().uuidString).jsonl").path
    let recorder = try store.recordActions(
      to: file, feature: "Tally", checkpointInterval: interval, time: { 0.5 })
    for action in actions { store.send(action) }
    try recorder.finish()
    return file
  }

  func lines(_ file: String) throws -> [String] {
    try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n").map(String.init)
  }

  func write(_ lines: [String], to file: String) throws {
    try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: file))
  }

  /// The error replaying `file` through `reducer` throws.
  func failure(
    replaying file: String, through reducer: @escaping () -> some Reducer<Tally.State, Tally.Action>
  ) -> ActionLogError? {
    do {
      _ = try ActionLogReplayer(feature: "Tally", reducer: reducer).replay(path: file)
      Issue.record("the replay did not fail")
    } catch let error as ActionLogError {
      return error
    } catch {
      Issue.record("unexpected error: \(error)")
    }
    return nil
  }

  /// Tally, appending each name with an exclamation mark: a replay that drifts on every name.
  struct Exclaiming: Reducer {
    func reduce(into state: inout Tally.State, action: Tally.Action) -> Effect<Tally.Action> {
      guard case .named(let name) = action else {
        return Tally().reduce(into: &state, action: action)
      }
      state.names.append(name + "!")
      return .none
    }
  }

  // MARK: - Bounds

  /// A checkpoint with 3,000,000 differing elements took 48 s and printed 167 MB.
  @Test func aDivergenceNamesTwentyDifferencesAndCountsTheRest() throws {
    let file = try record((0..<30).map { .named("n\($0)") })
    guard
      case .diverged(_, _, let differences, _)? = failure(replaying: file, through: Exclaiming.init)
    else { return }
    let named = differences.filter { $0.hasPrefix("recorded → replayed: names[") }
    #expect(named.count == 20)
    #expect(named.first == #"recorded → replayed: names[0]: "n0" → "n0!""#)
    #expect(differences.contains("and 10 more field(s) differ"), "\(differences)")
  }

  @Test func stateChangesCanBeLimited() {
    let before = Tally.State()
    var after = before
    after.names = (0..<5).map { "n\($0)" }
    after.count = 3
    #expect(stateChanges(from: before, to: after).count == 6)
    #expect(
      stateChanges(from: before, to: after, limit: 2) == [
        "count: 0 → 3", #"names[0] added: "n0""#, "and 4 more difference(s)",
      ])
  }

  /// 200,000 actions for a missing child held 78 MB of warnings.
  @Test func warningsThatRepeatOnEveryLineAreListedUpToALimitAndCounted() throws {
    let file = try record(Array(repeating: .named("ghost"), count: 130))
    let report = try ActionLogReplayer(feature: "Tally") { ActionLogTests.GhostWarning() }
      .replay(path: file)
    #expect(report.isComplete)
    #expect(report.warnings.count == ReplayReport<Tally.State>.maximumListedWarnings)
    #expect(report.unlistedWarningCount == 30)
    #expect(
      report.warnings.last?.hasPrefix("Line 101 (action 100): No child is named ghost.") == true)
  }

  @Test func aValueQuotedFromTheLogIsCutAndItsLengthGiven() throws {
    let long = String(repeating: "k", count: 10_000)
    #expect(
      LogText.quoted(long) == "\"" + String(repeating: "k", count: 120) + "\"… (10000 characters)")
    #expect(LogText.quoted("short") == #""short""#)
    var content = try lines(try record([.add(1)]))
    content[1] = content[1].replacingOccurrences(
      of: #""kind":"action""#, with: #""kind":"\#(long)""#)
    let file = directory.appendingPathComponent("long-kind.jsonl").path
    try write(content, to: file)
    let message = failure(replaying: file) { Tally() }.map { "\($0)" } ?? ""
    #expect(message.contains("(10000 characters); expected \"action\""), "\(message.prefix(300))")
    #expect(message.count < 400)
  }

  @Test func aNumberOfAMillionDigitsIsNotQuotedWhole() throws {
    var content = try lines(try record([.add(1)]))
    content[1] = content[1].replacingOccurrences(
      of: #"{"_0":1}"#, with: #"{"_0":\#(String(repeating: "9", count: 1_000_000))}"#)
    let file = directory.appendingPathComponent("long-number.jsonl").path
    try write(content, to: file)
    let message = failure(replaying: file) { Tally() }.map { "\($0)" } ?? ""
    #expect(message.contains("9999… (1000000 characters)"), "\(message.prefix(300))")
    #expect(message.count < 400)
  }

  /// `1e-330` is valid JSON that `JSONDecoder` refuses without a place.
  @Test func aNumberTooSmallForADoubleIsNamedWithItsPlace() throws {
    var content = try lines(try record([.add(1)]))
    content[1] = content[1].replacingOccurrences(of: #""time":0.5"#, with: #""time":1e-330"#)
    let file = directory.appendingPathComponent("tiny.jsonl").path
    try write(content, to: file)
    let message = failure(replaying: file) { Tally() }.map { "\($0)" } ?? ""
    #expect(
      message.contains("the number 1e-330 at time is too small for any number type"), "\(message)")
  }

  /// The bytes of every string `value` holds, through its stored properties, elements and
  /// optionals: what a result keeps.
  func textBytes(in value: Any) -> Int {
    if let text = value as? String { return text.utf8.count }
    return Mirror(reflecting: value).children.reduce(0) { $0 + textBytes(in: $1.value) }
  }

  /// Explaining a line kept every number with its place, joined from the whole path each
  /// time: numbers × path length. For this 3 MB line (300 objects nested under
  /// 10,000-character keys, then 1,000 numbers and a bad token) the check kept 3 GB of
  /// text; a number's place is now found only when a message names it.
  @Test func explainingALineOfManyNumbersUnderALongPathKeepsTextInProportionToTheLine() throws {
    var content = try lines(try record([.add(1)]))
    content[1].removeLast()
    let key = String(repeating: "k", count: 10_000)
    content[1] +=
      #","x":"# + String(repeating: #"{"\#(key)":"#, count: 300) + "["
      + Array(repeating: "0", count: 1_000).joined(separator: ",") + ",tru]"
      + String(repeating: "}", count: 300) + "}"
    let kept = textBytes(in: JSONCheck.check(Data(content[1].utf8)))
    #expect(kept < 2 * content[1].utf8.count, "\(kept) bytes kept")
    let file = directory.appendingPathComponent("many-numbers.jsonl").path
    try write(Array(content[0...1]), to: file)
    let message = failure(replaying: file) { Tally() }.map { "\($0)" } ?? ""
    #expect(
      message.hasPrefix("Line 2: invalid JSON: expected a value at x."), "\(message.prefix(300))")
  }

  /// The place of a number that does not fit its integer is found when it is named.
  @Test func aNumberThatDoesNotFitItsIntegerIsNamedWithItsPlace() throws {
    var content = try lines(try record([.add(1)]))
    content[1] = content[1].replacingOccurrences(
      of: #"{"_0":1}"#, with: #"{"_0":99999999999999999999}"#)
    let file = directory.appendingPathComponent("big-number.jsonl").path
    try write(content, to: file)
    let message = failure(replaying: file) { Tally() }.map { "\($0)" } ?? ""
    #expect(
      message.contains(
        "the number 99999999999999999999 at action.add._0 does not fit the integer type"),
      "\(message)")
  }

  /// The replay's error for a log whose second line is the first recorded action's line
  /// with `extra` added to its fields, as a message.
  func failureMessage(addingToTheFirstAction extra: String) throws -> String {
    var content = try lines(try record([.add(1)]))
    content[1].removeLast()
    content[1] += "," + extra + "}"
    let file = directory.appendingPathComponent("\(UUID().uuidString).jsonl").path
    try write(Array(content[0...1]), to: file)
    return failure(replaying: file) { Tally() }.map { "\($0)" } ?? ""
  }

  /// A quoted value is cut after 120 characters; the place of a problem was not: a bad value
  /// under a key of 1,000,000 characters made a message of 1,000,000 characters.
  @Test func aProblemUnderAVeryLongKeyNamesItsPlaceShortened() throws {
    let key = String(repeating: "k", count: 1_000_000)
    let message = try failureMessage(addingToTheFirstAction: #""\#(key)":tru"#)
    #expect(message.count < 1_000, "\(message.count) characters")
    #expect(
      message.hasPrefix(
        "Line 2: invalid JSON: expected a value at \(key.prefix(120))… (1000000 characters), "),
      "\(message.prefix(300))")
    let repeated = try failureMessage(addingToTheFirstAction: #""\#(key)":{"a":1,"a":2}"#)
    #expect(repeated.count < 1_000, "\(repeated.count) characters")
    #expect(repeated.contains("appears twice in the object at kkk"), "\(repeated.prefix(300))")
    let spelled = try failureMessage(
      addingToTheFirstAction: #""\u00e9\#(key)":1,"e\u0301\#(key)":2"#)
    #expect(spelled.count < 1_000, "\(spelled.count) characters")
    #expect(spelled.contains(#"written "\u00E9kkk"#), "\(spelled.prefix(300))")
  }

  /// Under 100,000 nested arrays, a repeated key's place was `x[0][0]…` in full: 600,000
  /// characters. A long place keeps its start and its end.
  @Test func aProblemUnderDeepNestingNamesItsPlaceShortened() throws {
    let depth = 100_000
    let message = try failureMessage(
      addingToTheFirstAction: #""x":"# + String(repeating: "[", count: depth)
        + #"{"k":1,"k":2}"# + String(repeating: "]", count: depth))
    #expect(message.count < 1_000, "\(message.count) characters")
    #expect(
      message.contains(
        "in the object at x[0][0][0][0][0][0][0][0][0]…[0][0][0][0][0][0][0][0][0][0]"),
      "\(message.prefix(300))")
    let comma = try failureMessage(
      addingToTheFirstAction: #""x":"# + String(repeating: "[", count: depth) + "1,"
        + String(repeating: "]", count: depth))
    #expect(comma.count < 1_000, "\(comma.count) characters")
    #expect(comma.contains("a trailing comma at x[0][0]"), "\(comma.prefix(300))")
    // Under JSONDecoder's depth limit, the strict check names the place the same way.
    let deep = try failureMessage(
      addingToTheFirstAction: #""x":"# + String(repeating: "[", count: 400) + "tru"
        + String(repeating: "]", count: 400))
    #expect(deep.count < 1_000, "\(deep.count) characters")
    #expect(deep.contains("expected a value at x[0][0]"), "\(deep.prefix(300))")
    #expect(deep.contains("…[0][0]"), "\(deep.prefix(300))")
  }

  // MARK: - Encodings

  @Test func aLogInUTF16IsRefusedAsNotUTF8() throws {
    let content = try lines(try record([.add(1), .add(2)]))
    let file = directory.appendingPathComponent("utf16.jsonl").path
    let text = content.joined(separator: "\n") + "\n"
    try #require(text.data(using: .utf16BigEndian)).write(to: URL(fileURLWithPath: file))
    guard case .badHeader(let line, let reason)? = failure(replaying: file, through: Tally.init)
    else { return }
    #expect(line == 1)
    #expect(reason.hasPrefix("a NUL byte at column 1: a log is UTF-8 text"), "\(reason)")
  }

  /// One line in UTF-16 among UTF-8 ones skipped the strict checks: a trailing comma in it
  /// replayed.
  @Test func aLineInUTF16IsRefusedWhereItIs() throws {
    let content = try lines(try record([.add(1), .add(2)]))
    var bytes = Data(content[0...1].joined(separator: "\n").utf8) + Data("\n".utf8)
    let second = content[2].replacingOccurrences(of: #""seq":2"#, with: #""seq":2,"#)
    bytes += try #require((second + "\n").data(using: .utf16LittleEndian))
    bytes += Data(content[3...].joined(separator: "\n").utf8) + Data("\n".utf8)
    let file = directory.appendingPathComponent("utf16-line.jsonl").path
    try bytes.write(to: URL(fileURLWithPath: file))
    guard case .malformedLine(let line, let reason)? = failure(replaying: file, through: Tally.init)
    else { return }
    #expect(line == 3)
    #expect(reason.hasPrefix("a NUL byte at column 2"), "\(reason)")
  }

  /// Invalid UTF-8 in the value of a field no type reads replayed; two different invalid
  /// keys were reported as one key written twice ("the key "\u{FFFD}" appears twice"), both
  /// repaired into U+FFFD before they were compared.
  @Test func invalidUTF8AnywhereInALineIsRefusedWithItsColumn() throws {
    let content = try lines(try record([.add(1)]))
    let file = directory.appendingPathComponent("invalid-utf8.jsonl").path
    func reason(_ extra: [UInt8], onHeader: Bool = false) throws -> String? {
      var target = Array((onHeader ? content[0] : content[1]).utf8.dropLast())
      target += Array(",".utf8) + extra + Array("}".utf8)
      var bytes = onHeader ? target : Array(content[0].utf8)
      bytes += Array("\n".utf8) + (onHeader ? Array(content[1].utf8) : target) + Array("\n".utf8)
      try Data(bytes).write(to: URL(fileURLWithPath: file))
      switch failure(replaying: file, through: Tally.init) {
      case .malformedLine(2, let reason)?, .badHeader(1, let reason)?: return reason
      default: return nil
      }
    }
    let column = content[1].utf8.count + 9
    let note = try reason(Array(#""note":""#.utf8) + [0xFF, 0xFE] + Array(#"""#.utf8))
    #expect(
      note
        == """
        invalid JSON: invalid UTF-8 in the string at note that starts at column \(column - 1), \
        at column \(column).
        """, "\(note ?? "")")
    let keys = try reason([0x22, 0xFF] + Array(#"":1,""#.utf8) + [0xFE] + Array(#"":2"#.utf8))
    #expect(
      keys
        == "invalid JSON: invalid UTF-8 in the string that starts at column \(column - 8), at column \(column - 7).",
      "\(keys ?? "")")
    // Overlong, a surrogate, past U+10FFFF, cut short: each refused at its first byte.
    for sequence: [UInt8] in [
      [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82],
    ] {
      let found = try reason(Array(#""n":""#.utf8) + sequence + Array(#"""#.utf8))
      #expect(found?.hasSuffix("at column \(column - 3).") == true, "\(sequence)")
    }
    // Outside a string, where the strict check sees something else first.
    let bare = try reason(Array(#""n":"#.utf8) + [0xFF])
    #expect(
      bare?.hasPrefix("invalid UTF-8 at column \(column - 4): a log is UTF-8 text") == true,
      "\(bare ?? "")")
    let header = try reason(Array(#""n":""#.utf8) + [0x80] + Array(#"""#.utf8), onHeader: true)
    #expect(
      header?.hasPrefix("invalid JSON: invalid UTF-8 in the string at n") == true, "\(header ?? "")"
    )
    // Valid UTF-8 of every length still replays.
    var valid = content
    valid[1] = valid[1].replacingOccurrences(of: #""kind""#, with: #""n":"é€𝄞","kind""#)
    try write(valid, to: file)
    #expect(try ActionLogReplayer(feature: "Tally") { Tally() }.replay(path: file).isComplete)
  }

  @Test func aByteOrderMarkIsAllowedOnTheFirstLineAlone() throws {
    var content = try lines(try record([.add(1), .add(2)]))
    content[0] = "\u{FEFF}" + content[0]
    let file = directory.appendingPathComponent("bom.jsonl").path
    try write(content, to: file)
    #expect(try ActionLogReplayer(feature: "Tally") { Tally() }.replay(path: file).isComplete)
    content[2] = "\u{FEFF}" + content[2]
    try write(content, to: file)
    guard case .malformedLine(let line, let reason)? = failure(replaying: file, through: Tally.init)
    else { return }
    #expect(line == 3)
    #expect(reason.hasPrefix("a byte order mark (U+FEFF) at column 1"), "\(reason)")
  }

  /// A header after a byte order mark, cut off mid-line as a crash leaves it, was explained
  /// as "expected a value, found byte 239 at column 1": the mark was blamed, and the damage
  /// not named.
  @Test func aDamagedHeaderAfterAByteOrderMarkNamesTheDamageNotTheMark() throws {
    let content = try lines(try record([.add(1)]))
    let file = directory.appendingPathComponent("bom-cut.jsonl").path
    let cut = Data([0xEF, 0xBB, 0xBF]) + Data(content[0].utf8.prefix(60))
    try cut.write(to: URL(fileURLWithPath: file))
    guard case .badHeader(1, let reason)? = failure(replaying: file, through: Tally.init) else {
      return
    }
    #expect(!reason.contains("byte 239"), "\(reason)")
    #expect(reason.contains("is not closed"), "\(reason)")
    #expect(reason.contains("no newline at its end"), "\(reason)")
  }

  // MARK: - Pipes

  /// The explanation read the log again: a pipe gave nothing the second time ("no action was
  /// replayed", which is false) or, through `/dev/stdin`, later lines; a FIFO's `open` waited
  /// forever for a writer.
  @Test func aDivergenceInALogReadFromAPipeIsExplainedWithoutReadingItAgain() throws {
    let file = try record([.named("a"), .named("b"), .named("c")])
    let bytes = try Data(contentsOf: URL(fileURLWithPath: file))
    var ends: [Int32] = [0, 0]
    try #require(pipe(&ends) == 0)
    defer { close(ends[0]) }
    // The log is small: the pipe holds all of it, and is closed for writing before the replay.
    let written = bytes.withUnsafeBytes { Foundation.write(ends[1], $0.baseAddress, $0.count) }
    close(ends[1])
    try #require(written == bytes.count)
    guard
      case .diverged(_, _, let differences, _)? = failure(
        replaying: "/dev/fd/\(ends[0])", through: Exclaiming.init)
    else { return }
    #expect(
      differences.last
        == """
        since the header (line 1), actions 1 to 3 were replayed (lines 2 to 4); the log is not a \
        regular file (a pipe, say) and cannot be read again to check that they decode to what \
        was recorded
        """)
  }

  /// A checkpoint whose digest alone was edited was explained, and then blamed on the reducer.
  @Test func aCheckpointWhoseDigestAloneDiffersIsNotBlamedOnTheActions() throws {
    var content = try lines(try record([.add(1), .add(2)]))
    let digest = try #require(content[3].firstRange(of: #""digest":""#))
    let start = digest.upperBound
    let end = content[3].index(start, offsetBy: 16)
    content[3].replaceSubrange(start..<end, with: String(repeating: "0", count: 16))
    let file = directory.appendingPathComponent("digest.jsonl").path
    try write(content, to: file)
    guard case .diverged(_, _, let differences, _)? = failure(replaying: file, through: Tally.init)
    else { return }
    #expect(
      differences == [
        """
        the checkpoint's state is the replayed state, but its digest is not that state's: the \
        checkpoint was changed after it was recorded, or written by another encoder
        """
      ])
  }
}
