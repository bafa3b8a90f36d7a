extension Store {
  /// Runs a screen's lifecycle for as long as the calling task runs: call it from the task
  /// that shows the screen.
  ///
  /// Waits for the first phase `scenePhases` yields, the scene's current one, and sends it as
  /// a ``ScreenLifecycleAction/scenePhaseChanged(_:)`` before
  /// ``ScreenLifecycleAction/taskStarted``, so that a screen whose scene starts in the
  /// background gets its ``ScreenLifecycleAction/firstFocus`` when the scene becomes active,
  /// not at once. Then it sends a `scenePhaseChanged(_:)` for each later phase; when the
  /// sequence ends or the task is cancelled, it sends ``ScreenLifecycleAction/taskEnded``.
  /// With SwiftUI, pass a stream of the environment's scene phase from the screen's `.task`,
  /// starting with its current value: the view wires nothing else.
  ///
  /// A task cancelled, or a sequence ended, before the first phase sends nothing: the screen
  /// never started. A screen whose state was removed before its task ended (popped,
  /// dismissed: SwiftUI cancels the task after the state changed) is not sent `taskEnded`,
  /// nor gets a ``ScreenLifecycleAction/teardown``: its state is gone, and its removal
  /// already ended the effects of its hooks.
  ///
  /// - Parameters:
  ///   - lifecycle: The case of this store's actions that carries lifecycle actions.
  ///   - scenePhases: The scene's phases, starting with the current one.
  public func runScreen(
    lifecycle: CaseKey<Action, ScreenLifecycleAction>,
    scenePhases: some AsyncSequence<ScenePhase, Never>
  ) async {
    var phases = scenePhases.makeAsyncIterator()
    guard let current = await phases.next(isolation: #isolation), !Task.isCancelled else {
      return
    }
    send(lifecycle.embed(.scenePhaseChanged(current)))
    send(lifecycle.embed(.taskStarted))
    while let phase = await phases.next(isolation: #isolation) {
      if Task.isCancelled { break }
      send(lifecycle.embed(.scenePhaseChanged(phase)))
    }
    guard core.isPresent else { return }
    send(lifecycle.embed(.taskEnded))
  }
}
