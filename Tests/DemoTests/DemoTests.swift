import Foundation
import Testing

@testable import demo

/// The demo's command line, through `Demo.run`: each command's exit code, and the
/// determinism of what `record` writes.
@MainActor
@Suite final class DemoTests {
  let directory: URL = {
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("demo-tests-\(UUID().uuidString)")
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }()

  /// Each test runs on a fresh instance of the suite, so each removes its own directory.
  deinit { try? FileManager.default.removeItem(at: directory) }

  /// The log the demo bundles, found from this file's place in the package.
  static let samplePath = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent()  // DemoTests
    .deletingLastPathComponent()  // Tests
    .deletingLastPathComponent()  // the package root
    .appendingPathComponent("Sources/demo/Resources/sample-session.jsonl").path

  func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

  func run(_ arguments: [String]) async -> Int32 {
    await Demo.run(arguments, output: Output())
  }

  /// Writes the bundled sample with `transform` applied to its text, returning the new path.
  func sample(_ name: String, transform: (String) -> String) throws -> String {
    let text = try String(contentsOfFile: Self.samplePath, encoding: .utf8)
    let changed = transform(text)
    #expect(changed != text, "the change to the sample did not apply")
    let file = path(name)
    try Data(changed.utf8).write(to: URL(fileURLWithPath: file))
    return file
  }

  // MARK: - Usage

  @Test func noArgumentsReplaysTheBundledSample() async {
    #expect(await run([]) == 0)
  }

  @Test(arguments: [
    ["--help"], ["-h"], ["help"], ["record", "--help"], ["replay", "--help"], ["verify", "-h"],
  ])
  func helpExitsWithZero(arguments: [String]) async {
    #expect(await run(arguments) == 0)
  }

