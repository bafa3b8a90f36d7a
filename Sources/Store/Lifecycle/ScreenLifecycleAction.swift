/// The lifecycle of a screen, as actions: what the screen's driver reports, and the hooks a
/// feature handles.
///
/// A feature embeds these in one case of its action enum and adds
/// ``Reducer/screenLifecycle(_:action:fileID:line:)`` to its body. The driver
/// (``Store/runScreen(lifecycle:currentPhase:scenePhases:)``, called from the screen's task)
/// sends ``taskStarted``, ``scenePhaseChanged(_:)`` and ``taskEnded``; the lifecycle reducer
/// turns them into hooks, sent in order:
///
/// - ``startup``: once per identity, the first time the screen's task starts. If the task
///   ends before the startup's effect finishes (or before it runs), that startup is cancelled
///   like any hook and runs again at the next start; the same holds for ``firstFocus``.
/// - ``firstFocus``, ``lostFocus``, ``regainedFocus``: scene activation, one at a time, after
///   startup. They never overlap: the next waits until the effect of the previous finishes
///   (the effect the hook returns: the work of an action it sends, `.send(.load)`, is that
///   action's, and is neither waited for nor ended with the task; return `load()` instead).
/// - ``returned``: when a retained screen's task starts again.
/// - ``subscribe``: after startup, and again after each return: return the long-lived
///   subscriptions. They run in the screen task's lifetime.
/// - ``teardown``: when the screen's task ends. Every effect of the hooks above, and the
///   subscriptions, are cancelled first. A screen removed by then (its parent closing it when
///   its task ended) gets none.
public enum ScreenLifecycleAction: Sendable, Hashable, Codable {
  /// The screen's task started. Sent by the driver.
  case taskStarted
  /// The scene's activation changed. Sent by the driver.
  case scenePhaseChanged(ScenePhase)
  /// The screen's task ended. Sent by the driver.
  case taskEnded

  /// Hook: the screen starts for the first time (restore, load). Runs once per identity.
  case startup
  /// Hook: the scene became active for the first time since startup.
  case firstFocus
  /// Hook: the scene became inactive or went to the background.
  case lostFocus
  /// Hook: the scene became active again.
  case regainedFocus
  /// Hook: a retained screen's task started again.
  case returned
  /// Hook: start the screen's long-lived subscriptions.
  case subscribe
  /// Hook: the screen's task ended; its work has been cancelled.
  case teardown

  /// Sent by the lifecycle reducer itself when the effect of a serial hook finished, so the
  /// next may run: never send it (the hooks would run out of order), and leave it to a
  /// `default:` in a switch. Public only because the lifecycle's actions travel in the
  /// feature's action, and so through action logs.
  case hookFinished
}

extension ScreenLifecycleAction {
  /// Whether the app's scene is in front and taking input.
  ///
  /// Nested in ``ScreenLifecycleAction`` so that a file importing SwiftUI too, whose
  /// `ScenePhase` has the same cases, can name both: SwiftUI's as `ScenePhase`, this one as
  /// `ScreenLifecycleAction.ScenePhase`.
  public enum ScenePhase: String, Sendable, Hashable, Codable {
    /// In front and taking input.
    case active
    /// Visible but not taking input, such as during a system alert.
    case inactive
    /// Not visible.
    case background
  }
}

/// Where a screen is in its lifecycle: kept in the feature's state, changed only by
/// ``Reducer/screenLifecycle(_:action:fileID:line:)``.
///
/// Its properties are settable so that exhaustive tests can state how each lifecycle action
/// changes them; features should not set them.
///
/// It is `Codable` with the rest of the state, and encodes what it holds: a copy saved while
/// the screen showed says that a task runs, and a hook may be running. Restored as it is, in
/// a new process or a new store, the next task's start would be refused as a second task
/// (with a runtime warning), and the screen would get no hooks. Restore such a copy through
/// ``afterTaskEnded``. (Decoding does not do it itself: an action log recorded while a screen
/// showed starts from such a state, and its replay must start from the same.) Decoding refuses
/// a state the lifecycle never leaves, such as a hook running with no task (see
/// ``init(from:)``).
public struct ScreenLifecycleState: Sendable, Hashable, Codable {
  /// Whether ``ScreenLifecycleAction/startup`` has been sent for this identity and not cut
  /// short by the end of the screen's task.
  public var hasStarted = false
  /// Whether the screen's task is running.
  public var isTaskRunning = false
  /// Whether the screen has focus: its scene is active while its task runs.
  public var isFocused = false
  /// Whether the screen has had focus before, so the next focus is a regained one.
  public var hasGainedFocus = false
  /// The last scene phase the driver reported.
  public var scenePhase = ScreenLifecycleAction.ScenePhase.active
  /// Hooks waiting to run, in order.
  public var pendingHooks: [ScreenLifecycleAction] = []
  /// The serial hook whose effect is running.
  public var runningHook: ScreenLifecycleAction?

