import Foundation
import Testing

@testable import Store

/// A lifecycle state decoded from a saved copy is one the lifecycle could have left.
@Suite struct ScreenLifecycleStateDecodingTests {
  static let wellFormed =
    #"{"hasGainedFocus":true,"hasStarted":true,"isFocused":true,"isTaskRunning":true,"#
    + #""pendingHooks":[{"subscribe":{}}],"runningHook":{"firstFocus":{}},"scenePhase":"active"}"#

  @Test func aStateTheLifecycleLeavesRoundTrips() throws {
    let decoded = try JSONDecoder().decode(
      ScreenLifecycleState.self, from: Data(Self.wellFormed.utf8))
    #expect(decoded.runningHook == .firstFocus && decoded.pendingHooks == [.subscribe])
    let again = try JSONDecoder().decode(
      ScreenLifecycleState.self, from: JSONEncoder().encode(decoded))
    #expect(again == decoded)
    #expect(decoded.afterTaskEnded.runningHook == nil)
  }

  /// States the lifecycle never leaves. Restored, a hook running with no task leaves the
  /// screen with no hooks (no `hookFinished` ever ends it), a driver's action queued is sent
  /// as a hook, and a focus that does not match the scene skips the next focus hook.
  @Test(arguments: [
    // A hook running, with no task.
    #"{"hasGainedFocus":false,"hasStarted":true,"isFocused":false,"isTaskRunning":false,"#
      + #""pendingHooks":[],"runningHook":{"startup":{}},"scenePhase":"active"}"#,
    // Hooks waiting, with no task.
    #"{"hasGainedFocus":false,"hasStarted":true,"isFocused":false,"isTaskRunning":false,"#
      + #""pendingHooks":[{"subscribe":{}}],"scenePhase":"active"}"#,
    // A driver's action queued as a hook.
    #"{"hasGainedFocus":true,"hasStarted":true,"isFocused":true,"isTaskRunning":true,"#
      + #""pendingHooks":[{"taskEnded":{}}],"runningHook":{"returned":{}},"scenePhase":"active"}"#,
    // Subscriptions as the serial hook that runs.
    #"{"hasGainedFocus":true,"hasStarted":true,"isFocused":true,"isTaskRunning":true,"#
      + #""pendingHooks":[],"runningHook":{"subscribe":{}},"scenePhase":"active"}"#,
    // Focus with no task, or in the background, or never gained.
    #"{"hasGainedFocus":true,"hasStarted":true,"isFocused":true,"isTaskRunning":false,"#
      + #""pendingHooks":[],"scenePhase":"active"}"#,
    #"{"hasGainedFocus":true,"hasStarted":true,"isFocused":true,"isTaskRunning":true,"#
      + #""pendingHooks":[],"scenePhase":"background"}"#,
    #"{"hasGainedFocus":false,"hasStarted":true,"isFocused":true,"isTaskRunning":true,"#
      + #""pendingHooks":[],"scenePhase":"active"}"#,
    // A task running with no startup.
    #"{"hasGainedFocus":false,"hasStarted":false,"isFocused":false,"isTaskRunning":true,"#
      + #""pendingHooks":[],"scenePhase":"background"}"#,
  ])
  func aStateTheLifecycleCannotLeaveIsRefused(json: String) {
    #expect(throws: DecodingError.self) {
      try JSONDecoder().decode(ScreenLifecycleState.self, from: Data(json.utf8))
    }
  }

  /// The state a feature's reducer is handed with the lifecycle's own actions decodes: one
  /// that saves its state when the scene goes to the background saved, with the hook it
  /// queued not yet taken, a state the decoder refused as "queued behind none" (the reviewer:
  /// the whole saved state was then lost on restore).
  @MainActor
  @Test func aStateSavedWhileTheReducerHandlesALifecycleActionDecodes() throws {
    let store = Store(initialState: Saver.State()) { Saver() }
    store.send(.lifecycle(.taskStarted))
    store.send(.lifecycle(.scenePhaseChanged(.background)))
    store.send(.lifecycle(.scenePhaseChanged(.active)))
    #expect(store.saved.count == 3)
    #expect(store.saved.contains { $0.runningHook == nil && !$0.pendingHooks.isEmpty })
    for saved in store.saved {
      let decoded = try JSONDecoder().decode(
        ScreenLifecycleState.self, from: JSONEncoder().encode(saved))
      #expect(decoded == saved)
    }
  }
}

/// A feature that keeps a copy of its lifecycle state each time its reducer handles the
/// start of its task or a scene phase, as one that saves a draft then would.
private struct Saver: Reducer {
  struct State: Equatable {
    var lifecycle = ScreenLifecycleState()
    var saved: [ScreenLifecycleState] = []
  }
  enum Action: Sendable, Equatable {
    case lifecycle(ScreenLifecycleAction)
  }

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .lifecycle(.taskStarted), .lifecycle(.scenePhaseChanged):
        state.saved.append(state.lifecycle)
      case .lifecycle: break
      }
      return .none
    }
    .screenLifecycle(\.lifecycle, action: .saverLifecycle)
  }
}

extension CaseKey<Saver.Action, ScreenLifecycleAction> {
  fileprivate static var saverLifecycle: Self {
    Self(Saver.Action.lifecycle) { if case .lifecycle(let a) = $0 { a } else { nil } }
  }
}
