import Effects
import Foundation
import Testing

@testable import Store

/// What the recorder writes in a checkpoint line.
@MainActor
@Suite final class ActionLogCheckpointTests {
  let directory = TemporaryDirectory("action-log-checkpoint-tests")

  @Test func aCheckpointsStateIsTheCanonicalEncodingItsDigestIsTakenOf() throws {
    let tags = (0..<24).map { "tag\($0)" }
    let state = Ledger.State(tags: Set(tags))
    let store = Store(initialState: Ledger.State()) { Ledger() }
    let file = directory.appendingPathComponent("canonical.jsonl").path
    let recorder = try store.recordActions(
      to: file, feature: "Ledger", checkpointInterval: 1, time: { 0 })
    for tag in tags.reversed() { store.send(.tag(tag)) }
    try recorder.finish()
    let checkpoint = try directory.lines(file)[48]
    let encoder = makeLogEncoder()
    let canonical = CanonicalJSON.canonical(
      try encoder.encode(state), of: state, encoder: encoder)
    #expect(checkpoint.hasSuffix(#","state":"# + String(decoding: canonical, as: UTF8.self) + "}"))
    #expect(
      checkpoint.contains(#""tags":["# + tags.sorted().map { "\"\($0)\"" }.joined(separator: ",")))
    #expect(
      checkpoint.hasPrefix(
        #"{"digest":"\#(StateDigest.of(canonical))","kind":"checkpoint","seq":24,"#))
    #expect(try ActionLogReplayer(feature: "Ledger") { Ledger() }.replay(path: file).isComplete)
  }
}
