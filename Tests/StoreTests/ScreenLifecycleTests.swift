import Effects
import Testing

@testable import Store

/// A screen that records its hooks, does slow work on startup and focus, and subscribes to a
/// ticking stream.
struct Screen: Reducer {
  struct State: Equatable {
    var lifecycle = ScreenLifecycleState()
    var hooks: [String] = []
    var ticks = 0
  }
  enum Action: Sendable, Equatable {
    case lifecycle(ScreenLifecycleAction)
    case hookDone(String)
    case tick
    case stopTicking
  }
  let clock: TestClock

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .lifecycle(let event):
        switch event {
        case .taskStarted, .scenePhaseChanged, .taskEnded, .hookFinished:
          return .none
        case .subscribe:
          state.hooks.append("subscribe")
          return .run { [clock] send in
            while true {
              try await clock.sleep(for: .seconds(10))
              send(.tick)
            }
          }
          .cancellable(id: "ticks")
        case .startup, .firstFocus, .lostFocus, .regainedFocus, .returned:
          state.hooks.append("\(event)")
          // Each hook takes a second: the next must wait for it.
          return .run { [clock] send in
            try await clock.sleep(for: .seconds(1))
            send(.hookDone("\(event)"))
          }
        case .teardown:
          state.hooks.append("teardown")
          return .none
        }
      case .hookDone(let name):
        state.hooks.append("\(name) done")
        return .none
      case .tick:
        state.ticks += 1
        return .none
      case .stopTicking:
        return .cancel(id: "ticks")
      }
    }
    .screenLifecycle(\.lifecycle, action: .lifecycle)
  }
}

/// A parent that shows a `Screen` as an optional child and can close it.
struct Host: Reducer {
  struct State: Equatable {
    var screen: Screen.State?
  }
  enum Action: Sendable, Equatable {
    case screen(Screen.Action)
    case close
    /// Rebuilds the screen's state from scratch, as a refresh from a server does.
    case rebuildScreen
  }
  let clock: TestClock

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      if case .close = action { state.screen = nil }
      if case .rebuildScreen = action { state.screen = Screen.State() }
      return .none
    }
    .ifLet(\.screen, action: .screen) { Screen(clock: clock) }
  }
}

/// A parent of a `Host`, which can close it with the screen inside.
struct Outer: Reducer {
  struct State: Equatable {
    var host: Host.State?
  }
  enum Action: Sendable, Equatable {
    case host(Host.Action)
    case closeHost
  }
  let clock: TestClock

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      if case .closeHost = action { state.host = nil }
      return .none
    }
    .ifLet(\.host, action: .host) { Host(clock: clock) }
  }
}

