import Effects

extension Reducer {
  /// Drives a screen's lifecycle hooks from the actions its driver sends.
  ///
  /// ```swift
  /// var body: some Reducer<State, Action> {
  ///   Reduce { state, action in
  ///     switch action {
  ///     case .lifecycle(.startup): return .run { send in send(.restored(await client.restore())) }
  ///     case .lifecycle(.regainedFocus): return refreshProfile()
  ///     case .lifecycle(.subscribe): return .run { send in
  ///       for await name in client.nameChanges() { send(.nameChanged(name)) }
  ///     }
  ///     ...
  ///     }
  ///   }
  ///   .screenLifecycle(\.lifecycle, action: .lifecycle)
  /// }
  /// ```
  ///
  /// See ``ScreenLifecycleAction`` for the hooks and their order. The effects of hooks and
  /// subscriptions belong to the screen's task: ``ScreenLifecycleAction/taskEnded`` cancels
  /// them before ``ScreenLifecycleAction/teardown`` runs. They keep the feature's cancellation
  /// ids: a hook's `.cancellable(id:)` effect is cancelled by a `.cancel(id:)` the feature
  /// returns for any of its actions (a sign-out cancelling a session restore still under way).
  ///
  /// - Parameters:
  ///   - toLifecycle: The path to the screen's lifecycle state.
  ///   - toLifecycleAction: The case that carries lifecycle actions.
  ///   - fileID: The file of the declaration, named in runtime warnings.
  ///   - line: The line of the declaration, named in runtime warnings.
  /// - Returns: A reducer that runs this one and drives its hooks.
  public func screenLifecycle(
    _ toLifecycle: WritableKeyPath<State, ScreenLifecycleState>,
    action toLifecycleAction: CaseKey<Action, ScreenLifecycleAction>,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> ScreenLifecycleReducer<Self> {
    ScreenLifecycleReducer(
      base: self,
      toLifecycle: toLifecycle,
      toLifecycleAction: toLifecycleAction,
      site: SourceSite(fileID: fileID, line: line)
    )
  }
}

/// A reducer that drives a screen's lifecycle hooks; see
/// ``Reducer/screenLifecycle(_:action:fileID:line:)``.
public struct ScreenLifecycleReducer<Base: Reducer>: Reducer {
  let base: Base
  let toLifecycle: WritableKeyPath<Base.State, ScreenLifecycleState>
  let toLifecycleAction: CaseKey<Base.Action, ScreenLifecycleAction>
  let site: SourceSite

  /// Runs the base reducer, turning driver actions into hooks and tying the hooks' effects to
  /// the screen's task.
  ///
  /// - Parameters:
  ///   - state: The feature's state.
  ///   - action: The feature's action.
  /// - Returns: The base reducer's effects, with the hooks to run next.
  public func reduce(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
    guard let event = toLifecycleAction.extract(action) else {
      return base.reduce(into: &state, action: action)
    }
    let screenTask = ScreenTaskIdentity(keyPath: toLifecycle)
    // The lifecycle state changes in place, through its mutating methods: no copy of the
    // feature's state (see `read(_:in:)`).
    switch event {
    case .taskStarted:
      guard state[keyPath: toLifecycle].start() else {
        return .warning(
          """
          The screen's task started while it was already running; the second start was \
          ignored. One screen identity has one task: two stores driving one screen's lifecycle \
          (runScreen on each, or taskStarted sent by hand) cannot both drive it, and whichever \
          task ends first ends the screen. Views showing one screen should share its store, \
          whose overlapping runScreen calls are one run. A state restored from a copy saved \
          while the screen showed says its task runs: restore its lifecycle state as \
          ScreenLifecycleState.afterTaskEnded.
          """,
          site: site, namingStoreAction: true
        )
      }
      return .merge(base.reduce(into: &state, action: action), nextHooks(&state))

    case .scenePhaseChanged(let phase):
      state[keyPath: toLifecycle].changePhase(to: phase)
      return .merge(base.reduce(into: &state, action: action), nextHooks(&state))

    case .taskEnded:
      guard state[keyPath: toLifecycle].end() else {
        // The hooks' work ends whatever the state says: a task ran to send this.
        return .merge(
          .endLifetime(of: screenTask),
          .warning(
            """
            The screen's task ended, but the lifecycle state at \(describeKeyPath(toLifecycle)) says no task \
            was running: it was replaced while the task ran (the screen's state rebuilt from \
            fresh data, with a new ScreenLifecycleState), or a second view's task ended after \
            the first. The work of its hooks and subscriptions was ended; teardown was not \
            sent. While the task ran, scene phases did not reach the focus hooks. When \
            rebuilding the state of a screen that may be showing, keep its lifecycle state.
            """,
            site: site, namingStoreAction: true
          ))
      }
      // Not `.send`, as for `hookFinished`: a parent that closes the screen when its task
      // ends (or in answer to what the screen sends then) would warn that the teardown
      // reached no screen. A screen gone by then gets no teardown, as a removed one does not.
      return .concatenate(
        .endLifetime(of: screenTask),
        base.reduce(into: &state, action: action),
        .sendWhileThere(toLifecycleAction.embed(.teardown))
      )

    case .hookFinished:
      state[keyPath: toLifecycle].runningHook = nil
      return nextHooks(&state)

    case .teardown:
      return base.reduce(into: &state, action: action)

    case .subscribe:
      return base.reduce(into: &state, action: action).scoped(to: screenTask)

    case .startup, .firstFocus, .lostFocus, .regainedFocus, .returned:
      // Without outliving marks: no button awaits a hook, and the next hook waits for this
      // one's work, which a sequence does not do for a marked part (a helper the hook shares
      // with a button, `return refreshProfile()`, may be marked for the button's sake).
      let effect = base.reduce(into: &state, action: action).removingOutlivingMarks()
      // Not `.send`: a hook that closes its screen (a `.dismiss`, or a delegate action its
      // parent answers by removing it) would have the parent warn that this reached no screen.
      return .concatenate(effect, .sendWhileThere(toLifecycleAction.embed(.hookFinished)))
        .scoped(to: screenTask)
    }
  }

