extension Store {
  /// Runs a screen's lifecycle for as long as the calling task runs: call it from the task
  /// that shows the screen.
  ///
  /// Sends `currentPhase` as a ``ScreenLifecycleAction/scenePhaseChanged(_:)``, then
  /// ``ScreenLifecycleAction/taskStarted``, so that a screen whose scene starts in the
  /// background gets its ``ScreenLifecycleAction/firstFocus`` when the scene becomes active,
  /// not at once. Then it sends a `scenePhaseChanged(_:)` for each phase `scenePhases`
  /// yields; when the sequence ends or the task is cancelled, it sends
  /// ``ScreenLifecycleAction/taskEnded``. With SwiftUI, call it from the screen's `.task`,
  /// with the environment's scene phase and a stream of its changes: the view wires nothing
  /// else.
  ///
  /// A task already cancelled when it calls this sends nothing: the screen never started. Nor
  /// does a task that starts after the screen's state was removed (a view kept on screen for
  /// its removal animation), and one whose first phase removes it (a parent that closes the
  /// screen in the background) sends that phase alone. A screen whose state is removed while
  /// its task runs (popped, dismissed: SwiftUI cancels the task after the state changed) is
  /// sent nothing more: no phase the scene goes to before the task ends, no `taskEnded`, and it
  /// gets no ``ScreenLifecycleAction/teardown``: its state is gone, and its removal already
  /// ended the effects of its hooks. (Each of those sends would reach no screen, and raise a
  /// runtime warning saying so.)
  ///
  /// A row's store scoped to a filtered view (a computed property such as `visibleRows`)
  /// treats a row that leaves the view as removed, and sends it no scene phase, but its
  /// `taskEnded` still goes to the whole collection, where a row hidden by the filter is: its
  /// hooks' work ends, and the task that shows it again starts it again. A row removed from
  /// the collection gets nothing, and nothing is reported, as for a row of the collection's
  /// own store: the view cannot tell a removed row from a hidden one, so the end is sent and
  /// reaches no row (an action log records it marked as an action whose row may be gone, and
  /// a replay reports no missing row for it either). A row that comes back to the view has a
  /// new store, and the calls on every store the view handed out for the row are one run, as
  /// overlapping calls on one store are. A store scoped from the row's store (a screen the row
  /// presents) sends its `taskEnded` on through the row's store when it went with the row, and
  /// so do a screen of a stack in the row and an item of a list in it (through the store each
  /// was scoped from). The calls on the stores scoped so from each of the row's stores are one
  /// run too, while the screen keeps its id (a stack's screen, its id and its push). An end
  /// passed on to a row back in the view, whose screen was replaced meanwhile by one with
  /// another id, or closed, goes to no screen; passed on while the row is still out of the
  /// view, it reaches the screen there, whichever it is.
  ///
  /// Calls on one store that overlap drive one run of the screen: the first sends
  /// `taskStarted`, and the last to end sends `taskEnded`. SwiftUI restarts a `.task(id:)`
  /// by cancelling the old task and starting the new one at once, and the old one sees its
  /// cancellation only after the new one started: each sending its own start and end, the
  /// new start was refused as a second task and the old end ended the screen, which then ran
  /// with no hooks for as long as the new task did.
  ///
  /// - Parameters:
  ///   - lifecycle: The case of this store's actions that carries lifecycle actions.
  ///   - currentPhase: The scene's phase as the task starts.
  ///   - scenePhases: The scene's phases from then on. A phase equal to the last one sent
  ///     changes nothing, so a stream that starts with the current phase is fine too.
  public func runScreen(
    lifecycle: CaseKey<Action, ScreenLifecycleAction>,
    currentPhase: ScreenLifecycleAction.ScenePhase,
    scenePhases: some AsyncSequence<ScreenLifecycleAction.ScenePhase, Never>
  ) async {
    guard !Task.isCancelled, core.isPresent else { return }
    let key = lifecycle.identity
    // This store's calls, with those of the row's other stores for a row of a filtered view
    // (one that left the view and came back has a new store; see `ScreenTaskCounts`).
    let tasks = screenTasks
    tasks.counts[key, default: 0] += 1
    defer {
      let others = tasks.counts[key, default: 1] - 1
      tasks.counts[key] = others == 0 ? nil : others
      if others == 0 {
        if core.isPresent {
          send(lifecycle.embed(.taskEnded))
        } else {
          // A row that left the filtered view its store was scoped through may still be in the
          // collection, hidden or back in the view with a store of its own: its task ends there
          // (a row removed from it is passed over, quietly).
          _ = core.sendLeavingView(lifecycle.embed(.taskEnded))
        }
      }
    }
    send(lifecycle.embed(.scenePhaseChanged(currentPhase)))
    // The phase may have closed the screen (a parent that closes it in the background): then
    // there is no screen to start, nor to end.
    guard core.isPresent else { return }
    if tasks.counts[key] == 1 { send(lifecycle.embed(.taskStarted)) }
    for await phase in scenePhases {
      if Task.isCancelled || !core.isPresent { break }
      send(lifecycle.embed(.scenePhaseChanged(phase)))
    }
  }
}
