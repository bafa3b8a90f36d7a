import Effects

/// A view of part of a root's state and actions. It holds no state of its own: reads go to the
/// root through one composed key path, and sends embed the action and go to the root.
@MainActor
package final class ScopedCore<R: Reducer, State, Action: Sendable>: StoreCore {
  private let root: RootCore<R>
  private let toState: KeyPath<R.State, State>
  /// Where the state lies in the root's, when the path goes through stored properties only.
  private let offset: Int?
  private let embed: @Sendable (Action) -> R.Action
  /// The root's `send`, specialized by the module that created the store, if it was.
  private let rootSend: (@MainActor (R.Action) -> StoreTask)?

  package init(
    root: RootCore<R>,
    state: KeyPath<R.State, State>,
    embed: @escaping @Sendable (Action) -> R.Action,
    send: (@MainActor (R.Action) -> StoreTask)?
  ) {
    self.root = root
    self.toState = state
    self.offset = MemoryLayout<R.State>.offset(of: state)
    self.embed = embed
    self.rootSend = send
  }

  package func withState<Result>(_ body: (UnsafePointer<State>) -> Result) -> Result {
    // Where the root stores it, for a path through stored properties.
    root.withState { withValue(at: toState, offset: offset, in: $0, body) }
  }

  package func send(_ action: Action) -> StoreTask {
    if let rootSend { return rootSend(embed(action)) }
    return root.send(embed(action))
  }

  package var reads: StateReads { root.reads }

  package var stateLiesInPlace: Bool { offset != nil }

  package var viewsComputedState: Bool { offset == nil }

  package var stateVersion: Int {
    root.stateVersion
  }

  package func inPlaceReader(_ keyPath: KeyPath<State, CollectionStamps>)
    -> (@MainActor () -> CollectionStamps)?
  {
    root.inPlaceReader(toState.appending(path: keyPath))
  }

  package func afterDispatch(_ hook: @escaping @MainActor () -> Bool) {
    root.afterDispatch(hook)
  }

  package func warn(_ warning: RuntimeWarning) {
    root.warn(warning)
  }

  package func scope<ChildState, ChildAction: Sendable>(
    state: KeyPath<State, ChildState>,
    action: CaseKey<Action, ChildAction>
  ) -> any StoreCore<ChildState, ChildAction> {
    let embed = self.embed
    let embedChild = action.embed
    return ScopedCore<R, ChildState, ChildAction>(
      root: root,
      state: toState.appending(path: state),
      embed: { embed(embedChild($0)) },
      send: rootSend
    )
  }
}
