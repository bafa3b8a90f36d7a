import Effects
import Store
import Testing

@testable import StoreTesting

private struct Document: Equatable {
  var title = "Notes"
  var body: String
}

private enum Edit: Equatable, Sendable {
  case saved(String)
  case closed
}

/// A long string in a diff shows the region that changed, with some context, and counts the
/// characters left out; a test store's diff limit of `nil` shows it whole.
@Suite struct TextElisionTests {
  /// A megabyte of text with one character changed in its middle.
  static let long =
    String(repeating: "a", count: 500_000) + "b" + String(repeating: "a", count: 500_000)
  static let changed =
    String(repeating: "a", count: 500_000) + "c" + String(repeating: "a", count: 500_000)

  @Test func aLongStringInStateShowsOnlyTheChangedRegion() throws {
    let diff = try #require(
      StateDiff.diff(expected: Document(body: Self.long), actual: Document(body: Self.changed)))
    try #require(diff.count < 1_000)
    let context = String(repeating: "a", count: TextElision.context)
    // The common start: the quote and 499,960 characters left out, then 40 kept.
    #expect(
      diff.contains("-   body: \"…[499960 characters]…\(context)b\(context)…[499960 characters]…\"")
    )
    #expect(
      diff.contains("+   body: \"…[499960 characters]…\(context)c\(context)…[499960 characters]…\"")
    )
  }

  @Test func aLongReplacedLineOfTextShowsOnlyTheChangedRegion() throws {
    let diff = try #require(
      StateDiff.diff(
        expected: Document(body: "first\n" + Self.long + "\nlast"),
        actual: Document(body: "first\n" + Self.changed + "\nlast")))
    try #require(diff.count < 1_000)
    #expect(diff.contains("…[499960 characters]…"))
    #expect(diff.contains("b" + String(repeating: "a", count: TextElision.context) + "…"))
    #expect(diff.contains("c" + String(repeating: "a", count: TextElision.context) + "…"))
  }

  @Test func aLongStringInAReceivedActionShowsOnlyTheChangedRegion() throws {
    let diff = try #require(
      StateDiff.diff(expected: Edit.saved(Self.long), actual: Edit.saved(Self.changed)))
    try #require(diff.count < 1_000)
    #expect(diff.contains("b" + String(repeating: "a", count: TextElision.context) + "…"))
    #expect(diff.contains("c" + String(repeating: "a", count: TextElision.context) + "…"))
  }

  @Test func aStringThatChangedThroughoutKeepsItsEnds() {
    let (old, new) = TextElision.pair(
      String(repeating: "x", count: 1_000), String(repeating: "y", count: 1_000))
    #expect(
      old == String(repeating: "x", count: 80) + "…[840 characters]…"
        + String(repeating: "x", count: 80))
    #expect(
      new == String(repeating: "y", count: 80) + "…[840 characters]…"
        + String(repeating: "y", count: 80))
  }

  @Test func shortStringsAreNotShortened() {
    #expect(TextElision.pair("\"Paris\"", "\"Lyon\"") == ("\"Paris\"", "\"Lyon\""))
  }

  @Test func withoutALimitTheDiffShowsTheWholeString() throws {
    let diff = try #require(
      StateDiff.diff(
        expected: Document(body: Self.long), actual: Document(body: Self.changed),
        changeLimit: nil))
    #expect(diff.count > 2_000_000)
  }

  @MainActor @Test func aWrongCaseReceivedWithALongPayloadIsCutShort() async throws {
    let messages = Messages()
    struct Editor: Reducer {
      struct State: Equatable {}
      func reduce(into state: inout State, action: Edit) -> Effect<Edit> {
        action == .closed ? .send(.saved(TextElisionTests.long)) : .none
      }
    }
    let store = TestStore(initialState: Editor.State()) { Editor() }
    await store.send(.closed)
    await withKnownIssue {
      await store.receive({ $0 == .closed })
    } matching: {
      messages.capture($0)
    }
    try #require(messages.last.count < 2_000)
    #expect(messages.last.hasPrefix("Received Edit.saved(\"aaa"))
    #expect(messages.last.contains("…[999095 characters]…"))
  }
}
