import Effects
import Foundation
import Testing

@testable import Store

// Small leftovers in runtime warnings and the action log: the default printer's count of a
// reducer's warnings for a child's `.send` dropped because another child took its place,
// which it shared with that reducer's missing-child warnings, and optional fields of a log
// line written `null`, which read as left out.

/// A child that feeds an action back at once (`ping`).
private struct SiteEcho: Reducer {
  struct State: Equatable, Identifiable, Sendable {
    var id: Int
  }
  enum Action: Sendable, Equatable { case ping, pong }
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    action == .ping ? .send(.pong) : .none
  }
}

/// A parent whose `ifLet` child, once shown, is replaced by one with the next id at each
/// ping: the ping's `.send` is then dropped (`hide` takes the child away). A ping while no child is shown is an action for
/// a missing child. Both are warned of at the `ifLet`'s site.
private struct EchoHolder: Reducer {
  struct State: Equatable {
    var child: SiteEcho.State?
  }
  enum Action: Sendable, Equatable {
    case show
    case hide
    case child(SiteEcho.Action)
  }
  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .show: state.child = SiteEcho.State(id: 1)
      case .hide: state.child = nil
      case .child(.ping): state.child = SiteEcho.State(id: (state.child?.id ?? 0) + 1)
      case .child: break
      }
      return .none
    }
    .ifLet(\.child, action: .echoHolderChild, fileID: "Hunt/EchoHolder.swift", line: 7) {
      SiteEcho()
    }
  }
}

extension CaseKey<EchoHolder.Action, SiteEcho.Action> {
  fileprivate static var echoHolderChild: Self {
    Self(EchoHolder.Action.child) { if case .child(let a) = $0 { a } else { nil } }
  }
}

@MainActor
@Suite final class WarningAndLogLeftoversHuntTests {
  let directory = TemporaryDirectory("warning-and-log-leftovers-hunt-tests")

  // MARK: - The printer's counts at a reducer's site

  /// The lines `printingPerSite(limit: 2)` prints for the warnings of `actions`, sent one
  /// at a time to a `EchoHolder` with no child.
  private func printed(sending actions: [EchoHolder.Action]) -> [String] {
    let printed = Collected<String>()
    let handler = RuntimeWarningHandler.printingPerSite(limit: 2) { printed.append($0) }
    let harness = Harness(
      initialState: EchoHolder.State(), warnings: handler, reducer: EchoHolder())
    for action in actions { harness.send(action) }
    return printed.values
  }

  /// A flood of missing-child warnings at an `ifLet` used up the printer's count of its
  /// site: the first dropped `.send` of its child came out as the fifth warning from there,
  /// which is not printed (past the limit, only a count that is a power of two is). It is
  /// counted apart now, and printed in full.
  @Test func aFloodOfMissingChildWarningsDoesNotHideADroppedSend() {
    let lines = printed(sending: [
      .child(.ping), .child(.ping), .child(.ping), .child(.ping), .show, .child(.ping),
    ])
    // The missing child's first two, its fourth at the doubling, and the dropped send.
    #expect(lines.count == 4, "\(lines)")
    #expect(lines.allSatisfy { $0.hasPrefix("Hunt/EchoHolder.swift:7: runtime warning:") })
    #expect(lines.prefix(3).allSatisfy { $0.contains("but that child is nil") }, "\(lines)")
    let dropped = lines.last ?? ""
    #expect(dropped.contains("was dropped:"), "\(dropped)")
    #expect(!dropped.contains("warnings from here so far"), "\(dropped)")
  }

  /// And the other way: dropped sends at an `ifLet` do not hide its missing-child warnings.
  @Test func aFloodOfDroppedSendsDoesNotHideAMissingChildWarning() {
    let lines = printed(sending: [
      .show, .child(.ping), .child(.ping), .child(.ping), .child(.ping), .hide, .child(.ping),
    ])
    #expect(lines.count == 4, "\(lines)")
    #expect(lines.prefix(3).allSatisfy { $0.contains("was dropped:") }, "\(lines)")
    let missing = lines.last ?? ""
    #expect(missing.contains("but that child is nil"), "\(missing)")
    #expect(!missing.contains("warnings from here so far"), "\(missing)")
  }

  // MARK: - Optional fields written null

  /// A log of `Tally` with two actions and its final checkpoint, as recorded.
  private func recordedLines(_ name: String) throws -> [String] {
    let file = directory.path(name)
    let store = Store(initialState: Tally.State()) { Tally() }
    let recorder = try store.recordActions(to: file, feature: "Tally", time: { 0 })
    store.send(.add(1))
    store.send(.add(2))
    try recorder.finish()
    return try directory.lines(file)
  }

