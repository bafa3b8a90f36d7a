import Effects
import Foundation
import Testing

@testable import Store

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A list of rows whose screens have a lifecycle, shown through a filtered view (the rows whose
/// `isShown` is set), that a log can hold.
private struct ShownRows: Reducer {
  struct Row: Reducer {
    struct State: Equatable, Codable, Identifiable {
      var id: Int
      var isShown = true
      var lifecycle = ScreenLifecycleState()
    }
    enum Action: Equatable, Codable, Sendable {
      case lifecycle(ScreenLifecycleAction)

      static var lifecycleKey: CaseKey<Self, ScreenLifecycleAction> {
        CaseKey(Self.lifecycle) { if case .lifecycle(let action) = $0 { action } else { nil } }
      }
    }

    var body: some Reducer<State, Action> {
      EmptyReducer().screenLifecycle(\.lifecycle, action: Action.lifecycleKey)
    }
  }

  struct State: Equatable, Codable {
    var rows: IdentifiedArrayOf<Row.State> = [Row.State(id: 1), Row.State(id: 2)]
    var visibleRows: IdentifiedArrayOf<Row.State> { rows.filter(\.isShown) }
  }
  enum Action: Equatable, Codable, Sendable {
    case rows(IdentifiedAction<Int, Row.Action>)
    case hide(Int)
    case delete(Int)

    static var rowsKey: CaseKey<Self, IdentifiedAction<Int, Row.Action>> {
      CaseKey(Self.rows) { if case .rows(let action) = $0 { action } else { nil } }
    }
  }

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .hide(let id): state.rows[id: id]?.isShown = false
      case .delete(let id): state.rows.remove(id: id)
      case .rows: break
      }
      return .none
    }
    .forEach(\.rows, action: Action.rowsKey) { Row() }
  }
}

/// What the earlier recorder hunts left in recording and replaying action logs.
@MainActor
@Suite final class ActionLogLeftoversHuntTests {
  let directory = TemporaryDirectory("action-log-leftovers-hunt-tests")

  // MARK: - What the log's path names

  /// A Unix-domain socket at the path: `open` refuses it (`ENXIO`), which read "No such
  /// device or address", as if nothing were there. It is named now.
  ///
  /// The socket is bound in a directory of its own under `/tmp`, removed at the end: its
  /// path must fit `sun_path` (108 bytes on Linux, 104 on macOS), which a path in the
  /// suite's directory did not under a long `TMPDIR` (the test failed there).
  @Test func aSocketIsRefusedNamingIt() throws {
    var template = Array("/tmp/log-sock-XXXXXX".utf8CString)
    let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
    let socketDirectory = try #require(made.map { String(cString: $0) })
    defer { rmdir(socketDirectory) }
    let path = socketDirectory + "/log.sock"
    defer { unlink(path) }
    let socketDescriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    try #require(socketDescriptor >= 0)
    defer { close(socketDescriptor) }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    let bytes = Array(path.utf8)
    try #require(bytes.count < MemoryLayout.size(ofValue: address.sun_path))
    withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(socketDescriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
    try #require(bound == 0)
    #expect(
      throws: ActionLogError.cannotWrite(
        path: path, reason: "it is a socket, which cannot be opened as a file; record to a file")
    ) {
      _ = try LogFile(creating: path)
    }
  }

  // MARK: - A recorder that stopped

  /// A recorder that stopped on an error (an action it could not write) held its store, and
  /// its file, until `finish()`: a new recording was refused as a second one. It lets go of
  /// both now; its `finish()` still throws the error.
  @Test func aStoppedRecorderLetsANewRecordingStartOnItsStoreAndFile() throws {
    let warnings = WarningLog()
    let store = RuntimeWarningHandler.$current.withValue(warnings.handler) {
      Store(initialState: Gauge.State()) { Gauge() }
    }
    let file = directory.path("gauge.jsonl")
    let first = try store.recordActions(to: file, feature: "Gauge", time: { 0 })
    store.send(.set(1))
    store.send(.set(.infinity))
    let error = try #require(first.error)
    #expect(warnings.messages.count == 1)
    // Reduced, not recorded: the state can be written again.
    store.send(.set(0))

    // The same store, the same path: the session is recorded again.
    let second = try store.recordActions(to: file, feature: "Gauge", time: { 0 })
    store.send(.set(2))
    store.send(.set(3))
    try second.finish()
    #expect(throws: error) { try first.finish() }
    #expect(first.actionCount == 1)

    let report = try ActionLogReplayer(feature: "Gauge") { Gauge() }.replay(path: file)
    #expect(report.isComplete)
    #expect(report.actionCount == 2)
    #expect(report.finalState.level == 3)
    #expect(warnings.messages.count == 1, "\(warnings.messages)")
  }

