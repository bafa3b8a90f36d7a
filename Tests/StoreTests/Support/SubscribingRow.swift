import Effects

@testable import Store

/// A row whose screen subscribes to a ticking stream while its task runs (a tick a second on
/// the test's clock), with what a filter may read: a name and a flag. The lifecycle hunts'
/// filtered lists hold it.
struct SubscribingRow: Reducer, Sendable {
  struct State: Equatable, Identifiable, Sendable {
    let id: Int
    var name = ""
    var isShown = true
    var lifecycle = ScreenLifecycleState()
    var ticks = 0
  }
  enum Action: Sendable, Equatable {
    case lifecycle(ScreenLifecycleAction)
    case tick

    static var lifecycleKey: CaseKey<Self, ScreenLifecycleAction> {
      CaseKey(Self.lifecycle) { if case .lifecycle(let action) = $0 { action } else { nil } }
    }
  }
  let clock: TestClock

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .lifecycle(.subscribe):
        return .run { [clock] send in
          while true {
            try await clock.sleep(for: .seconds(1))
            send(.tick)
          }
        }
      case .lifecycle:
        return .none
      case .tick:
        state.ticks += 1
        return .none
      }
    }
    .screenLifecycle(\.lifecycle, action: Action.lifecycleKey)
  }
}