  /// The error replaying `lines` throws, as text, or "no error".
  private func error(replaying lines: [String], named name: String) throws -> String {
    let file = directory.path(name)
    try (lines.joined(separator: "\n") + "\n").write(
      toFile: file, atomically: true, encoding: .utf8)
    do {
      _ = try ActionLogReplayer(feature: "Tally") { Tally() }.replay(path: file)
      return "no error"
    } catch {
      return "\(error)"
    }
  }

  /// `"elementMayBeGone": null` read as `false`, as if the field were left out. It is refused
  /// as a value of another type there is, naming the line.
  @Test(arguments: [
    ("null", "Line 2: expected true or false at elementMayBeGone, found null."),
    (#""yes""#, #"Line 2: expected true or false at elementMayBeGone, found the string "yes"."#),
  ])
  func aMarkThatIsNotABooleanIsRefused(written: String, message: String) throws {
    var lines = try recordedLines("mark-\(written.count).jsonl")
    #expect(lines[1].hasPrefix("{"), "\(lines)")
    lines[1] = #"{"elementMayBeGone":\#(written),"# + lines[1].dropFirst()
    #expect(try error(replaying: lines, named: "mark-\(written.count)-edited.jsonl") == message)
  }

  /// The same for a checkpoint's `"final": null`, which read as a checkpoint that is not the
  /// last: the log replayed as one whose recording did not finish.
  @Test func aFinalMarkWrittenNullIsRefused() throws {
    var lines = try recordedLines("final.jsonl")
    let last = lines.count - 1
    #expect(lines[last].contains(#""final":true"#), "\(lines[last])")
    lines[last] = lines[last].replacingOccurrences(of: #""final":true"#, with: #""final":null"#)
    #expect(
      try error(replaying: lines, named: "final-edited.jsonl")
        == "Line \(last + 1): expected true or false at final, found null.")
  }

  /// Left out, both still mean `false`; written `false`, too.
  @Test func marksLeftOutOrFalseStillReadAsFalse() throws {
    var lines = try recordedLines("false.jsonl")
    lines[1] = #"{"elementMayBeGone":false,"# + lines[1].dropFirst()
    let file = directory.path("false-edited.jsonl")
    try (lines.joined(separator: "\n") + "\n").write(
      toFile: file, atomically: true, encoding: .utf8)
    let report = try ActionLogReplayer(feature: "Tally") { Tally() }.replay(path: file)
    #expect(report.actionCount == 2)
    #expect(report.isComplete)
    #expect(report.finalState.count == 3)
  }

  /// `"time": null` read as `0`, as if the field were left out. It is refused as the marks
  /// are, naming the line, whether the replay reads the line's fields itself or has
  /// `JSONDecoder` read the whole line.
  @Test(arguments: [false, true])
  func aTimeWrittenNullIsRefused(decodingWholeLines: Bool) throws {
    var lines = try recordedLines("time-\(decodingWholeLines).jsonl")
    #expect(lines[1].contains(#""time":0"#), "\(lines[1])")
    lines[1] = lines[1].replacingOccurrences(of: #""time":0"#, with: #""time":null"#)
    let message = try PlainActionLine.$isDisabled.withValue(decodingWholeLines) {
      try error(replaying: lines, named: "time-\(decodingWholeLines)-edited.jsonl")
    }
    #expect(message == "Line 2: expected a number at time, found null.")
  }

  /// Left out, `time` still reads as `0`, both ways.
  @Test(arguments: [false, true])
  func aTimeLeftOutStillReadsAsZero(decodingWholeLines: Bool) throws {
    var lines = try recordedLines("no-time-\(decodingWholeLines).jsonl")
    lines[1] = lines[1].replacingOccurrences(of: #","time":0"#, with: "")
    #expect(!lines[1].contains("time"), "\(lines[1])")
    let file = directory.path("no-time-\(decodingWholeLines)-edited.jsonl")
    try (lines.joined(separator: "\n") + "\n").write(
      toFile: file, atomically: true, encoding: .utf8)
    let report = try PlainActionLine.$isDisabled.withValue(decodingWholeLines) {
      try ActionLogReplayer(feature: "Tally") { Tally() }.replay(path: file)
    }
    #expect(report.actionCount == 2)
    #expect(report.isComplete)
    #expect(report.finalState.count == 3)
  }
}
