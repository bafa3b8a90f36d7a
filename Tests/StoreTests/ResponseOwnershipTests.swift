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
      /// Reports once a first part of work is done, as the next part of a concatenation.
      case finishLater
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
      case .finishLater:
        return .concatenate(
          .run { _ in try await clock.sleep(for: .seconds(5)) },
          .send(.delegate(.finished(4)))
        )
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

  @Test func aReportSentAsTheNextPartOfAConcatenationIsAnsweredOutsideTheChildsTask() async {
    let (harness, clock) = journal()
    let recorder = harness.store.scope(state: \.recorder, action: .recorder)!
    let task = recorder.send(.finishLater)
    harness.settle()
    await clock.advance(by: .seconds(5))
    harness.settle()
    #expect(harness.state.entries == [4])
    task.cancel()
    harness.settle()
    await clock.advance(by: .seconds(1))
    harness.settle()
    #expect(harness.state.saves == 1)
    #expect(harness.core.runtime.runningCount == 0)
  }

  /// A parent that answers its child's report with a sequence: the acknowledgement (the
  /// child's work), then the save (its own).
  struct SequencedJournal: Reducer {
    struct State: Equatable {
      var recorder: Recorder.State? = Recorder.State()
      var saves = 0
    }

    enum Action: Sendable, Equatable {
      case recorder(PresentationAction<Recorder.Action>)
      case saved
    }

    let clock: TestClock

    var body: some Reducer<State, Action> {
      Reduce { state, action in
        switch action {
        case .recorder(.presented(.delegate(.finished))):
          return .concatenate(
            .send(.recorder(.presented(.acknowledged))),
            .run { send in
              try await clock.sleep(for: .seconds(1))
              send(.saved)
            }
          )
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

  @Test func aParentsAnswerInSequenceLeavesTheChildsOwnWorkInTheChildsTask() async {
    let clock = TestClock()
    let harness = Harness(
      initialState: SequencedJournal.State(), reducer: SequencedJournal(clock: clock))
    let recorder = harness.store.scope(state: \.recorder, action: .recorder)!
    let task = recorder.send(.onTask)
    harness.settle()
    #expect(harness.state.recorder?.isAcknowledged == true)
    #expect(clock.sleeperCount == 3, "the listener, the acknowledgement's work and the save")
    task.cancel()
    harness.settle()
    #expect(clock.sleeperCount == 1, "only the save is left")
    await clock.advance(by: .seconds(1))
    harness.settle()
    #expect(harness.state.saves == 1)
    #expect(harness.core.runtime.runningCount == 0)
  }

  /// A child whose screen's task asks its parent at once, with a `.send`, to follow something
  /// for it while the screen shows.
  struct Following: Reducer {
    struct State: Equatable {
      var child: Child? = Child()
    }

    struct Child: Equatable {}

    enum Action: Sendable, Equatable {
      case child(PresentationAction<ChildAction>)
    }

    enum ChildAction: Sendable, Equatable {
      case onTask
      case delegate
    }

    let clock: TestClock

    var body: some Reducer<State, Action> {
      Reduce { _, action in
        guard case .child(.presented(.delegate)) = action else { return .none }
        return .run { _ in
          while true { try await clock.sleep(for: .seconds(1)) }
        }
      }
      .ifLet(\.child, action: .child) {
        Reduce<Child, ChildAction> { _, action in
          action == .onTask ? .send(.delegate) : .none
        }
      }
    }
  }

  @Test func whatAParentStartsAtOnceForAChildsTaskEndsWithThatTask() {
    let clock = TestClock()
    let harness = Harness(initialState: Following.State(), reducer: Following(clock: clock))
    let child = harness.store.scope(state: \.child, action: .child)!
    for _ in 0..<3 {
      let task = child.send(.onTask)
      harness.settle()
      #expect(harness.core.runtime.runningCount == 1)
      task.cancel()
      harness.settle()
    }
    #expect(harness.core.runtime.runningCount == 0)
  }

  /// A root whose session work runs in a lifetime of its own, and which answers the
  /// session's events.
  struct Session: Reducer {
    struct State: Equatable {
      var handled = 0
    }

    enum Action: Sendable, Equatable {
      case task
      case event
      case handled
    }

    let clock: TestClock

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .task:
        return .run { send in
          send(.event)
          try await clock.sleep(for: .seconds(60))
        }
        .scoped(to: "session")
      case .event:
        return .run { send in
          try await clock.sleep(for: .seconds(1))
          send(.handled)
        }
      case .handled:
        state.handled += 1
        return .none
      }
    }
  }

  @Test func aRootTaskOwnsItsAnswersToItsOwnScopedWork() {
    let clock = TestClock()
    let harness = Harness(initialState: Session.State(), reducer: Session(clock: clock))
    let task = harness.send(.task)
    #expect(clock.sleeperCount == 2)
    task.cancel()
    harness.settle()
    #expect(harness.core.runtime.runningCount == 0)
  }

  /// A parent that answers draft 1's report by presenting draft 2 and loading it.
  struct NextDraft: Reducer {
    struct Draft: Equatable, Identifiable, Sendable {
      var id: Int
    }

    struct State: Equatable {
      var draft: Draft? = Draft(id: 1)
    }

    enum Action: Sendable, Equatable {
      case draft(PresentationAction<DraftAction>)
    }

    enum DraftAction: Sendable, Equatable {
      case onTask
      case load
      case delegate(Int)
    }

    let clock: TestClock

    var body: some Reducer<State, Action> {
      Reduce { state, action in
        guard case .draft(.presented(.delegate(let id))) = action else { return .none }
        state.draft = Draft(id: id + 1)
        return .send(.draft(.presented(.load)))
      }
      .ifLet(\.draft, action: .draft) {
        Reduce<Draft, DraftAction> { state, action in
          switch action {
          case .onTask:
            return .run { [id = state.id] send in
              try await clock.sleep(for: .seconds(1))
              send(.delegate(id))
              try await clock.sleep(for: .seconds(60))
            }
          case .load:
            return .run { _ in try await clock.sleep(for: .seconds(5)) }
          case .delegate:
            return .none
          }
        }
      }
    }
  }

  @Test func theWorkOfAChildPresentedInAnswerIsNotTheReplacedChildsWork() async {
    let clock = TestClock()
    let harness = Harness(initialState: NextDraft.State(), reducer: NextDraft(clock: clock))
    let first = harness.store.scope(state: \.draft, action: .draft)!
    let task = first.send(.onTask)
    harness.settle()
    await clock.advance(by: .seconds(1))
    harness.settle()
    #expect(harness.state.draft?.id == 2)
    // Draft 1's sheet goes: its task is cancelled; draft 2's load goes on.
    task.cancel()
    harness.settle()
    #expect(clock.sleeperCount == 1)
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

extension CaseKey<
  ResponseOwnershipTests.SequencedJournal.Action,
  PresentationAction<ResponseOwnershipTests.Recorder.Action>
> {
  static var recorder: Self {
    Self(ResponseOwnershipTests.SequencedJournal.Action.recorder) {
      if case .recorder(let a) = $0 { a } else { nil }
    }
  }
}

extension CaseKey<
  ResponseOwnershipTests.Following.Action,
  PresentationAction<ResponseOwnershipTests.Following.ChildAction>
> {
  static var child: Self {
    Self(ResponseOwnershipTests.Following.Action.child) {
      if case .child(let a) = $0 { a } else { nil }
    }
  }
}

extension CaseKey<
  ResponseOwnershipTests.NextDraft.Action,
  PresentationAction<ResponseOwnershipTests.NextDraft.DraftAction>
> {
  static var draft: Self {
    Self(ResponseOwnershipTests.NextDraft.Action.draft) {
      if case .draft(let a) = $0 { a } else { nil }
    }
  }
}
