import Effects
import Foundation
import Testing

@testable import Store

/// A stack of lifecycle screens (`Screen`, from `ScreenLifecycleTests`), which can be replaced
/// whole, or set back to a saved copy.
private struct ScreenStack: Reducer {
  struct State: Equatable {
    var path = StackState<Screen.State>()
    var saved: StackState<Screen.State>?
  }
  enum Action: Sendable, Equatable {
    case path(StackAction<Screen.State, Screen.Action>)
    case push
    case replaceStack
    case save
    case restore
  }
  let clock: TestClock

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .push: state.path.append(Screen.State())
      case .replaceStack: state.path = StackState([Screen.State()])
      case .save: state.saved = state.path
      case .restore: if let saved = state.saved { state.path = saved }
      case .path: break
      }
      return .none
    }
    .navigationStack(\.path, action: .path) { Screen(clock: clock) }
  }
}

extension CaseKey<ScreenStack.Action, StackAction<Screen.State, Screen.Action>> {
  fileprivate static var path: Self {
    Self(ScreenStack.Action.path) { if case .path(let a) = $0 { a } else { nil } }
  }
}

@MainActor
@Suite struct LifecycleHuntTests {
  let clock = TestClock()

  @Test func anOldScreensTaskEndingAfterTheStackWasReplacedLeavesTheNewScreenRunning() async {
    let warnings = WarningLog()
    let harness = Harness(
      initialState: ScreenStack.State(), warnings: warnings.handler,
      reducer: ScreenStack(clock: clock))
    harness.send(.push)
    let old = harness.store.scope(state: \.path, action: .path)[id: 0]
    let phases = scripted([
      {
        harness.send(.replaceStack)
        harness.send(.path(.element(id: 0, action: .lifecycle(.taskStarted))))
        return nil
      }
    ])
    await old?.runScreen(lifecycle: .lifecycle, currentPhase: .active, scenePhases: phases)
    harness.settle()
    #expect(harness.state.path[id: 0]?.lifecycle.isTaskRunning == true)
    #expect(warnings.messages.isEmpty, "\(warnings.messages)")
  }

  @Test func anUndoneScreensTaskEndingLeavesTheScreenPushedInItsPlaceRunning() async {
    let warnings = WarningLog()
    let harness = Harness(
      initialState: ScreenStack.State(), warnings: warnings.handler,
      reducer: ScreenStack(clock: clock))
    harness.send(.push)
    harness.send(.save)
    harness.send(.push)
    let old = harness.store.scope(state: \.path, action: .path)[id: 1]
    let phases = scripted([
      {
        harness.send(.restore)
        harness.send(.push)
        harness.send(.path(.element(id: 1, action: .lifecycle(.taskStarted))))
        return nil
      }
    ])
    await old?.runScreen(lifecycle: .lifecycle, currentPhase: .active, scenePhases: phases)
    harness.settle()
    #expect(harness.state.path[id: 1]?.lifecycle.isTaskRunning == true)
    #expect(warnings.messages.isEmpty, "\(warnings.messages)")
  }
}

/// A parent that closes its screen when the screen's task ends, as a sheet whose view went
/// away is closed.
private struct ClosingHost: Reducer {
  struct State: Equatable {
    var screen: Screen.State?
    var path = StackState<Screen.State>()
  }
  enum Action: Sendable, Equatable {
    case screen(Screen.Action)
    case path(StackAction<Screen.State, Screen.Action>)
  }
  let clock: TestClock

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .screen(.lifecycle(.taskEnded)): state.screen = nil
      // A sensitive screen closes when the app goes to the background.
      case .screen(.lifecycle(.scenePhaseChanged(.background))): state.screen = nil
      case .path(.element(let id, .lifecycle(.scenePhaseChanged(.background)))):
        state.path.pop(from: id)
      case .path(.element(let id, .lifecycle(.taskEnded))): state.path.pop(from: id)
      case .screen, .path: break
      }
      return .none
    }
    .ifLet(\.screen, action: .screen) { Screen(clock: clock) }
    .navigationStack(\.path, action: .path) { Screen(clock: clock) }
  }
}

extension CaseKey<ClosingHost.Action, Screen.Action> {
  fileprivate static var screen: Self {
    Self(ClosingHost.Action.screen) { if case .screen(let a) = $0 { a } else { nil } }
  }
}
extension CaseKey<ClosingHost.Action, StackAction<Screen.State, Screen.Action>> {
  fileprivate static var path: Self {
    Self(ClosingHost.Action.path) { if case .path(let a) = $0 { a } else { nil } }
  }
}

extension LifecycleHuntTests {
  /// A host whose sheet screen and one stack screen have started their tasks.
  fileprivate func startedClosingHost(_ warnings: WarningLog) -> Harness<ClosingHost> {
    let harness = Harness(
      initialState: ClosingHost.State(screen: Screen.State(), path: [Screen.State()]),
      warnings: warnings.handler, reducer: ClosingHost(clock: clock))
    harness.send(.screen(.lifecycle(.taskStarted)))
    harness.send(.path(.element(id: 0, action: .lifecycle(.taskStarted))))
    return harness
  }

  @Test func aParentThatClosesTheScreenWhenItsTaskEndsGetsNoWarningForTheTeardown() {
    let warnings = WarningLog()
    let harness = startedClosingHost(warnings)
    harness.send(.screen(.lifecycle(.taskEnded)))
    harness.send(.path(.element(id: 0, action: .lifecycle(.taskEnded))))
    #expect(harness.state.screen == nil)
    #expect(harness.state.path.isEmpty)
    #expect(clock.sleeperCount == 0)
    #expect(warnings.messages.isEmpty, "\(warnings.messages)")
  }
}

