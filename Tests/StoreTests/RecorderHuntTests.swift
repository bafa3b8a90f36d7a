import Effects
import Foundation
import Testing

@testable import Store

/// A feature whose state and actions hold the values at the edges of what JSON holds.
struct Edges: Reducer {
  struct Credentials: Equatable, Codable, Sendable {
    var user: String
    var password: Secret<String>
    var pins: [Secret<String>: Double]
  }
  struct State: Equatable, Codable {
    var double = 0.0
    var float: Float = 0
    var decimal: Decimal = 0
    var wide: Int128 = 0
    var uwide: UInt128 = 0
    var doubles: Set<Double> = []
    var byDouble: [Double: String] = [:]
    var text = ""
    var password = Secret("")
    var passwords: [Secret<String>] = []
    var blob: [Int] = []
    var nested: Set<Set<Int>> = []
    var bySet: [Set<Int>: Set<String>] = [:]
  }
  enum Action: Equatable, Codable, Sendable {
    case double(Double)
    case float(Float)
    case decimal(Decimal)
    case wide(Int128)
    case uwide(UInt128)
    case insert(Double)
    case key(Double, String)
    case text(String)
    case password(Secret<String>)
    case passwordAndLevel(Secret<String>, Double)
    case blob([Int])
    case echo(Double)
    case nest([Int])
    case login(Credentials)
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .double(let value): state.double = value
    case .float(let value): state.float = value
    case .decimal(let value): state.decimal = value
    case .wide(let value): state.wide = value
    case .uwide(let value): state.uwide = value
    case .insert(let value): state.doubles.insert(value)
    case .key(let key, let value): state.byDouble[key] = value
    case .text(let value): state.text = value
    case .password(let secret): state.password = secret
    case .passwordAndLevel(let secret, let level):
      state.password = secret
      state.double = level
    case .blob(let values): state.blob = values
    case .echo(let value): return .send(.double(value))
    case .login(let credentials): state.password = credentials.password
    case .nest(let values):
      state.nested.insert(Set(values))
      state.bySet[Set(values)] = Set(values.map { "v\($0)" })
    }
    return .none
  }
}

@MainActor
@Suite final class RecorderHuntTests {
  let directory = TemporaryDirectory("recorder-hunt-tests")
  let replayer = ActionLogReplayer(feature: "Edges") { Edges() }

  func record(
    _ actions: [Edges.Action], interval: Int = 1, finishes: Bool = true,
    time: @escaping () -> Double = { 0 }
  ) throws -> (store: StoreOf<Edges>, file: String, warnings: WarningLog) {
    let warnings = WarningLog()
    let store = RuntimeWarningHandler.$current.withValue(warnings.handler) {
      Store(initialState: Edges.State()) { Edges() }
    }
    let file = directory.path("\(UUID().uuidString).jsonl")
    let recorder = try store.recordActions(
      to: file, feature: "Edges", checkpointInterval: interval, time: time)
    for action in actions { store.send(action) }
    if finishes { try recorder.finish() }
    return (store, file, warnings)
  }

  @Test func floatEdgesReplayToTheSameState() throws {
    let actions: [Edges.Action] = [
      .double(-0.0), .float(-0.0), .insert(-0.0), .key(-0.0, "negative zero"),
      .double(.leastNonzeroMagnitude), .double(.greatestFiniteMagnitude),
      .double(-.greatestFiniteMagnitude), .double(.ulpOfOne), .float(.leastNonzeroMagnitude),
      .float(.greatestFiniteMagnitude), .float(0.1), .double(0.1), .insert(1e300),
      .insert(Double.leastNonzeroMagnitude), .decimal(Decimal.greatestFiniteMagnitude),
      .decimal(Decimal.leastFiniteMagnitude),
      .decimal(Decimal(string: "0.000000000000000000000000000000001")!),
      .decimal(Decimal(string: "-0")!), .double(-0.0),
    ]
    let (store, file, warnings) = try record(actions)
    let report = try replayer.replay(path: file)
    #expect(report.finalState == store.state)
    #expect(report.finalState.double.sign == .minus)
    #expect(report.isComplete)
    #expect(report.checkpointsVerified == actions.count + 1)
    #expect(report.warnings.isEmpty)
    #expect(warnings.messages.isEmpty)
  }

  @Test func nestedSetsInAStateOfAnotherHistoryVerify() throws {
    var initial = Edges.State()
    initial.nested.reserveCapacity(4096)
    initial.bySet.reserveCapacity(4096)
    for base in 0..<40 {
      let values = Array(base..<(base + 20)).map { $0 * 7919 % 1000 }
      initial.nested.insert(Set(values))
      initial.bySet[Set(values)] = Set(values.map { "v\($0)" })
    }
    let store = Store(initialState: initial) { Edges() }
    let file = directory.path("nested.jsonl")
    let recorder = try store.recordActions(
      to: file, feature: "Edges", checkpointInterval: 1, time: { 0 })
    for base in 100..<130 { store.send(.nest(Array(base..<(base + 9)))) }
    try recorder.finish()
    let report = try replayer.replay(path: file)
    #expect(report.isComplete && report.checkpointsVerified == 31)
    #expect(report.finalState == store.state)
  }

