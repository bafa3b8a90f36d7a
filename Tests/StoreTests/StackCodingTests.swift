import Effects
import Foundation
import Testing

@testable import Store

/// A stack's JSON reads back only as a stack pushes could have made, and nothing is written
/// that would not read back (trial of action logs with navigation).
@MainActor
@Suite final class StackCodingTests {
  let directory = TemporaryDirectory("stack-coding-tests")

  /// A stack of page names, pushed one at a time.
  struct Pages: Reducer {
    struct State: Equatable, Codable, Sendable {
      var path = StackState<String>()
    }

    enum Action: Equatable, Codable, Sendable {
      case open(String)
    }

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .open(let page):
        state.path.append(page)
        return .none
      }
    }
  }

  /// A stack whose next id is the highest decoding accepts.
  func stackAtTheDecodingLimit() throws -> StackState<String> {
    let json = #"{"entries":[],"nextID":\#(StackState<String>.decodedNextIDLimit)}"#
    return try JSONDecoder().decode(StackState<String>.self, from: Data(json.utf8))
  }

  /// The message of the `DecodingError.dataCorrupted` decoding `json` as a stack throws.
  func corruption(decoding json: String) -> String? {
    do {
      _ = try JSONDecoder().decode(StackState<String>.self, from: Data(json.utf8))
      Issue.record("decoding \(json) did not fail")
    } catch DecodingError.dataCorrupted(let context) {
      return context.debugDescription
    } catch {
      Issue.record("unexpected error: \(error)")
    }
    return nil
  }

  @Test func decodingRefusesScreenIDsOutOfPushOrder() throws {
    // Popping from 3 would also pop screen 1, which sits above it.
    let message = corruption(
      decoding: #"{"entries":[{"element":"a","id":3},{"element":"b","id":1}],"nextID":4}"#)
    #expect(
      message == """
        The stack's screen with id 1 is above the one with id 3, but ids ascend from the \
        bottom: each push gets a higher id.
        """)
    // Gaps are fine: pushes with ids, and pops, leave them.
    let gaps = #"{"entries":[{"element":"a","id":1},{"element":"b","id":5}],"nextID":9}"#
    let stack = try JSONDecoder().decode(StackState<String>.self, from: Data(gaps.utf8))
    #expect(stack.ids == [1, 5])
    #expect(stack.nextElementID == 9)
  }

  @Test func aStackAppendedPastTheDecodingLimitRefusesToEncodeNamingItsNextID() throws {
    var stack = try stackAtTheDecodingLimit()
    let atTheLimit = try JSONEncoder().encode(stack)
    #expect(try JSONDecoder().decode(StackState<String>.self, from: atTheLimit) == stack)

    stack.append("one more")
    let limit = StackState<String>.decodedNextIDLimit
    do {
      _ = try JSONEncoder().encode(stack)
      Issue.record("a stack that cannot be decoded was encoded")
    } catch EncodingError.invalidValue(let value, let context) {
      #expect(value as? Int == limit + 1)
      #expect(context.codingPath.map(\.stringValue) == ["nextID"])
      #expect(
        context.debugDescription == """
          nextID \(limit + 1) is above \(limit), the highest a stack decodes with, so the \
          stack could not be read back.
          """)
    }
  }

  @Test func aRecordingRefusesAnInitialStackItCouldNotReplay() throws {
    var state = Pages.State(path: try stackAtTheDecodingLimit())
    state.path.append("past the limit")
    let store = Store(initialState: state) { Pages() }
    let file = directory.path("past-the-limit.jsonl")
    #expect {
      _ = try store.recordActions(to: file, feature: "Pages")
    } throws: { error in
      "\(error)".contains("the header could not be written")
        && "\(error)".contains("nextID \(StackState<String>.decodedNextIDLimit + 1) is above")
    }
  }

  @Test func aRecordingStopsAtTheCheckpointItCouldNotReplayAndTheLogSaysWhy() throws {
    let warnings = WarningLog()
    let harness = Harness(
      initialState: Pages.State(path: try stackAtTheDecodingLimit()),
      warnings: warnings.handler,
      reducer: Pages())
    let file = directory.path("stops.jsonl")
    let recorder = try harness.store.recordActions(
      to: file, feature: "Pages", checkpointInterval: 1, time: { 0 })
    harness.send(.open("past the limit"))
    #expect(throws: ActionLogError.self) { try recorder.finish() }
    #expect(warnings.messages.count == 1)
    #expect(warnings.messages.first?.contains("stopped recording") == true, "\(warnings.messages)")

    // What was written replays, and the replay says where and why the recording stopped.
    let report = try ActionLogReplayer(feature: "Pages") { Pages() }.replay(path: file)
    #expect(!report.isComplete)
    #expect(report.finalState.path.count == 1)
    #expect(report.recordingStoppedAfter == 1)
  }
}
