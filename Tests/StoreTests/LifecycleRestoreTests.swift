import Effects
import Foundation
import Testing

@testable import Store

/// A screen that logs its hooks, with a startup that takes a second.
private struct LoggingScreen: Reducer {
  struct State: Equatable, Codable {
    var lifecycle = ScreenLifecycleState()
    var hooks: [String] = []
  }

  enum Action: Sendable, Equatable {
    case lifecycle(ScreenLifecycleAction)
    case loaded

    static var lifecycleKey: CaseKey<Self, ScreenLifecycleAction> {
      CaseKey(Self.lifecycle) { if case .lifecycle(let action) = $0 { action } else { nil } }
    }
  }

  let clock: TestClock

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .lifecycle(.taskStarted), .lifecycle(.taskEnded), .lifecycle(.scenePhaseChanged),
        .lifecycle(.hookFinished), .loaded:
        return .none
      case .lifecycle(let hook):
        state.hooks.append("\(hook)")
        guard hook == .startup else { return .none }
        return .run { [clock] send in
          try await clock.sleep(for: .seconds(1))
          send(.loaded)
        }
      }
    }
    .screenLifecycle(\.lifecycle, action: Action.lifecycleKey)
  }
}

/// A `ScreenLifecycleState` saved while its screen showed, and restored in a new store, said
/// its task ran: the next start was refused with a warning about two stores, and the screen
/// ran with no hooks for the whole session (lifecycle hunt). `afterTaskEnded` restores it.
@MainActor
@Suite struct LifecycleRestoreTests {
  let clock = TestClock()

  /// The state of a screen whose task runs, saved and read back.
  fileprivate func savedWhileShowing(duringStartup: Bool) async throws -> LoggingScreen.State {
    let clock = TestClock()
    let harness = Harness(initialState: LoggingScreen.State(), reducer: LoggingScreen(clock: clock))
    harness.send(.lifecycle(.taskStarted))
    if !duringStartup {
      await clock.advance(by: .seconds(1))
      harness.settle()
      #expect(harness.state.lifecycle.runningHook == nil)
    }
    let saved = try JSONEncoder().encode(harness.state)
    return try JSONDecoder().decode(LoggingScreen.State.self, from: saved)
  }

  @Test func aRestoredLifecycleTakenAfterItsTaskEndedGetsItsHooks() async throws {
    var restored = try await savedWhileShowing(duringStartup: false)
    #expect(restored.lifecycle.isTaskRunning)
    restored.lifecycle = restored.lifecycle.afterTaskEnded
    restored.hooks = []
    let warnings = WarningLog()
    let harness = Harness(
      initialState: restored, warnings: warnings.handler, reducer: LoggingScreen(clock: clock))
    harness.send(.lifecycle(.taskStarted))
    #expect(harness.state.hooks == ["regainedFocus", "returned", "subscribe"])
    #expect(warnings.messages.isEmpty, "\(warnings.messages)")
  }

  @Test func aStartupCutShortBySavingRunsAgainAfterTheRestore() async throws {
    var restored = try await savedWhileShowing(duringStartup: true)
    #expect(restored.lifecycle.runningHook == .startup)
    restored.lifecycle = restored.lifecycle.afterTaskEnded
    restored.hooks = []
    let harness = Harness(initialState: restored, reducer: LoggingScreen(clock: clock))
    harness.send(.lifecycle(.taskStarted))
    #expect(harness.state.hooks == ["startup"])
    await clock.advance(by: .seconds(1))
    harness.settle()
    #expect(harness.state.hooks == ["startup", "firstFocus", "subscribe"])
  }

  /// Restored as it is, the start is refused, and the warning says what to do.
  @Test func aLifecycleRestoredAsItIsIsRefusedWithAWarningThatNamesTheRemedy() async throws {
    let restored = try await savedWhileShowing(duringStartup: false)
    let warnings = WarningLog()
    let harness = Harness(
      initialState: restored, warnings: warnings.handler, reducer: LoggingScreen(clock: clock))
    harness.send(.lifecycle(.taskStarted))
    #expect(warnings.messages.count == 1)
    #expect(
      warnings.messages.first?.contains(
        "restore its lifecycle state as ScreenLifecycleState.afterTaskEnded") == true)
  }

  @Test func aStateWhoseTaskIsNotRunningIsReturnedAsItIs() {
    var state = ScreenLifecycleState()
    state.hasStarted = true
    state.hasGainedFocus = true
    state.scenePhase = .background
    #expect(state.afterTaskEnded == state)
  }
}

