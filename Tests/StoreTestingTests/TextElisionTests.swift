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

  /// A cut falls between the escapes a string leaf holds, never inside one: split,
  /// `…[1760 characters]…{A0}\u{A0}` read as the text `{A0}`, and `\u{A…` or a lone `\`
  /// before a count as a character of their own.
  @Test func aCutNeverSplitsAnEscape() {
    let space = #"\u{A0}"#  // a no-break space, as a string leaf escapes it
    let run = String(repeating: space, count: 300)
    let (old, new) = TextElision.pair("\"\(run)x\(run)\"", "\"\(run)y\(run)\"")
    // 40 characters of context would end inside an escape: six whole escapes (36) are kept.
    let kept = String(repeating: space, count: 6)
    #expect(old == "\"…[1764 characters]…\(kept)x\(kept)…[1764 characters]…\"")
    #expect(new == "\"…[1764 characters]…\(kept)y\(kept)…[1764 characters]…\"")
    // A line cut to its start: 160 characters would end inside an escape, so 157 are kept.
    #expect(
      TextElision.single("\"\(run)\"")
        == "\"" + String(repeating: space, count: 26) + "…[1645 characters]…")
    // A changed region cut in its middle, and a backslash escaped as `\\`.
    let (middleOld, middleNew) = TextElision.pair(
      "\"" + String(repeating: #"\u{1}"#, count: 100) + "\"",
      "\"" + String(repeating: #"\\"#, count: 3) + String(repeating: #"\u{2}"#, count: 100) + "\"")
    for line in [middleOld, middleNew] {
      var pieces = line.split(separator: "…", omittingEmptySubsequences: false)
      #expect(pieces.count == 3, "\(line)")
      pieces.remove(at: 1)  // the count
      for piece in pieces {
        // Each piece kept is whole escapes between the quotes.
        let rest = piece.replacing("\"", with: "").replacing(#"\u{1}"#, with: "")
          .replacing(#"\u{2}"#, with: "").replacing(#"\\"#, with: "")
        #expect(rest.isEmpty, "\(piece) in \(line)")
      }
    }
  }

  /// A combining mark after an escaped character joins the escape's closing brace in one
  /// `Character` (`}` and U+0301): the escape still ends there, and no cut falls inside it (it
  /// kept `\u{` before the count, and `{A0}́` after it).
  @Test func aCutNeverSplitsAnEscapeACombiningMarkFollows() {
    let mark = DumpReflector.quoted("\u{A0}\u{301}").dropFirst().dropLast()  // `\u{A0}́`
    let run = String(repeating: "\u{A0}\u{301}", count: 100)
    // 160 characters would end inside the 27th escape, of six characters each.
    #expect(
      TextElision.single(DumpReflector.quoted(run))
        == "\"" + String(repeating: String(mark), count: 26) + "…[445 characters]…")
    let (old, new) = TextElision.pair(
      DumpReflector.quoted(run + "x" + run), DumpReflector.quoted(run + "y" + run))
    let kept = String(repeating: String(mark), count: 6)
    #expect(old == "\"…[564 characters]…\(kept)x\(kept)…[564 characters]…\"")
    #expect(new == "\"…[564 characters]…\(kept)y\(kept)…[564 characters]…\"")
  }

  /// The common end of two lines can pair its backslashes differently in each: `a` and then
  /// 80 backslashes and `n` (a string of 40 backslashes and the letter) against 81 and `n`
  /// (40 backslashes and a line break). No cut in the run is between escapes in both, so
  /// each line is cut between its own (one cut for both left a lone `\` before the count).
  @Test func aCutNeverSplitsAnEscapeWhereTheLinesPairBackslashesApart() {
    let run = String(repeating: "\\", count: 80) + "n" + String(repeating: "t", count: 300)
    let (old, new) = TextElision.pair("\"a\(run)\"", "\"\\\(run)\"")
    let backslashes = String(repeating: "\\", count: 40)
    #expect(old == "\"a\(backslashes)…[341 characters]…\"")
    #expect(new == "\"\(backslashes)…[342 characters]…\"")
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
