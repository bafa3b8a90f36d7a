import Effects
import Foundation
import Testing

@testable import Store

/// A feature whose state's `encode(to:)` refuses once the state is marked broken: with its
/// own error, or with an `EncodingError` at a field, as a hand-written conformance may.
struct Fragile: Reducer {
  struct Snapped: Error {}

  struct State: Equatable, Codable {
    var count = 0
    var breakage = Breakage.none

    enum CodingKeys: String, CodingKey {
      case count, breakage
    }

    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(count, forKey: .count)
      switch breakage {
      case .none:
        break
      case .ownError:
        throw Snapped()
      case .invalidValue:
        throw EncodingError.invalidValue(
          count,
          EncodingError.Context(
            codingPath: encoder.codingPath + [CodingKeys.count],
            debugDescription: "A count past 1 is not written."))
      }
      try container.encode(breakage, forKey: .breakage)
    }
  }

  enum Breakage: String, Equatable, Codable {
    case none, ownError, invalidValue
  }

  enum Action: Equatable, Codable, Sendable {
    case bump
  }

  /// What the replay's reducer does to the state at each bump: the recording's does nothing.
  var breakage = Breakage.none

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    state.count += 1
    if state.count > 1, breakage != .none { state.breakage = breakage }
    return .none
  }
}

/// A replayed state that cannot be encoded at a checkpoint is a divergence (the recording
/// encoded its state there), which says why, then which actions were replayed.
@MainActor
@Suite final class UnencodableReplayedStateTests {
  let directory = TemporaryDirectory("unencodable-replayed-state-tests")

  /// Records two bumps of `Fragile()`, a checkpoint after each, returning the log's path.
  func record() throws -> String {
    let store = Store(initialState: Fragile.State()) { Fragile() }
    let file = directory.path("\(UUID().uuidString).jsonl")
    let recorder = try store.recordActions(
      to: file, feature: "Fragile", checkpointInterval: 1, time: { 0 })
    store.send(.bump)
    store.send(.bump)
    try recorder.finish()
    return file
  }

  /// The differences of the divergence `file` replays to through `reducer`.
  func differences(replaying file: String, through reducer: Fragile) -> [String] {
    do {
      _ = try ActionLogReplayer(feature: "Fragile") { reducer }.replay(path: file)
      Issue.record("the replay did not diverge")
    } catch ActionLogError.diverged(let sequence, let line, let differences, _) {
      #expect(sequence == 2)
      #expect(line == 5)
      return differences
    } catch {
      Issue.record("unexpected error: \(error)")
    }
    return []
  }

  /// An error that is not an `EncodingError` says neither where nor why: it is quoted whole.
  @Test func aStateWhoseEncodingThrowsItsOwnErrorIsADivergenceQuotingTheError() throws {
    let file = try record()
    let found = differences(replaying: file, through: Fragile(breakage: .ownError))
    #expect(
      found == [
        "the replayed state cannot be encoded: encoding it threw an error: Snapped()",
        """
        since the last matching checkpoint (after action 1, line 3), action 2 was replayed \
        (line 4), and it decodes to what was recorded: look at what the reducer (or a \
        dependency) does with it
        """,
      ])
  }

  /// An `EncodingError` that is not about a number: its place, and its description without
  /// the final period.
  @Test func aStateWhoseEncodingRefusesAFieldIsADivergenceNamingTheField() throws {
    let file = try record()
    let found = differences(replaying: file, through: Fragile(breakage: .invalidValue))
    #expect(
      found == [
        """
        the replayed state cannot be encoded: the value at state.count cannot be written as \
        JSON: A count past 1 is not written
        """,
        """
        since the last matching checkpoint (after action 1, line 3), action 2 was replayed \
        (line 4), and it decodes to what was recorded: look at what the reducer (or a \
        dependency) does with it
        """,
      ])
  }

  /// `JSONEncoder` does not refuse a `Decimal` that is NaN: it writes a bare `NaN`. The
  /// replayed state is then compared as text that is not JSON, which says so and where.
  @Test func aReplayedDecimalThatIsNaNIsADivergenceNamingItsPlace() throws {
    let store = Store(initialState: Ledger.State()) { Ledger() }
    let file = directory.path("\(UUID().uuidString).jsonl")
    let recorder = try store.recordActions(
      to: file, feature: "Ledger", checkpointInterval: 1, time: { 0 })
    store.send(.setAmount(1))
    try recorder.finish()
    do {
      _ = try ActionLogReplayer(feature: "Ledger") { PoisonedLedger() }.replay(path: file)
      Issue.record("the replay did not diverge")
    } catch ActionLogError.diverged(let sequence, let line, let differences, _) {
      #expect(sequence == 1)
      #expect(line == 3)
      #expect(
        differences == [
          """
          the replayed state cannot be encoded: the value at state.amount was encoded as NaN, \
          which is not JSON (JSONEncoder writes a Decimal that is NaN so, though JSON has no \
          NaN): keep such numbers out of actions and state, or encode them another way (as \
          nil, or as a string)
          """,
          """
          since the header (line 1), action 1 was replayed (line 2), and it decodes to what was \
          recorded: look at what the reducer (or a dependency) does with it
          """,
        ])
    }
  }

  /// Ledger, whose amount becomes NaN where the recording set it.
  struct PoisonedLedger: Reducer {
    func reduce(into state: inout Ledger.State, action: Ledger.Action) -> Effect<Ledger.Action> {
      Ledger().reduce(into: &state, action: action == .setAmount(1) ? .poison : action)
    }
  }
}
