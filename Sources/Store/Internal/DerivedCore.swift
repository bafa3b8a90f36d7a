import Effects

/// A view of state that may disappear: an optional child, or one element of a collection.
///
/// Reads go to the parent; while the state is gone, the core keeps returning the last value it
/// read, so a screen that is being dismissed can still draw. Sends go to the parent, whose
/// reducer reports an action for a child that is gone (but for an element gone from a computed
/// view of a collection, whose store ignores them: the parent's reducer would find the element
/// in the whole collection).
///
/// The state it views can also be taken over by another identity: an `Identifiable` child
/// replaced by one with another id, or a stack's screen once the stack is replaced (its ids
/// start again). Then the core keeps its last value too, and ignores sends with a warning,
/// rather than reading and driving the newcomer.
@MainActor
package final class DerivedCore<State, Action: Sendable>: StoreCore {
  private let read: @MainActor () -> State?
  private let embed: @MainActor (Action) -> StoreTask
  private let register: @MainActor (@escaping @MainActor () -> Bool) -> Void
  private let report: @MainActor (RuntimeWarning) -> Void
  private let takenOver: (@MainActor () -> String?)?
  private let parentIsPresent: (@MainActor () -> Bool)?
  private var lastState: State

  /// Creates a core.
  ///
  /// - Parameter takenOver: When another identity has taken the viewed state over, what this
  ///   core's store was for and what happened (for the warning: "the store of …"); otherwise
  ///   `nil`.
  package init(
    initial: State,
    read: @escaping @MainActor () -> State?,
    send: @escaping @MainActor (Action) -> StoreTask,
    afterDispatch: @escaping @MainActor (@escaping @MainActor () -> Bool) -> Void,
    warn: @escaping @MainActor (RuntimeWarning) -> Void,
    takenOver: (@MainActor () -> String?)? = nil,
    parentIsPresent: (@MainActor () -> Bool)? = nil
  ) {
    self.lastState = initial
    self.read = read
    self.embed = send
    self.register = afterDispatch
    self.report = warn
    self.takenOver = takenOver
    self.parentIsPresent = parentIsPresent
  }

  package var state: State {
    if takenOver?() == nil, let current = read() { lastState = current }
    return lastState
  }

  package func send(_ action: Action) -> StoreTask {
    guard let takenOver = takenOver?() else { return embed(action) }
    report(
      RuntimeWarning(
        message: """
          \(describe(action)) was sent to the store of \(takenOver). The action was \
          ignored.
          """,
        fileID: "Store",
        line: 0
      )
    )
    return StoreTask(group: nil)
  }

  package var isPresent: Bool {
    // A derived parent that is gone keeps returning its last state: ask it first.
    (parentIsPresent?() ?? true) && takenOver?() == nil && read() != nil
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
    // A part of a state another identity took over is that identity's: the part's store
    // keeps its last value and ignores sends, as this one does.
    var partTakenOver: (@MainActor () -> String?)?
    if let takenOver = self.takenOver {
      partTakenOver = { takenOver().map { "a part of \($0)" } }
    }
    return DerivedCore<ChildState, ChildAction>(
      initial: state[keyPath: toChild],
      read: { read()?[keyPath: toChild] },
      send: { send(embedChild($0)) },
      afterDispatch: register,
      warn: report,
      takenOver: partTakenOver,
      parentIsPresent: { self.isPresent }
    )
  }
}

/// Whether the identity a derived store was made for is gone (a row removed, a child
/// dismissed), as that store's core sees it: set by the owner that lets the store go.
@MainActor
final class GoneFlag {
  var isGone = false
}