  @Test func wideIntegersReplayToTheSameState() throws {
    let actions: [Edges.Action] = [
      .wide(.max), .wide(.min), .uwide(.max), .wide(-1), .uwide(1 << 100),
    ]
    let (store, file, warnings) = try record(actions)
    #expect(warnings.messages.isEmpty, "\(warnings.messages)")
    let report = try replayer.replay(path: file)
    #expect(report.finalState == store.state)
    #expect(report.isComplete)
    #expect(report.checkpointsVerified == actions.count + 1)
  }

  @Test func timesAtTheEdgesReplay() throws {
    let times = [-1.0, -0.0, 1e308, Double.leastNonzeroMagnitude, 0.1, 1e-7, 123456789.123456789]
    var index = 0
    let (_, file, warnings) = try record(times.map { .double($0) }) {
      defer { index += 1 }
      return times[index]
    }
    #expect(warnings.messages.isEmpty, "\(warnings.messages)")
    var seen: [Double] = []
    let report = try replayer.replay(path: file) { step in seen.append(step.time) }
    #expect(report.isComplete)
    #expect(seen == times)
  }

  @Test func stringsAtTheEdgesReplay() throws {
    let texts = [
      "\u{0}", "a\u{2028}b\u{2029}", "\r\n", "\u{FEFF}x", "e\u{301}", "\u{1F600}", "\"\\/",
      String(repeating: "\u{7F}", count: 3), "\u{10FFFF}",
    ]
    let (store, file, _) = try record(texts.map { .text($0) })
    let report = try replayer.replay(path: file)
    #expect(report.finalState == store.state)
    #expect(report.isComplete && report.checkpointsVerified == texts.count + 1)
  }

  @Test func secretsNeverReachTheLogEvenWhenRecordingStops() throws {
    let (_, file, warnings) = try record(
      [
        .password("hunter2"), .login(.init(user: "u", password: "opensesame", pins: ["1234": 1])),
        .login(.init(user: "u", password: "letmein", pins: ["9876": .nan])),
        .passwordAndLevel("swordfish", .nan), .password("zebra42"),
      ], finishes: false)
    let text = try String(contentsOfFile: file, encoding: .utf8)
    // The stop line and the warning describe the action that failed, secrets and all.
    #expect(text.contains(#"Edges.Credentials(user: \"u\", password: Secret(<redacted>)"#))
    #expect(warnings.messages.count == 1)
    for secret in ["hunter2", "swordfish", "zebra42", "opensesame", "1234", "letmein", "9876"] {
      #expect(!text.contains(secret))
      #expect(!warnings.messages.joined().contains(secret))
    }
  }

  /// An action too long for a line whose text is one character of millions of scalars (a
  /// letter under 4 million combining accents): its description, and the reason, were cut
  /// by characters, of which there are few, so the line saying why the recording stopped was
  /// as long as the action, too long to be written, and the warning was 8 MiB.
  @Test func theStopLineOfAnActionThatIsOneHugeCharacterIsWritten() throws {
    let warnings = WarningLog()
    let store = RuntimeWarningHandler.$current.withValue(warnings.handler) {
      Store(initialState: Edges.State()) { Edges() }
    }
    let file = directory.path("grapheme.jsonl")
    let recorder = try store.recordActions(to: file, feature: "Edges", time: { 0 })
    let accents = String(repeating: "\u{301}", count: ActionLogFormat.maximumLineLength / 2)
    store.send(.text("e" + accents))
    #expect(recorder.actionCount == 0)
    let lines = try directory.lines(file)
    #expect(lines.count == 2)
    let last = lines.last ?? ""
    #expect(last.utf8.count < 20_000)
    #expect(last.hasPrefix(#"{"kind":"stopped","reason":"action 1, Edges.Action.text("#))
    let message = warnings.messages.first ?? ""
    #expect(message.utf8.count < 20_000)
    #expect(message.contains("it ends with a line saying why"))
    let report = try replayer.replay(path: file)
    #expect(report.recordingStoppedAfter == 0)
    #expect(throws: ActionLogError.self) { try recorder.finish() }
  }

