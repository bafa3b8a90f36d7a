import Effects
import Foundation
import Testing

@testable import Store

/// The "Recording and Replaying a Feature" article's claims: a value a reducer makes from a
/// dependency must come back in an action for a live recording to replay, and does.
@MainActor
@Suite final class RecordingGuideTests {
  let directory = TemporaryDirectory("recording-guide-tests")

  /// The article's feature: notes whose ids come from a generator.
  struct Notes: Reducer {
    struct Note: Codable, Equatable, Identifiable, Sendable {
      let id: UUID
      var text: String
    }
    struct State: Codable, Equatable {
      var notes: IdentifiedArrayOf<Note> = []
    }
    enum Action: Codable, Equatable, Sendable {
      case addTapped(String)
      case added(Note)
    }
    let makeID: UUIDGenerator
    /// Whether the reducer puts the new note in the state itself, with an id it makes: the
    /// article's "don't".
    var makesTheIDInTheReducer = false

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .addTapped(let text) where makesTheIDInTheReducer:
        state.notes.append(Note(id: makeID(), text: text))
        return .none
      case .addTapped(let text):
        // The id travels in an action, which the log records.
        return .send(.added(Note(id: makeID(), text: text)))
      case .added(let note):
        state.notes.append(note)
        return .none
      }
    }
  }

  /// Records a session of two notes with random ids, and replays it with a generator that
  /// makes other ids.
  func recordAndReplay(makesTheIDInTheReducer: Bool) async throws -> (
    recorded: Notes.State, replay: () throws -> ReplayReport<Notes.State>
  ) {
    let path = directory.path("notes-\(makesTheIDInTheReducer).jsonl")
    let store = Store(initialState: Notes.State()) {
      Notes(makeID: .live, makesTheIDInTheReducer: makesTheIDInTheReducer)
    }
    let recorder = try store.recordActions(to: path, feature: "Notes")
    await store.send(.addTapped("Milk")).finish()
    await store.send(.addTapped("Tea")).finish()
    let recorded = store.state
    try recorder.finish()
    let replayer = ActionLogReplayer(feature: "Notes") {
      Notes(makeID: .incrementing(), makesTheIDInTheReducer: makesTheIDInTheReducer)
    }
    return (recorded, { try replayer.replay(path: path) })
  }

  @Test func idsThatComeBackInAnActionReplayAsRecorded() async throws {
    let (recorded, replay) = try await recordAndReplay(makesTheIDInTheReducer: false)
    let report = try replay()
    #expect(report.finalState == recorded)
    #expect(report.actionCount == 4)
    #expect(report.isComplete)
  }

  @Test func idsMadeInTheReducerDivergeOnReplay() async throws {
    let (_, replay) = try await recordAndReplay(makesTheIDInTheReducer: true)
    #expect {
      try replay()
    } throws: { error in
      guard case ActionLogError.diverged(_, _, let differences, _) = error else { return false }
      // The ids the reducer made differ, and the message says the actions read back alike.
      return differences.contains { $0.hasPrefix("recorded → replayed: notes[0].id: ") }
        && differences.contains { $0.contains("decodes to what was recorded") }
    }
  }
}
