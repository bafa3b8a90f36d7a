import Effects

/// State of a presented destination that closes itself when any of its actions arrives, as an
/// alert or a confirmation dialog closes when one of its buttons is tapped.
///
/// Conform the state of an alert to it when the alert is one case of an enum of destinations
/// attached with ``Reducer/presents(_:action:fileID:line:child:)``. An action for that case
/// (the action enum's case with the same name as the state enum's, `.alert(...)` for
/// `.alert(...)`), arriving while the alert shows, runs the destination's reducer, then closes
/// the destination (its state becomes `nil`), then reaches the parent, which can present
/// something else in answer. The parent sees the destination closed already (in The
/// Composable Architecture it sees the alert until it returns).
///
/// What closes is decided on the state as the action finds it: a destination that switches
/// itself to its alert case (an editor asking "Discard changes?") shows the alert, and an
/// action for another case while the alert shows leaves it open (and warns, as for any action
/// sent to a case that is not shown). Work the destination's reducer returns for the action
/// that closes it is not run, with a runtime warning: the alert's work belongs to the parent.
///
/// ```swift
/// struct DeleteAlert: Equatable, EphemeralState { var title: String }
/// enum DeleteAlertAction: Sendable { case confirmTapped }
///
/// struct Destination: Reducer {
///   enum State: Equatable { case editor(Editor.State), deleteAlert(DeleteAlert) }
///   enum Action: Sendable { case editor(Editor.Action), deleteAlert(DeleteAlertAction) }
///   var body: some Reducer<State, Action> {
///     EmptyReducer()
///       .ifCaseLet(.editor, action: .editor) { Editor() }
///       // No reducer: refuses the alert's actions while the editor shows.
///       .ifCaseLet(.deleteAlert, action: .deleteAlert)
///   }
/// }
/// ```
///
/// The cases are matched by name, so the action case must be named as the state case: an
/// action of another case while the alert shows leaves it open, with a runtime warning.
///
/// An alert kept in its own optional state needs no conformance: attached with
/// ``Reducer/presents(_:action:fileID:line:)``, which takes no reducer, it closes on each of
/// its actions already. A presented destination whose whole state conforms closes on each of
/// its actions.
public protocol EphemeralState {}

/// Whether a presented destination's state closes on an action: it is ``EphemeralState``, or
/// an enum whose current case's payload is and the action is for that case.
@usableFromInline
enum Ephemerality {
  /// Whether values of a type are enums, by type: a mirror is made once per type.
  private static let enumTypes = Locked<[ObjectIdentifier: Bool]>([:])

  /// What makes the state at `state` close when `action` arrives, decided on the state as the
  /// action finds it (`closing`): `""` for a state that is ``EphemeralState`` itself, the
  /// case's name for an enum whose current case's payload is (when `action` is for that case),
  /// otherwise `nil`. And, for such an enum when the action's case has another name
  /// (`mismatch`), the two names: the state does not close on it, and, when no reducer refused
  /// the action either, the names may differ by mistake (`alert` in the state, `alertButton` in
  /// the actions), and the alert would never close.
  ///
  /// - Complexity: O(1): for an enum, a mirror of the state and one of the action; for a
  ///   struct, one lookup by type.
  @usableFromInline
  static func closing<State, Action>(_ state: UnsafePointer<State?>, on action: Action)
    -> (closing: String?, mismatch: (shown: String, action: String)?)
  {
    if State.self is any EphemeralState.Type { return (state.pointee == nil ? nil : "", nil) }
    guard let shown = ephemeralCase(state) else { return (nil, nil) }
    guard let name = Mirror(reflecting: action).children.first?.label else { return (nil, nil) }
    return name == shown ? (shown, nil) : (nil, (shown, name))
  }

  /// Whether the state at `state` still closes as `closingCase` said, after the child's step
  /// (which may have switched it to another case, or cleared it).
  @usableFromInline
  static func stillCloses<State>(_ state: UnsafePointer<State?>, as closingCase: String) -> Bool {
    closingCase.isEmpty ? state.pointee != nil : ephemeralCase(state) == closingCase
  }

  /// The name of the current case of an enum state whose payload is ``EphemeralState`` (by its
  /// type: an optional payload is not); `nil` for other states.
  private static func ephemeralCase<State>(_ state: UnsafePointer<State?>) -> String? {
    let key = ObjectIdentifier(State.self)
    let known = enumTypes.withLock { $0[key] }
    // A struct's state is not copied to be looked at.
    if known == false { return nil }
    guard let value = state.pointee else { return nil }
    let mirror = Mirror(reflecting: value)
    if known == nil {
      let isEnum = mirror.displayStyle == .enum
      enumTypes.withLock { $0[key] = isEnum }
      if !isEnum { return nil }
    }
    guard let payload = mirror.children.first, type(of: payload.value) is any EphemeralState.Type
    else { return nil }
    return payload.label
  }
}
