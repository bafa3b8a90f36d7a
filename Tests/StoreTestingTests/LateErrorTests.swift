import Effects
import Foundation
import Store
import StoreTesting
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// What a row's effect throws after its row was removed: an error that says the work was
/// stopped ends it quietly; any other is still reported, as a runtime warning that says it
/// came after the cancellation, and `catch` is not asked for an action no reducer would see.
@MainActor
@Suite struct LateErrorTests {
  struct SaveFailed: Error, CustomStringConvertible {
    var description: String { "SaveFailed(disk full)" }
  }

  /// What the row's save throws once its sleep was cancelled.
  enum Late: Sendable {
    case saveFailed
    case urlCancelled
    case cancellation
  }

  struct Row: Reducer {
    struct State: Equatable, Identifiable, Sendable { var id: Int }
    enum Action: Equatable, Sendable {
      case save
      case saveWithCatch
      case failed(String)
    }
    let clock: TestClock
    let late: Late

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .save:
        return .run { [clock, late] _ in try await Self.save(clock, late) }
      case .saveWithCatch:
        return .run { [clock, late] _ in
          try await Self.save(clock, late)
        } catch: { error in
          .failed("\(error)")
        }
      case .failed:
        return .none
      }
    }

    /// Sleeps, as a save to a slow disk would, and throws `late` if stopped.
    static func save(_ clock: TestClock, _ late: Late) async throws {
      do {
        try await clock.sleep(for: .seconds(1))
      } catch {
        switch late {
        case .saveFailed: throw SaveFailed()
        case .urlCancelled: throw URLError(.cancelled)
        case .cancellation: throw CancellationError()
        }
      }
    }
  }

  struct List: Reducer {
    struct State: Equatable, Sendable {
      var rows: IdentifiedArrayOf<Row.State> = [Row.State(id: 1)]
    }
    enum Action: Equatable, Sendable {
      case rows(IdentifiedAction<Int, Row.Action>)
      case remove(Int)
    }
    let clock: TestClock
    let late: Late

    var body: some Reducer<State, Action> {
      Reduce { state, action in
        if case .remove(let id) = action { state.rows.remove(id: id) }
        return .none
      }
      .forEach(\.rows, action: .leRows) { Row(clock: clock, late: late) }
    }
  }

  let clock = TestClock()
  let messages = Messages()

  func makeStore(_ late: Late) -> TestStore<List.State, List.Action> {
    TestStore(initialState: List.State()) { List(clock: clock, late: late) }
  }

  @Test func aRealErrorThrownAfterTheRowWasRemovedIsReported() async {
    let store = makeStore(.saveFailed)
    await store.send(.rows(.element(id: 1, action: .save)))
    await withKnownIssue {
      await store.send(.remove(1)) { $0.rows = [] }
    } matching: {
      messages.capture($0)
    }
    #expect(messages.all.count == 1)
    #expect(messages.last.hasPrefix("Runtime warning at StoreTestingTests/LateErrorTests.swift:"))
    #expect(
      messages.last.contains(
        """
        An effect started by action LateErrorTests.List.Action.rows(.element(id: 1, action: .save)) threw an error \
        after it was cancelled: SaveFailed(disk full).
        """))
    await store.finish()
  }

  @Test func aCatchIsNotAskedForAnActionAfterTheRowWasRemovedAndTheErrorIsReported() async {
    let store = makeStore(.saveFailed)
    await store.send(.rows(.element(id: 1, action: .saveWithCatch)))
    await withKnownIssue {
      await store.send(.remove(1)) { $0.rows = [] }
    } matching: {
      messages.capture($0)
    }
    #expect(messages.all.count == 1)
    #expect(messages.last.contains("threw an error after it was cancelled: SaveFailed(disk full)."))
    // No `.failed` action: the test store would fail on an unreceived one.
    await store.finish()
  }

  @Test(arguments: [Late.urlCancelled, .cancellation])
  func anErrorThatMeansCancellationEndsTheRemovedRowsEffectQuietly(late: Late) async {
    let store = makeStore(late)
    await store.send(.rows(.element(id: 1, action: .save)))
    await store.send(.rows(.element(id: 1, action: .saveWithCatch)))
    await store.send(.remove(1)) { $0.rows = [] }
    await store.finish()
  }
}