  /// A recorder that stopped on an error and was then released without `finish()`: the store
  /// warned when it stopped, and does not warn again, at the next action, that it was
  /// released before its `finish()`. A recorder released while it records still is warned of
  /// (as in ActionLogTests.aRecorderReleasedBeforeFinishingIsReportedAtTheNextAction).
  @Test func aStoppedRecorderReleasedWithoutFinishIsNotReportedAgain() throws {
    let warnings = WarningLog()
    let store = RuntimeWarningHandler.$current.withValue(warnings.handler) {
      Store(initialState: Gauge.State()) { Gauge() }
    }
    weak var stoppedRecorder: ActionLogRecorder<Gauge.State, Gauge.Action>?
    do {
      let stopped = try store.recordActions(
        to: directory.path("stopped.jsonl"), feature: "Gauge", time: { 0 })
      stoppedRecorder = stopped
      store.send(.set(1))
      store.send(.set(.infinity))
      #expect(stopped.error != nil)
    }
    #expect(stoppedRecorder == nil, "the stopped recorder is released")
    store.send(.set(0))
    store.send(.set(2))
    #expect(warnings.messages.count == 1, "\(warnings.messages)")
    #expect(warnings.messages.first?.contains("stopped.jsonl stopped recording") == true)

    // One released while it records, on the same store: warned of at the next action.
    do {
      let released = try store.recordActions(
        to: directory.path("released.jsonl"), feature: "Gauge", time: { 0 })
      store.send(.set(3))
      #expect(released.actionCount == 1)
    }
    store.send(.set(4))
    #expect(warnings.messages.count == 2, "\(warnings.messages)")
    #expect(
      warnings.messages.last?.contains("released.jsonl was released before its finish()") == true)
    #expect(
      warnings.messages.filter { $0.contains("released before its finish()") }.count == 1,
      "\(warnings.messages)")
  }

  /// A recorder that is recording still holds its store: a second recording is refused.
  @Test func aRecorderThatRecordsStillHoldsItsStore() throws {
    let store = Store(initialState: Gauge.State()) { Gauge() }
    let first = try store.recordActions(to: directory.path("a.jsonl"), feature: "Gauge")
    store.send(.set(1))
    #expect {
      try store.recordActions(to: self.directory.path("b.jsonl"), feature: "Gauge")
    } throws: { error in
      "\(error)".contains("already records its actions to \(self.directory.path("a.jsonl"))")
    }
    try first.finish()
  }

  // MARK: - A row's end leaving a filtered view

  /// Records a session in which row 1's screen runs from its store in the filtered view, and
  /// `leave` is sent while its task runs; the task ends after it. Returns the log's path and
  /// the store's warnings.
  private func recordRowLeaving(
    with leave: ShownRows.Action, named name: String
  ) async throws -> (String, [String]) {
    let warnings = WarningLog()
    let harness = Harness(
      initialState: ShownRows.State(), warnings: warnings.handler, reducer: ShownRows())
    let file = directory.path(name)
    let recorder = try harness.store.recordActions(
      to: file, feature: "ShownRows", checkpointInterval: 1, time: { 0 })
    let row = harness.store.scope(state: \.visibleRows, action: ShownRows.Action.rowsKey)[id: 1]
    #expect(row != nil)
    let phases = scripted([
      {
        harness.settle()
        harness.send(leave)
        return nil
      }
    ])
    await row?.runScreen(
      lifecycle: ShownRows.Row.Action.lifecycleKey, currentPhase: .active, scenePhases: phases)
    harness.settle()
    try recorder.finish()
    return (file, warnings.messages)
  }

  private var replayer: ActionLogReplayer<ShownRows> {
    ActionLogReplayer(feature: "ShownRows") { ShownRows() }
  }

  /// A row deleted while its screen showed it through a filtered view: its task's end goes
  /// on to the whole collection, where the row is gone, and the store reports nothing. The
  /// log recorded the end as any action, and its replay noted an action for a missing row.
  /// The line now says that the row may be gone, and the replay is as quiet as the store.
  @Test func aDeletedRowsEndReplaysAsQuietlyAsItRan() async throws {
    let (file, warnings) = try await recordRowLeaving(with: .delete(1), named: "deleted.jsonl")
    #expect(warnings.isEmpty, "\(warnings)")
    let ended = try directory.lines(file).filter { $0.contains(#""taskEnded""#) }
    #expect(ended.count == 1)
    #expect(ended.first?.contains(#""elementMayBeGone":true"#) == true, "\(ended)")
    let report = try replayer.replay(path: file)
    #expect(report.isComplete)
    #expect(report.finalState.rows.ids == [2])
    #expect(report.warnings.isEmpty, "\(report.warnings)")
  }

  /// A row hidden by the filter, still in the collection: its end reaches it in the replay
  /// as it did in the session.
  @Test func aHiddenRowsEndReachesItInTheReplay() async throws {
    let (file, warnings) = try await recordRowLeaving(with: .hide(1), named: "hidden.jsonl")
    #expect(warnings.isEmpty, "\(warnings)")
    let report = try replayer.replay(path: file)
    #expect(report.isComplete)
    #expect(report.finalState.rows[id: 1]?.lifecycle.isTaskRunning == false)
    #expect(report.finalState.rows[id: 1]?.isShown == false)
    #expect(report.warnings.isEmpty, "\(report.warnings)")
  }

  /// Only such an end is marked: any other action for a row that is not there is still
  /// noted by the replay, as the store reported it.
  @Test func anOrdinaryActionForAMissingRowIsStillNoted() throws {
    let warnings = WarningLog()
    let store = RuntimeWarningHandler.$current.withValue(warnings.handler) {
      Store(initialState: ShownRows.State()) { ShownRows() }
    }
    let file = directory.path("ordinary.jsonl")
    let recorder = try store.recordActions(to: file, feature: "ShownRows", time: { 0 })
    store.send(.delete(1))
    store.send(.rows(.element(id: 1, action: .lifecycle(.taskEnded))))
    try recorder.finish()
    #expect(warnings.messages.count == 1)
    #expect(try !String(contentsOfFile: file, encoding: .utf8).contains("elementMayBeGone"))
    let report = try replayer.replay(path: file)
    #expect(report.warnings.count == 1)
    #expect(report.warnings.first?.hasPrefix("Line 3 (action 2): ") == true, "\(report.warnings)")
  }

  /// The mark is read whatever the line's layout: written by hand, with spaces and keys in
  /// another order, a `false` one changes nothing.
  @Test(arguments: [true, false])
  func theMarkIsReadFromALineWrittenByHand(marked: Bool) throws {
    let header = try String(
      decoding: makeLogEncoder().encode(
        ActionLogHeader(
          format: ActionLogFormat.name, version: ActionLogFormat.version, feature: "ShownRows",
          schema: SchemaFingerprint.of(
            state: ShownRows.State(), action: ShownRows.Action.self, version: "1"),
          checkpointInterval: 100, initialState: ShownRows.State())),
      as: UTF8.self)
    let file = directory.path("by-hand-\(marked).jsonl")
    let lines = [
      header,
      #"{"kind":"action","seq":1,"origin":"user","action":{"delete":{"_0":1}}}"#,
      """
      { "elementMayBeGone" : \(marked), "kind":"action","seq":2,"origin":"effect",\
      "action":{"rows":{"_0":{"element":{"action":{"lifecycle":{"_0":{"taskEnded":{}}}},"id":1}}}}}
      """,
    ]
    try (lines.joined(separator: "\n") + "\n").write(
      toFile: file, atomically: true, encoding: .utf8)
    let report = try replayer.replay(path: file)
    #expect(report.actionCount == 2)
    #expect(report.warnings.count == (marked ? 1 : 2), "\(report.warnings)")
  }
}
