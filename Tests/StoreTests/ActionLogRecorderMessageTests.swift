import Effects
import Foundation
import Testing

@testable import Store

/// What the recorder says when it stops for a reason that is not the action's value, or for
/// a value nested too deep, and what it writes at the end.
@MainActor
@Suite final class ActionLogRecorderMessageTests {
  let directory = TemporaryDirectory("action-log-recorder-message-tests")

  @Test func aTimeThatIsNotFiniteBlamesTheTimeClosure() throws {
    let warnings = WarningLog()
    let store = RuntimeWarningHandler.$current.withValue(warnings.handler) {
      Store(initialState: Ledger.State()) { Ledger() }
    }
    let recorder = try store.recordActions(
      to: directory.path("time.jsonl"), feature: "Ledger", time: { .nan })
    store.send(.setBig(1))
    #expect(recorder.actionCount == 0)
    #expect(
      warnings.messages.first?.contains(
        """
        action 1, Ledger.Action.setBig(1), could not be written: the recorder's time closure returned \
        nan, which JSON cannot hold: the time closure given to recordActions must return a \
        finite number of seconds.
        """) == true, "\(warnings.messages)")
  }

  @Test func aValueNestedTooDeepSaysSo() throws {
    let warnings = WarningLog()
    let store = RuntimeWarningHandler.$current.withValue(warnings.handler) {
      Store(initialState: Nest.State()) { Nest() }
    }
    let recorder = try store.recordActions(
      to: directory.path("deep.jsonl"), feature: "Nest", time: { 0 })
    var tree = Nest.Tree.leaf
    for _ in 0..<600 { tree = .node([tree]) }
    store.send(.set(tree))
    #expect(recorder.actionCount == 0)
    let message = try #require(warnings.messages.first)
    #expect(message.contains("is nested too deep to be written as JSON"), "\(message)")
    #expect(!message.contains(".."), "\(message)")
  }

  /// A recorder kept after its store (a debug screen showing the log's path) does not keep
  /// the store's root, its state or its effects alive; finishing then says the store is gone,
  /// in the error and on the log's last line. (It kept the root, and the effects ran on.)
  @Test func aRecorderKeptAfterItsStoreLetsTheStoreGoAndItsFinishSaysSo() throws {
    let file = directory.path("released.jsonl")
    weak var root: AnyObject?
    let recorder: ActionLogRecorder<Ledger.State, Ledger.Action>
    do {
      let store = Store(initialState: Ledger.State()) { Ledger() }
      recorder = try store.recordActions(to: file, feature: "Ledger", time: { 0 })
      store.send(.setBig(1))
      root = store.core
    }
    #expect(root == nil, "the recorder keeps the store's root alive")
    #expect(throws: ActionLogError.self) { try recorder.finish() }
    #expect(
      recorder.error?.description.contains(
        "the final checkpoint, after action 1, could not be written: the store was released "
          + "before it, so its state is gone: keep the store until the recorder finishes") == true,
      "\(String(describing: recorder.error))")
    let last = try #require(try directory.lines(file).last)
    #expect(
      last.contains(#""kind":"stopped""#) && last.contains("the store was released"), "\(last)")
  }

  @Test func theFinalCheckpointAfterAPeriodicOneRepeatsOnlyItsDigest() throws {
    let store = Store(initialState: Ledger.State()) { Ledger() }
    let file = directory.path("final.jsonl")
    let recorder = try store.recordActions(
      to: file, feature: "Ledger", checkpointInterval: 2, time: { 0 })
    store.send(.setBig(1))
    store.send(.setBig(2))
    try recorder.finish()
    let written = try directory.lines(file)
    #expect(written.count == 5)
    let digest = try #require(written[3].firstRange(of: #""digest":""#)).upperBound
    let value = written[3][digest...].prefix(16)
    #expect(written[3].contains(#""state":{"#))
    #expect(written[4] == #"{"digest":"\#(value)","final":true,"kind":"checkpoint","seq":2}"#)
    let report = try ActionLogReplayer(feature: "Ledger") { Ledger() }.replay(path: file)
    #expect(report.isComplete && report.checkpointsVerified == 2)
  }
}

/// A feature whose state can nest as deep as an action says.
struct Nest: Reducer {
  indirect enum Tree: Equatable, Codable, Sendable {
    case leaf
    case node([Tree])
  }
  struct State: Equatable, Codable {
    var tree = Tree.leaf
  }
  enum Action: Equatable, Codable, Sendable {
    case set(Tree)
  }
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .set(let tree): state.tree = tree
    }
    return .none
  }
}

/// An action is in the log before its reducer runs: one that crashes the reducer is the
/// log's last line, and replaying the log reproduces the crash. Checked from inside the
/// reducer, which reads the log as it runs.
@MainActor
@Suite final class WriteAheadRecordingTests {
  struct Probe: Reducer {
    struct State: Codable, Equatable {
      var linesSeen: [Int] = []
    }
    enum Action: Codable, Equatable, Sendable { case look }
    let log: String
    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
      state.linesSeen.append(text.split(separator: "\n").count)
      return .none
    }
  }

  let log = FileManager.default.temporaryDirectory
    .appendingPathComponent("write-ahead-\(UUID().uuidString).jsonl").path

  deinit { try? FileManager.default.removeItem(atPath: log) }

  @Test func theActionIsWrittenBeforeItsReducerRunsAndTheCheckpointAfter() throws {
    let store = Store(initialState: Probe.State()) { Probe(log: log) }
    let recorder = try store.recordActions(
      to: log, feature: "Probe", checkpointInterval: 2, time: { 0 })
    store.send(.look)
    store.send(.look)
    store.send(.look)
    // The header and the action itself; then the second action after the first; the third
    // after the second and the checkpoint that followed it.
    #expect(store.state.linesSeen == [2, 3, 5])
    try recorder.finish()
    let kinds = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").map {
      line -> String in
      let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
      return object?["kind"] as? String ?? "?"
    }
    #expect(kinds == ["header", "action", "action", "checkpoint", "action", "checkpoint"])
  }
}