/// A stack whose parent keeps a copy of it to undo a pop, taken while the screen showed.
private struct UndoableStack: Reducer {
  struct State: Equatable {
    var path = StackState<LoggingScreen.State>()
    var beforePop: StackState<LoggingScreen.State>?
  }

  enum Action: Sendable, Equatable {
    case path(StackAction<LoggingScreen.State, LoggingScreen.Action>)
    case push
    case pop
    /// Restores the copy; `endingTasks` restores each screen's lifecycle as `afterTaskEnded`.
    case undo(endingTasks: Bool)

    static var pathKey: CaseKey<Self, StackAction<LoggingScreen.State, LoggingScreen.Action>> {
      CaseKey(Self.path) { if case .path(let action) = $0 { action } else { nil } }
    }
  }

  let clock: TestClock

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .push:
        state.path.append(LoggingScreen.State())
      case .pop:
        state.beforePop = state.path
        _ = state.path.popLast()
      case .undo(let endingTasks):
        guard var restored = state.beforePop else { break }
        if endingTasks {
          for id in restored.ids {
            guard let lifecycle = restored[id: id]?.lifecycle else { continue }
            restored[id: id]?.lifecycle = lifecycle.afterTaskEnded
          }
        }
        state.path = restored
        state.beforePop = nil
      case .path:
        break
      }
      return .none
    }
    .navigationStack(\.path, action: Action.pathKey) { LoggingScreen(clock: clock) }
  }
}

/// An undo that puts back a popped screen from a copy taken while it showed restores a state
/// that says its task runs, as a copy saved to disk does (ScreenLifecycle, "A state saved
/// while its screen showed"): the new view's start is refused, unless the undo restores the
/// lifecycle through `afterTaskEnded`.
@MainActor
@Suite struct LifecycleUndoTests {
  let clock = TestClock()

  /// A stack with one screen whose startup finished, popped with a copy kept for undo.
  fileprivate func poppedWhileShowing(_ warnings: WarningLog) async -> Harness<UndoableStack> {
    let harness = Harness(
      initialState: UndoableStack.State(), warnings: warnings.handler,
      reducer: UndoableStack(clock: clock))
    harness.send(.push)
    harness.send(.path(.element(id: 0, action: .lifecycle(.taskStarted))))
    await clock.advance(by: .seconds(1))
    harness.settle()
    #expect(harness.state.path[id: 0]?.lifecycle.runningHook == nil)
    harness.send(.pop)
    #expect(harness.state.path.isEmpty)
    return harness
  }

  @Test func aScreenPutBackAsItWasCopiedHasItsNextStartRefused() async {
    let warnings = WarningLog()
    let harness = await poppedWhileShowing(warnings)
    harness.send(.undo(endingTasks: false))
    #expect(harness.state.path[id: 0]?.lifecycle.isTaskRunning == true)
    harness.send(.path(.element(id: 0, action: .lifecycle(.taskStarted))))
    #expect(warnings.messages.count == 1)
    #expect(
      warnings.messages.first?.contains(
        "restore its lifecycle state as ScreenLifecycleState.afterTaskEnded") == true)
  }

  @Test func aScreenPutBackThroughAfterTaskEndedGetsItsHooks() async {
    let warnings = WarningLog()
    let harness = await poppedWhileShowing(warnings)
    harness.send(.undo(endingTasks: true))
    harness.send(.path(.element(id: 0, action: .lifecycle(.taskStarted))))
    #expect(
      harness.state.path[id: 0]?.hooks == [
        "startup", "firstFocus", "subscribe", "regainedFocus", "returned", "subscribe",
      ])
    #expect(warnings.messages.isEmpty, "\(warnings.messages)")
  }
}
