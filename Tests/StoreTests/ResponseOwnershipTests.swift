import Effects
import Testing

@testable import Store

/// Who owns the work a parent starts in response to what a child's effect reported: the
/// parent's identity and the store, not the child's task. A screen's task that a view cancels
/// when the screen goes must not take the parent's save with it.
@MainActor
@Suite struct ResponseOwnershipTests {
  /// A parent that saves what its presented child reports, and acknowledges it to the child.
  struct Journal: Reducer {
    struct State: Equatable {
      var recorder: Recorder.State?
      var entries: [Int] = []
      var saves = 0
    }

    enum Action: Sendable, Equatable {
      case recorder(PresentationAction<Recorder.Action>)
      /// The root's own task: sets the child's work off from above.
      case appeared
      case saved
    }

    let clock: TestClock
    var saveDelay: Duration = .seconds(1)

    var body: some Reducer<State, Action> {
      Reduce { state, action in
        switch action {
        case .recorder(.presented(.delegate(.finished(let entry)))):
          state.entries.append(entry)
          return .merge(
            // The parent's work: a debounced save.
            .run { [saveDelay] send in
              try await clock.sleep(for: saveDelay)
              send(.saved)
            },
            // The child's work, which the parent starts.
            .send(.recorder(.presented(.acknowledged)))
          )
        case .appeared:
          return .send(.recorder(.presented(.onTask)))
        case .saved:
          state.saves += 1
          return .none
        case .recorder:
          return .none
        }
      }
      .ifLet(\.recorder, action: .recorder) { Recorder(clock: clock) }
    }
  }

  struct Recorder: Reducer {
    struct State: Equatable {
      var isAcknowledged = false
    }

    enum Action: Sendable, Equatable {
      case onTask
      case acknowledged
      case delegate(Delegate)

      enum Delegate: Sendable, Equatable {
        case finished(Int)
      }
    }

