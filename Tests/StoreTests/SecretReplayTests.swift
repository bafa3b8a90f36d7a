import Effects
import Foundation
import Testing

@testable import Store

/// A log holds a secret only as its placeholder, so a replay has an empty secret: a
/// divergence names the actions that carried one, and a secret written into a log in plain
/// text is used and warned about rather than dropped.
@MainActor
@Suite final class SecretReplayTests {
  let directory = TemporaryDirectory("secret-replay-tests")

  /// A lock whose reducer (wrongly) branches on the PIN's value.
  struct Lock: Reducer {
    struct State: Equatable, Codable {
      var pin: Secret<String> = ""
      var isUnlocked = false
    }

    enum Action: Equatable, Codable, Sendable {
      case pinChanged(Secret<String>)
      case unlockTapped
    }

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .pinChanged(let pin): state.pin = pin
      case .unlockTapped: state.isUnlocked = !state.pin.value.isEmpty
      }
      return .none
    }
  }

  func record(
    _ actions: [Lock.Action], from state: Lock.State = Lock.State(), interval: Int = 100
  ) throws -> String {
    let store = Store(initialState: state) { Lock() }
    let file = directory.path("\(UUID().uuidString).jsonl")
    let recorder = try store.recordActions(
      to: file, feature: "Lock", checkpointInterval: interval, time: { 0 })
    for action in actions { store.send(action) }
    try recorder.finish()
    return file
  }

  func replacing(_ old: String, with new: String, in file: String) throws {
    let text = try String(contentsOfFile: file, encoding: .utf8)
    #expect(text.contains(old))
    try Data(text.replacingOccurrences(of: old, with: new).utf8)
      .write(to: URL(fileURLWithPath: file))
  }

  @Test func aDivergenceNamesTheActionsThatCarriedASecret() throws {
    let file = try record([.pinChanged("1234"), .unlockTapped])
    do {
      _ = try ActionLogReplayer(feature: "Lock") { Lock() }.replay(path: file)
      Issue.record("the replay should diverge: its PIN is empty")
    } catch ActionLogError.diverged(_, _, let differences, _) {
      #expect(differences.first == "recorded → replayed: isUnlocked: true → false")
      #expect(
        differences.last
          == """
          since the header (line 1), actions 1 to 2 were replayed (lines 2 to 3), and each \
          decodes to what was recorded: look at what the reducer (or a dependency) does with \
          them; action 1 carried a Secret, which a log holds only as "<redacted>" and a replay \
          decodes as empty: a reducer that reads a secret's value (rather than passing it to \
          an effect) replays differently
          """, "\(differences)")
    }
  }

  @Test func aSecretInPlainTextIsUsedAndWarnedAbout() throws {
    let file = try record([.pinChanged("1234"), .unlockTapped])
    try replacing(#"{"_0":"<redacted>"}"#, with: #"{"_0":"1234"}"#, in: file)
    let report = try ActionLogReplayer(feature: "Lock") { Lock() }.replay(path: file)
    #expect(report.finalState.isUnlocked)
    #expect(report.finalState.pin.value == "1234")
    #expect(
      report.warnings == [
        """
        Line 2 (action 1): a Secret holds a value instead of the placeholder "<redacted>" \
        (`action.pinChanged._0`): the log holds a secret in plain text, which the recorder \
        never writes (a line written or edited by hand?). The replay used the value.
        """
      ])
  }

  /// A divergence lists the actions that do not round-trip, quoting them as recorded: one
  /// whose secret the log held in plain text was listed, with the secret (review).
  @Test func aDivergenceDoesNotQuoteASecretTheLogHoldsInPlainText() throws {
    let file = try record([.pinChanged("1111"), .pinChanged("2222"), .unlockTapped])
    // The first PIN written in by hand; the second stays a placeholder, so the replay diverges.
    var text = try String(contentsOfFile: file, encoding: .utf8)
    let range = try #require(text.range(of: #"{"_0":"<redacted>"}"#))
    text.replaceSubrange(range, with: #"{"_0":"hunter2"}"#)
    try Data(text.utf8).write(to: URL(fileURLWithPath: file))
    do {
      _ = try ActionLogReplayer(feature: "Lock") { Lock() }.replay(path: file)
      Issue.record("the replay should diverge")
    } catch {
      #expect(!"\(error)".contains("hunter2"), "\(error)")
      guard case ActionLogError.diverged(_, _, let differences, _) = error else {
        Issue.record("\(error)")
        return
      }
      #expect(!differences.contains { $0.contains("does not round-trip") }, "\(differences)")
      #expect(differences.last?.hasSuffix("replays differently") == true, "\(differences)")
    }
  }

  /// A checkpoint's state holds a secret as its placeholder; one written there in plain text
  /// was quoted in a divergence, as a field the replay changed (review).
  @Test func aDivergenceDoesNotQuoteASecretACheckpointHoldsInPlainText() throws {
    let file = try record([.pinChanged("1111"), .unlockTapped], interval: 1)
    try replacing(
      #""state":{"isUnlocked":true,"pin":"<redacted>"}"#,
      with: #""state":{"isUnlocked":true,"pin":"hunter2"}"#, in: file)
    do {
      _ = try ActionLogReplayer(feature: "Lock") { Lock() }.replay(path: file)
      Issue.record("the replay should diverge: its PIN is empty")
    } catch ActionLogError.diverged(_, _, let differences, _) {
      #expect(!differences.joined().contains("hunter2"), "\(differences)")
      #expect(differences.first == "recorded → replayed: isUnlocked: true → false")
      #expect(!differences.contains { $0.contains("pin") }, "\(differences)")
    }
  }

  @Test func aSecretInPlainTextInTheHeaderIsNamedThere() throws {
    var state = Lock.State()
    state.pin = "1234"
    let file = try record([], from: state)
    try replacing(#""pin":"<redacted>""#, with: #""pin":"9876""#, in: file)
    let report = try ActionLogReplayer(feature: "Lock") { Lock() }.replay(path: file)
    #expect(report.finalState.pin.value == "9876")
    #expect(report.warnings.count == 1)
    #expect(
      report.warnings.first?.hasPrefix(
        """
        Line 1 (the header's initial state): a Secret holds a value instead of the \
        placeholder "<redacted>" (`initialState.pin`)
        """) == true, "\(report.warnings)")
  }

  @Test func thePlaceholderDecodesAsAnEmptySecretAndAnyOtherValueIsKept() throws {
    let decoder = JSONDecoder()
    #expect(try decoder.decode(Secret<String>.self, from: Data(#""<redacted>""#.utf8)).value == "")
    #expect(
      try decoder.decode(Secret<String>.self, from: Data(#""hunter2""#.utf8)).value == "hunter2")
    #expect(throws: DecodingError.self) {
      try decoder.decode(Secret<String>.self, from: Data("12".utf8))
    }
  }
}