  /// Sends the hooks that can run now: subscriptions at once, and the next serial hook if
  /// none is running.
  ///
  /// Each while the screen is there, as `hookFinished` is: a parent that closes the screen on
  /// the driver's action that queued a hook (a sensitive screen closed when its scene goes
  /// to the background) would otherwise warn that the hook reached no screen.
  private func nextHooks(_ state: inout Base.State) -> Effect<Base.Action> {
    let hooks = state[keyPath: toLifecycle].takeRunnableHooks()
    if hooks.isEmpty { return .none }
    return .merge(hooks.map { .sendWhileThere(toLifecycleAction.embed($0)) })
  }
}

extension ScreenLifecycleState {
  /// Marks the screen's task as running and queues its hooks: startup the first time, return
  /// after that, focus if the scene is active, then subscriptions.
  ///
  /// - Returns: `false`, changing nothing, if the task was already running.
  mutating func start() -> Bool {
    guard !isTaskRunning else { return false }
    isTaskRunning = true
    if hasStarted {
      enqueueFocus()
      pendingHooks += [.returned, .subscribe]
    } else {
      hasStarted = true
      pendingHooks.append(.startup)
      enqueueFocus()
      pendingHooks.append(.subscribe)
    }
    return true
  }

  /// Records the scene's phase, and queues the focus hook it calls for while the task runs.
  mutating func changePhase(to phase: ScreenLifecycleAction.ScenePhase) {
    scenePhase = phase
    if isTaskRunning { enqueueFocus() }
  }

  /// Marks the screen's task as ended and drops its queued hooks.
  ///
  /// - Returns: `false`, changing nothing, if the task was not running.
  mutating func end() -> Bool {
    guard isTaskRunning else { return false }
    // A startup or first focus that the end cuts short, or that never got to run, has not
    // happened: the next start runs it again rather than skipping it for good.
    let cut = pendingHooks + (runningHook.map { [$0] } ?? [])
    if cut.contains(.startup) { hasStarted = false }
    if cut.contains(.firstFocus) { hasGainedFocus = false }
    isTaskRunning = false
    isFocused = false
    pendingHooks = []
    runningHook = nil
    return true
  }

  /// Takes the hooks that can run now from the queue: subscriptions, and serial hooks until
  /// one is running.
  mutating func takeRunnableHooks() -> [ScreenLifecycleAction] {
    var hooks: [ScreenLifecycleAction] = []
    while runningHook == nil, !pendingHooks.isEmpty {
      let hook = pendingHooks.removeFirst()
      if hook != .subscribe { runningHook = hook }
      hooks.append(hook)
    }
    return hooks
  }

  /// Queues the focus hook the current scene phase calls for, if focus changes.
  mutating func enqueueFocus() {
    switch scenePhase {
    case .active where !isFocused:
      isFocused = true
      pendingHooks.append(hasGainedFocus ? .regainedFocus : .firstFocus)
      hasGainedFocus = true
    case .inactive where isFocused, .background where isFocused:
      isFocused = false
      pendingHooks.append(.lostFocus)
    default:
      break
    }
  }
}

/// The lifetime of a screen's task, in which the effects of its lifecycle hooks run: they end
/// with the task. It keeps the feature's cancellation ids: a `.cancel(id:)` that the feature
/// returns for one of its own actions (a sign-out cancelling a session restore) reaches an
/// effect a hook started with that id. It is no place in state (`PlacelessLifetime`): a hook
/// that closes a child (clears an `ifLet` child, removes a row) ends the effects the child's
/// own actions started, outside the task, and a lifetime the feature scopes its own work to
/// is ended, by a hook or another action, in the task and out of it.
///
/// `@unchecked Sendable`: key paths are immutable once created.
struct ScreenTaskIdentity: Hashable, @unchecked Sendable, CustomStringConvertible,
  SharesCancellationIDs, PartOfItsFeature, PlacelessLifetime
{
  let keyPath: AnyKeyPath
  var description: String { "the screen task of \(describeKeyPath(keyPath))" }
}

extension ScreenTaskIdentity: LifetimePlace {
  var canBeGone: Bool { false }

  func locate(inLevel state: Any, wantsState: Bool) -> PlaceLookup {
    .present(state, wantsState: wantsState)
  }
}
