import Effects
import Foundation
import Store
import StoreTesting
import Testing

/// The feature of the Testing Features article, as the article writes it.
private struct Notes: Reducer {
  struct Note: Equatable, Identifiable {
    let id: UUID
    var text = ""
  }

  struct State: Equatable {
    var notes: [Note] = []
    var saveCount = 0
  }

  enum Action: Sendable, Equatable {
    case addTapped
    case textChanged(id: UUID, text: String)
    case autosaved
  }

  enum CancelID { case autosave }

  let clock: any Clock<Duration>
  let makeID: UUIDGenerator

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .addTapped:
      state.notes.append(Note(id: makeID()))
      return .none

    case .textChanged(let id, let text):
      guard let index = state.notes.firstIndex(where: { $0.id == id }) else { return .none }
      state.notes[index].text = text
      return .run { [clock] send in
        try await clock.sleep(for: .seconds(2))
        send(.autosaved)
      }
      .cancellable(id: CancelID.autosave, cancelInFlight: true)

    case .autosaved:
      state.saveCount += 1
      return .none
    }
  }
}

/// The article's "Read a failure" shows the message a mistyped expectation gets, word for
/// word: this keeps it so.
@MainActor
@Suite struct ReadAFailureDocTests {
  @Test func theArticlesFailureMessageIsTheOneATestGets() async throws {
    let article = try String(
      contentsOf: URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/StoreTesting/StoreTesting.docc/TestingFeatures.md"),
      encoding: .utf8)
    let section = try #require(article.range(of: "### Read a failure"))
    let blockStart = try #require(
      article.range(of: "```\n", range: section.upperBound..<article.endIndex))
    let blockEnd = try #require(
      article.range(of: "\n```", range: blockStart.upperBound..<article.endIndex))
    let shown = String(article[blockStart.upperBound..<blockEnd.lowerBound])

    let messages = Messages()
    let clock = TestClock()
    let store = TestStore(initialState: Notes.State()) {
      Notes(clock: clock, makeID: .incrementing())
    }
    let id = UUID(counting: 0)
    await store.send(.addTapped) { $0.notes = [Notes.Note(id: id)] }
    await withKnownIssue {
      await store.send(.textChanged(id: id, text: "Milk")) { $0.notes[0].text = "Mlik" }
    } matching: {
      messages.capture($0)
    }
    #expect(messages.last == shown)
    await clock.advance(by: .seconds(2))
    await store.receive(.autosaved) { $0.saveCount = 1 }
    await store.finish()
  }
}
