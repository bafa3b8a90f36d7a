import Foundation
import Testing

@testable import Store

/// Text JSON does not allow is refused in every part of a log line, read or not (`JSONDecoder`
/// does not look into a value no type reads), and a last line without its newline is called
/// cut off only when it is what a recorder cut off mid-line leaves: the start of a line.
/// (Found by a fuzzing trial, which got `OK` from `demo verify` for all of these.)
@MainActor
@Suite final class LogLineGrammarTests {
  let directory = TemporaryDirectory("log-line-grammar-tests")

  /// A log of `Tally` with a checkpoint every two actions, and a final one, as lines.
  func recordedLines() throws -> [String] {
    let file = directory.appendingPathComponent("\(UUID().uuidString).jsonl").path
    let store = Store(initialState: Tally.State()) { Tally() }
    let recorder = try store.recordActions(
      to: file, feature: "Tally", checkpointInterval: 2, time: { 1.25 })
    store.send(.add(-3))
    store.send(.named("é \"quoted\" \\ 😀 \u{1}"))
    store.send(.add(1_000_000))
    try recorder.finish()
    return try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n").map(String.init)
  }

  /// What replaying a file of `bytes` gives: its warnings, or its error.
  func replay(_ bytes: [UInt8]) throws -> Result<[String], ActionLogError> {
    let file = directory.appendingPathComponent("\(UUID().uuidString).jsonl").path
    try Data(bytes).write(to: URL(fileURLWithPath: file))
    do {
      return .success(
        try ActionLogReplayer(feature: "Tally") { Tally() }.replay(path: file).warnings)
    } catch let error as ActionLogError {
      return .failure(error)
    }
  }

  /// The error replaying `lines`, each with its newline, throws; `nil` if it replays.
  func error(replaying lines: [String]) throws -> String? {
    guard case .failure(let error) = try replay(Array(lines.map { $0 + "\n" }.joined().utf8))
    else { return nil }
    return "\(error)"
  }

  /// `line` with a field no type reads added before its closing brace.
  func adding(_ field: String, to line: String) -> String {
    String(line.dropLast()) + #","zz":"# + field + "}"
  }

