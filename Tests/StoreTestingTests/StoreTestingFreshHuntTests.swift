import Effects
import Store
import StoreTesting
import Testing
import XCTest

/// A list whose rename feeds back a count, and whose refresh feeds back an action that changes
/// the state and one that does not.
private struct Shelf: Reducer {
  struct Book: Equatable, Identifiable {
    let id: Int
    var title = ""
  }
  struct State: Equatable {
    var books: IdentifiedArrayOf<Book> = []
    var selected: Int?
    var count = 0
  }
  enum Action: Sendable, Equatable {
    case add(Int)
    case rename(Int, String)
    case refresh
    case select(Int?)
    case bump
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .add(let id):
      state.books.append(Book(id: id))
      return .none
    case .rename(let id, let title):
      state.books[id: id]?.title = title
      return .send(.bump)
    case .refresh:
      return .concatenate(.send(.bump), .send(.select(nil)))
    case .select(let id):
      state.selected = id
      return .none
    case .bump:
      state.count += 1
      return .none
    }
  }
}

/// A fresh hunt through StoreTesting: where a test store said something other than what
/// happened, or said it twice.
@MainActor
@Suite struct StoreTestingFreshHuntTests {
  private let issues = RecordedIssues()

  /// A `try #require(...)` that fails in a `send`'s assertion closure records its failure, at
  /// its line, and throws: the test store reported the error again, as "The assertion closure
  /// of send(Shelf.Action.add(1)) threw: ExpectationFailedError(expectation: …)", a second
  /// failure of one mistake, naming Swift Testing's innards.
  @Test func aFailedRequireInASendClosureFailsTheStepOnce() async {
    let store = TestStore(initialState: Shelf.State()) { Shelf() }
    await issues.expectKnown {
      await store.send(.add(1)) {
        let book = try #require($0.books[id: 2])
        $0.selected = book.id
      }
    }
    #expect(issues.requires == 1)
    #expect(issues.texts.count == 1, "\(issues.texts)")
    // The test goes on from the state after the step.
    await store.send(.add(2)) {
      $0.books = [Shelf.Book(id: 1), Shelf.Book(id: 2)]
    }
    await store.finish()
  }

  /// The same through a `receive`'s closure.
  @Test func aFailedRequireInAReceiveClosureFailsTheStepOnce() async {
    let store = TestStore(initialState: Shelf.State(books: [Shelf.Book(id: 1)])) { Shelf() }
    await store.send(.rename(1, "Emma")) { $0.books[id: 1]?.title = "Emma" }
    await issues.expectKnown {
      await store.receive(.bump) {
        try #require($0.selected != nil)
        $0.count = 1
      }
    }
    #expect(issues.requires == 1)
    #expect(issues.texts.count == 1, "\(issues.texts)")
    await store.finish()
  }

  /// Another error a closure throws still fails the step, once, naming it.
  @Test func anotherErrorAClosureThrowsStillFailsTheStepNamingIt() async {
    struct NoBook: Error, CustomStringConvertible {
      var description: String { "no book 2" }
    }
    let store = TestStore(initialState: Shelf.State()) { Shelf() }
    await issues.expectKnown {
      await store.send(.add(1)) { _ in throw NoBook() }
    }
    #expect(issues.texts == ["The assertion closure of send(Shelf.Action.add(1)) threw: no book 2"])
    await store.finish()
  }

  /// Non-exhaustive, a failing step that changed the state reminds that its closure ran on
  /// the state after it (the docs: "a failing step that changed the state reminds of it"). A
  /// `receive` that skipped actions was judged from the state before them: one that changed
  /// nothing, after a skipped one that did, was reminded of a change by what a value is, which
  /// its closure (`$0.count = 5`) did not make.
  @Test func aReceiveThatChangedNothingAfterSkippedChangesIsNotRemindedOfThem() async {
    let store = TestStore(initialState: Shelf.State()) { Shelf() }
    store.exhaustivity = .off
    await store.send(.refresh)
    await issues.expectKnown {
      await store.receive(.select(nil)) { $0.count = 5 }
    }
    #expect(
      issues.texts == [
        """
        The state after receive(Shelf.Action.select(nil)) differs from the expected state. \
        (- expected, + actual)
          Shelf.State(
            … (2 unchanged)
        -   count: 5
        +   count: 1
          )
        """
      ])

    // One that changed the state is still reminded.
    await store.send(.refresh)
    await issues.expectKnown {
      await store.receive(.bump) { $0.count += 1 }
    }
    #expect(issues.texts.last?.contains("counts the step's change twice") == true)
    await store.finish()
  }
}

/// The same for XCTest's `XCTUnwrap`, in an `XCTestCase`. The failures of the unwrap and of
/// the test store are captured; any other still fails the test.
final class StoreTestingFreshHuntXCTests: FailureCapturingTestCase {
  override func isCaptured(_ description: String) -> Bool {
    description.contains("XCTUnwrap") || description.contains("assertion closure")
  }

  /// `XCTUnwrap` records its failure and throws an error that XCTest does not report again:
  /// the test store reported it, "The assertion closure of send(…) threw:
  /// XCTestErrorWhileUnwrappingOptional()".
  @MainActor
  func testAFailedUnwrapInASendClosureFailsTheStepOnce() async {
    let store = TestStore(initialState: Shelf.State()) { Shelf() }
    await store.send(.add(1)) {
      let book = try XCTUnwrap($0.books[id: 2])
      $0.selected = book.id
    }
    XCTAssertEqual(failures.count, 1, "\(failures)")
    XCTAssertTrue(failures.first?.contains("XCTUnwrap failed") ?? false, "\(failures)")
    failures = []
    await store.finish()
  }
}
