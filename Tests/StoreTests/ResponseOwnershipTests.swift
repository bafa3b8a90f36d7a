import Effects
import Testing

@testable import Store

/// Who owns the work a parent starts in answer to what a child's effect reported. By default
/// the task of the action that set the chain off, however long the chain, as for any work;
/// work marked `outlivingSendersTask()` is the parent's own: a screen's task that a view
/// cancels when the screen goes does not take the parent's save with it.
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
    /// Whether the parent marks its save as its own.
    var ownsSave = true

    var body: some Reducer<State, Action> {
      Reduce { state, action in
        switch action {
        case .recorder(.presented(.delegate(.finished(let entry)))):
          state.entries.append(entry)
          let save = Effect<Action>.run { [saveDelay] send in
            try await clock.sleep(for: saveDelay)
            send(.saved)
          }
          return .merge(
            // The parent's work: a save.
            ownsSave ? save.outlivingSendersTask() : save,
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
      .presents(\.recorder, action: .recorder) { Recorder(clock: clock) }
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
          .outlivingSendersTask()
        case .saved:
          state.saves += 1
          return .none
        case .path:
          return .none
        }
      }
      .navigationStack(\.path, action: .path) { Recorder(clock: clock) }
    }
  }

  func journal(saveDelay: Duration = .seconds(1), ownsSave: Bool = true) -> (
    Harness<Journal>, TestClock
  ) {
    let clock = TestClock()
    let harness = Harness(
      initialState: Journal.State(recorder: Recorder.State()),
      reducer: Journal(clock: clock, saveDelay: saveDelay, ownsSave: ownsSave))
    return (harness, clock)
  }

  @Test func aTaskOwnsEverythingItsActionSetsOffHoweverLongTheChain() async {
    let (harness, clock) = journal(ownsSave: false)
    let recorder = harness.store.scope(state: \.recorder, action: .recorder)!
    let task = recorder.send(.onTask)
    harness.settle()
    #expect(harness.state.entries == [3])
    #expect(clock.sleeperCount == 3, "the listener, the acknowledgement's work and the save")
    // The screen goes: its task is cancelled, and with it the parent's unmarked save.
    task.cancel()
    harness.settle()
    #expect(harness.core.runtime.runningCount == 0)
    await clock.advance(by: .seconds(1))
    harness.settle()
    #expect(harness.state.saves == 0)
  }

  @Test func aSaveThatOutlivesTheSendersTaskSurvivesTheChildsScreenGoing() async {
    let (harness, clock) = journal()
    let recorder = harness.store.scope(state: \.recorder, action: .recorder)!
    let task = recorder.send(.onTask)
    harness.settle()
    #expect(clock.sleeperCount == 3)
    task.cancel()
    harness.settle()
    // The child's listener and the acknowledgement's work were the task's; the save is not.
    #expect(harness.core.runtime.runningCount == 1)
    #expect(harness.state.saves == 0)
    await clock.advance(by: .seconds(1))
    harness.settle()
    #expect(harness.state.saves == 1)
    #expect(harness.core.runtime.runningCount == 0)
  }

  @Test func waitingForTheSendersTaskDoesNotWaitForWorkThatOutlivesIt() async {
    let (harness, clock) = journal(saveDelay: .seconds(90))
    let recorder = harness.store.scope(state: \.recorder, action: .recorder)!
    let task = recorder.send(.onTask)
    harness.settle()
    #expect(task.isRunning)
    // The child's own work ends; the parent's save still waits.
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

  /// A child whose own work outlives its screen's task, until the child goes.
  struct Uploader: Reducer {
    struct State: Equatable {
      var upload: Upload? = Upload()
    }

    struct Upload: Equatable {}

    enum Action: Sendable, Equatable {
      case upload(PresentationAction<UploadAction>)
    }

    enum UploadAction: Sendable, Equatable {
      case startTapped
    }

    let clock: TestClock

    var body: some Reducer<State, Action> {
      Reduce { _, _ in .none }
        .presents(\.upload, action: .upload) {
          Reduce<Upload, UploadAction> { _, _ in
            .run { _ in try await clock.sleep(for: .seconds(60)) }
              .outlivingSendersTask()
          }
        }
    }
  }

  @Test func workThatOutlivesTheSendersTaskStillEndsWithItsFeature() {
    let clock = TestClock()
    let harness = Harness(initialState: Uploader.State(), reducer: Uploader(clock: clock))
    let task = harness.send(.upload(.presented(.startTapped)))
    #expect(!task.isRunning, "the task has nothing of its own to wait for")
    task.cancel()
    harness.settle()
    #expect(clock.sleeperCount == 1)
    // Dismissing the child ends its lifetime, and the work with it.
    harness.send(.upload(.dismiss))
    #expect(clock.sleeperCount == 0)
    #expect(harness.core.runtime.runningCount == 0)
  }

  @Test(arguments: [false, true])
  func debouncedWorkThatOutlivesTheSendersTaskWaitsOutsideItInEitherOrder(markedFirst: Bool)
    async
  {
    let clock = TestClock()
    let harness = Harness(
      initialState: LogFeature.State(),
      reducer: LogFeature { _ in
        let save = Effect<LogFeature.Action>.send(.record("saved"))
        return markedFirst
          ? save.outlivingSendersTask().debounce(id: "save", for: .seconds(1), clock: clock)
          : save.debounce(id: "save", for: .seconds(1), clock: clock).outlivingSendersTask()
      })
    let task = harness.send(.start("a"))
    #expect(!task.isRunning, "the wait is outside the sender's task too")
    task.cancel()
    harness.settle()
    await clock.advance(by: .seconds(1))
    harness.settle()
    #expect(harness.state.log == ["start a", "saved"])
  }

  @Test(arguments: [false, true])
  func throttledWorkThatOutlivesTheSendersTaskIsHeldBackOutsideIt(markedFirst: Bool) async {
    let clock = TestClock()
    let harness = Harness(
      initialState: LogFeature.State(),
      reducer: LogFeature { _ in
        let save = Effect<LogFeature.Action>.send(.record("saved"))
        return markedFirst
          ? save.outlivingSendersTask().throttle(
            id: "save", for: .seconds(1), clock: clock, latest: true)
          : save.throttle(id: "save", for: .seconds(1), clock: clock, latest: true)
            .outlivingSendersTask()
      })
    harness.send(.start("a"))
    // The second save is held back until the window closes; its sender's task goes meanwhile.
    let second = harness.send(.start("b"))
    #expect(!second.isRunning)
    second.cancel()
    harness.settle()
    await clock.advance(by: .seconds(1))
    harness.settle()
    #expect(harness.state.log == ["start a", "saved", "start b", "saved"])
  }

  @Test func aTaskOfTheRootOwnsEverythingItsEffectsSetOff() async {
    let (harness, clock) = journal(ownsSave: false)
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

extension CaseKey<
  ResponseOwnershipTests.Uploader.Action,
  PresentationAction<ResponseOwnershipTests.Uploader.UploadAction>
> {
  static var upload: Self {
    Self(ResponseOwnershipTests.Uploader.Action.upload) {
      if case .upload(let a) = $0 { a } else { nil }
    }
  }
}