extension LifecycleHuntTests {
  @Test func aParentThatClosesTheScreenWhenItsSceneLeavesGetsNoWarningForTheLostFocus() async {
    let warnings = WarningLog()
    let harness = startedClosingHost(warnings)
    // The startup and the first focus take their second each: no hook runs after them.
    await clock.advance(by: .seconds(2))
    harness.settle()
    #expect(harness.state.screen?.lifecycle.runningHook == nil)
    #expect(harness.state.path[id: 0]?.lifecycle.runningHook == nil)
    harness.send(.screen(.lifecycle(.scenePhaseChanged(.background))))
    harness.send(.path(.element(id: 0, action: .lifecycle(.scenePhaseChanged(.background)))))
    #expect(harness.state.screen == nil)
    #expect(harness.state.path.isEmpty)
    #expect(clock.sleeperCount == 0)
    #expect(warnings.messages.isEmpty, "\(warnings.messages)")
  }
}

extension LifecycleHuntTests {
  /// The driver's first phase closes the screen (its parent closes it in the background):
  /// the driver has no screen to start, and says nothing more.
  @Test func aScreenClosedByTheDriversFirstPhaseIsNotSentTaskStarted() async {
    let warnings = WarningLog()
    let harness = Harness(
      initialState: ClosingHost.State(screen: Screen.State()),
      warnings: warnings.handler, reducer: ClosingHost(clock: clock))
    let screen = harness.store.scope(state: \.screen, action: .screen)
    let (phases, continuation) = AsyncStream.makeStream(of: ScreenLifecycleAction.ScenePhase.self)
    continuation.finish()
    await screen?.runScreen(lifecycle: .lifecycle, currentPhase: .background, scenePhases: phases)
    harness.settle()
    #expect(harness.state.screen == nil)
    #expect(warnings.messages.isEmpty, "\(warnings.messages)")
    #expect(
      harness.processed.map(\.action) == [.screen(.lifecycle(.scenePhaseChanged(.background)))])
  }
}

/// A list of rows that subscribe to a ticking stream while shown, with a filtered view of the
/// rows matching a query.
private struct FilteredTickers: Reducer {
  typealias Row = SubscribingRow

  struct State: Equatable {
    var rows: IdentifiedArrayOf<Row.State> = [Row.State(id: 1, name: "tea")]
    var query = ""
    var visibleRows: IdentifiedArrayOf<Row.State> {
      query.isEmpty ? rows : rows.filter { $0.name.contains(query) }
    }
  }
  enum Action: Sendable, Equatable {
    case rows(IdentifiedAction<Int, Row.Action>)
    case search(String)

    static var rowsKey: CaseKey<Self, IdentifiedAction<Int, Row.Action>> {
      CaseKey(Self.rows) { if case .rows(let action) = $0 { action } else { nil } }
    }
  }
  let clock: TestClock

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      if case .search(let query) = action { state.query = query }
      return .none
    }
    .forEach(\.rows, action: Action.rowsKey) { Row(clock: clock) }
  }
}

extension LifecycleHuntTests {
  /// A row that leaves a filtered list (a search that no longer matches it) is still in the
  /// collection. Driven through the stored collection's store, its task's end reaches it:
  /// its subscription ends, and the task that shows it again starts it again. (A row's store
  /// scoped through the filtered view ends its task too: `FilteredRowLifecycleHuntTests`.)
  @Test func aRowDrivenFromTheStoredCollectionEndsItsTaskWhenAFilterHidesIt() async {
    let warnings = WarningLog()
    let harness = Harness(
      initialState: FilteredTickers.State(), warnings: warnings.handler,
      reducer: FilteredTickers(clock: clock))
    // The list shows the filtered rows; each row's task drives the row's store in the stored
    // collection.
    #expect(
      harness.store.scope(state: \.visibleRows, action: FilteredTickers.Action.rowsKey).ids == [1])
    let row = harness.store.scope(state: \.rows, action: FilteredTickers.Action.rowsKey)[id: 1]
    let phases = scripted([
      {
        harness.settle()
        await clock.advance(by: .seconds(1))
        harness.settle()
        // The search hides the row; SwiftUI then cancels the row's task.
        harness.send(.search("milk"))
        return nil
      }
    ])
    await row?.runScreen(
      lifecycle: FilteredTickers.Row.Action.lifecycleKey, currentPhase: .active,
      scenePhases: phases)
    harness.settle()
    #expect(
      harness.store.scope(state: \.visibleRows, action: FilteredTickers.Action.rowsKey).ids.isEmpty)
    #expect(harness.state.rows[id: 1]?.ticks == 1)
    #expect(harness.state.rows[id: 1]?.lifecycle.isTaskRunning == false)
    #expect(clock.sleeperCount == 0, "the hidden row's subscription ended with its task")

    // The search is cleared: the row shows again, with a task of its own.
    harness.send(.search(""))
    let morePhases = scripted([
      {
        harness.settle()
        #expect(harness.state.rows[id: 1]?.lifecycle.isTaskRunning == true)
        return nil
      }
    ])
    await row?.runScreen(
      lifecycle: FilteredTickers.Row.Action.lifecycleKey, currentPhase: .active,
      scenePhases: morePhases)
    harness.settle()
    #expect(warnings.messages.isEmpty, "\(warnings.messages)")
  }
}
