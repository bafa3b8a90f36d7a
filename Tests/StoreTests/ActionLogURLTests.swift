import Effects
import Foundation
import Testing

@testable import Store

/// Recording to, and replaying from, a file URL: the place `FileManager` and document pickers
/// give. A URL that names no local file is refused, naming it, before anything is written.
@MainActor
@Suite struct ActionLogURLTests {
  let directory = TemporaryDirectory("action-log-url-tests")

  var replayer: ActionLogReplayer<Tally> { ActionLogReplayer(feature: "Tally") { Tally() } }

  /// A name with a space, which a file URL holds percent-encoded: the file is made at the
  /// path, not at the encoding.
  @Test func aLogRecordedToAFileURLReplaysFromIt() throws {
    let url = directory.appendingPathComponent("a session.jsonl")
    #expect(url.absoluteString.hasSuffix("a%20session.jsonl"))
    let store = Store(initialState: Tally.State()) { Tally() }
    let recorder = try store.recordActions(
      to: url, feature: "Tally", checkpointInterval: 2, time: { 0.5 })
    store.send(.add(3))
    store.send(.named("Ada"))
    store.send(.doubleTapped)
    try recorder.finish()

    #expect(recorder.path == directory.path("a session.jsonl"))
    #expect(FileManager.default.fileExists(atPath: directory.path("a session.jsonl")))
    let report = try replayer.replay(url: url)
    #expect(report.finalState == store.state)
    #expect(report.actionCount == 4)
    #expect(report.isComplete)
    // The same log read through its path reports the same.
    let byPath = try replayer.replay(path: url.path)
    #expect(byPath.finalState == report.finalState)
    #expect(byPath.checkpointsVerified == report.checkpointsVerified)
  }

  @Test func replayingFromAURLStopsWhereAsked() throws {
    let url = directory.appendingPathComponent("until.jsonl")
    let store = Store(initialState: Tally.State()) { Tally() }
    let recorder = try store.recordActions(to: url, feature: "Tally", time: { 0.5 })
    for amount in 1...5 { store.send(.add(amount)) }
    try recorder.finish()

    var steps: [Int] = []
    let report = try replayer.replay(url: url, until: 2) { steps.append($0.sequence) }
    #expect(steps == [1, 2])
    #expect(report.stoppedAfter == 2)
    #expect(report.finalState.count == 3)
  }

  @Test(arguments: [
    ("https://example.com/session.jsonl", "a `https` URL"),
    ("logs/session.jsonl", "a URL without a scheme"),
  ])
  func aURLThatIsNotAFileIsRefusedNamingIt(address: String, kind: String) throws {
    let url = try #require(URL(string: address))
    let store = Store(initialState: Tally.State()) { Tally() }
    let refusal = #expect(throws: ActionLogError.self) {
      try store.recordActions(to: url, feature: "Tally")
    }
    guard case .cannotWrite(let path, let reason) = refusal else {
      Issue.record("expected cannotWrite, got \(String(describing: refusal))")
      return
    }
    #expect(path == address)
    #expect(reason.contains(kind), "\(reason)")
    #expect(reason.contains("URL(fileURLWithPath:)"), "\(reason)")
    #expect(!FileManager.default.fileExists(atPath: "logs/session.jsonl"))

    // Nothing was started: the store records to a file URL at once.
    let file = directory.appendingPathComponent("after-refusal.jsonl")
    let recorder = try store.recordActions(to: file, feature: "Tally")
    store.send(.add(1))
    try recorder.finish()
    #expect(try replayer.replay(url: file).actionCount == 1)

    let unread = #expect(throws: ActionLogError.self) { try replayer.replay(url: url) }
    #expect(
      unread?.description
        == "Cannot read the log at \(address): it is \(kind), and a log is a local file: give a "
        + "file URL (URL(fileURLWithPath:) makes one from a path).")
  }
}
