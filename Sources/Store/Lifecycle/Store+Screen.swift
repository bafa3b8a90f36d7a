extension Store {
  /// Runs a screen's lifecycle for as long as the calling task runs: call it from the task
  /// that shows the screen.
  ///
  /// Sends ``ScreenLifecycleAction/taskStarted``, then a
  /// ``ScreenLifecycleAction/scenePhaseChanged(_:)`` for each phase `scenePhases` yields; when
  /// the sequence ends or the task is cancelled, sends ``ScreenLifecycleAction/taskEnded``.
  /// With SwiftUI, pass a stream of the environment's scene phase from the screen's `.task`:
  /// the view wires nothing else.
  ///
  /// A screen whose state was removed before its task ended (popped, dismissed: SwiftUI
  /// cancels the task after the state changed) is not sent `taskEnded`, nor gets a
  /// ``ScreenLifecycleAction/teardown``: its state is gone, and its removal already ended
  /// the effects of its hooks.
  ///
  /// - Parameters:
  ///   - lifecycle: The case of this store's actions that carries lifecycle actions.
  ///   - scenePhases: The scene's phases, starting with the current one.
  public func runScreen(
    lifecycle: CaseKey<Action, ScreenLifecycleAction>,
    scenePhases: some AsyncSequence<ScenePhase, Never>
  ) async {
    send(lifecycle.embed(.taskStarted))
    for await phase in scenePhases {
      if Task.isCancelled { break }
      send(lifecycle.embed(.scenePhaseChanged(phase)))
    }
    guard core.isPresent else { return }
    send(lifecycle.embed(.taskEnded))
  }
}
