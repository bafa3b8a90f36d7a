import Effects
import Testing

@testable import Store

/// A screen whose startup restores a session in a second, in one of three ways.
private struct RestoringScreen: Reducer {
  enum Restore: Sendable {
    /// The startup returns the work.
    case returned
    /// The startup returns the work marked `.outlivingSendersTask()`, as a helper shared
    /// with a button may be.
    case returnedOutliving
    /// The startup sends `.restore`, whose reducer returns the work.
    case sent
  }

  struct State: Equatable {
    var lifecycle = ScreenLifecycleState()
    var log: [String] = []
  }

  enum Action: Sendable, Equatable {
    case lifecycle(ScreenLifecycleAction)
    case restore
    case restored

    static var lifecycleKey: CaseKey<Self, ScreenLifecycleAction> {
      CaseKey(Self.lifecycle) { if case .lifecycle(let action) = $0 { action } else { nil } }
    }
  }

  let clock: TestClock
  let restore: Restore

  func restoring() -> Effect<Action> {
    .run { [clock] send in
      try await clock.sleep(for: .seconds(1))
      send(.restored)
    }
  }

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .lifecycle(.startup):
        state.log.append("startup")
        switch restore {
        case .returned: return restoring()
        case .returnedOutliving: return restoring().outlivingSendersTask()
        case .sent: return .send(.restore)
        }
      case .lifecycle(.firstFocus):
        state.log.append("firstFocus")
        return .none
      case .restore:
        state.log.append("restore")
        return restoring()
      case .restored:
        state.log.append("restored")
        return .none
      case .lifecycle:
        return .none
      }
    }
    .screenLifecycle(\.lifecycle, action: Action.lifecycleKey)
  }
}

/// A hook's work marked `.outlivingSendersTask()` was not waited for: the next hook ran
/// beside it, as a sequence does not wait for a marked part (lifecycle hunt). No button awaits
/// a hook, so the mark is taken off there. And what the docs now say of an action a hook
/// sends: it is reduced as any action is, and its work is neither waited for nor ended with
/// the screen's task.
@MainActor
@Suite struct LifecycleHookOrderTests {
  let clock = TestClock()

  @Test(arguments: [RestoringScreen.Restore.returned, .returnedOutliving])
  fileprivate func theFirstFocusWaitsForTheStartupsWork(restore: RestoringScreen.Restore) async {
    let harness = Harness(
      initialState: RestoringScreen.State(),
      reducer: RestoringScreen(clock: clock, restore: restore))
    harness.send(.lifecycle(.taskStarted))
    #expect(clock.sleeperCount == 1, "the startup's work alone")
    #expect(harness.state.log == ["startup"])
    await clock.advance(by: .seconds(1))
    harness.settle()
    #expect(harness.state.log == ["startup", "restored", "firstFocus"])
  }

  @Test(arguments: [RestoringScreen.Restore.returned, .returnedOutliving])
  fileprivate func theStartupsWorkEndsWithTheTask(restore: RestoringScreen.Restore) async {
    let harness = Harness(
      initialState: RestoringScreen.State(),
      reducer: RestoringScreen(clock: clock, restore: restore))
    harness.send(.lifecycle(.taskStarted))
    harness.send(.lifecycle(.taskEnded))
    #expect(clock.sleeperCount == 0)
  }

  /// As documented: the work of an action the startup sends is that action's, as for any
  /// action; the first focus does not wait for it, and the task's end does not end it.
  @Test func theWorkOfAnActionTheStartupSendsIsThatActionsOwn() async {
    let harness = Harness(
      initialState: RestoringScreen.State(),
      reducer: RestoringScreen(clock: clock, restore: .sent))
    harness.send(.lifecycle(.taskStarted))
    #expect(harness.state.log == ["startup", "restore", "firstFocus"])
    harness.send(.lifecycle(.taskEnded))
    #expect(clock.sleeperCount == 1)
    await clock.advance(by: .seconds(1))
    harness.settle()
    #expect(harness.state.log == ["startup", "restore", "firstFocus", "restored"])
  }
}
