import Effects
import Foundation
import Testing

@testable import Store

/// A `Decimal` that is NaN, which `JSONEncoder` writes as a bare `NaN`, stops the recording
/// as a `Double` NaN does, instead of writing a line no reader takes.
@MainActor
@Suite final class NonJSONTokenTests {
  let directory = TemporaryDirectory("non-json-token-tests")

  @Test func onlyTokensOutsideStringsCount() {
    #expect(NonJSONToken.firstOffset(in: Data(#"{"a":[1,-2.5e+3,true,false,null]}"#.utf8)) == nil)
    #expect(NonJSONToken.firstOffset(in: Data(#"{"NaN":"NaN \"Infinity\\","b":1}"#.utf8)) == nil)
    #expect(NonJSONToken.firstOffset(in: Data(#"{"a":NaN}"#.utf8)) == 5)
    #expect(NonJSONToken.firstOffset(in: Data(#"{"a":"\\",b:1}"#.utf8)) == 10)
    #expect(NonJSONToken.token(at: 5, in: Data(#"{"a":NaN}"#.utf8)) == "NaN")
  }

  @Test func aDecimalNaNInAnActionStopsTheRecordingWithALineSayingWhy() throws {
    let warnings = WarningLog()
    let store = RuntimeWarningHandler.$current.withValue(warnings.handler) {
      Store(initialState: Ledger.State()) { Ledger() }
    }
    let file = directory.path("action.jsonl")
    let recorder = try store.recordActions(to: file, feature: "Ledger", time: { 0 })
    store.send(.setAmount(1))
    store.send(.setAmount(.nan))
    store.send(.setAmount(2))
    #expect(recorder.actionCount == 1)
    let message = try #require(warnings.messages.first)
    #expect(warnings.messages.count == 1)
    #expect(
      message.contains(
        """
        action 2, Ledger.Action.setAmount(NaN), could not be written: the value at \
        action.setAmount._0 was encoded as NaN, which is not JSON (JSONEncoder writes a \
        Decimal that is NaN so, though JSON has no NaN)
        """), "\(message)")
    #expect(throws: ActionLogError.self) { try recorder.finish() }
    // Every line is JSON, and the replay gives the reason.
    for line in try directory.lines(file) {
      #expect(JSONCheck.check(Data(line.utf8)).problem == nil, "\(line)")
    }
    let report = try ActionLogReplayer(feature: "Ledger") { Ledger() }.replay(path: file)
    #expect(report.actionCount == 1)
    #expect(report.warnings.count == 1)
    #expect(report.warnings.first?.contains("was encoded as NaN") == true)
  }

  @Test func aDecimalNaNInTheStateStopsAtItsCheckpoint() throws {
    let warnings = WarningLog()
    let store = RuntimeWarningHandler.$current.withValue(warnings.handler) {
      Store(initialState: Ledger.State()) { Ledger() }
    }
    let file = directory.path("state.jsonl")
    let recorder = try store.recordActions(
      to: file, feature: "Ledger", checkpointInterval: 2, time: { 0 })
    store.send(.setAmount(1))
    store.send(.poison)
    store.send(.setAmount(2))
    #expect(recorder.actionCount == 2)
    #expect(
      warnings.messages.first?.contains(
        "the checkpoint after action 2, Ledger.Action.poison, could not be written: the value at "
          + "state.amount was encoded as NaN") == true, "\(warnings.messages)")
    for line in try directory.lines(file) {
      #expect(JSONCheck.check(Data(line.utf8)).problem == nil, "\(line)")
    }
  }

  @Test func aDecimalNaNInTheInitialStateIsRefusedByRecordActions() throws {
    let store = Store(initialState: Ledger.State(amount: .nan)) { Ledger() }
    let file = directory.path("header.jsonl")
    #expect {
      try store.recordActions(to: file, feature: "Ledger")
    } throws: { error in
      "\(error)".contains(
        """
        the header could not be written: the value at initialState.amount was encoded as \
        NaN, which is not JSON
        """)
    }
    #expect(!FileManager.default.fileExists(atPath: file))
  }
}
