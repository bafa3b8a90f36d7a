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
  ///   .screenLifecycle(\.lifecycle, action: Action.lifecycle)
  /// }
  /// ```
  ///
  /// See ``ScreenLifecycleAction`` for the hooks and their order. The effects of hooks and
  /// subscriptions belong to the screen's task: ``ScreenLifecycleAction/taskEnded`` cancels
  /// them before ``ScreenLifecycleAction/teardown`` runs.
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
    let screenTask = KeyPathIdentity(keyPath: toLifecycle)
    switch event {
    case .taskStarted:
      guard !state[keyPath: toLifecycle].isTaskRunning else {
        return .warning(
          "The screen's task started while it was already running; the second start was ignored.",
          site: site
        )
      }
      var lifecycle = state[keyPath: toLifecycle]
      lifecycle.isTaskRunning = true
      if lifecycle.hasStarted {
        lifecycle.enqueueFocus()
        lifecycle.pendingHooks += [.returned, .subscribe]
      } else {
        lifecycle.hasStarted = true
        lifecycle.pendingHooks.append(.startup)
        lifecycle.enqueueFocus()
        lifecycle.pendingHooks.append(.subscribe)
      }
      state[keyPath: toLifecycle] = lifecycle
      return .merge(base.reduce(into: &state, action: action), nextHooks(&state))

    case .scenePhaseChanged(let phase):
      state[keyPath: toLifecycle].scenePhase = phase
      if state[keyPath: toLifecycle].isTaskRunning { state[keyPath: toLifecycle].enqueueFocus() }
      return .merge(base.reduce(into: &state, action: action), nextHooks(&state))

    case .taskEnded:
      guard state[keyPath: toLifecycle].isTaskRunning else { return .none }
      var lifecycle = state[keyPath: toLifecycle]
      // A startup or first focus that the end cuts short, or that never got to run, has not
      // happened: the next start runs it again rather than skipping it for good.
      let cut = lifecycle.pendingHooks + (lifecycle.runningHook.map { [$0] } ?? [])
      if cut.contains(.startup) { lifecycle.hasStarted = false }
      if cut.contains(.firstFocus) { lifecycle.hasGainedFocus = false }
      lifecycle.isTaskRunning = false
      lifecycle.isFocused = false
      lifecycle.pendingHooks = []
      lifecycle.runningHook = nil
      state[keyPath: toLifecycle] = lifecycle
      return .concatenate(
        .endLifetime(of: screenTask),
        base.reduce(into: &state, action: action),
        .send(toLifecycleAction.embed(.teardown))
      )

    case .hookFinished:
      state[keyPath: toLifecycle].runningHook = nil
      return nextHooks(&state)

    case .teardown:
      return base.reduce(into: &state, action: action)

    case .subscribe:
      return base.reduce(into: &state, action: action).scoped(to: screenTask)

    case .startup, .firstFocus, .lostFocus, .regainedFocus, .returned:
      let effect = base.reduce(into: &state, action: action)
      return .concatenate(effect, .send(toLifecycleAction.embed(.hookFinished)))
        .scoped(to: screenTask)
    }
  }

  /// Sends the hooks that can run now: subscriptions at once, and the next serial hook if
  /// none is running.
  private func nextHooks(_ state: inout Base.State) -> Effect<Base.Action> {
    var sends: [Effect<Base.Action>] = []
    while state[keyPath: toLifecycle].runningHook == nil,
      !state[keyPath: toLifecycle].pendingHooks.isEmpty
    {
      let hook = state[keyPath: toLifecycle].pendingHooks.removeFirst()
      if hook != .subscribe { state[keyPath: toLifecycle].runningHook = hook }
      sends.append(.send(toLifecycleAction.embed(hook)))
    }
    return .merge(sends)
  }
}

extension ScreenLifecycleState {
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
