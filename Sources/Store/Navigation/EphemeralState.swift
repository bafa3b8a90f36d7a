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
/// sent to a case that is not shown). An action the destination's reducer refuses, for a child
/// of its own that is not there, leaves it open too: it changes nothing, as such an action
/// does anywhere. Work the destination's reducer returns for the action that closes it is not
/// run, with a runtime warning: the alert's work belongs to the parent; warnings it returns
/// are reported as they would be while it stays open.
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
///       .ifCaseLet(StateKey.editor, action: ActionKey.editor) { Editor() }
///       // No reducer: refuses the alert's actions while the editor shows.
///       .ifCaseLet(StateKey.deleteAlert, action: ActionKey.deleteAlert)
///   }
/// }
/// ```
///
/// The cases are matched by name, so the action case must be named as the state case: an
/// action of another case while the alert shows leaves it open, with a runtime warning.
///
/// A case closes when its payload's type conforms, labeled or not (`case alert(info: Alert)`),
/// and when the payload is that one value: `case alert(Alert, note: String)` does not. Each
/// case of a destination type is looked at once, the first time it shows, and remembered: the
/// check costs a lookup at each action after that. A payload of an existential type
/// (`case alert(any Sendable)`) is judged by the value it holds the first time; declare the
/// alert's own type as the payload. A payload of a class is looked at for each value (a
/// subclass may conform where its superclass does not).
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
  /// What a presented destination's state type is to the closing check, learned once per
  /// type from the type alone.
  @usableFromInline
  enum Kind: Sendable {
    /// The state conforms to ``EphemeralState``: it closes on each of its actions.
    case ephemeral
    /// Neither an enum nor ``EphemeralState`` (a struct, an optional, a class): it never
    /// closes on its own actions.
    case plain
    /// An enum: it closes when its current case's payload is ``EphemeralState``.
    case enumeration
  }

  /// The kind of each state type met so far. A type's conformance and shape do not change
  /// while the program runs, so an entry is never replaced; there is one per destination
  /// type, however many actions arrive.
  private static let kinds = ModuleLock<[ObjectIdentifier: Kind]>([:])

  /// The kind of `type`.
  ///
  /// Not generic, and called with the concrete type from a specialized reducer: asked as a
  /// generic function, from the reducers' inlinable code, this check cost the runtime a look
  /// at its conformance and metadata caches and a lock through unspecialized code, about
  /// 250 ns at each action to a presented child, half its cost (bench scenario 18).
  ///
  /// - Complexity: O(1) on average: one lookup under a lock.
  @usableFromInline
  static func kind(of type: Any.Type) -> Kind {
    let key = ObjectIdentifier(type)
    if let known = kinds.withLock({ $0[key] }) { return known }
    let kind: Kind =
      type is any EphemeralState.Type ? .ephemeral : isEnum(type) ? .enumeration : .plain
    kinds.withLock { $0[key] = kind }
    return kind
  }

  /// What makes the state at `state` close when `action` arrives, decided on the state as the
  /// action finds it (`closing`): `""` for a state that is ``EphemeralState`` itself, the
  /// case's name for an enum whose current case's payload is (when `action` is for that case),
  /// otherwise `nil`. And, for such an enum when the action's case has another name
  /// (`mismatch`), the two names: the state does not close on it, and, when no reducer refused
  /// the action either, the names may differ by mistake (`alert` in the state, `alertButton` in
  /// the actions), and the alert would never close.
  ///
  /// - Complexity: O(1) on average: one lookup by type; for an enum, one by the state's case,
  ///   and one by the action's case when the shown case's payload is ``EphemeralState`` (a
  ///   mirror of a value the first time its case is met).
  @inlinable
  static func closing<State, Action>(_ state: UnsafePointer<State?>, on action: Action)
    -> (closing: String?, mismatch: (shown: String, action: String)?)
  {
    switch kind(of: State.self) {
    case .plain: return (nil, nil)
    case .ephemeral: return (holdsValue(state) ? "" : nil, nil)
    case .enumeration:
      guard holdsValue(state) else { return (nil, nil) }
      // A present optional holds its value's bytes at its own address.
      return withUnsafePointer(to: action) {
        closingCase(
          UnsafeRawPointer(state), of: State.self, on: UnsafeRawPointer($0), of: Action.self)
      }
    }
  }

  /// ``closing(_:on:)`` for an enum state: the state `state` of type `stateType`, the action
  /// `action` of type `actionType`. Not generic, for the reason ``kind(of:)`` is not.
  @usableFromInline
  static func closingCase(
    _ state: UnsafeRawPointer, of stateType: Any.Type,
    on action: UnsafeRawPointer, of actionType: Any.Type
  ) -> (closing: String?, mismatch: (shown: String, action: String)?) {
    guard let shown = ephemeralCase(state, of: stateType) else { return (nil, nil) }
    guard kind(of: actionType) == .enumeration, let name = caseOf(action, of: actionType).name
    else { return (nil, nil) }
    return name == shown ? (shown, nil) : (nil, (shown, name))
  }

  /// Whether the state at `state` still closes as `closingCase` said, after the child's step
  /// (which may have switched it to another case, or cleared it).
  @inlinable
  static func stillCloses<State>(_ state: UnsafePointer<State?>, as closingCase: String) -> Bool {
    guard holdsValue(state) else { return false }
    return closingCase.isEmpty
      || ephemeralCase(UnsafeRawPointer(state), of: State.self) == closingCase
  }

  /// The name of the current case of the state at `value`, of type `type`, when it is an enum
  /// whose current case's payload is ``EphemeralState`` (by its type: an optional payload is
  /// not); `nil` for other states, and for a state that closes whole (it has no case that
  /// closes).
  @usableFromInline
  static func ephemeralCase(_ value: UnsafeRawPointer, of type: Any.Type) -> String? {
    guard kind(of: type) == .enumeration else { return nil }
    let shown = caseOf(value, of: type)
    return shown.isEphemeral ? shown.name : nil
  }

  /// An enum case: its type, and its index among the type's cases.
  private struct CaseSlot: Hashable {
    let type: ObjectIdentifier
    let tag: UInt32
  }

  /// What the closing check needs of an enum case.
  private struct CaseInfo {
    /// The case's name; `nil` for a case without a payload, which no action names.
    let name: String?
    /// Whether the case's payload is ``EphemeralState``.
    let isEphemeral: Bool
    /// Whether the payload is an object: its class may be a subclass that conforms, or one
    /// that does not, from one value to the next, so each value is looked at.
    let isObject: Bool
  }

  /// Each enum case met so far. One entry per case of the destination and action types, made
  /// once: a mirror at each action to an enum destination cost 1.6 us, 60 times an action
  /// through `Scope` (bench scenario 27).
  private static let cases = ModuleLock<[CaseSlot: CaseInfo]>([:])

  /// The case of the enum value at `value`, of type `type`.
  ///
  /// - Complexity: O(1) on average: the case's index from the type's value witnesses, and a
  ///   lookup under a lock; a mirror of the value the first time its case is met.
  private static func caseOf(_ value: UnsafeRawPointer, of type: Any.Type) -> CaseInfo {
    func reflect<Value>(_: Value.Type) -> Mirror {
      Mirror(reflecting: value.assumingMemoryBound(to: Value.self).pointee)
    }
    #if _ptrauth(_arm64e)
      // The value witnesses' addresses are signed here: a mirror names the case each time.
      return info(of: reflect(type))
    #else
      let slot = CaseSlot(type: ObjectIdentifier(type), tag: enumTag(of: value, type: type))
      if let known = cases.withLock({ $0[slot] }) {
        return known.isObject ? info(of: reflect(type)) : known
      }
      let info = info(of: reflect(type))
      cases.withLock { $0[slot] = info }
      return info
    #endif
  }

  /// What a mirror of an enum value says of its case: a labeled payload counts as its one
  /// value, and a payload of several values as none (see `soleCasePayload(in:)`).
  private static func info(of mirror: Mirror) -> CaseInfo {
    let value = soleCasePayload(in: mirror)
    return CaseInfo(
      name: mirror.children.first?.label,
      isEphemeral: value.map { type(of: $0) is any EphemeralState.Type } ?? false,
      isObject: value.map { type(of: $0) is AnyClass } ?? false)
  }

  /// Whether `type` is an enum (an optional is not: its case is never a destination's), by
  /// its metadata's kind, the first word of the metadata, which is `0x201` for an enum in the
  /// ABI the Swift runtime keeps stable.
  private static func isEnum(_ type: Any.Type) -> Bool {
    unsafeBitCast(type, to: UnsafeRawPointer.self).load(as: Int.self) == 0x201
  }

  /// The index of the case of the enum value at `value`, whose type is `type`.
  ///
  /// Read as the Swift runtime does, through the ABI it keeps stable: the enum value witness
  /// `getEnumTag`, which follows the value witnesses every type has (the word before the
  /// metadata points at them).
  private static func enumTag(of value: UnsafeRawPointer, type: Any.Type) -> UInt32 {
    let metadata = unsafeBitCast(type, to: UnsafeRawPointer.self)
    let witnesses = metadata.load(
      fromByteOffset: -MemoryLayout<UnsafeRawPointer>.size, as: UnsafeRawPointer.self)
    return witnesses.load(as: EnumValueWitnesses.self).getEnumTag(value, metadata)
  }

  /// The layout of an enum's value witness table, up to `getEnumTag`.
  private struct EnumValueWitnesses {
    // The value witnesses every type has: eight functions, size, stride, flags and the count
    // of extra inhabitants.
    let initializeBufferWithCopyOfBuffer, destroy, initializeWithCopy,
      assignWithCopy: UnsafeRawPointer
    let initializeWithTake, assignWithTake, getEnumTagSinglePayload: UnsafeRawPointer
    let storeEnumTagSinglePayload: UnsafeRawPointer
    let size, stride: Int
    let flags, extraInhabitantCount: UInt32
    /// The index of the value's case.
    let getEnumTag: @convention(c) (UnsafeRawPointer, UnsafeRawPointer) -> UInt32
  }
}