extension CaseKey<LateErrorTests.List.Action, IdentifiedAction<Int, LateErrorTests.Row.Action>> {
  fileprivate static var leRows: Self {
    Self(LateErrorTests.List.Action.rows) { if case .rows(let action) = $0 { action } else { nil } }
  }
}

/// The Effects guide's way to drop a failure that comes after the row went away ("Handle
/// errors"): `catch where Task.isCancelled` inside the operation, with `catch:` still getting
/// the failures of a row that is there.
@MainActor
@Suite struct DroppedLateErrorTests {
  struct RequestFailed: Error, CustomStringConvertible {
    var description: String { "RequestFailed(404)" }
  }

  struct Row: Reducer {
    struct State: Equatable, Identifiable, Sendable {
      var id: Int
      var isFavorite = false
      var errorMessage: String?
    }
    enum Action: Equatable, Sendable {
      case favoriteTapped
      case favoriteFailed(String)
    }
    /// A request that ignores cancellation and fails: after a second, or at once when cancelled.
    let setFavorite: @Sendable (_ id: Int, _ isOn: Bool) async throws -> Void

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .favoriteTapped:
        state.isFavorite.toggle()
        return .run { [id = state.id, isOn = state.isFavorite, client = self] _ in
          do {
            try await client.setFavorite(id, isOn)
          } catch  where Task.isCancelled {
            // Cancelled (its row removed, say): no reducer can hear of this. Others go to `catch:`.
          }
        } catch: { error in
          .favoriteFailed("\(error)")
        }
      case .favoriteFailed(let message):
        state.isFavorite.toggle()
        state.errorMessage = message
        return .none
      }
    }
  }

  struct List: Reducer {
    struct State: Equatable, Sendable {
      var rows: IdentifiedArrayOf<Row.State> = [Row.State(id: 1)]
    }
    enum Action: Equatable, Sendable {
      case rows(IdentifiedAction<Int, Row.Action>)
      case remove(Int)
    }
    let setFavorite: @Sendable (_ id: Int, _ isOn: Bool) async throws -> Void

    var body: some Reducer<State, Action> {
      Reduce { state, action in
        if case .remove(let id) = action { state.rows.remove(id: id) }
        return .none
      }
      .forEach(\.rows, action: .dleRows) { Row(setFavorite: setFavorite) }
    }
  }

  let clock = TestClock()

  func makeStore() -> TestStore<List.State, List.Action> {
    TestStore(initialState: List.State()) { [clock] in
      List { _, _ in
        // `try?`: cancelled, the sleep ends early, and the request fails all the same.
        try? await clock.sleep(for: .seconds(1))
        throw RequestFailed()
      }
    }
  }

  @Test func aFailureAfterTheRowWasRemovedIsDroppedQuietly() async {
    let store = makeStore()
    await store.send(.rows(.element(id: 1, action: .favoriteTapped))) {
      $0.rows[id: 1]?.isFavorite = true
    }
    // No runtime warning (the test store would fail on one), and no action.
    await store.send(.remove(1)) { $0.rows = [] }
    await store.finish()
  }

  @Test func aFailureWhileTheRowIsThereStillReachesCatch() async {
    let store = makeStore()
    await store.send(.rows(.element(id: 1, action: .favoriteTapped))) {
      $0.rows[id: 1]?.isFavorite = true
    }
    await clock.advance(by: .seconds(1))
    await store.receive(.rows(.element(id: 1, action: .favoriteFailed("RequestFailed(404)")))) {
      $0.rows[id: 1]?.isFavorite = false
      $0.rows[id: 1]?.errorMessage = "RequestFailed(404)"
    }
  }
}

extension CaseKey<
  DroppedLateErrorTests.List.Action, IdentifiedAction<Int, DroppedLateErrorTests.Row.Action>
> {
  fileprivate static var dleRows: Self {
    Self(DroppedLateErrorTests.List.Action.rows) {
      if case .rows(let action) = $0 { action } else { nil }
    }
  }
}
