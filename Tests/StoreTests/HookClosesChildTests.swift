import Effects
import Testing

@testable import Store

/// A lifecycle hook that closes a child (clears an optional child, removes a row) ends the
/// child's effects, as any other action of the screen does. The hooks' own work runs in the
/// screen's task, but the child's effects were started by the child's actions, outside it.
///
/// The children sit behind computed properties (kept in a dictionary), where the store's walk
/// after each action cannot look: only the reducers that clear them can end their effects.
@MainActor
@Suite struct HookClosesChildTests {
  struct Screen: Reducer {
    struct State: Equatable {
      var lifecycle = ScreenLifecycleState()
      var storage: [String: Row.State] = [:]
      var rowStorage: [String: IdentifiedArrayOf<Row.State>] = ["rows": []]
      /// The hook that closes the children.
      var closingHook: ScreenLifecycleAction = .startup

      var detail: Row.State? {
        get { storage["detail"] }
        set { storage["detail"] = newValue }
      }
      var rows: IdentifiedArrayOf<Row.State> {
        get { rowStorage["rows", default: []] }
        set { rowStorage["rows"] = newValue }
      }
    }
    enum Action: Sendable, Equatable {
      case lifecycle(ScreenLifecycleAction)
      case detail(Row.Action)
      case rows(IdentifiedAction<Int, Row.Action>)
      case close
    }
    let clock: TestClock

    var body: some Reducer<State, Action> {
      Reduce { state, action in
        let closes =
          switch action {
          case .lifecycle(let hook): hook == state.closingHook
          case .close: true
          case .detail, .rows: false
          }
        if closes {
          state.detail = nil
          state.rows.remove(id: 1)
        }
        return .none
      }
      .ifLet(
        \.detail, action: CaseKey(Action.detail) { if case .detail(let a) = $0 { a } else { nil } }
      ) {
        Row(clock: clock)
      }
      .forEach(
        \.rows, action: CaseKey(Action.rows) { if case .rows(let a) = $0 { a } else { nil } }
      ) {
        Row(clock: clock)
      }
      .screenLifecycle(
        \.lifecycle,
        action: CaseKey(Action.lifecycle) { if case .lifecycle(let a) = $0 { a } else { nil } })
    }
  }

  let clock = TestClock()
  let warnings = WarningLog()

  /// A screen with a detail and two rows, each loading, its scene in the background (so that
  /// only startup and subscriptions run when its task starts).
  private func loadingScreen(closingHook: ScreenLifecycleAction) -> Harness<Screen> {
    var state = Screen.State()
    state.detail = Row.State(id: 7)
    state.rows = [Row.State(id: 1), Row.State(id: 2)]
    state.closingHook = closingHook
    state.lifecycle.scenePhase = .background
    let harness = Harness(
      initialState: state, warnings: warnings.handler, reducer: Screen(clock: clock))
    harness.send(.detail(.loadTapped))
    harness.send(.rows(.element(id: 1, action: .loadTapped)))
    harness.send(.rows(.element(id: 2, action: .loadTapped)))
    #expect(harness.core.runtime.runningCount == 3)
    return harness
  }

  @Test(arguments: [ScreenLifecycleAction.startup, .subscribe])
  func aHookThatClosesChildrenEndsTheirEffects(hook: ScreenLifecycleAction) async {
    let harness = loadingScreen(closingHook: hook)
    harness.send(.lifecycle(.taskStarted))
    #expect(harness.state.detail == nil)
    #expect(Array(harness.state.rows.ids) == [2])
    #expect(harness.core.runtime.runningCount == 1, "only the remaining row's load runs")
    await clock.advance(by: .seconds(1))
    harness.settle()
    #expect(harness.state.rows[id: 2]?.loads == 1)
    #expect(warnings.messages.isEmpty, "\(warnings.messages)")
  }

  /// The same closing done by an ordinary action, for comparison.
  @Test func anOrdinaryActionThatClosesChildrenEndsTheirEffects() async {
    let harness = loadingScreen(closingHook: .teardown)
    harness.send(.close)
    #expect(harness.core.runtime.runningCount == 1)
    await clock.advance(by: .seconds(1))
    harness.settle()
    #expect(harness.state.rows[id: 2]?.loads == 1)
    #expect(warnings.messages.isEmpty, "\(warnings.messages)")
  }

  /// A screen that polls in its subscription and uploads on request, both in the lifetime
  /// `Work`, which its first focus, or an action, ends.
  struct Poller: Reducer {
    struct Work: Hashable, Sendable {}
    struct State: Equatable {
      var lifecycle = ScreenLifecycleState()
      var ticks = 0
    }
    enum Action: Sendable, Equatable {
      case lifecycle(ScreenLifecycleAction)
      case upload
      case stop
      case tick
    }
    let clock: TestClock

    var body: some Reducer<State, Action> {
      Reduce { state, action in
        switch action {
        case .lifecycle(.subscribe), .upload:
          return .run { [clock] send in
            try await clock.sleep(for: .seconds(10))
            send(.tick)
          }
          .scoped(to: Work())
        case .lifecycle(.firstFocus), .stop:
          return .endLifetime(of: Work())
        case .lifecycle:
          return .none
        case .tick:
          state.ticks += 1
          return .none
        }
      }
      .screenLifecycle(
        \.lifecycle,
        action: CaseKey(Action.lifecycle) { if case .lifecycle(let a) = $0 { a } else { nil } })
    }
  }

  private func poller() -> Harness<Poller> {
    var state = Poller.State()
    state.lifecycle.scenePhase = .background
    return Harness(initialState: state, warnings: warnings.handler, reducer: Poller(clock: clock))
  }

  /// A hook ends the lifetime an earlier hook scoped its work to (the end was addressed
  /// outside the screen's task for a while, and missed it).
  @Test func aHookEndsTheLifetimeAnEarlierHookScopedItsWorkTo() async {
    let harness = poller()
    harness.send(.lifecycle(.taskStarted))
    #expect(harness.core.runtime.runningCount == 1, "the subscription's poll")
    harness.send(.lifecycle(.scenePhaseChanged(.active)))
    #expect(harness.core.runtime.runningCount == 0)
    await clock.advance(by: .seconds(10))
    harness.settle()
    #expect(harness.state.ticks == 0)
    #expect(warnings.messages.isEmpty, "\(warnings.messages)")
  }

  /// A lifetime the feature scopes its work to is the feature's, in its hooks or not, as its
  /// cancellation ids are: an end returned by a hook, or by any other action, ends all of it.
  @Test(arguments: [Poller.Action.stop, .lifecycle(.scenePhaseChanged(.active))])
  func aLifetimeIsSharedByTheHooksAndTheOtherActions(ending: Poller.Action) async {
    let harness = poller()
    harness.send(.upload)
    harness.send(.lifecycle(.taskStarted))
    #expect(harness.core.runtime.runningCount == 2, "the upload and the poll")
    harness.send(ending)
    #expect(harness.core.runtime.runningCount == 0)
    await clock.advance(by: .seconds(10))
    harness.settle()
    #expect(harness.state.ticks == 0)
    #expect(warnings.messages.isEmpty, "\(warnings.messages)")
  }
}