  /// The warning that a recorder was released before its finish() named the action that found
  /// it gone whole: a megabyte of text made a megabyte warning. It is cut as the recorder's
  /// other messages cut the actions they name.
  @Test func theWarningOfARecorderReleasedEarlyCutsTheActionItNames() throws {
    let warnings = WarningLog()
    let store = RuntimeWarningHandler.$current.withValue(warnings.handler) {
      Store(initialState: Edges.State()) { Edges() }
    }
    let file = directory.path("released-early.jsonl")
    do {
      let recorder = try store.recordActions(to: file, feature: "Edges", time: { 0 })
      store.send(.double(1))
      #expect(recorder.actionCount == 1)
    }
    store.send(.text(String(repeating: "x", count: 1_000_000)))
    #expect(warnings.messages.count == 1)
    let message = warnings.messages.first ?? ""
    #expect(message.utf8.count < 2_000, "\(message.prefix(300))")
    #expect(message.contains(#"was released before its finish(): Edges.Action.text("xxx"#))
  }

  /// finish() once the store is gone: the final checkpoint needs the state, except when the
  /// last action's checkpoint was the line before, when it repeats that one's digest. The log
  /// then ends whole, and finish() does not throw (its documentation said it always did).
  @Test(arguments: [1, 2])
  func finishAfterTheStoreIsGoneNeedsItsStateUnlessTheLastCheckpointWasJustWritten(
    interval: Int
  ) throws {
    let file = directory.path("gone-\(interval).jsonl")
    let recorder: ActionLogRecorder<Edges.State, Edges.Action>
    do {
      let store = Store(initialState: Edges.State()) { Edges() }
      recorder = try store.recordActions(
        to: file, feature: "Edges", checkpointInterval: interval, time: { 0 })
      store.send(.double(1))
      store.send(.double(2))
      store.send(.double(3))
      store.send(.double(4))
      store.send(.double(5))
      if interval == 1 { store.send(.double(6)) }
    }
    let report: ReplayReport<Edges.State>
    if interval == 1 {
      try recorder.finish()
      report = try replayer.replay(path: file)
      #expect(report.isComplete && report.checkpointsVerified == 7)
      #expect(report.finalState.double == 6)
    } else {
      #expect(throws: ActionLogError.self) { try recorder.finish() }
      report = try replayer.replay(path: file)
      #expect(report.recordingStoppedAfter == 5 && report.checkpointsVerified == 2)
    }
  }

  @Test func effectFedActionsAreRecordedWithTheirOrigin() throws {
    let (store, file, _) = try record([.echo(3), .double(4), .echo(5)])
    var origins: [ActionOrigin] = []
    let report = try replayer.replay(path: file) { step in origins.append(step.origin) }
    #expect(origins == [.user, .effect, .user, .user, .effect])
    #expect(report.finalState == store.state)
  }

  @Test func aStateTooLongForACheckpointLineVerifiesByItsDigest() throws {
    let store = Store(initialState: Edges.State()) { Edges() }
    let file = directory.path("big.jsonl")
    let recorder = try store.recordActions(
      to: file, feature: "Edges", checkpointInterval: 1, time: { 0 })
    recorder.lineLimit = 2000
    store.send(.blob(Array(0..<300)))
    store.send(.text("x"))
    try recorder.finish()
    let lines = try directory.lines(file)
    #expect(lines.allSatisfy { $0.utf8.count <= 2000 })
    let report = try replayer.replay(path: file)
    #expect(report.isComplete && report.checkpointsVerified == 3)
    #expect(report.finalState == store.state)
  }

  @Test func recordingAfterFinishWritesNothing() throws {
    let store = Store(initialState: Edges.State()) { Edges() }
    let file = directory.path("after.jsonl")
    let recorder = try store.recordActions(to: file, feature: "Edges", time: { 0 })
    store.send(.double(1))
    try recorder.finish()
    let before = try Data(contentsOf: URL(fileURLWithPath: file))
    store.send(.double(2))
    try recorder.finish()
    #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == before)
    #expect(recorder.actionCount == 1)
    let again = try store.recordActions(to: file, feature: "Edges", time: { 0 })
    store.send(.double(3))
    try again.finish()
    let report = try replayer.replay(path: file)
    #expect(report.finalState.double == 3 && report.actionCount == 1)
  }

  @Test func aSecondRecorderOfTheSameFileByALinkIsRefused() throws {
    let store = Store(initialState: Edges.State()) { Edges() }
    let other = Store(initialState: Edges.State()) { Edges() }
    let file = directory.path("linked.jsonl")
    let recorder = try store.recordActions(to: file, feature: "Edges", time: { 0 })
    store.send(.double(1))
    let hard = directory.path("hard.jsonl")
    let soft = directory.path("soft.jsonl")
    try FileManager.default.linkItem(atPath: file, toPath: hard)
    try FileManager.default.createSymbolicLink(atPath: soft, withDestinationPath: file)
    for path in [hard, soft, file] {
      #expect(throws: ActionLogError.self) {
        _ = try other.recordActions(to: path, feature: "Edges", time: { 0 })
      }
    }
    store.send(.double(2))
    try recorder.finish()
    let report = try replayer.replay(path: file)
    #expect(report.isComplete && report.actionCount == 2)
  }
}