extension CaseKey<Outer.Action, Host.Action> {
  static var host: Self {
    Self(Outer.Action.host) { if case .host(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<Host.Action, Screen.Action> {
  static var screen: Self {
    Self(Host.Action.screen) { if case .screen(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<Screen.Action, ScreenLifecycleAction> {
  static var lifecycle: Self {
    Self(Screen.Action.lifecycle) { if case .lifecycle(let a) = $0 { a } else { nil } }
  }
}

@MainActor
@Suite struct ScreenLifecycleTests {
  let clock = TestClock()

  func makeHarness(warnings: WarningLog = WarningLog()) -> Harness<Screen> {
    Harness(initialState: Screen.State(), warnings: warnings.handler, reducer: Screen(clock: clock))
  }

  /// A host showing the screen as its optional child.
  func makeHostHarness(warnings: WarningLog) -> Harness<Host> {
    Harness(
      initialState: Host.State(screen: Screen.State()), warnings: warnings.handler,
      reducer: Host(clock: clock))
  }

  @Test func startupRunsFirstThenFocusThenSubscriptions() async {
    let harness = makeHarness()
    harness.send(.lifecycle(.taskStarted))
    #expect(harness.state.hooks == ["startup"])
    await clock.advance(by: .seconds(1))
    #expect(harness.state.hooks == ["startup", "startup done", "firstFocus"])
    await clock.advance(by: .seconds(1))
    #expect(
      harness.state.hooks == [
        "startup", "startup done", "firstFocus", "firstFocus done", "subscribe",
      ])
    #expect(harness.state.lifecycle.isFocused)
  }

  @Test func focusHooksFollowSceneActivationAndNeverOverlap() async {
    let harness = makeHarness()
    harness.send(.lifecycle(.taskStarted))
    await clock.advance(by: .seconds(2))
    harness.send(.lifecycle(.scenePhaseChanged(.inactive)))
    harness.send(.lifecycle(.scenePhaseChanged(.background)))
    harness.send(.lifecycle(.scenePhaseChanged(.active)))
    // lostFocus runs; regainedFocus waits for it to finish.
    #expect(harness.state.hooks.suffix(1) == ["lostFocus"])
    await clock.advance(by: .seconds(1))
    #expect(harness.state.hooks.suffix(3) == ["lostFocus", "lostFocus done", "regainedFocus"])
    await clock.advance(by: .seconds(1))
    #expect(harness.state.hooks.suffix(1) == ["regainedFocus done"])
  }

  @Test func teardownCancelsHookWorkAndSubscriptionsAndReturnRestartsThem() async {
    let harness = makeHarness()
    harness.send(.lifecycle(.taskStarted))
    await clock.advance(by: .seconds(2))
    await clock.advance(by: .seconds(10))
    #expect(harness.state.ticks == 1)
    harness.send(.lifecycle(.scenePhaseChanged(.inactive)))
    harness.send(.lifecycle(.taskEnded))
    #expect(harness.state.hooks.suffix(2) == ["lostFocus", "teardown"])
    #expect(clock.sleeperCount == 0, "the lost-focus work and the subscription are cancelled")
    await clock.advance(by: .seconds(30))
    #expect(harness.state.ticks == 1)

    // The retained screen comes back: no second startup; return, then subscriptions again.
    harness.send(.lifecycle(.taskStarted))
    #expect(harness.state.hooks.suffix(1) == ["returned"])
    await clock.advance(by: .seconds(1))
    #expect(harness.state.hooks.suffix(3) == ["returned", "returned done", "subscribe"])
    await clock.advance(by: .seconds(10))
    #expect(harness.state.ticks == 2)
    #expect(harness.state.hooks.filter { $0 == "startup" }.count == 1)
  }

  @Test func theFeaturesOwnCancelReachesWorkItsHooksStarted() async {
    // Hook effects live in the screen task's lifetime, but keep the feature's cancellation
    // ids: `.cancel(id:)` for one of the feature's own actions stops them.
    let harness = makeHarness()
    harness.send(.lifecycle(.taskStarted))
    await clock.advance(by: .seconds(2))
    await clock.advance(by: .seconds(10))
    #expect(harness.state.ticks == 1)
    harness.send(.stopTicking)
    await clock.advance(by: .seconds(30))
    #expect(harness.state.ticks == 1)
  }

  @Test func aStartupCutShortByTeardownRunsAgainAtTheNextStart() async {
    let harness = makeHarness()
    harness.send(.lifecycle(.taskStarted))
    await clock.advance(by: .milliseconds(500))
    harness.send(.lifecycle(.taskEnded))
    #expect(harness.state.hooks == ["startup", "teardown"])
    #expect(clock.sleeperCount == 0)
    #expect(!harness.state.lifecycle.hasStarted)

    harness.send(.lifecycle(.taskStarted))
    await clock.advance(by: .seconds(2))
    #expect(
      harness.state.hooks == [
        "startup", "teardown", "startup", "startup done", "firstFocus", "firstFocus done",
        "subscribe",
      ]
    )
    #expect(harness.state.lifecycle.hasStarted)
  }

  @Test func aFirstFocusCutShortStaysTheFirstFocus() async {
    let harness = makeHarness()
    harness.send(.lifecycle(.taskStarted))
    await clock.advance(by: .milliseconds(1_500))
    #expect(harness.state.hooks == ["startup", "startup done", "firstFocus"])
    harness.send(.lifecycle(.taskEnded))
    harness.send(.lifecycle(.taskStarted))
    await clock.advance(by: .seconds(2))
    #expect(
      harness.state.hooks.suffix(6) == [
        "teardown", "firstFocus", "firstFocus done", "returned", "returned done", "subscribe",
      ]
    )
  }

  @Test func returningWhileTheSceneIsActiveRegainsFocusFirst() async {
    let harness = makeHarness()
    harness.send(.lifecycle(.taskStarted))
    await clock.advance(by: .seconds(2))
    harness.send(.lifecycle(.taskEnded))
    harness.send(.lifecycle(.taskStarted))
    await clock.advance(by: .seconds(2))
    #expect(
      harness.state.hooks.suffix(6) == [
        "teardown", "regainedFocus", "regainedFocus done", "returned", "returned done", "subscribe",
      ]
    )
  }

  @Test func aSecondStartWhileRunningIsIgnoredWithAWarning() {
    let warnings = WarningLog()
    let harness = makeHarness(warnings: warnings)
    harness.send(.lifecycle(.taskStarted))
    harness.send(.lifecycle(.taskStarted))
    #expect(harness.state.hooks == ["startup"])
    #expect(warnings.messages.count == 1)
  }

  @Test func aScreenWhoseSceneStartsInTheBackgroundGetsItsFirstFocusWhenItBecomesActive() async {
    let harness = makeHarness()
    let clock = clock
    // Each step first runs the effects of what the driver sent (the store it drives leaves
    // them to the harness), then lets the hook that started take its second.
    let phases = scripted([
      {
        harness.settle()
        await clock.advance(by: .seconds(1))
        return .active
      },
      {
        harness.settle()
        await clock.advance(by: .seconds(1))
        return nil
      },
    ])
    await harness.store.runScreen(
      lifecycle: .lifecycle, currentPhase: .background, scenePhases: phases)
    harness.settle()
    #expect(
      harness.state.hooks == [
        "startup", "startup done", "subscribe", "firstFocus", "firstFocus done", "teardown",
      ])
  }

  @Test func aScreenWhoseTaskIsCancelledBeforeItRunsNeverStarts() async {
    let harness = makeHarness()
    let (phases, _) = AsyncStream.makeStream(of: ScreenLifecycleAction.ScenePhase.self)
    let task = Task {
      await harness.store.runScreen(
        lifecycle: .lifecycle, currentPhase: .active, scenePhases: phases)
    }
    task.cancel()
    await task.value
    harness.settle()
    #expect(harness.processed.isEmpty)
    #expect(harness.state.hooks.isEmpty)
  }

  /// SwiftUI restarts a `.task(id:)` by cancelling the old task and starting the new one at
  /// once; the old one sees its cancellation after the new one started. The new start was
  /// refused as a second task and the old end ended the screen, which then ran with no hooks
  /// (concurrency adversary trial: 22 to 40 of 50 runs). Here the old task's phases end only
  /// once the new task has begun, every time.
  @Test func aScreenTaskRestartedBeforeTheOldOneEndsKeepsTheScreenRunning() async {
    let warnings = WarningLog()
    let harness = makeHarness(warnings: warnings)
    let store = harness.store
    let (newPhases, newPhasesEnd) = AsyncStream.makeStream(
      of: ScreenLifecycleAction.ScenePhase.self)
    let started = {
      harness.processed.filter { $0.action == .lifecycle(.scenePhaseChanged(.active)) }.count
    }
    let oldPhases = scripted([
      {
        // The new task starts while the old one is still in its loop.
        Task {
          await store.runScreen(
            lifecycle: .lifecycle, currentPhase: .active, scenePhases: newPhases)
        }
        while started() < 2 { await Task.yield() }
        return nil
      }
    ])
    await store.runScreen(lifecycle: .lifecycle, currentPhase: .active, scenePhases: oldPhases)
    harness.settle()
    #expect(harness.state.lifecycle.isTaskRunning, "the old task's end ended the screen")
    #expect(warnings.messages.isEmpty, "\(warnings.messages)")
    #expect(!harness.processed.contains { $0.action == .lifecycle(.taskEnded) })
    newPhasesEnd.finish()
    while harness.state.lifecycle.isTaskRunning { await Task.yield() }
    harness.settle()
    #expect(harness.state.hooks.last == "teardown")
    #expect(
      harness.processed.filter { $0.action == .lifecycle(.taskStarted) }.count == 1,
      "one run, started once")
  }

  @Test func aPhaseEqualToTheLastOneChangesNothing() {
    let harness = makeHarness()
    harness.send(.lifecycle(.taskStarted))
    let before = harness.state.lifecycle
    harness.send(.lifecycle(.scenePhaseChanged(.active)))
    #expect(harness.state.lifecycle == before)
    harness.send(.lifecycle(.scenePhaseChanged(.background)))
    let background = harness.state.lifecycle
    harness.send(.lifecycle(.scenePhaseChanged(.background)))
    #expect(harness.state.lifecycle == background)
    #expect(background.pendingHooks.last == .lostFocus)
  }

  @Test func aStreamThatEndsAtOnceStartsTheScreenAndEndsIt() async {
    let harness = makeHarness()
    let (phases, continuation) = AsyncStream.makeStream(of: ScreenLifecycleAction.ScenePhase.self)
    continuation.finish()
    await harness.store.runScreen(lifecycle: .lifecycle, currentPhase: .active, scenePhases: phases)
    harness.settle()
    #expect(
      harness.processed.filter { $0.origin == .user }.map(\.action) == [
        .lifecycle(.scenePhaseChanged(.active)), .lifecycle(.taskStarted), .lifecycle(.taskEnded),
      ])
    #expect(harness.state.hooks == ["startup", "teardown"])
    #expect(!harness.state.lifecycle.hasStarted, "the startup it cut short runs at the next start")
  }

  @Test func aScreenRemovedBeforeItsTaskEndsIsNotSentTaskEnded() async {
    // SwiftUI cancels a popped or dismissed screen's task after the state changed: the driver
    // then has no screen to end, and says nothing.
    let warnings = WarningLog()
    var state = Host.State()
    state.screen = Screen.State()
    let harness = Harness(
      initialState: state, warnings: warnings.handler, reducer: Host(clock: clock))
    let screen = harness.store.scope(state: \.screen, action: .screen)
    let phases = scripted([
      {
        _ = harness.send(.close)
        return nil
      }
    ])
    await screen?.runScreen(lifecycle: .lifecycle, currentPhase: .active, scenePhases: phases)
    harness.settle()
    #expect(harness.state.screen == nil)
    #expect(warnings.messages.isEmpty, "\(warnings.messages)")
    #expect(!harness.processed.contains { $0.action == .screen(.lifecycle(.taskEnded)) })
    #expect(clock.sleeperCount == 0, "closing the screen ended its hooks' work")
  }

  /// The scene changes phase after the screen was closed and before SwiftUI cancels its task:
  /// the driver sends that phase nowhere (it reached no screen, with a runtime warning saying
  /// so; found by a new-user trial).
  @Test func aScreenRemovedWhileItsTaskRunsIsSentNoPhaseAfter() async {
    let warnings = WarningLog()
    let harness = makeHostHarness(warnings: warnings)
    let screen = harness.store.scope(state: \.screen, action: .screen)
    let phases = scripted([
      {
        _ = harness.send(.close)
        return .background
      },
      { .active },
    ])
    await screen?.runScreen(lifecycle: .lifecycle, currentPhase: .active, scenePhases: phases)
    harness.settle()
    #expect(warnings.messages.isEmpty, "\(warnings.messages)")
    #expect(
      harness.processed.filter { $0.origin == .user }.map(\.action) == [
        .screen(.lifecycle(.scenePhaseChanged(.active))), .screen(.lifecycle(.taskStarted)),
        .close,
      ])
  }

