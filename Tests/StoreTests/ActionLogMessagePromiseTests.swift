import Effects
import Foundation
import Testing

@testable import Store

/// What a replay's messages say, checked against the promises of the action log's format
/// ("Sources/Store/Store.docc/ActionLogFileFormat.md"): places are cut and name one place,
/// text quoted from the log is cut, a divergence names its cause, and a number that does not
/// fit its field is named with its place and the reason.
@MainActor
@Suite final class ActionLogMessagePromiseTests {
  let directory = TemporaryDirectory("action-log-message-promise-tests")

  /// A tree as deep as a test wants, encoded as nested enum cases.
  indirect enum Tree: Equatable, Codable, Sendable {
    case leaf(Int)
    case node(Tree)

    static func deep(_ levels: Int, leaf: Int) -> Tree {
      (0..<levels).reduce(Tree.leaf(leaf)) { tree, _ in .node(tree) }
    }
  }

  /// A feature whose state holds a deep tree and a dictionary keyed by any string.
  struct Deep: Reducer {
    struct State: Equatable, Codable {
      var tree: Tree = .leaf(0)
      var readings: [String: Int] = [:]
    }
    enum Action: Equatable, Codable, Sendable {
      case plant(levels: Int)
      case read(String, Int)
    }
    /// How much the leaf and the readings are off by: 0 while recording, 1 to drift.
    var drift = 0

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .plant(let levels): state.tree = .deep(levels, leaf: drift)
      case .read(let key, let value): state.readings[key] = value + drift
      }
      return .none
    }
  }

  /// Records `actions` through `Deep()`, then replays them through a reducer that drifts,
  /// returning the divergence's differences.
  func differences(after actions: [Deep.Action]) throws -> [String] {
    let file = directory.path("\(UUID().uuidString).jsonl")
    let store = Store(initialState: Deep.State()) { Deep() }
    let recorder = try store.recordActions(
      to: file, feature: "Deep", checkpointInterval: 1, time: { 0 })
    for action in actions { store.send(action) }
    try recorder.finish()
    do {
      _ = try ActionLogReplayer(feature: "Deep") { Deep(drift: 1) }.replay(path: file)
      Issue.record("the replay did not diverge")
    } catch ActionLogError.diverged(_, _, let differences, _) {
      return differences
    }
    return []
  }

  /// A divergence cuts each key of the place it names after 120 characters, as every message
  /// does: a dictionary's key of 100,000 characters makes a short difference.
  @Test func aDivergenceCutsALongKeyInTheFieldItNames() throws {
    let key = String(repeating: "k", count: 100_000)
    let found = try differences(after: [.read(key, 1)])
    let named = try #require(found.first { $0.hasPrefix("recorded → replayed: readings.") })
    #expect(named.count < 1_000, "a difference of \(named.count) characters")
  }

  /// A divergence 200 levels down names its place by its first 10 and last 10 levels, as
  /// every message names a place of more than 20.
  @Test func aDivergenceDeepDownKeepsTheEndsOfItsPlace() throws {
    let found = try differences(after: [.plant(levels: 200)])
    let named = try #require(found.first { $0.hasPrefix("recorded → replayed: tree.") })
    let place = named.dropFirst("recorded → replayed: ".count).prefix { $0 != ":" }
    #expect(place.contains("…"), "\(place.count) characters: \(place.prefix(200))…")
    #expect(place.count < 300, "a place of \(place.count) characters")
  }

  /// A dictionary's key holding a dot or a bracket is quoted in the place a divergence or
  /// `stateChanges` names (`readings["a.b"]`), so that it does not read as a path of its own
  /// (`readings.a.b`, field `b` of a field `a`; `readings.x[0]`, an array's first element).
  @Test func aKeyWithADotOrABracketIsNotNamedAsAPathOfItsOwn() throws {
    let found = try differences(after: [.read("a.b", 1), .read("x[0]", 1)])
    #expect(!found.contains("recorded → replayed: readings.a.b: 1 → 2"), "\(found)")
    #expect(found.contains(#"recorded → replayed: readings["a.b"]: 1 → 2"#), "\(found)")
    let changes = stateChanges(
      from: Deep.State(readings: ["x[0]": 1]), to: Deep.State(readings: ["x[0]": 2]))
    #expect(changes == [#"readings["x[0]"]: 1 → 2"#], "\(changes)")
  }

  /// A list of notes, whose row actions a log can address to a row that is not there.
  struct Notes: Reducer {
    struct Note: Equatable, Codable, Identifiable {
      var id: Int
      var text = ""
    }
    struct State: Equatable, Codable {
      var notes: IdentifiedArrayOf<Note> = []
    }
    enum Action: Equatable, Codable, Sendable {
      case notes(IdentifiedAction<Int, NoteAction>)
    }
    enum NoteAction: Equatable, Codable, Sendable {
      case edited(String)
    }
    var body: some Reducer<State, Action> {
      EmptyReducer()
        .forEach(\.notes, action: .notes) {
          Reduce<Note, NoteAction> { note, action in
            if case .edited(let text) = action { note.text = text }
            return .none
          }
        }
    }
  }

  /// The warning for an action addressed to a missing row cuts the text it quotes from the
  /// log after 120 characters, as a replay's warnings do: a 200,000-character note makes a
  /// short warning (a replay lists 100 warnings, each of which could otherwise be 8 MiB).
  @Test func aWarningForAMissingRowCutsTheTextItQuotesFromTheLog() throws {
    let file = directory.path("missing-row.jsonl")
    let store = Store(initialState: Notes.State()) { Notes() }
    let recorder = try store.recordActions(
      to: file, feature: "Notes", checkpointInterval: 1, time: { 0 })
    try recorder.finish()
    var lines = try directory.lines(file)
    let note = String(repeating: "x", count: 200_000)
    lines.insert(
      #"{"action":{"notes":{"_0":{"element":{"action":{"edited":{"_0":"\#(note)"}},"id":7}}}},"kind":"action","origin":"user","seq":1,"time":0}"#,
      at: 1)
    lines.removeLast()  // the final checkpoint, of no action
    try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: file))
    let report = try ActionLogReplayer(feature: "Notes") { Notes() }.replay(path: file)
    let warning = try #require(report.warnings.first { $0.hasPrefix("Line 2 (action 1)") })
    #expect(
      warning.count < 2_000, "a warning of \(warning.count) characters: \(warning.prefix(300))")
  }

  /// A feature whose initial state holds a value that does not round-trip through its
  /// `Codable` conformance: `.some(nil)` of an `Int??`, written `null`, decoded as `nil`.
  struct Choice: Reducer {
    struct State: Equatable, Codable {
      var choice: Int?? = .some(nil)
      var count = 0
    }
    enum Action: Equatable, Codable, Sendable { case bump }
    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      state.count += 1
      return .none
    }
  }

  /// A divergence whose cause is a header's initial state that does not round-trip (a
  /// reducer that never touches `choice` diverges at the first checkpoint, `choice: null →
  /// (absent)`) names the initial state, and does not send the reader to the reducer.
  @Test func aDivergenceFromAnInitialStateThatDoesNotRoundTripNamesTheHeader() throws {
    let file = directory.path("choice.jsonl")
    let store = Store(initialState: Choice.State()) { Choice() }
    let recorder = try store.recordActions(
      to: file, feature: "Choice", checkpointInterval: 1, time: { 0 })
    store.send(.bump)
    try recorder.finish()
    do {
      _ = try ActionLogReplayer(feature: "Choice") { Choice() }.replay(path: file)
      Issue.record("the replay did not diverge")
    } catch ActionLogError.diverged(_, _, let differences, _) {
      let text = differences.joined(separator: "\n")
      #expect(!text.contains("look at what the reducer"), "\(text)")
      #expect(text.contains("initial state"), "\(text)")
    }
  }

  /// A feature whose state and actions hold integers narrower than `Int`, or unsigned.
  struct Dimmer: Reducer {
    struct State: Equatable, Codable {
      var brightness: UInt8 = 0
      var steps: UInt = 0
    }
    enum Action: Equatable, Codable, Sendable {
      case set(UInt8)
      case step(UInt)
    }
    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .set(let brightness): state.brightness = brightness
      case .step(let count): state.steps += count
      }
      return .none
    }
  }

  /// The error `file` throws when replayed through `Dimmer`, as text.
  func dimmerFailure(_ file: String) -> String {
    do {
      _ = try ActionLogReplayer(feature: "Dimmer") { Dimmer() }.replay(path: file)
      Issue.record("the replay did not fail")
    } catch {
      return "\(error)"
    }
    return ""
  }

  /// A log of `Dimmer` whose header is as recorded and whose line 2 is `action`.
  func dimmerLog(action: String) throws -> String {
    let file = directory.path("dimmer-\(UUID().uuidString).jsonl")
    let store = Store(initialState: Dimmer.State()) { Dimmer() }
    let recorder = try store.recordActions(
      to: file, feature: "Dimmer", checkpointInterval: 100, time: { 0 })
    try recorder.finish()
    let header = try directory.lines(file)[0]
    let line = #"{"action":\#(action),"kind":"action","origin":"user","seq":1,"time":0}"#
    try Data((header + "\n" + line + "\n").utf8).write(to: URL(fileURLWithPath: file))
    return file
  }

  /// A whole number too large for a `UInt8` (256), or negative for a `UInt` (-1), is named
  /// with its place and the range it is outside of, though `JSONDecoder` says only "The
  /// given data was not valid JSON." with no place.
  @Test func aNumberOutOfRangeForANarrowIntegerIsNamedWithItsPlace() throws {
    let tooLarge = dimmerFailure(try dimmerLog(action: #"{"set":{"_0":256}}"#))
    #expect(!tooLarge.contains("not valid JSON"), "\(tooLarge)")
    #expect(tooLarge.contains("action.set._0"), "\(tooLarge)")
    let negative = dimmerFailure(try dimmerLog(action: #"{"step":{"_0":-1}}"#))
    #expect(!negative.contains("not valid JSON"), "\(negative)")
    #expect(negative.contains("action.step._0"), "\(negative)")
    #expect(
      tooLarge
        == """
        Line 2: the number 256 at action.set._0 does not fit the integer type expected there \
        (it is outside the range of an unsigned 8-bit integer, 0 to 255).
        """)
    #expect(
      negative.hasSuffix(
        "(it is outside the range of an unsigned 64-bit integer, 0 to 18446744073709551615)."))
  }

  /// The same in the header's initial state.
  @Test func aNumberOutOfRangeInTheInitialStateIsNamedWithItsPlace() throws {
    var lines = try directory.lines(try dimmerLog(action: #"{"set":{"_0":1}}"#))
    lines[0] = lines[0].replacingOccurrences(of: #""brightness":0"#, with: #""brightness":300"#)
    let file = directory.path("dimmer-header.jsonl")
    try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: file))
    let message = dimmerFailure(file)
    #expect(!message.contains("not valid JSON"), "\(message)")
    #expect(message.contains("initialState.brightness"), "\(message)")
  }

  struct Odometer: Reducer {
    struct State: Equatable, Codable { var distance: Int128 = 0 }
    enum Action: Equatable, Codable, Sendable { case drove(Int128) }
    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .drove(let distance): state.distance += distance
      }
      return .none
    }
  }

  /// `1e30` in an `Int128` field, a whole number inside its range, is read, or refused for
  /// what `JSONDecoder` does (it reads a whole number with an exponent only up to about
  /// 1.8e19), not as outside the range of a 64-bit integer, which the field is not.
  @Test func aWholeNumberWithAnExponentInAnInt128FieldIsReadOrRefusedForTheRightReason()
    throws
  {
    let file = directory.path("odometer.jsonl")
    let store = Store(initialState: Odometer.State()) { Odometer() }
    let recorder = try store.recordActions(
      to: file, feature: "Odometer", checkpointInterval: 100, time: { 0 })
    try recorder.finish()
    let header = try directory.lines(file)[0]
    let line = #"{"action":{"drove":{"_0":1e30}},"kind":"action","origin":"user","seq":1,"time":0}"#
    try Data((header + "\n" + line + "\n").utf8).write(to: URL(fileURLWithPath: file))
    do {
      let report = try ActionLogReplayer(feature: "Odometer") { Odometer() }.replay(path: file)
      #expect(report.finalState.distance == Int128(1_000_000_000_000_000) * 1_000_000_000_000_000)
    } catch {
      #expect(!"\(error)".contains("64-bit"), "\(error)")
      #expect(
        "\(error)".hasSuffix("write it with digits alone, 1000000000000000000000000000000)."),
        "\(error)")
    }
  }

  struct Scale: Reducer {
    struct State: Equatable, Codable {
      var weight: Float = 0
      var price: Decimal = 0
    }
    enum Action: Equatable, Codable, Sendable {
      case weighed(Float)
      case priced(Decimal)
    }
    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .weighed(let weight): state.weight = weight
      case .priced(let price): state.price = price
      }
      return .none
    }
  }

  /// The message for a number a `Float` or a `Decimal` field cannot hold (`1e39` or `1e-50`
  /// in a `Float`, `1e200` in a `Decimal`) does not call the field an integer.
  @Test func aNumberAFloatingPointFieldCannotHoldIsNotCalledAnInteger() throws {
    let file = directory.path("scale-base.jsonl")
    let store = Store(initialState: Scale.State()) { Scale() }
    let recorder = try store.recordActions(
      to: file, feature: "Scale", checkpointInterval: 100, time: { 0 })
    try recorder.finish()
    let header = try directory.lines(file)[0]
    for payload in [
      #"{"weighed":{"_0":1e39}}"#, #"{"weighed":{"_0":1e-50}}"#, #"{"priced":{"_0":1e200}}"#,
    ] {
      let edited = directory.path("scale-\(UUID().uuidString).jsonl")
      let line = #"{"action":\#(payload),"kind":"action","origin":"user","seq":1,"time":0}"#
      try Data((header + "\n" + line + "\n").utf8).write(to: URL(fileURLWithPath: edited))
      do {
        _ = try ActionLogReplayer(feature: "Scale") { Scale() }.replay(path: edited)
        Issue.record("\(payload) was read")
      } catch {
        #expect(!"\(error)".contains("integer"), "\(payload): \(error)")
        #expect("\(error)".contains("does not fit the number type expected there ("))
      }
    }
  }
}

extension CaseKey<
  ActionLogMessagePromiseTests.Notes.Action,
  IdentifiedAction<Int, ActionLogMessagePromiseTests.Notes.NoteAction>
> {
  fileprivate static var notes: Self {
    Self(ActionLogMessagePromiseTests.Notes.Action.notes) {
      if case .notes(let a) = $0 { a } else { nil }
    }
  }
}