    let clock: TestClock

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .onTask:
        // Reports at once, then listens for the rest of the screen's life.
        return .run { send in
          send(.delegate(.finished(3)))
          try await clock.sleep(for: .seconds(60))
        }
      case .acknowledged:
        state.isAcknowledged = true
        return .run { _ in try await clock.sleep(for: .seconds(60)) }
      case .delegate:
        return .none
      }
    }
  }

  /// A stack whose recorder screen reports when it is done; the parent pops it and saves.
  struct Meetings: Reducer {
    struct State: Equatable {
      var path = StackState<Recorder.State>()
      var entries: [Int] = []
      var saves = 0
    }

    enum Action: Sendable, Equatable {
      case path(StackAction<Recorder.State, Recorder.Action>)
      case saved
    }

    let clock: TestClock

    var body: some Reducer<State, Action> {
      Reduce { state, action in
        switch action {
        case .path(.element(let id, .delegate(.finished(let entry)))):
          state.entries.append(entry)
          state.path.pop(from: id)
          return .run { send in
            try await clock.sleep(for: .seconds(1))
            send(.saved)
          }
        case .saved:
          state.saves += 1
          return .none
        case .path:
          return .none
        }
      }
      .forEach(\.path, action: .path) { Recorder(clock: clock) }
    }
  }

  func journal(saveDelay: Duration = .seconds(1)) -> (Harness<Journal>, TestClock) {
    let clock = TestClock()
    let harness = Harness(
      initialState: Journal.State(recorder: Recorder.State()),
      reducer: Journal(clock: clock, saveDelay: saveDelay))
    return (harness, clock)
  }

  @Test func cancellingAChildsTaskLeavesTheSaveItsParentStartedInResponse() async {
    let (harness, clock) = journal()
    let recorder = harness.store.scope(state: \.recorder, action: .recorder)!
    // The child's screen ties its work to its task, as a view does.
    let task = recorder.send(.onTask)
    harness.settle()
    #expect(harness.state.entries == [3])
    #expect(harness.state.recorder?.isAcknowledged == true)
    #expect(clock.sleeperCount == 3, "the listener, the acknowledgement's work and the save")

    // The screen goes: its task is cancelled.
    task.cancel()
    harness.settle()
    #expect(harness.core.runtime.runningCount == 1, "only the save is left")
    #expect(harness.state.saves == 0)
    await clock.advance(by: .seconds(1))
    harness.settle()
    #expect(harness.state.saves == 1)
    #expect(harness.core.runtime.runningCount == 0)
  }

  @Test func waitingForAChildsTaskDoesNotWaitForItsParentsResponse() async {
    let (harness, clock) = journal(saveDelay: .seconds(90))
    let recorder = harness.store.scope(state: \.recorder, action: .recorder)!
    let task = recorder.send(.onTask)
    harness.settle()
    #expect(task.isRunning)
    // The child's own work ends (its listener and the work the acknowledgement started):
    // the child's task is done, while the parent's save still waits.
    await clock.advance(by: .seconds(60))
    harness.settle()
    #expect(!task.isRunning)
    // (A task that waited for the save too would wait here for good: nothing advances the
    // clock while it waits.)
    guard !task.isRunning else { return }
    await task.finish()
    #expect(harness.core.runtime.runningCount == 1)
    await clock.advance(by: .seconds(30))
    harness.settle()
    #expect(harness.state.saves == 1)
    #expect(harness.core.runtime.runningCount == 0)
  }

  @Test func theChildsOwnWorkStartedByItsParentEndsWithTheChildsTask() async {
    let (harness, clock) = journal()
    let recorder = harness.store.scope(state: \.recorder, action: .recorder)!
    let task = recorder.send(.onTask)
    harness.settle()
    task.cancel()
    harness.settle()
    // The listener and the acknowledgement's work were the child's: both ended.
    await clock.advance(by: .seconds(1))
    harness.settle()
    #expect(harness.state.saves == 1)
    #expect(clock.sleeperCount == 0)
    #expect(harness.core.runtime.runningCount == 0)
  }

  @Test func aStackScreenPoppedAsItReportsLeavesItsParentsSaveRunningWhenItsTaskEnds() async throws
  {
    let clock = TestClock()
    var meetings = Meetings.State()
    meetings.path.append(Recorder.State())
    let harness = Harness(initialState: meetings, reducer: Meetings(clock: clock))
    let id = try #require(harness.state.path.lastID)
    let screen = try #require(harness.store.scope(state: \.path, action: .path)[id: id])
    let task = screen.send(.onTask)
    harness.settle()
    // The screen reported, was popped (which ended its listener), and the parent saves.
    #expect(harness.state.path.isEmpty)
    #expect(harness.state.entries == [3])
    // The popped screen's view goes, and its task is cancelled.
    task.cancel()
    harness.settle()
    await clock.advance(by: .seconds(1))
    harness.settle()
    #expect(harness.state.saves == 1)
    #expect(harness.core.runtime.runningCount == 0)
  }

  @Test func aTaskOfTheRootOwnsEverythingItsEffectsSetOff() async {
    let (harness, clock) = journal()
    // The root's task sets the child off, which reports, and the root responds: all of it
    // is the root's task's work, the save included.
    let task = harness.send(.appeared)
    #expect(harness.state.entries == [3])
    #expect(clock.sleeperCount == 3)
    #expect(task.isRunning)
    task.cancel()
    harness.settle()
    #expect(harness.core.runtime.runningCount == 0)
    await clock.advance(by: .seconds(1))
    harness.settle()
    #expect(harness.state.saves == 0)
  }
}

extension CaseKey<
  ResponseOwnershipTests.Journal.Action, PresentationAction<ResponseOwnershipTests.Recorder.Action>
> {
  static var recorder: Self {
    Self(ResponseOwnershipTests.Journal.Action.recorder) {
      if case .recorder(let a) = $0 { a } else { nil }
    }
  }
}

extension CaseKey<
  ResponseOwnershipTests.Meetings.Action,
  StackAction<ResponseOwnershipTests.Recorder.State, ResponseOwnershipTests.Recorder.Action>
> {
  static var path: Self {
    Self(ResponseOwnershipTests.Meetings.Action.path) {
      if case .path(let a) = $0 { a } else { nil }
    }
  }
}
