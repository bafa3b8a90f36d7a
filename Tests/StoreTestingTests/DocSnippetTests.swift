import Effects
import Foundation
import Store
import StoreTesting
import Testing

// Snippets of the StoreTesting "Testing Features" article and of the Effects Getting Started
// article that GettingStartedSnippetTests does not run: each feature is copied as the article
// writes it (inside an enum, so that it keeps its unqualified names; the Testing Features
// article's `Notes` is in Support), with the least the partial snippets need around them, and
// each test checks what the text says the code does.

/// The snippets of the Testing Features article, on its `Notes` feature (in Support, shared
/// with ReadAFailureDocTests).
enum TestingFeaturesSnippet {}

extension TestingFeaturesSnippet {
  @MainActor
  @Suite struct TestingFeaturesArticleTests {
    // "Write a test", as written.
    @Test func editingSavesAfterTwoQuietSeconds() async {
      let clock = TestClock()
      let store = TestStore(initialState: Notes.State()) {
        Notes(clock: clock, makeID: .incrementing())
      }
      let id = UUID(counting: 0)

      await store.send(.addTapped) {
        $0.notes = [Notes.Note(id: id)]
      }
      await store.send(.textChanged(id: id, text: "Milk")) {
        $0.notes[0].text = "Milk"
      }
      await clock.advance(by: .seconds(1))
      await store.send(.textChanged(id: id, text: "Oat milk")) {
        $0.notes[0].text = "Oat milk"
      }
      await clock.advance(by: .seconds(2))
      await store.receive(.autosaved) {
        $0.saveCount = 1
      }
      await store.finish()
    }

    // "Wait for or cancel one action's effects": the pending save never runs, and nothing is
    // left running.
    @Test func cancellingAnEditsTaskDropsThePendingSave() async {
      let clock = TestClock()
      let store = TestStore(initialState: Notes.State()) {
        Notes(clock: clock, makeID: .incrementing())
      }
      let id = UUID(counting: 0)
      await store.send(.addTapped) { $0.notes = [Notes.Note(id: id)] }

      let edit = await store.send(.textChanged(id: id, text: "Tea")) {
        $0.notes[0].text = "Tea"
      }
      edit.cancel()  // the pending save never runs
      await clock.advance(by: .seconds(2))
      #expect(store.unreceivedActions.isEmpty)
      #expect(!edit.isRunning)
      await store.finish()  // nothing left running
    }

    // "Test only the outcome", as written: the steps without closures check nothing, and the
    // receive checks only what its closure sets.
    @Test func theOutcomeOnlyTestPasses() async {
      let clock = TestClock()
      let store = TestStore(initialState: Notes.State()) {
        Notes(clock: clock, makeID: .incrementing())
      }
      let id = UUID(counting: 0)

      store.exhaustivity = .off
      await store.send(.addTapped)
      await store.send(.textChanged(id: id, text: "Milk"))
      await clock.advance(by: .seconds(2))
      await store.receive(.autosaved) { $0.saveCount = 1 }
      await store.finish()
      #expect(store.state.notes == [Notes.Note(id: id, text: "Milk")])
    }
  }
}

enum EffectsGuidePartialSnippet {
  struct Row: Reducer {
    struct State: Equatable, Identifiable {
      let id: Int
      var loadCount = 0
    }

    enum Action: Sendable, Equatable {
      case loadTapped
      case loaded
    }

    enum CancelID { case load }

    let clock: any Clock<Duration>

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .loadTapped:
        return .run { [clock] send in
          try await clock.sleep(for: .seconds(1))
          send(.loaded)
        }
        .cancellable(id: CancelID.load, cancelInFlight: true)
      case .loaded:
        state.loadCount += 1
        return .none
      }
    }
  }

  /// The rows of "Cancel effects", and the `catch:` that sends two actions of "Handle errors".
  struct List: Reducer {
    struct State: Equatable {
      var rows: [Row.State] = []
      var failures: [String] = []
      var retries = 0
    }

    enum Action: Sendable, Equatable {
      case row(Int, Row.Action)
      case removeRowTapped(Int)
      case searchTapped(String)
      case results([String])
      case failed(String)
      case retryLater
    }

    let clock: any Clock<Duration>
    let search: @Sendable (String) async throws -> [String]

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .row(let id, let rowAction):
        guard let index = state.rows.firstIndex(where: { $0.id == id }) else { return .none }
        return Row(clock: clock).reduce(into: &state.rows[index], action: rowAction)
          .map { .row(id, $0) }
          .scoped(to: id)

      case .removeRowTapped(let id):
        state.rows.removeAll { $0.id == id }
        return .endLifetime(of: id)

      case .searchTapped(let query):
        return .run { send in
          send(.results(try await search(query)))
        } catch: { error, send in
          send(.failed("\(error)"))
          send(.retryLater)
        }

      case .results:
        return .none

      case .failed(let message):
        state.failures.append(message)
        return .none

      case .retryLater:
        state.retries += 1
        return .none
      }
    }
  }
}

extension EffectsGuidePartialSnippet {
  @MainActor
  @Suite struct EffectsGuidePartialSnippetTests {
    struct Offline: Error {}

    static func makeStore(clock: TestClock) -> TestStoreOf<List> {
      TestStore(initialState: List.State(rows: [Row.State(id: 1), Row.State(id: 2)])) {
        List(clock: clock, search: { _ in throw Offline() })
      }
    }

    // "Two rows can then use the same `CancelID.load` without cancelling each other".
    @Test func twoRowsLoadUnderOneCancelIDWithoutCancellingEachOther() async {
      let clock = TestClock()
      let store = Self.makeStore(clock: clock)
      await store.send(.row(1, .loadTapped))
      await store.send(.row(2, .loadTapped))
      await clock.advance(by: .seconds(1))
      await store.receive(.row(1, .loaded)) { $0.rows[0].loadCount = 1 }
      await store.receive(.row(2, .loaded)) { $0.rows[1].loadCount = 1 }
      await store.finish()
    }

    // "... and removing a row cancels all of its work".
    @Test func removingARowCancelsItsLoadAlone() async {
      let clock = TestClock()
      let store = Self.makeStore(clock: clock)
      await store.send(.row(1, .loadTapped))
      await store.send(.row(2, .loadTapped))
      await store.send(.removeRowTapped(1)) { $0.rows.removeFirst() }
      await clock.advance(by: .seconds(1))
      await store.receive(.row(2, .loaded)) { $0.rows[0].loadCount = 1 }
      await store.finish()
    }

    // "To send more than one action for an error ... take the `Send` in `catch:` as well".
    @Test func aCatchThatTakesSendSendsBothActions() async {
      let store = Self.makeStore(clock: TestClock())
      await store.send(.searchTapped("sw"))
      await store.receive(.failed("Offline()")) { $0.failures = ["Offline()"] }
      await store.receive(.retryLater) { $0.retries = 1 }
      await store.finish()
    }
  }
}