  /// A screen's task that starts after the screen was closed (a view kept on screen for its
  /// removal animation) sends nothing: no phase, no `taskStarted`.
  @Test func aTaskThatStartsAfterItsScreenWasClosedSendsNothing() async {
    let warnings = WarningLog()
    let harness = makeHostHarness(warnings: warnings)
    let screen = harness.store.scope(state: \.screen, action: .screen)
    harness.send(.close)
    let phases = scripted([{ .background }])
    await screen?.runScreen(lifecycle: .lifecycle, currentPhase: .active, scenePhases: phases)
    harness.settle()
    #expect(warnings.messages.isEmpty, "\(warnings.messages)")
    #expect(harness.processed.map(\.action) == [.close])
  }

  /// A second start of a running screen's task is ignored, with a warning that names the
  /// store's action: the lifecycle's reducer cannot tell which screen it runs for.
  @Test func aSecondTaskStartIsIgnoredWithAWarningNamingTheStoresAction() {
    let warnings = WarningLog()
    let harness = makeHostHarness(warnings: warnings)
    harness.send(.screen(.lifecycle(.taskStarted)))
    harness.settle()
    harness.send(.screen(.lifecycle(.taskStarted)))
    #expect(warnings.messages.count == 1)
    #expect(
      warnings.messages.first?.hasPrefix(
        "The screen's task started while it was already running; the second start was ignored."
      ) == true, "\(warnings.messages)")
    #expect(
      warnings.messages.first?.hasSuffix(
        " The store's action was Host.Action.screen(.lifecycle(.taskStarted)).") == true,
      "\(warnings.messages)")
    harness.send(.screen(.lifecycle(.taskEnded)))
    harness.settle()
    #expect(warnings.messages.count == 1)
  }

  /// A screen's state rebuilt while its task runs (a refresh from a server, with a new
  /// `ScreenLifecycleState`) says no task runs: the task's end still ends its hooks' work, and
  /// a warning says why teardown did not run.
  @Test func aTaskThatEndsAfterItsLifecycleStateWasReplacedStillEndsItsHooksWork() {
    let warnings = WarningLog()
    let harness = makeHostHarness(warnings: warnings)
    harness.send(.screen(.lifecycle(.taskStarted)))
    harness.settle()
    #expect(clock.sleeperCount == 1, "startup's work")
    harness.send(.rebuildScreen)
    #expect(harness.state.screen?.lifecycle.isTaskRunning == false)
    harness.send(.screen(.lifecycle(.taskEnded)))
    harness.settle()
    #expect(clock.sleeperCount == 0, "the hooks' work ended with the task")
    #expect(harness.state.screen?.hooks.contains("teardown") == false)
    #expect(warnings.messages.count == 1)
    #expect(
      warnings.messages.first?.contains(
        "says no task was running: it was replaced while the task ran") == true,
      "\(warnings.messages)")
    // The lifecycle's reducer cannot tell which screen it runs for: the store's action can.
    #expect(
      warnings.messages.first?.hasSuffix(
        " The store's action was Host.Action.screen(.lifecycle(.taskEnded)).") == true,
      "\(warnings.messages)")
  }

  @Test func aScreenInsideAClosedParentIsNotSentTaskEndedEither() async {
    // A sheet closed with a screen inside it: the screen's store is two levels down, and its
    // parent's store only remembers the state it last had.
    let warnings = WarningLog()
    var state = Outer.State()
    state.host = Host.State(screen: Screen.State())
    let harness = Harness(
      initialState: state, warnings: warnings.handler, reducer: Outer(clock: clock))
    let host = harness.store.scope(state: \.host, action: .host)
    let screen = host?.scope(state: \.screen, action: .screen)
    let phases = scripted([
      {
        _ = harness.send(.closeHost)
        return nil
      }
    ])
    await screen?.runScreen(lifecycle: .lifecycle, currentPhase: .active, scenePhases: phases)
    harness.settle()
    #expect(harness.state.host == nil)
    #expect(warnings.messages.isEmpty, "\(warnings.messages)")
  }

  @Test func theDriverSendsTheLifecycleFromTheScreensTask() async {
    let harness = makeHarness()
    let (phases, continuation) = AsyncStream.makeStream(of: ScreenLifecycleAction.ScenePhase.self)
    continuation.yield(.active)  // a stream that repeats the current phase changes nothing
    continuation.yield(.background)
    continuation.finish()
    await harness.store.runScreen(lifecycle: .lifecycle, currentPhase: .active, scenePhases: phases)
    harness.settle()
    // What the driver sent, in order (the hooks the lifecycle sent in between left out).
    let driven: [ScreenLifecycleAction] = [
      .scenePhaseChanged(.active), .taskStarted, .scenePhaseChanged(.active),
      .scenePhaseChanged(.background), .taskEnded,
    ]
    #expect(
      harness.processed.compactMap { step -> ScreenLifecycleAction? in
        guard case .lifecycle(let event) = step.action, step.origin == .user else { return nil }
        return event
      } == driven
    )
    #expect(harness.state.hooks == ["startup", "teardown"])
    #expect(clock.sleeperCount == 0)
  }
}

