import Effects

/// A view of state that may disappear: an optional child, or one element of a collection.
///
/// Reads go to the parent; while the state is gone, the core keeps returning the last value it
/// read, so a screen that is being dismissed can still draw. Sends go to the parent, whose
/// reducer reports an action for a child that is gone.
@MainActor
package final class DerivedCore<State, Action: Sendable>: StoreCore {
  private let read: @MainActor () -> State?
  private let embed: @MainActor (Action) -> StoreTask
  private let register: @MainActor (@escaping @MainActor () -> Bool) -> Void
  private let report: @MainActor (RuntimeWarning) -> Void
  private var lastState: State

  package init(
    initial: State,
    read: @escaping @MainActor () -> State?,
    send: @escaping @MainActor (Action) -> StoreTask,
    afterDispatch: @escaping @MainActor (@escaping @MainActor () -> Bool) -> Void,
    warn: @escaping @MainActor (RuntimeWarning) -> Void
  ) {
    self.lastState = initial
    self.read = read
    self.embed = send
    self.register = afterDispatch
    self.report = warn
  }

  package var state: State {
    if let current = read() { lastState = current }
    return lastState
  }

  package func send(_ action: Action) -> StoreTask {
    embed(action)
  }

  package func afterDispatch(_ hook: @escaping @MainActor () -> Bool) {
    register(hook)
  }

  package func warn(_ warning: RuntimeWarning) {
    report(warning)
  }

  package func scope<ChildState, ChildAction: Sendable>(
    state toChild: KeyPath<State, ChildState>,
    action: CaseKey<Action, ChildAction>
  ) -> any StoreCore<ChildState, ChildAction> {
    let read = self.read
    let send = self.embed
    let embedChild = action.embed
    return DerivedCore<ChildState, ChildAction>(
      initial: state[keyPath: toChild],
      read: { read()?[keyPath: toChild] },
      send: { send(embedChild($0)) },
      afterDispatch: register,
      warn: report
    )
  }
}
