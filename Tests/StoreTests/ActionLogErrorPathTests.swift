import Effects
import Foundation
import Testing

@testable import Store

/// Error paths of recording and replaying that no other test reached (a coverage trial):
/// each names what is wrong and where.
@MainActor
@Suite struct ActionLogErrorPathTests {
  struct Pair: Reducer {
    struct State: Equatable, Codable {
      var a = 0
      var b = 0
    }
    enum Action: Equatable, Codable, Sendable {
      case pair(Int, Int)
      case optional(Double?)
      case list([Double])
      case dict([String: Double])
    }
    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      if case .pair(let a, let b) = action { (state.a, state.b) = (a, b) }
      return .none
    }
  }

  let directory = TemporaryDirectory("action-log-error-path-tests")

  /// Records `actions` to a new log and returns its path.
  func record(_ actions: [Pair.Action]) throws -> String {
    let store = Store(initialState: Pair.State()) { Pair() }
    let file = directory.path("log-\(UUID().uuidString).jsonl")
    let recorder = try store.recordActions(to: file, feature: "Pair", time: { 0 })
    for action in actions { store.send(action) }
    try recorder.finish()
    return file
  }

  /// `file`'s lines, with `change` applied, written back.
  func edit(_ file: String, _ change: (inout [String]) -> Void) throws {
    var lines = try directory.lines(file)
    change(&lines)
    try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: file))
  }

  func replay(_ file: String) throws {
    _ = try ActionLogReplayer(feature: "Pair") { Pair() }.replay(path: file)
  }

  @Test func anActionAfterTheFinalCheckpointIsDamage() throws {
    let file = try record([.pair(1, 2)])
    try edit(file) {
      $0.append(
        #"{"action":{"pair":{"_0":3,"_1":4}},"kind":"action","origin":"user","seq":2,"time":0}"#)
    }
    #expect(
      throws: ActionLogError.malformedLine(
        line: 4, reason: "an action follows the final checkpoint.")
    ) { try replay(file) }
  }

  @Test func aCheckpointOfAnotherActionIsOutOfOrder() throws {
    let file = try record([.pair(1, 2), .pair(3, 4)])
    try edit(file) { lines in
      lines[3] = lines[3].replacingOccurrences(of: #""seq":2"#, with: #""seq":1"#)
    }
    #expect(throws: ActionLogError.sequenceOutOfOrder(line: 4, found: 1, expected: 2)) {
      try replay(file)
    }
  }

  @Test(arguments: [
    ("2.5", "it is not a whole number"), ("1e30", "it is outside the range of a 64-bit integer"),
  ])
  func aNumberThatDoesNotFitIsNamedWithItsPlace(number: String, why: String) throws {
    let file = try record([.pair(1, 2)])
    try edit(file) { lines in
      lines[1] = lines[1].replacingOccurrences(of: #""_1":2"#, with: #""_1":\#(number)"#)
    }
    #expect(
      throws: ActionLogError.malformedLine(
        line: 2,
        reason: """
          the number \(number) at action.pair._1 does not fit the integer type expected there \
          (\(why)).
          """)
    ) { try replay(file) }
  }

  @Test func aLogInADirectoryThatIsNotThereCannotBeWritten() {
    let store = Store(initialState: Pair.State()) { Pair() }
    let path = directory.path("missing/log.jsonl")
    #expect(throws: ActionLogError.cannotWrite(path: path, reason: "No such file or directory")) {
      _ = try store.recordActions(to: path, feature: "Pair")
    }
  }

  /// The path is quoted whole in the message: an empty one, or one with a space or a colon,
  /// reads plainly (the log hunt: "Cannot write the log at : No such file or directory.").
  @Test func theMessageQuotesThePath() {
    #expect(
      ActionLogError.cannotWrite(path: "", reason: "No such file or directory").description
        == #"Cannot write the log at "": No such file or directory."#)
    #expect(
      ActionLogError.cannotRead(path: "my logs/a: b.jsonl", reason: "Permission denied")
        .description == #"Cannot read the log at "my logs/a: b.jsonl": Permission denied."#)
    #expect(
      ActionLogError.cannotRead(path: "say \"hi\"\u{1B}", reason: "gone").description
        == #"Cannot read the log at "say \"hi\"\u{1B}": gone."#)
  }

  @Test(.enabled(if: FileManager.default.fileExists(atPath: "/dev/full")))
  func aDeviceWithNoSpaceLeftRefusesTheHeader() {
    let store = Store(initialState: Pair.State()) { Pair() }
    #expect(
      throws: ActionLogError.cannotWrite(
        path: "/dev/full",
        reason: "the header could not be written: writing its line failed: No space left on device"
      )
    ) { _ = try store.recordActions(to: "/dev/full", feature: "Pair") }
  }

  @Test(arguments: [
    (Pair.Action.optional(.nan), "the Double nan at action.optional._0"),
    (.list([1, .infinity]), "the Double inf at action.list._0[1]"),
    (.dict(["k": .nan]), "the Double nan at action.dict._0.k"),
  ])
  func aNumberJSONHasNotInsideAValueIsNamedByItsPlace(action: Pair.Action, named: String) throws {
    let store = Store(initialState: Pair.State()) { Pair() }
    let file = directory.path("log-\(UUID().uuidString).jsonl")
    let recorder = try store.recordActions(to: file, feature: "Pair")
    store.send(action)
    let message = recorder.error.map { "\($0)" } ?? "no error"
    #expect(message.contains("\(named) cannot be written as JSON, which has no NaN"), "\(message)")
    let lines = try directory.lines(file)
    #expect(lines.count == 2)
    #expect(lines.last?.contains(#""kind":"stopped""#) == true)
    #expect(lines.last?.contains(named) == true)
    #expect(throws: ActionLogError.self) { try recorder.finish() }
  }

  /// A checkpoint that diverges with no action since the last match (here the header) says
  /// so, instead of naming actions to look at.
  @Test func aCheckpointThatDivergesBeforeAnyActionSaysNoneWasReplayed() throws {
    let file = try record([])
    try edit(file) { lines in
      // The final checkpoint of an empty session, its state and digest changed.
      lines[1] = lines[1].replacingOccurrences(of: #""a":0"#, with: #""a":5"#)
        .replacingOccurrences(
          of: #""digest":"[0-9a-f]{16}""#, with: #""digest":"0000000000000000""#,
          options: .regularExpression)
    }
    var message = "no error"
    do { try replay(file) } catch { message = "\(error)" }
    #expect(
      message == """
        Line 2: the replay diverged at checkpoint 0:
          recorded → replayed: a: 5 → 0
          no action was replayed since the header (line 1)
        """)
  }
}