  /// Creates the state of a screen that has not started.
  public init() {}

  /// This state as it is once its screen's task has ended: no task running, no focus, no hook
  /// running or waiting, and a startup or first focus that was cut short marked as not having
  /// happened, so that the next start sends it again. The state to restore from a copy saved
  /// while the screen showed:
  ///
  /// ```swift
  /// var restored = try JSONDecoder().decode(Editor.State.self, from: saved)
  /// restored.lifecycle = restored.lifecycle.afterTaskEnded
  /// ```
  ///
  /// The next start then runs what a screen whose task ended runs:
  /// ``ScreenLifecycleAction/returned`` and ``ScreenLifecycleAction/regainedFocus`` once its
  /// startup had finished, not ``ScreenLifecycleAction/startup`` again. Work a startup did
  /// that does not outlive the process (a connection, a registration) is then not done again
  /// in a new one: restore such a screen with a fresh `ScreenLifecycleState()` instead, which
  /// runs every hook from the start. A state whose task is not running is returned as it is.
  public var afterTaskEnded: ScreenLifecycleState {
    var ended = self
    _ = ended.end()
    return ended
  }
}

extension ScreenLifecycleState {
  private enum CodingKeys: String, CodingKey {
    case hasStarted, isTaskRunning, isFocused, hasGainedFocus, scenePhase, pendingHooks
    case runningHook
  }

  /// Decodes a lifecycle state, checking that it is one the lifecycle could have left.
  ///
  /// A state saved while its screen showed decodes as it was (restore it through
  /// ``afterTaskEnded``). One the lifecycle never leaves is refused: restored, it would leave
  /// its screen without hooks (a hook running with no task, which nothing ends, so that no
  /// later hook is ever sent), or send a driver's action as a hook.
  ///
  /// Hooks queued with none running decode: the feature's reducer sees such a state while it
  /// handles ``ScreenLifecycleAction/taskStarted`` or
  /// ``ScreenLifecycleAction/scenePhaseChanged(_:)`` (the next hook is taken after it runs),
  /// and may save it then.
  ///
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError.dataCorrupted` when a queued action is not one the lifecycle
  ///   queues, the running one not a serial hook (``ScreenLifecycleAction/subscribe`` is
  ///   not), hooks are queued or running with no task; when focus does not match a running
  ///   task in an active scene, or was never gained; or when a task runs with no startup.
  ///   Other `DecodingError`s when a value is missing or malformed.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.init()
    hasStarted = try container.decode(Bool.self, forKey: .hasStarted)
    isTaskRunning = try container.decode(Bool.self, forKey: .isTaskRunning)
    isFocused = try container.decode(Bool.self, forKey: .isFocused)
    hasGainedFocus = try container.decode(Bool.self, forKey: .hasGainedFocus)
    scenePhase = try container.decode(ScreenLifecycleAction.ScenePhase.self, forKey: .scenePhase)
    pendingHooks = try container.decode([ScreenLifecycleAction].self, forKey: .pendingHooks)
    runningHook = try container.decodeIfPresent(ScreenLifecycleAction.self, forKey: .runningHook)
    if let problem = impossibility {
      throw DecodingError.dataCorruptedError(
        forKey: problem.key, in: container,
        debugDescription: "The lifecycle never leaves a state like this: \(problem.reason).")
    }
  }

  /// What makes this state one the lifecycle never leaves, if anything.
  private var impossibility: (key: CodingKeys, reason: String)? {
    let serialHooks: [ScreenLifecycleAction] = [
      .startup, .firstFocus, .lostFocus, .regainedFocus, .returned,
    ]
    if let stray = pendingHooks.first(where: { !serialHooks.contains($0) && $0 != .subscribe }) {
      return (.pendingHooks, "\(stray) is queued, but the lifecycle never queues it")
    }
    if let runningHook, !serialHooks.contains(runningHook) {
      return (.runningHook, "\(runningHook) runs, but it is not a serial hook")
    }
    if !isTaskRunning, runningHook != nil || !pendingHooks.isEmpty {
      return (.isTaskRunning, "hooks are running or queued, but no task runs")
    }
    if isFocused != (isTaskRunning && scenePhase == .active) {
      return (.isFocused, "the screen has focus only while its task runs in an active scene")
    }
    if isFocused, !hasGainedFocus {
      return (.hasGainedFocus, "the screen has focus, but never gained it")
    }
    if isTaskRunning, !hasStarted {
      return (.hasStarted, "a task runs, but the screen never started")
    }
    return nil
  }
}