  /// `demo help replay` printed the main usage, ignoring the command it was asked about, and
  /// `demo help bogus` exited with 0 (the log hunt): it shows that command's usage, as
  /// `demo replay --help` does, and refuses what names no command.
  @Test func helpForACommandShowsThatCommandsUsage() async {
    for (arguments, usage) in [
      (["help", "record"], Usage.record), (["help", "replay"], Usage.replay),
      (["--help", "verify"], Usage.verify), (["-h"], Usage.main),
    ] {
      let output = Output(capturing: true)
      #expect(await Demo.run(arguments, output: output) == 0)
      #expect(output.captured == [usage], "\(arguments)")
    }
    for (arguments, message) in [
      (["help", "bogus"], #"demo: unknown command "bogus"."#),
      (["help", "replay", "x"], #"demo: unexpected argument "x"."#),
    ] {
      let output = Output(capturing: true)
      #expect(await Demo.run(arguments, output: output) == 2)
      #expect(output.captured?.first?.hasPrefix(message) == true, "\(output.captured ?? [])")
    }
  }

  /// Help on help is the main usage, as `demo replay --help --help` is replay's: it said
  /// "unknown command "help"" (or "--help") and exited with 2, though `help` is one. An
  /// option after `help` is named an option, as it is where the command goes.
  @Test func helpOnHelpShowsTheMainUsage() async {
    for arguments in [
      ["help", "help"], ["help", "--help"], ["help", "-h"], ["--help", "--help"],
    ] {
      let output = Output(capturing: true)
      #expect(await Demo.run(arguments, output: output) == 0, "\(arguments)")
      #expect(output.captured == [Usage.main], "\(arguments)")
    }
    // Help asked for twice, after the command too (the second reviewer): that command's.
    for arguments in [["help", "replay", "--help"], ["-h", "verify", "-h"]] {
      let output = Output(capturing: true)
      #expect(await Demo.run(arguments, output: output) == 0, "\(arguments)")
      #expect(output.captured?.first?.hasPrefix("USAGE: demo") == true, "\(arguments)")
      #expect(output.captured != [Usage.main], "\(arguments)")
    }
    let output = Output(capturing: true)
    #expect(await Demo.run(["help", "--version"], output: output) == 2)
    #expect(
      output.captured?.first?.hasPrefix(#"demo: unknown option "--version"."#) == true,
      "\(output.captured ?? [])")
  }

  @Test(arguments: [
    ["bogus"], ["replay"], ["verify"], ["replay", "a.jsonl", "--until"],
    ["record", "--sessions", "0"], ["record", "--out"],
    ["replay", "a.jsonl", "--until", "3", "--until", "4"],
    ["replay", "a.jsonl", "--quiet", "--quiet"],
    ["record", "--out", "a.jsonl", "--out", "b.jsonl"],
    ["record", "--sessions", "1", "--sessions", "2"],
  ])
  func badUsageExitsWithTwo(arguments: [String]) async {
    #expect(await run(arguments) == 2)
  }

  @Test func replayOfAnEndlessLineStopsAtTheLimitAndExitsWithTwo() async {
    #expect(await run(["replay", "/dev/zero"]) == 2)
  }

  @Test func aRepeatedOptionIsRefusedNamingIt() async {
    let output = Output(capturing: true)
    #expect(
      await Demo.run(["replay", "a.jsonl", "--until", "3", "--until", "4"], output: output) == 2)
    #expect(output.captured?.first?.hasPrefix("demo: --until is given twice.") == true)
  }

  /// `verify f --until 3` said "expected exactly one FILE"; `verify --complete --complete f`
  /// was accepted; `record -- ...` refused the `--` (log adversary trial). A misspelt option
  /// given twice was called repeated, not unknown; `record FILE` did not say where a FILE
  /// goes (a review).
  @Test(arguments: [
    (["verify", "a.jsonl", "--until", "3"], #"demo: unknown option "--until"."#),
    (["verify", "a.jsonl", "--quiet"], #"demo: unknown option "--quiet"."#),
    (["verify", "--complete", "--complete", "a.jsonl"], "demo: --complete is given twice."),
    (["replay", "a.jsonl", "--complete"], #"demo: unknown option "--complete"."#),
    (["record", "--until", "3"], #"demo: unknown option "--until"."#),
    (
      ["record", "--", "x.jsonl"],
      #"demo: unexpected argument "x.jsonl": record writes to --out FILE."#
    ),
    (["record", "x.jsonl"], #"demo: unexpected argument "x.jsonl": record writes to --out FILE."#),
    (["verify", "--compelte", "--compelte", "a.jsonl"], #"demo: unknown option "--compelte"."#),
    (["record", "--seshions", "2", "--seshions"], #"demo: unknown option "--seshions"."#),
    (["record", "--sessions", "2", "--sessions", "3"], "demo: --sessions is given twice."),
    // Command-line text is escaped as a log's is, so it cannot reach the terminal raw.
    (["\u{1B}[31mred"], #"demo: unknown command "\u{1B}[31mred"."#),
    // An option where the command goes is named an option (the log hunt).
    (["--version"], #"demo: unknown option "--version"."#),
    (["-x", "replay"], #"demo: unknown option "-x"."#),
    (["replay", "--\u{7}"], #"demo: unknown option "--\u{7}"."#),
    (["verify", "a.jsonl", "b\u{1B}"], #"demo: unexpected argument "b\u{1B}"."#),
  ])
  func aMistakenCommandLineIsNamedForWhatItIs(arguments: [String], message: String) async {
    let output = Output(capturing: true)
    #expect(await Demo.run(arguments, output: output) == 2)
    #expect(output.captured?.first?.hasPrefix(message) == true, "\(output.captured ?? [])")
  }

  /// `--sessions` had no bound but `Int.max`: a huge count ran on until the disk was full.
  /// It takes at most `RecordCommand.maximumSessions` (100,000) now.
  @Test(arguments: [
    (
      ["record", "--sessions", "99999999999999999999"], "--sessions 99999999999999999999",
      "100000"
    ),
    (["record", "--sessions", "100001"], "--sessions 100001", "100000"),
    (
      ["record", "--sessions", "9223372036854775807"], "--sessions 9223372036854775807",
      "100000"
    ),
    (
      ["replay", "a.jsonl", "--until", "99999999999999999999"], "--until 99999999999999999999",
      "9223372036854775807"
    ),
  ])
  func aNumberTooLargeForAnOptionIsRefusedNamingTheLargest(
    arguments: [String], option: String, largest: String
  ) async {
    let output = Output(capturing: true)
    #expect(await Demo.run(arguments, output: output) == 2)
    #expect(
      output.captured?.first?.hasPrefix(
        "demo: \(option) is too large: the largest is \(largest).") == true,
      "\(output.captured ?? [])")
  }

  /// The largest count of sessions is taken, and the record command's help names it.
  @Test func theLargestCountOfSessionsIsTakenAndNamed() throws {
    #expect(try RecordCommand.parse(["--sessions", "100000"]).sessions == 100_000)
    #expect(throws: UsageError.self) { try RecordCommand.parse(["--sessions", "100001"]) }
    #expect(Usage.record.contains("at most 100000"), "\(Usage.record)")
  }

  /// A number that fits but is below the least was called too large (review); a value that
  /// is not a number was not quoted (fuzzing trial).
  @Test(arguments: [
    (
      ["record", "--sessions", "0"],
      #"--sessions needs a count of sessions, a whole number from 1 up: "0" is not one."#
    ),
    (
      ["record", "--sessions", "abc"],
      #"--sessions needs a count of sessions, a whole number from 1 up: "abc" is not one."#
    ),
    (["record", "--sessions"], "--sessions needs a count of sessions."),
    (
      ["replay", "a.jsonl", "--until", "-1"],
      #"--until needs a sequence number, a whole number from 0 up: "-1" is not one."#
    ),
    (
      ["replay", "a.jsonl", "--until", "1.5"],
      #"--until needs a sequence number, a whole number from 0 up: "1.5" is not one."#
    ),
    (
      ["replay", "a.jsonl", "--until", ""],
      #"--until needs a sequence number, a whole number from 0 up: "" is not one."#
    ),
    (["replay", "a.jsonl", "--until"], "--until needs a sequence number."),
    (
      ["record", "--out", "-x"],
      #"--out needs a FILE, and "-x" starts with "-", as options do: to record to a file whose name starts with "-", write it as "./-x"."#
    ),
    (["record", "--out"], "--out needs a FILE."),
  ])
  func anOptionsValueThatDoesNotDoIsQuotedWithWhatItNeeds(arguments: [String], message: String)
    async
  {
    let output = Output(capturing: true)
    #expect(await Demo.run(arguments, output: output) == 2)
    // The message, then the command's usage. (Typed step by step: as one expression, it
    // took over a second to type-check.)
    let captured: [String] = output.captured ?? []
    let first: String = captured.first ?? ""
    let line = String(first.prefix { $0 != "\n" })
    #expect(line == "demo: " + message, "\(captured)")
  }

  @Test func doubleDashEndsTheOptionsOfReplayAndVerify() async throws {
    #expect(await run(["replay", "--", Self.samplePath]) == 0)
    #expect(await run(["replay", "--quiet", "--", Self.samplePath]) == 0)
    #expect(await run(["verify", "--", Self.samplePath]) == 0)
    // After it, a name that starts with "-" is FILE, not an option, and there is one FILE.
    #expect(try ReplayCommand.parse(["--until", "3", "--", "-h"]).path == "-h")
    #expect(try ReplayCommand.parse(["--", "--quiet"]).isQuiet == false)
    #expect(try VerifyCommand.parse(["--", "--help"]).path == "--help")
    #expect(await run(["replay", "--", Self.samplePath, "--quiet"]) == 2)
    #expect(await run(["verify", Self.samplePath, "--", Self.samplePath]) == 2)
  }

  /// `demo -- replay FILE` was refused as an unknown option "--", though every command takes
  /// `--` as the end of its options: before the command it ends `demo`'s own, and the word
  /// after it is the command, even one that starts with "-".
  @Test func doubleDashBeforeTheCommandEndsTheOptionsOfDemo() async {
    #expect(await run(["--", "replay", "--quiet", Self.samplePath]) == 0)
    #expect(await run(["--", "verify", "--", Self.samplePath]) == 0)
    #expect(await run(["--", "help", "replay"]) == 0)
    // Nothing after it: no command, as with no argument at all.
    #expect(await run(["--"]) == 0)
    for (arguments, message) in [
      (["--", "--help"], #"demo: unknown command "--help"."#),
      (["--", "-x"], #"demo: unknown command "-x"."#),
      (["--", "--", "replay"], #"demo: unknown command "--"."#),
      (["--", "replay", "--bogus"], #"demo: unknown option "--bogus"."#),
    ] {
      let output = Output(capturing: true)
      #expect(await Demo.run(arguments, output: output) == 2)
      let first: String = output.captured?.first ?? ""
      #expect(first.hasPrefix(message + "\n"), "\(arguments): \(first)")
    }
  }

  /// `demo help -- replay` was refused as an unknown option "--", and `demo help replay --`
  /// as an unexpected argument, though `--` ends the options of every command and of `demo`
  /// itself: help takes it too.
  @Test func doubleDashEndsTheOptionsOfHelp() async {
    for arguments in [
      ["help", "--", "replay"], ["help", "replay", "--"], ["--help", "--", "replay"],
      ["--", "help", "--", "replay"],
    ] {
      let output = Output(capturing: true)
      #expect(await Demo.run(arguments, output: output) == 0, "\(arguments)")
      #expect(output.captured == [Usage.replay], "\(arguments)")
    }
    let output = Output(capturing: true)
    #expect(await Demo.run(["help", "--"], output: output) == 0)
    #expect(output.captured == [Usage.main])
  }

  @Test func replayOfAMissingFileExitsWithTwo() async {
    #expect(await run(["replay", path("missing.jsonl")]) == 2)
  }

  // MARK: - Replay and verify

  @Test func theBundledSampleIsFoundNextToTheExecutableAndMissingIsNotACrash() throws {
    let found = try #require(Demo.bundledSamplePath())
    #expect(
      try String(contentsOfFile: found, encoding: .utf8)
        == String(contentsOfFile: Self.samplePath, encoding: .utf8))
    // A binary copied without its resource bundle: no sample, reported by the caller.
    #expect(Demo.bundledSamplePath(in: [directory]) == nil)
  }

  @Test func verifyOfTheBundledSampleSucceeds() async {
    #expect(await run(["verify", Self.samplePath]) == 0)
  }

  @Test func verifyOfALogWithNoCheckpointSaysNothingWasCompared() async throws {
    let file = try sample("no-checkpoints.jsonl") {
      $0.split(separator: "\n").filter { !$0.contains(#""kind":"checkpoint""#) }
        .joined(separator: "\n") + "\n"
    }
    let output = Output(capturing: true)
    #expect(await Demo.run(["verify", file], output: output) == 0)
    #expect(output.captured?.last?.hasPrefix("OK, but nothing was verified") == true)
    #expect(output.captured?.contains { $0.contains("all 0 checkpoint(s) matched") } == false)
  }

  @Test func replayCanStopAfterASequenceNumber() async {
    #expect(await run(["replay", Self.samplePath, "--until", "5"]) == 0)
  }

  @Test func verifyExitsWithOneWhenACheckpointsDigestWasAltered() async throws {
    let file = try sample("altered-digest.jsonl") {
      $0.replacingOccurrences(
        of: #""digest":"[0-9a-f]{16}""#, with: #""digest":"0000000000000000""#,
        options: .regularExpression)
    }
    #expect(await run(["verify", file]) == 1)
  }

  @Test func verifyExitsWithOneWhenAnActionNoLongerLeadsToTheCheckpoint() async throws {
    let file = try sample("altered-action.jsonl") {
      $0.replacingOccurrences(
        of: #"{"quantityStepped":{"by":1}}"#, with: #"{"quantityStepped":{"by":2}}"#)
    }
    #expect(await run(["verify", file]) == 1)
  }

  @Test func garbageAfterTheFinalCheckpointExitsWithTwo() async throws {
    let file = try sample("garbage-after-final.jsonl") { $0 + #"{"action":{"acc"# }
    #expect(await run(["replay", file]) == 2)
    #expect(await run(["verify", file]) == 2)
  }

  /// A log is input: text in it that a terminal would act on (escape sequences, a carriage
  /// return, a newline that starts a fake line of the timeline) is printed escaped.
  @Test func textFromTheLogIsPrintedEscapedInTheTimelineAndInErrors() async throws {
    let header = try String(contentsOfFile: Self.samplePath, encoding: .utf8)
      .split(separator: "\n")[0]
    func log(_ name: String, action: String) throws -> String {
      let file = path(name)
      let line = #"{"action":{"cart":{"_0":\#(action)}},"kind":"action","origin":"user","seq":1}"#
      try Data("\(header)\n\(line)\n".utf8).write(to: URL(fileURLWithPath: file))
      return file
    }
    func hasControlCharacters(_ lines: [String]) -> Bool {
      lines.joined().unicodeScalars.contains { $0.properties.generalCategory == .control }
    }
    let name = #"Tea\u001b[31mRED\u001b]0;pwned\u0007\r\nfake line #99 user\u0085\u007f\"\\"#
    let output = Output(capturing: true)
    let tea = try log("tea.jsonl", action: #"{"addItemTapped":{"name":"\#(name)"}}"#)
    #expect(await Demo.run(["replay", tea], output: output) == 0)
    #expect(
      output.captured?.first
        == #"#    1  user    cart.addItemTapped(name: "Tea\u{1B}[31mRED\u{1B}]0;pwned\u{7}\r\nfake line #99 user\u{85}\u{7F}\"\\")"#
    )
    #expect(!hasControlCharacters(output.captured ?? []))

    let errors = Output(capturing: true)
    let unknown = try log("unknown.jsonl", action: #"{"expl\u001b[31mode\nLine 9: fake":{}}"#)
    #expect(await Demo.run(["replay", unknown], output: errors) == 2)
    #expect(
      errors.captured
        == [
          #"demo: \#(unknown): Line 2: "expl\u{1B}[31mode\nLine 9: fake" is not a case of Cart.Action at action.cart._0."#
        ])
  }

  // MARK: - Record

  @Test func aRecordedLogVerifies() async {
    let file = path("recorded.jsonl")
    #expect(await run(["record", "--out", file]) == 0)
    #expect(await run(["verify", file]) == 0)
  }

  /// A scripted session that threw left its log without the final checkpoint, reading as
  /// cut short, and the error came out bare: the log ends with a checkpoint of the state the
  /// session failed in and a line marking the recording as stopped, naming the failure, and
  /// the error says where the log stands.
  @Test func aSessionThatFailsEndsItsLogWithACheckpointAndAStopLine() async throws {
    let file = path("failed.jsonl")
    var command = RecordCommand(path: file)
    command.script = { store, settle in
      store.send(.account(.usernameChanged("ada")))
      store.send(.account(.passwordChanged("secret")))
      settle()
      throw ScriptError.unexpected("a cart that is not there")
    }
    let output = Output(capturing: true)
    // Thrown on, the error left the log as it stood: read on to see how it ends.
    let code = try? command.run(output: output)
    #expect(code == 2)
    let message = output.captured?.first ?? ""
    #expect(
      message.hasPrefix(
        """
        demo: the session failed after action 2: the scripted session expected a cart that is \
        not there.
        The log at
        """), "\(message)")
    let lines = try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n")
    #expect(lines.count == 5, "header, 2 actions, a checkpoint, the stop line: \(lines.count)")
    let checkpoint = lines.count == 5 ? String(lines[3]) : ""
    #expect(checkpoint.contains(#""kind":"checkpoint""#) && checkpoint.contains(#""seq":2"#))
    #expect(!checkpoint.contains(#""final""#))
    let stop = lines.last.map(String.init) ?? ""
    #expect(stop.contains(#""kind":"stopped""#) && stop.contains(#""seq":2"#))
    #expect(stop.contains("the scripted session failed: the scripted session expected a cart"))
    let report = try SampleApp.replayer.replay(path: file) { _ in }
    #expect(report.recordingStoppedAfter == 2)
    #expect(report.checkpointsVerified == 1)
    #expect(!report.isComplete)
    // A whole session is not claimed.
    #expect(await run(["verify", "--complete", file]) == 3)
  }

  /// The failure of a later session is named with its number; the error is printed as the
  /// stop line holds it, escaped and cut; a session that failed before any action does not
  /// claim a checkpoint.
  @Test func aFailedSessionsMessageNamesTheSessionAndEscapesTheError() throws {
    struct Odd: Error, CustomStringConvertible {
      var description: String { "\u{1B}[31mred\nline " + String(repeating: "x", count: 5000) }
    }
    let file = path("failed-later.jsonl")
    var command = RecordCommand(path: file, sessions: 3)
    var runs = 0
    command.script = { store, settle in
      runs += 1
      store.send(.account(.usernameChanged("ada")))
      settle()
      if runs == 2 { throw Odd() }
    }
    let output = Output(capturing: true)
    #expect(try command.run(output: output) == 2)
    let message = output.captured?.first ?? ""
    let start = #"demo: session 2 of 3 failed after action 2: \u{1B}[31mred\nline x"#
    let isEscaped = !message.contains("\u{1B}") && !message.contains("xxxx\nThe")
    let isCut = message.contains("x… (5014 characters)\nThe log at")
    let end = """
      a checkpoint of the state the session failed in, and a last line saying that the \
      recording stopped, and why.
      """
    #expect(message.hasPrefix(start), "\(message.prefix(200))")
    #expect(isEscaped && isCut && message.hasSuffix(end), "\(message.suffix(300))")

    let empty = path("failed-at-once.jsonl")
    var first = RecordCommand(path: empty)
    first.script = { _, _ in throw ScriptError.unexpected("nothing") }
    let quiet = Output(capturing: true)
    #expect(try first.run(output: quiet) == 2)
    let said = quiet.captured?.first ?? ""
    #expect(said.hasPrefix("demo: the session failed after action 0: "), "\(said)")
    #expect(said.contains("holds no action") && !said.contains("checkpoint"), "\(said)")
  }

  @Test func recordingToADeviceWritesThroughItAndLeavesItAsItWas() async throws {
    let before = try FileManager.default.attributesOfItem(atPath: "/dev/null")
    #expect(await run(["record", "--out", "/dev/null"]) == 0)
    let after = try FileManager.default.attributesOfItem(atPath: "/dev/null")
    #expect(after[.posixPermissions] as? NSNumber == before[.posixPermissions] as? NSNumber)
    #expect(after[.type] as? FileAttributeType == .typeCharacterSpecial)
  }

  @Test func recordingTwiceWritesTheSameBytes() async throws {
    let (first, second) = (path("first.jsonl"), path("second.jsonl"))
    #expect(await run(["record", "--out", first, "--sessions", "2"]) == 0)
    #expect(await run(["record", "--out", second, "--sessions", "2"]) == 0)
    let firstBytes = try Data(contentsOf: URL(fileURLWithPath: first))
    #expect(!firstBytes.isEmpty)
    #expect(firstBytes == (try Data(contentsOf: URL(fileURLWithPath: second))))
  }

  /// The second session was signed in and in the background already: its sign-in was
  /// ignored, its rename changed nothing and its leaving lost no focus (a review).
  @Test func everySessionOfALongRecordingRunsTheWholeScript() async throws {
    let file = path("three.jsonl")
    #expect(await run(["record", "--out", file, "--sessions", "3"]) == 0)
    var signIns = 0
    var renames = 0
    var focusLosses = 0
    var checkouts = 0
    let report = try SampleApp.replayer.replay(path: file) { step in
      switch step.action {
      case .account(.signInSucceeded): signIns += 1
      case .account(.lifecycle(.lostFocus)): focusLosses += 1
      case .cart(.checkoutSucceeded): checkouts += 1
      case .cart(.titleEditor(.presented(.delegate(.saved)))):
        if step.stateBefore.cart.title != step.stateAfter.cart.title { renames += 1 }
      default: break
      }
    }
    #expect(report.isComplete)
    #expect([signIns, renames, focusLosses, checkouts] == [Int](repeating: 3, count: 4))
    // The first session is the bundled sample, action for action.
    let sample = try SampleApp.replayer.replay(path: Self.samplePath, until: 37)
    let start = try SampleApp.replayer.replay(path: file, until: 37)
    #expect(sample.finalState == start.finalState)
    #expect(sample.actionCount == 37)
  }
}
