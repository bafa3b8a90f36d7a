import Effects
import Foundation
import Store
import StoreTesting
import Testing

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
