import Effects
import Store
import Testing

@testable import StoreTesting

/// A long string in an element removed at one place and inserted at another printed only its
/// start on each side, so two that differ further on printed the same, and the order hint
/// then said nothing but the order differed (a bug hunt of the test store). Such a pair is now
/// shortened around the change.
@MainActor
@Suite struct HiddenLongChangeTests {
  private struct Board: Reducer {
    struct Row: Equatable, Identifiable, Sendable {
      var id: Int
      var text: String
    }
    struct State: Equatable {
      var rows: IdentifiedArrayOf<Row> = []
    }
    enum Action: Equatable, Sendable {
      case moveLastToFront(appending: String)
    }
    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .moveLastToFront(let suffix):
        var last = state.rows.removeLast()
        last.text += suffix
        state.rows.insert(last, at: 0)
        return .none
      }
    }
  }

  let long = String(repeating: "n", count: 300)
  let messages = Messages()

  /// The lines of `diff` marked `marker`.
  func lines(_ diff: String, _ marker: Character) -> [Substring] {
    diff.split(separator: "\n").filter { $0.first == marker }
  }

  @Test func anArrayWhoseLengthChangedShowsWhereTheLongStringsDiffer() throws {
    let diff = try #require(
      StateDiff.diff(expected: [long + "A"], actual: [long + "B", "new"]))
    let removed = lines(diff, "-")
    let inserted = lines(diff, "+")
    #expect(removed.count == 1 && inserted.count == 2, "\(diff)")
    #expect(removed.first?.hasSuffix(#"nA""#) == true, "\(diff)")
    #expect(inserted.first?.hasSuffix(#"nB""#) == true, "\(diff)")
  }

  @Test func aSetShowsWhereTheLongStringsDiffer() throws {
    let diff = try #require(
      StateDiff.diff(expected: Set(["short", long + "A"]), actual: Set(["short", long + "B"])))
    #expect(lines(diff, "-").first?.hasSuffix(#"nA""#) == true, "\(diff)")
    #expect(lines(diff, "+").first?.hasSuffix(#"nB""#) == true, "\(diff)")
  }

  @Test func aMovedRowWhoseLongTextChangedShowsTheChangeAndNoOrderHint() async {
    let store = TestStore(
      initialState: Board.State(rows: [.init(id: 1, text: long), .init(id: 2, text: "a")])
    ) { Board() }
    await withKnownIssue {
      await store.send(.moveLastToFront(appending: "!")) {
        // The move forgotten, and the edit written wrong.
        $0.rows[id: 2]?.text = "a?"
      }
    } matching: {
      messages.capture($0)
    }
    #expect(lines(messages.last, "-").contains { $0.hasSuffix(#"text: "a?""#) })
    #expect(lines(messages.last, "+").contains { $0.hasSuffix(#"text: "a!""#) })
    #expect(!messages.last.contains("Only the order differs"), "\(messages.last)")

    let longStore = TestStore(
      initialState: Board.State(rows: [.init(id: 2, text: "a"), .init(id: 1, text: long)])
    ) { Board() }
    await withKnownIssue {
      await longStore.send(.moveLastToFront(appending: "!")) {
        $0.rows[id: 1]?.text = long + "?"
      }
    } matching: {
      messages.capture($0)
    }
    #expect(lines(messages.last, "-").contains { $0.hasSuffix(#"n?""#) }, "\(messages.last)")
    #expect(lines(messages.last, "+").contains { $0.hasSuffix(#"n!""#) }, "\(messages.last)")
    #expect(!messages.last.contains("Only the order differs"), "\(messages.last)")
  }

  /// A moved row whose long text did not change is still named as only reordered.
  @Test func aMovedRowWhoseLongTextIsTheSameKeepsTheOrderHint() async {
    let store = TestStore(
      initialState: Board.State(rows: [.init(id: 2, text: "a"), .init(id: 1, text: long)])
    ) { Board() }
    await withKnownIssue {
      await store.send(.moveLastToFront(appending: ""))
    } matching: {
      messages.capture($0)
    }
    #expect(messages.last.contains("Only the order differs"), "\(messages.last)")
  }
}
