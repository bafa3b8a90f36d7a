import Effects
import Foundation
import Testing

@testable import Store

/// Review of `RefusedNumber`: the number a message blames for a line `JSONDecoder` refused.
@MainActor
@Suite final class RefusedNumberReviewTests {
  let directory = TemporaryDirectory("refused-number-review-tests")

  /// A lamp whose settings hold a raw-value enum with no case for 0, declared (so decoded)
  /// before a `UInt8` whose key sorts first in the log (keys are written sorted).
  struct Lamp: Reducer {
    struct Settings: Equatable, Codable, Sendable {
      enum Mode: Int, Equatable, Codable, Sendable {
        case low = 1
        case high = 2
      }
      var mode: Mode = .low
      var level: UInt8 = 0
    }
    struct State: Equatable, Codable { var settings = Settings() }
    enum Action: Equatable, Codable, Sendable { case configure(Settings) }
    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .configure(let settings): state.settings = settings
      }
      return .none
    }
  }

  /// A log of `Lamp` whose header is as recorded and whose line 2 is `action`.
  func lampLog(action: String) throws -> String {
    let file = directory.path("lamp-\(UUID().uuidString).jsonl")
    let store = Store(initialState: Lamp.State()) { Lamp() }
    let recorder = try store.recordActions(
      to: file, feature: "Lamp", checkpointInterval: 100, time: { 0 })
    try recorder.finish()
    let header = try String(contentsOfFile: file, encoding: .utf8)
      .split(separator: "\n").map(String.init)[0]
    let line = #"{"action":\#(action),"kind":"action","origin":"user","seq":1,"time":0}"#
    try Data((header + "\n" + line + "\n").utf8).write(to: URL(fileURLWithPath: file))
    return file
  }

  func lampFailure(_ file: String) -> String {
    do {
      _ = try ActionLogReplayer(feature: "Lamp") { Lamp() }.replay(path: file)
      Issue.record("the replay did not fail")
    } catch {
      return "\(error)"
    }
    return ""
  }

  /// 256 in `level` is the number refused. Setting `mode`'s 1 to 0 makes the decoder fail
  /// otherwise (no `Mode` for 0, an error with a place), which the search takes for "no
  /// longer refused", so it blames `mode`'s valid 1 instead.
  @Test func aValidNumberOfARawValueEnumIsNotBlamed() throws {
    let message = lampFailure(
      try lampLog(action: #"{"configure":{"_0":{"level":256,"mode":1}}}"#))
    #expect(message.contains("the number 256 at action.configure._0.level"), "\(message)")
    #expect(!message.contains("the number 1 "), "\(message)")
  }
}