/// A screen whose `subscribe` hook and whose own action throttle under one id.
private struct ThrottledScreen: Reducer {
  struct State: Equatable {
    var lifecycle = ScreenLifecycleState()
    var log: [String] = []
  }

  enum Action: Sendable, Equatable {
    case lifecycle(ScreenLifecycleAction)
    case ping
    case record(String)
  }

  let clock: TestClock

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .lifecycle(.subscribe):
        return Effect.send(.record("subscribed"))
          .throttle(id: "t", for: .seconds(1), clock: clock, latest: true)
      case .ping:
        return Effect.send(.record("pinged"))
          .throttle(id: "t", for: .seconds(1), clock: clock, latest: true)
      case .record(let entry):
        state.log.append(entry)
        return .none
      case .lifecycle:
        return .none
      }
    }
    .screenLifecycle(\.lifecycle, action: .throttledScreenLifecycle)
  }
}

extension CaseKey<ThrottledScreen.Action, ScreenLifecycleAction> {
  fileprivate static var throttledScreenLifecycle: Self {
    Self(ThrottledScreen.Action.lifecycle) { if case .lifecycle(let a) = $0 { a } else { nil } }
  }
}

extension ScreenLifecycleTests {
  /// A throttle window a hook opened belonged to the screen task's lifetime, though hooks
  /// share the screen's ids: the task's end closed it, dropping the screen's own effect that
  /// waited in it (lifetime trial). The window now belongs to its id's namespace.
  @Test func theEndOfTheScreensTaskLeavesTheScreensOwnThrottledEffectWaiting() async {
    let warnings = WarningLog()
    let harness = Harness(
      initialState: ThrottledScreen.State(), warnings: warnings.handler,
      reducer: ThrottledScreen(clock: clock))
    harness.send(.lifecycle(.scenePhaseChanged(.active)))
    harness.send(.lifecycle(.taskStarted))
    #expect(harness.state.log == ["subscribed"])
    let ping = harness.send(.ping)
    #expect(ping.isRunning)
    harness.send(.lifecycle(.taskEnded))
    await clock.advance(by: .seconds(1))
    harness.settle()
    #expect(harness.state.log == ["subscribed", "pinged"])
    #expect(warnings.messages.isEmpty, "\(warnings.messages)")
    await clock.advance(by: .seconds(1))
    harness.settle()
    #expect(clock.sleeperCount == 0)
    #expect(!ping.isRunning)
  }
}
