import Synchronization

/// State of a presented destination that closes itself when any of its actions arrives, as an
/// alert or a confirmation dialog closes when one of its buttons is tapped.
///
/// Conform the state of an alert to it when the alert is one case of an enum of destinations
/// attached with ``Reducer/presents(_:action:fileID:line:child:)``: an action for that case
/// runs the destination's reducer, then closes the destination (its state becomes `nil`)
/// before the parent handles the action, so the parent can present something else in answer.
///
/// ```swift
/// struct DeleteAlert: Equatable, EphemeralState { var title: String }
///
/// struct Destination: Reducer {
///   enum State: Equatable { case editor(Editor.State), deleteAlert(DeleteAlert) }
///   enum Action: Sendable { case editor(Editor.Action), deleteAlert(DeleteAlert.Action) }
///   ...
/// }
/// ```
///
/// An alert kept in its own optional state needs no conformance: attached with
/// ``Reducer/presents(_:action:fileID:line:)``, which takes no reducer, it closes on each of
/// its actions already. A destination whose own state conforms closes the same way.
public protocol EphemeralState {}

/// Whether a presented destination's state closes on its own actions: it is
/// ``EphemeralState``, or an enum whose current case's payload is.
@usableFromInline
enum Ephemerality {
  /// Whether values of a type are enums, by type: a mirror is made once per type.
  private static let enumTypes = Mutex<[ObjectIdentifier: Bool]>([:])

  /// Whether the state at `state` closes on its own actions (`false` when it is `nil`).
  ///
  /// - Complexity: O(1): for an enum, one mirror of the state, and one of its type the first
  ///   time it is seen.
  @usableFromInline
  static func closesOnItsActions<State>(_ state: UnsafePointer<State?>) -> Bool {
    if State.self is any EphemeralState.Type { return state.pointee != nil }
    guard let value = state.pointee else { return false }
    let key = ObjectIdentifier(State.self)
    let isEnum =
      enumTypes.withLock { $0[key] }
      ?? {
        let isEnum = Mirror(reflecting: value).displayStyle == .enum
        enumTypes.withLock { $0[key] = isEnum }
        return isEnum
      }()
    guard isEnum, let payload = Mirror(reflecting: value).children.first?.value else {
      return false
    }
    return payload is any EphemeralState
  }
}