  @Test func aControlCharacterInAStringNoTypeReadsIsRefused() throws {
    let lines = try recordedLines()
    for byte in [UInt8(1), 9, 13, 31] {
      var changed = lines
      changed[1] = adding("\"a\(Character(Unicode.Scalar(byte)))b\"", to: lines[1])
      // The byte before `b"}`, counted from 1.
      let column = changed[1].utf8.count - 3
      #expect(
        try error(replaying: changed)
          == "Line 2: invalid JSON: a control character (byte \(byte)) in a string at zz, at column \(column)."
      )
    }
    // In a checkpoint's state, which is compared by its digest, and in the header's.
    var changed = lines
    changed[3] = lines[3].replacingOccurrences(of: #""pin":"#, with: "\"pin\u{7}\":1,\"pin\":")
    #expect(
      try error(replaying: changed)?.hasPrefix(
        "Line 4: invalid JSON: a control character (byte 7) in a string at state, at column")
        == true)
    changed = lines
    changed[0] = adding("[\"\u{1F}\"]", to: lines[0])
    #expect(
      try error(replaying: changed)?.contains("a control character (byte 31) in a string at zz[0]")
        == true)
  }

  @Test func whitespaceBetweenTokensIsNotAControlCharacter() throws {
    let lines = try recordedLines()
    var changed = lines
    changed[1] =
      "\t" + adding("[1,\t\r\"tab\\t\"]", to: lines[1]).replacingOccurrences(of: ",", with: ",\t")
    #expect(try error(replaying: changed) == nil)
  }

  /// A number cut short or with a leading zero is named at its place; one that runs on
  /// (`1.2.3`) where it runs on, by its column.
  @Test(arguments: [
    ("-", true), ("1.", true), ("1e", true), ("1e+", true), ("1.5E-", true), ("--1", true),
    ("00", true), ("007", true), ("01.5", true), ("-01", true), ("1.2.3", false),
    ("1e5e", false), ("1e5.0", false), ("1-2", false), ("2+", false),
  ])
  func aNumberJSONDoesNotHaveIsRefusedWhereNoTypeReadsIt(_ number: String, namesPlace: Bool)
    throws
  {
    let lines = try recordedLines()
    for (index, place) in [(1, "zz"), (3, "zz"), (0, "zz[1]")] {
      var changed = lines
      changed[index] = adding(index == 0 ? "[0,\(number)]" : number, to: lines[index])
      let message = try error(replaying: changed) ?? "no error"
      let header = index == 0 ? "not a valid log header: " : ""
      #expect(
        message.hasPrefix("Line \(index + 1): \(header)invalid JSON: "), "\(number): \(message)")
      #expect(message.contains(" at column "), "\(number): \(message)")
      if namesPlace {
        #expect(message.contains(" at \(place)"), "\(number): \(message)")
      }
    }
  }

  @Test(arguments: ["-0", "0", "0.0", "1E5", "1e+5", "-1.5e-3", "123456789012345678901234567890"])
  func aNumberJSONHasPassesWhereNoTypeReadsIt(_ number: String) throws {
    let lines = try recordedLines()
    var changed = lines
    changed[1] = adding("[\(number),{\"n\":\(number)}]", to: lines[1])
    #expect(try error(replaying: changed) == nil)
  }

  @Test func theScannerNamesTheProblemsAsTheStrictCheckDoes() {
    func problem(_ json: String) -> DuplicateKeyScanner.Problem? {
      var scanner = DuplicateKeyScanner()
      return scanner.firstProblem(in: Data(json.utf8))
    }
    #expect(problem(#"{"a":01}"#) == .invalidJSON("a number with a leading zero at a, at column 6"))
    #expect(
      problem("{\"a\":[\"x\u{2}\"]}")
        == .invalidJSON("a control character (byte 2) in a string at a[0], at column 9"))
    #expect(
      problem("{\"a\u{2}\":1}")
        == .invalidJSON("a control character (byte 2) in a string, at column 4"))
    #expect(problem(#"{"a":[1,2.5e3,-0]}"#) == nil)
    // Strings before the first control byte are not looked into; one after it still is.
    #expect(
      problem("{\"a\":\"ok\",\t\"b\":\"x\u{3}\"}")
        == .invalidJSON("a control character (byte 3) in a string at b, at column 18"))
  }

  /// Every start of every line of a log, as its last line without a newline, is a recording
  /// cut off; none is called damage.
  @Test func everyStartOfALineIsACut() throws {
    let lines = try recordedLines()
    let wide =
      #"{"a":[true,false,null,-1.5e-3,0,1E+2,"é\u00e9\ud83d\ude00\n\\\"😀",{},[]],"b":{"c":""}}"#
    var checked = 0
    // A first line may start with a byte order mark, a cut one too.
    for (line, isFirst) in lines.map({ ($0, false) }) + [
      (wide, false), ("\u{FEFF}" + lines[0], true),
    ] {
      let bytes = Array(line.utf8)
      for end in 1..<bytes.count {
        let cut = ActionLogReplayer<Tally>.cutOff(Data(bytes[..<end]), isFirstLine: isFirst)
        #expect(cut.damage == nil, "\(String(decoding: bytes[..<end], as: UTF8.self))")
        checked += 1
      }
    }
    #expect(checked > 500)
    // Only there.
    let marked = Data("\u{FEFF}{\"kind\"".utf8)
    #expect(
      ActionLogReplayer<Tally>.cutOff(marked, isFirstLine: false).damage
        == "a log line is a JSON object, and this one starts with byte 239")
  }

  @Test(arguments: ["x", "}", " {", "]", ",", "\"a\""])
  func aWholeLineWithTextAfterItIsDamageNotACut(_ extra: String) throws {
    let lines = try recordedLines()
    for index in [1, lines.count - 2, lines.count - 1] {
      let text = lines[..<index].map { $0 + "\n" }.joined() + lines[index] + extra
      guard case .failure(.malformedLine(let line, let reason)) = try replay(Array(text.utf8))
      else {
        Issue.record("line \(index + 1) with \(extra) after it was not refused")
        continue
      }
      #expect(line == index + 1)
      #expect(
        reason.hasPrefix("invalid JSON: text after the end of the JSON value, at column"),
        "\(reason)")
      #expect(
        reason.hasSuffix(
          "It is the last line and has no newline, but it is not a line cut short (a recording cut off while writing a line leaves the start of a JSON object), so the log was damaged."
        ), "\(reason)")
    }
  }

  @Test(arguments: [
    ("hello", "a log line is a JSON object, and this one starts with \"h\""),
    ("[1,", "a log line is a JSON object, and this one starts with \"[\""),
    (#"{"seq":00"#, "a number with a leading zero at seq, at column 8"),
    (#"{"seq":1]"#, "expected \",\" or \"}\", found \"]\" at column 9"),
    (#"{"kind" "action""#, "expected \":\" after the key \"kind\", found \"\"\" at column 9"),
    (#"{"a":"\x"#, "an invalid escape in a string at a, at column 7"),
    (#"{"a":nulL"#, "expected a value at a, found \"n\" at column 6"),
  ])
  func aLastLineThatNoCutLeavesIsDamage(_ last: String, _ problem: String) throws {
    let lines = try recordedLines()
    let text = lines[..<3].map { $0 + "\n" }.joined() + last
    guard case .failure(.malformedLine(4, let reason)) = try replay(Array(text.utf8)) else {
      Issue.record("\(last) was not refused as line 4")
      return
    }
    #expect(reason.hasPrefix("invalid JSON: \(problem). It is the last line"), "\(reason)")
  }

  @Test func zeroBytesAfterACutAreACrashNotDamage() throws {
    let lines = try recordedLines()
    let start = Array(lines[..<3].map { $0 + "\n" }.joined().utf8)
    let cut = Array(lines[3].utf8.prefix(40))
    for tail in [cut + [UInt8](repeating: 0, count: 4096), [0, 0, 0]] {
      guard case .success(let warnings) = try replay(start + tail) else {
        Issue.record("a cut ending in zeros was refused")
        continue
      }
      let count = tail.count { $0 == 0 }
      #expect(
        warnings == [
          """
          Line 4: incomplete (the recording was cut off while writing it); replayed the 3 \
          complete lines before it. It ends in \(count) zero bytes, as a file can after a \
          crash, when its size reached the disk before its data.
          """
        ])
    }
  }

  /// A whole last line without its newline was called cut off, and skipped with a warning,
  /// when a string in it held a high surrogate followed by an escape that is not its pair
  /// (JSON allows it; the reader that tells whole lines from cut ones refused it): a final
  /// checkpoint there that did not match was never checked (the log hunt).
  @Test(arguments: [#""\ud800\u0041""#, #""\ud800\ud800\udc00""#, #""\udbff\n""#])
  func aLoneHighSurrogateDoesNotMakeAWholeLastLineACut(_ field: String) throws {
    let lines = try recordedLines()
    let final = adding(field, to: try #require(lines.last))
    let start = lines.dropLast().map { $0 + "\n" }.joined()
    #expect(try replay(Array((start + final).utf8)) == .success([]))
    let tampered = final.replacing(/"digest":"[0-9a-f]+"/, with: #""digest":"0000000000000000""#)
    #expect(tampered != final)
    guard case .failure(let error) = try replay(Array((start + tampered).utf8)) else {
      Issue.record("a final checkpoint that does not match replayed")
      return
    }
    #expect("\(error)".contains("checkpoint"), "\(error)")
  }

  /// A header cut off as it was written, ending in zero bytes or inside a character, was
  /// refused for its encoding (a NUL byte, with a hint about UTF-16); it is said to be cut
  /// off, as a header cut elsewhere and any other line are (the log hunt).
  @Test func aHeaderCutOffInACharacterOrBeforeZerosIsSaidToBeCutOff() throws {
    let store = Store(initialState: Tally.State(names: ["Café"])) { Tally() }
    let file = directory.appendingPathComponent("\(UUID().uuidString).jsonl").path
    try store.recordActions(to: file, feature: "Tally").finish()
    let header = try #require(
      try Data(contentsOf: URL(fileURLWithPath: file)).split(separator: 10).first)
    let insideÉ = try #require(header.firstIndex(of: 0xC3)) + 1
    for (cut, zeros) in [
      (Data(header.prefix(100)), 3), (Data(header[..<insideÉ]), 0), (Data(header[..<insideÉ]), 5),
    ] {
      guard
        case .failure(.badHeader(1, let reason)) = try replay(
          Array(cut) + Array(repeating: 0, count: zeros))
      else {
        Issue.record("a cut header was not refused as one")
        continue
      }
      #expect(reason.contains("the recording was cut off while writing its header"), "\(reason)")
      #expect(!reason.contains("NUL") && !reason.contains("UTF-8"), "\(reason)")
      #expect(reason.contains("\(zeros) zero bytes") == (zeros > 0), "\(reason)")
    }
  }

  @Test func aByteOrderMarkAfterBlankLinesIsRefused() throws {
    let lines = try recordedLines()
    var changed = lines
    changed[0] = "\u{FEFF}" + lines[0]
    #expect(try error(replaying: changed) == nil)
    #expect(
      try error(replaying: ["", " "] + changed)
        == """
        Line 3: not a valid log header: a byte order mark (U+FEFF) at column 1: only a log's \
        first line may start with one (two files joined into one?).
        """)
  }

  @Test func linesEndedByCarriageReturnsAloneAreSaidToBe() throws {
    let lines = try recordedLines()
    let text = lines.joined(separator: "\r") + "\r"
    guard case .failure(.badHeader(1, let reason)) = try replay(Array(text.utf8)) else {
      Issue.record("a log of carriage returns was not refused at its header")
      return
    }
    #expect(
      reason.hasPrefix("invalid JSON: text after the end of the JSON value, at column"), "\(reason)"
    )
    #expect(!reason.contains("cut off"), "\(reason)")
    #expect(
      reason.hasSuffix(
        """
        The line holds a carriage return followed by "{": its lines seem to end in carriage \
        returns alone, and a log's lines end in a newline (LF, with or without a carriage \
        return before it).
        """), "\(reason)")
  }

  /// Foundation's message for a value its type refuses does not show the value.
  @Test func aRefusedValueIsShownWhenTheTypesMessageDoesNotShowIt() throws {
    typealias Echo = ReplayShortcutDifferentialTests.Echo<UUID>
    let file = directory.appendingPathComponent("\(UUID().uuidString).jsonl").path
    let store = Store(initialState: Echo.State()) { Echo() }
    let recorder = try store.recordActions(to: file, feature: "Echo", time: { 0 })
    store.send(UUID(uuidString: "00000000-0000-0000-0000-000000000001")!)
    try recorder.finish()
    let text = try String(contentsOfFile: file, encoding: .utf8)
      .replacingOccurrences(of: "00000000-0000-0000-0000-000000000001", with: #"not-a-\u001Buuid"#)
    try Data(text.utf8).write(to: URL(fileURLWithPath: file))
    #expect {
      try ActionLogReplayer(feature: "Echo") { Echo() }.replay(path: file)
    } throws: { error in
      "\(error)".hasPrefix(#"Line 2: invalid value "not-a-\u{1B}uuid" at action: "#)
    }
  }
}
