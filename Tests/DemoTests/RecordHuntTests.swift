import AppFeature
import CartFeature
import Foundation
import Store
import Testing

@testable import demo

/// What `demo record` and the recorder write for the sample app: every log verifies whole.
@MainActor
@Suite final class RecordHuntTests {
  let directory: URL = {
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("record-hunt-tests-\(UUID().uuidString)")
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }()

  deinit { try? FileManager.default.removeItem(at: directory) }

  func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

  /// Actions sent through child, row and stack stores, stale ones among them, and effects'
  /// answers: the log replays to the store's state and verifies whole.
  @Test func actionsThroughChildAndRowStoresReplayToTheSameState() async throws {
    let file = path("children.jsonl")
    let (store, settle, _) = SampleApp.liveStore()
    let recorder = try store.recordActions(
      to: file, feature: SampleApp.feature, checkpointInterval: 3, time: { 0 })
    try Script.run(store, settle: settle)
    let cart = store.scope(state: \.cart, action: .cart)
    cart.send(.addItemTapped(name: "Jam"))
    settle()
    cart.send(.addItemTapped(name: "Eggs"))
    settle()
    let rows = cart.scope(state: \.items, action: .items)
    let ids = Array(cart.items.ids)
    let last = try #require(ids.last)
    rows[id: last]?.send(.quantityStepped(by: 2))
    settle()
    rows[id: last]?.send(.removeTapped)
    settle()
    cart.send(.items(.element(id: last, action: .quantityStepped(by: 1))))
    settle()
    cart.send(.rowTapped(ids[0]))
    settle()
    let screen = cart.path.ids.first
    if let screen {
      cart.send(.path(.popFrom(id: screen)))
      settle()
      cart.send(.path(.popFrom(id: screen)))
      settle()
    }
    cart.send(.titleEditor(.dismiss))
    settle()
    cart.send(.editTitleTapped)
    settle()
    let editor = cart.scope(state: \.titleEditor, action: .titleEditor)
    editor?.send(.draftChanged("Weekend"))
    settle()
    editor?.send(.saveTapped)
    settle()
    let state = store.state
    let count = recorder.actionCount
    try recorder.finish()
    let report = try SampleApp.replayer.replay(path: file)
    #expect(report.finalState == state)
    #expect(report.isComplete && report.actionCount == count)
    let output = Output(capturing: true)
    #expect(await Demo.run(["verify", "--complete", file], output: output) == 0)
  }

  /// A recording of no action (a final checkpoint of the initial state alone), and one whose
  /// last action's periodic checkpoint is the line before the final one (which repeats only
  /// its digest), verify whole.
  @Test(arguments: [0, 10, 40])
  func aRecordingOfAnyLengthVerifiesComplete(actions: Int) async throws {
    let file = path("length-\(actions).jsonl")
    let (store, settle, _) = SampleApp.liveStore()
    let recorder = try store.recordActions(
      to: file, feature: SampleApp.feature, checkpointInterval: 10, time: { 0 })
    if actions > 37 {
      try Script.run(store, settle: settle)
    }
    while recorder.actionCount < actions {
      store.send(.cart(.editTitleTapped))
      settle()
    }
    let state = store.state
    try recorder.finish()
    let report = try SampleApp.replayer.replay(path: file)
    #expect(report.finalState == state && report.isComplete)
    let output = Output(capturing: true)
    #expect(await Demo.run(["verify", "--complete", file], output: output) == 0)
    #expect(output.captured?.last?.hasPrefix("OK: all") == true, "\(output.captured ?? [])")
  }
}
