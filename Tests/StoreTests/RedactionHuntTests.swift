import Effects
import Foundation
import Testing

@testable import Store

/// A secret a log holds in plain text (written by hand) is used and warned about, but never
/// quoted: not where the value is of another JSON type than the secret's, nor where the
/// replayed state has no value to line the checkpoint's up with.
@MainActor
@Suite final class RedactionHuntTests {
  let directory = TemporaryDirectory("redaction-hunt-tests")

  /// A lock that keeps every PIN tried, and (wrongly) branches on the PIN's value.
  struct Lock: Reducer {
    /// An entry of a keypad's history: each case encodes as an object of another key.
    enum Entry: Hashable, Codable, Sendable {
      case typed(Secret<String>)
      case cleared
    }

    struct State: Equatable, Codable {
      var pin: Secret<String> = ""
      var tried: [Secret<String>] = []
      var imported = 0
      var entries: Set<Entry> = []
      var hint = ""
    }

    enum Action: Equatable, Codable, Sendable {
      case pinChanged(Secret<String>)
      case unlockTapped
      case pinsImported(Set<Secret<String>>)
      case entriesImported(Set<Entry>)
      case hintRequested
    }

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .pinChanged(let pin): state.pin = pin
      case .unlockTapped where !state.pin.value.isEmpty: state.tried.append(state.pin)
      case .unlockTapped: break
      case .pinsImported(let pins): state.imported += pins.count
      case .entriesImported(let entries): state.entries = entries
      case .hintRequested: state.hint = state.pin.value.isEmpty ? "\(state.pin)" : "PIN entered"
      }
      return .none
    }
  }

  func record(_ actions: [Lock.Action], interval: Int = 100) throws -> String {
    let store = Store(initialState: Lock.State()) { Lock() }
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

  func replayError(_ file: String) -> (any Error)? {
    do {
      _ = try ActionLogReplayer(feature: "Lock") { Lock() }.replay(path: file)
      return nil
    } catch {
      return error
    }
  }

  /// A PIN written in by hand as a number is refused (a `Secret<String>` reads a string), and
  /// the refusal said what it found: "found the number 98765".
  @Test(arguments: ["98765", "true", #"["hunter2"]"#, #"{"pin":"hunter2"}"#])
  func aSecretOfAnotherJSONTypeIsRefusedWithoutQuotingIt(value: String) throws {
    let file = try record([.pinChanged("1234")])
    try replacing(#"{"_0":"<redacted>"}"#, with: #"{"_0":\#(value)}"#, in: file)
    let error = try #require(replayError(file))
    let message = "\(error)"
    #expect(message.contains("action.pinChanged._0"), "\(message)")
    #expect(message.contains("Secret"), "\(message)")
    for secret in ["98765", "true", "hunter2"] {
      #expect(!message.contains(secret), "\(message)")
    }
  }

  @Test func aSecretOfAnotherJSONTypeInTheHeaderIsRefusedWithoutQuotingIt() throws {
    let file = try record([])
    try replacing(#""pin":"<redacted>""#, with: #""pin":98765"#, in: file)
    let error = try #require(replayError(file))
    #expect(!"\(error)".contains("98765"), "\(error)")
    #expect("\(error)".contains("initialState.pin"), "\(error)")
  }

  /// A secret written in by hand one level up, where the object or array that holds it goes
  /// (its `_0` left out; the list of tried PINs as one string): the value found was quoted
  /// ("expected a JSON object at action.pinChanged, found the string "hunter2""), the diff
  /// reviewer found. Only its kind is named now.
  @Test func aSecretWrittenWhereItsContainerGoesIsNotQuoted() throws {
    let action = try record([.pinChanged("1234")])
    try replacing(
      #""pinChanged":{"_0":"<redacted>"}"#, with: #""pinChanged":"hunter2""#, in: action)
    let actionError = "\(try #require(replayError(action)))"
    #expect(actionError.contains("expected a JSON object at action.pinChanged, found a string"))
    #expect(!actionError.contains("hunter2"), "\(actionError)")

    let header = try record([])
    try replacing(#""tried":[]"#, with: #""tried":"hunter2""#, in: header)
    let headerError = "\(try #require(replayError(header)))"
    #expect(headerError.contains("expected a JSON array at initialState.tried, found a string"))
    #expect(!headerError.contains("hunter2"), "\(headerError)")
  }

  /// A checkpoint whose PIN list holds a secret in plain text where the replayed list is
  /// empty: the recorded element was listed as removed, with the secret.
  @Test func aCheckpointsSecretWithNothingToLineUpWithIsNotQuoted() throws {
    let file = try record([.pinChanged("1111"), .unlockTapped])
    try replacing(#""tried":["<redacted>"]"#, with: #""tried":["hunter2"]"#, in: file)
    let error = try #require(replayError(file))
    guard case ActionLogError.diverged(_, _, let differences, _) = error else {
      Issue.record("\(error)")
      return
    }
    #expect(!"\(error)".contains("hunter2"), "\(error)")
    #expect(differences.first == #"recorded → replayed: tried[0] removed: "<redacted>""#)
  }

  /// Two PINs written in by hand as one value: the set decodes as one PIN, and the action,
  /// which no longer round-trips, was quoted as recorded, with the secret.
  @Test func anActionWhoseSetOfSecretsShrinksIsNotQuoted() throws {
    let file = try record([.pinsImported(["1111", "2222"])])
    try replacing(
      #""pinsImported":{"_0":["<redacted>","<redacted>"]}"#,
      with: #""pinsImported":{"_0":["hunter2","hunter2"]}"#, in: file)
    let error = try #require(replayError(file))
    guard case ActionLogError.diverged(_, _, let differences, _) = error else {
      Issue.record("\(error)")
      return
    }
    #expect(!"\(error)".contains("hunter2"), "\(error)")
    #expect(differences.first == "recorded → replayed: imported: 2 → 1")
    #expect(differences.contains { $0.contains("does not round-trip") }, "\(differences)")
  }

  /// A set of entries written in by hand with one PIN twice in plain text decodes as two
  /// entries. The third, masked as the first of the two (`.cleared`: the shorter array was
  /// taken again from its start), kept its PIN, in the action that does not round-trip and
  /// in the checkpoint's difference.
  @Test func aSetOfEnumCasesThatShrinksIsNotQuoted() throws {
    let file = try record([.entriesImported([.cleared, .typed("1111"), .typed("2222")])])
    try replacing(
      #"[{"cleared":{}},{"typed":{"_0":"<redacted>"}},{"typed":{"_0":"<redacted>"}}]"#,
      with: #"[{"cleared":{}},{"typed":{"_0":"hunter2"}},{"typed":{"_0":"hunter2"}}]"#, in: file)
    let error = try #require(replayError(file))
    guard case ActionLogError.diverged(_, _, let differences, _) = error else {
      Issue.record("\(error)")
      return
    }
    #expect(!"\(error)".contains("hunter2"), "\(error)")
    #expect(differences.contains { $0.contains("does not round-trip") }, "\(differences)")
    #expect(
      differences.first == #"recorded → replayed: entries[2] removed: .typed("<redacted>")"#,
      "\(differences)")
  }

  /// A set's elements in another order once decoded: an element lined up with another enum
  /// case, at its top or deeper, kept its secret.
  @Test(arguments: [
    (
      #"[{"typed":{"_0":"hunter2"}},{"cleared":{}}]"#,
      #"[{"cleared":{}},{"typed":{"_0":"<redacted>"}}]"#
    ),
    (
      #"[{"entry":{"typed":{"_0":"hunter2"}},"id":1},{"entry":{"cleared":{}},"id":2}]"#,
      #"[{"entry":{"cleared":{}},"id":2},{"entry":{"typed":{"_0":"<redacted>"}},"id":1}]"#
    ),
  ])
  func anElementLinedUpWithAnotherCaseIsMasked(recorded: String, reencoded: String) throws {
    let value = try #require(JSONValue(parsing: Data(recorded.utf8)))
    let other = try #require(JSONValue(parsing: Data(reencoded.utf8)))
    let masked = value.maskingSecrets(as: other)
    #expect(!masked.rendered(limit: 1_000).contains("hunter2"), "\(masked.rendered())")
    #expect(masked.rendered(limit: 1_000).contains(#"typed("<redacted>")"#))
  }

  /// A checkpoint whose state does not decode (its PIN written in as a number) was masked as
  /// the replayed state alone, whose list of PINs is empty: the PIN in the checkpoint's list
  /// was quoted as removed.
  @Test func aSecretInACheckpointThatDoesNotDecodeIsNotQuoted() throws {
    let file = try record([.pinChanged("1111"), .unlockTapped])
    try replacing(
      #""pin":"<redacted>","tried":["<redacted>"]"#,
      with: #""pin":98765,"tried":["hunter2"]"#, in: file)
    let error = try #require(replayError(file))
    guard case ActionLogError.diverged(_, _, let differences, _) = error else {
      Issue.record("\(error)")
      return
    }
    for secret in ["hunter2", "98765"] {
      #expect(!"\(error)".contains(secret), "\(error)")
    }
    #expect(differences.first == #"recorded → replayed: tried[0] removed: "<redacted>""#)
  }

  /// A reducer that makes a string of a secret ("\(pin)", the placeholder) where the
  /// recording wrote another value: the checkpoint's value was masked as the replayed one,
  /// so nothing differed, and the divergence said the checkpoint was changed after it was
  /// recorded.
  @Test func aStringMadeOfASecretIsNotTakenForOne() throws {
    let file = try record([.pinChanged("1111"), .hintRequested])
    let error = try #require(replayError(file))
    guard case ActionLogError.diverged(_, _, let differences, _) = error else {
      Issue.record("\(error)")
      return
    }
    #expect(
      differences.first == #"recorded → replayed: hint: "PIN entered" → "<redacted>""#,
      "\(differences)")
  }
}
