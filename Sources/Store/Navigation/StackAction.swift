/// An action for a navigation stack: an action of one pushed screen, a push, or a pop.
///
/// ```swift
/// enum Action: Sendable {
///   case path(StackAction<Path.State, Path.Action>)
/// }
/// store.send(.path(.element(id: editorID, action: .deleteTapped)))
/// store.send(.path(.popFrom(id: editorID)))   // the back button
/// ```
public enum StackAction<State: Sendable, Action: Sendable>: Sendable {
  /// `action`, for the screen with `id`.
  case element(id: StackElementID, action: Action)
  /// Pushes `state` with `id`, which must not be below the stack's next id.
  ///
  /// Stored out of line, so a screen's state does not make every action that can carry this
  /// one (the parent's, and its ancestors') as large as the screen's state.
  indirect case push(id: StackElementID, state: State)
  /// Pops the screen with `id` and every screen above it.
  ///
  /// A pop of a screen the stack popped already (a back button tapped as the screen closed
  /// itself) changes nothing and is not reported, as a sheet's second dismissal is not; the
  /// parent's reducer does not see it. A pop from an id the stack never gave out (negative, or
  /// at or past ``StackState/nextElementID``) changes nothing either, with a runtime warning.
  /// A stack assigned anew starts its ids over, so empty one whose screens may still send
  /// with `removeAll()`, which keeps the next id.
  case popFrom(id: StackElementID)
}

extension StackAction: Equatable where State: Equatable, Action: Equatable {}
extension StackAction: Hashable where State: Hashable, Action: Hashable {}
extension StackAction: Codable where State: Codable, Action: Codable {}

/// The action of a navigation stack whose screens `R` runs: ``StackAction`` with `R`'s state
/// and action.
///
/// ```swift
/// case path(StackActionOf<Path>)
/// ```
public typealias StackActionOf<R: Reducer> = StackAction<R.State, R.Action>
where R.State: Sendable
