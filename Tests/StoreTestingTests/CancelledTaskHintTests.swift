import Effects
import Store
import StoreTesting
import Testing

/// A row that loads its cover when it appears, and a save, debounced, after every change of
/// the cover: the save is set off by an action of the row's task, so it belongs to that task
/// unless it is marked `.outlivingSendersTask()`.
private struct CoverRow: Reducer {
  struct State: Equatable {
    var cover: String?
    var saves = 0
  }
  enum Action: Equatable, Sendable {
    case appeared
    case coverLoaded(String)
    case saved
  }
  let clock: TestClock
  let outlivesTheRow: Bool
  var debounce: Duration = .seconds(1)

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .appeared:
        return .run { send in send(.coverLoaded("cover")) }
      case .coverLoaded(let cover):
        state.cover = cover
        return .none
      case .saved:
        state.saves += 1
        return .none
      }
    }
    .onChange(of: \.cover) { _, _ in
      Reduce { _, _ in
        let save = Effect<Action>.run { send in send(.saved) }
          .debounce(id: "save", for: debounce, clock: clock)
        return outlivesTheRow ? save.outlivingSendersTask() : save
      }
    }
  }
}

/// A `receive` that finds nothing names the effects the test ended with a task's `cancel()`
/// (a new-user trial: a save set off by a row's task was lost when the row's view went away,
/// and the failure said only that no effect was running).
@MainActor
@Suite struct CancelledTaskHintTests {
  let clock = TestClock()
  let messages = Messages()

  @Test func aReceiveThatFindsNothingNamesWhatACancelEnded() async {
    let store = TestStore(initialState: CoverRow.State()) {
      CoverRow(clock: clock, outlivesTheRow: false)
    }
    let rowView = await store.send(.appeared)
    await store.receive(.coverLoaded("cover")) { $0.cover = "cover" }
    let cancelLine = #line + 1
    rowView.cancel()
    await clock.advance(by: .seconds(1))
    await withKnownIssue {
      await store.receive(.saved) { $0.saves = 1 }
    } matching: {
      messages.capture($0)
    }
    let message = messages.last
    #expect(message.contains("no effect is running"), "\(message)")
    #expect(
      message.contains(
        "`cancel()` at StoreTestingTests/CancelledTaskHintTests.swift:\(cancelLine), of the task of "
          + "CoverRow.Action.appeared, ended:"),
      "\(message)")
    #expect(message.contains("    • an effect started by "), "\(message)")
    #expect(message.contains("`.outlivingSendersTask()`"), "\(message)")
    // Named once: a later failure does not repeat it.
    await withKnownIssue {
      await store.receive(.saved) { $0.saves = 1 }
    } matching: {
      messages.capture($0)
    }
    #expect(!messages.last.contains("cancel()"), "\(messages.last)")
  }

  /// Marked as the feature's own, the save outlives the row's task, and the test passes.
  @Test func aSaveMarkedOutlivingSendersTaskOutlivesTheCancel() async {
    let store = TestStore(initialState: CoverRow.State()) {
      CoverRow(clock: clock, outlivesTheRow: true)
    }
    let rowView = await store.send(.appeared)
    await store.receive(.coverLoaded("cover")) { $0.cover = "cover" }
    rowView.cancel()
    await clock.advance(by: .seconds(1))
    await store.receive(.saved) { $0.saves = 1 }
    await store.finish()
  }

  /// A cancel that ended nothing (the effects had finished) is not named.
  @Test func aCancelThatEndedNothingIsNotNamed() async {
    let store = TestStore(initialState: CoverRow.State()) {
      CoverRow(clock: clock, outlivesTheRow: true)
    }
    let rowView = await store.send(.appeared)
    await store.receive(.coverLoaded("cover")) { $0.cover = "cover" }
    await clock.advance(by: .seconds(1))
    await store.receive(.saved) { $0.saves = 1 }
    rowView.cancel()
    await withKnownIssue {
      await store.receive(.saved) { $0.saves = 2 }
    } matching: {
      messages.capture($0)
    }
    #expect(!messages.last.contains("cancel()"), "\(messages.last)")
  }
}

/// `unreceivedActions` times an effect no task of the test follows: a save marked
/// `outlivingSendersTask()` leaves the task at once, so `isRunning` cannot time it (a
/// new-user trial).
@MainActor
@Suite struct UnreceivedActionsTests {
  let clock = TestClock()
  let messages = Messages()

  @Test func anOutlivingSaveIsTimedByWhatArrived() async {
    let store = TestStore(initialState: CoverRow.State()) {
      CoverRow(clock: clock, outlivesTheRow: true)
    }
    let rowView = await store.send(.appeared)
    await store.receive(.coverLoaded("cover")) { $0.cover = "cover" }
    #expect(!rowView.isRunning)  // the save is not the task's
    await clock.advance(by: .milliseconds(999))
    #expect(store.unreceivedActions.isEmpty)
    await clock.advance(by: .milliseconds(1))
    #expect(store.unreceivedActions == [.saved])
    await store.receive(.saved) { $0.saves = 1 }
    #expect(store.unreceivedActions.isEmpty)
    await store.finish()
  }

  /// A save that came early shows at the 999th millisecond, where `isRunning` could not
  /// tell: the check can fail.
  @Test func aSaveThatCameEarlyShows() async {
    let store = TestStore(initialState: CoverRow.State()) {
      CoverRow(clock: clock, outlivesTheRow: true, debounce: .milliseconds(500))
    }
    await store.send(.appeared)
    await store.receive(.coverLoaded("cover")) { $0.cover = "cover" }
    await clock.advance(by: .milliseconds(999))
    #expect(store.unreceivedActions == [.saved])
    await store.receive(.saved) { $0.saves = 1 }
    await store.finish()
  }
}
