/// Keys into the actions that `forEach`, `navigationStack` and `presents` wrap: one element's,
/// one screen's, the presented child's, a dismissal, and a stack's pop.
///
/// They continue a key of the feature's own, so that a test can match a child's action by its
/// case, however deep, without spelling the whole action out:
///
/// ```swift
/// await store.receive(CaseKey.rows[id: 3].appending(.saved))  // row 3's `saved`, any payload
/// await store.receive(CaseKey.editor.presented) { $0.title = "Weekend" }
/// await store.receive(CaseKey.editor.dismiss) { $0.editor = nil }
/// await store.receive(CaseKey.path.popFrom) { $0.path.removeAll() }  // a screen's `.dismiss`
/// ```
///
/// Start such a chain with `CaseKey.`: a chain that starts with a bare dot (`.editor.presented`)
/// must end with the type it starts with, and each link here changes the payload's type.
extension CaseKey {
  /// A key into the actions of the element with `id`, through this key's identified actions.
  ///
  /// The key is known by the key it continues and the id's hash: two ids of a type whose
  /// `hash(into:)` leaves out some of what `==` compares (an id and a version, hashed by the id
  /// alone) can give one key, which a store's `scope` then takes for one and the same child.
  /// Scope such ids by keys of their own.
  ///
  /// - Parameter id: The element's id.
  /// - Returns: A key from `Root` to the element's actions; it extracts nothing from another
  ///   element's.
  public subscript<ID: Hashable & Sendable, ElementAction: Sendable>(
    id id: ID
  ) -> CaseKey<Root, ElementAction> where Value == IdentifiedAction<ID, ElementAction> {
    appending(
      CaseKey<Value, ElementAction>(
        embed: { .element(id: id, action: $0) },
        extract: { $0.id == id ? $0.action : nil },
        identity: CaseKeyIdentity(child: id)))
  }

  /// A key into the actions of the stack screen with `id`, through this key's stack actions.
  ///
  /// - Parameter id: The screen's id.
  /// - Returns: A key from `Root` to the screen's actions; it extracts nothing from another
  ///   screen's, nor from a push or a pop.
  public subscript<ScreenState: Sendable, ScreenAction: Sendable>(
    id id: StackElementID
  ) -> CaseKey<Root, ScreenAction> where Value == StackAction<ScreenState, ScreenAction> {
    appending(
      CaseKey<Value, ScreenAction>(
        embed: { .element(id: id, action: $0) },
        extract: {
          guard case .element(id, let action) = $0 else { return nil }
          return action
        },
        identity: CaseKeyIdentity(child: id)))
  }
}

extension CaseKey where Value: _PresentationActionProtocol {
  /// A key into the presented child's actions, through this key's presentation actions.
  public var presented: CaseKey<Root, Value.ChildAction> {
    appending(
      CaseKey<Value, Value.ChildAction>(
        embed: { Value.presented($0) },
        extract: { $0._childAction },
        identity: CaseKeyIdentity(child: "presented")))
  }

  /// A key to the dismissal, through this key's presentation actions:
  /// `receive(CaseKey.editor.dismiss)` asserts that an effect dismissed the child.
  public var dismiss: CaseKey<Root, Void> {
    appending(
      CaseKey<Value, Void>(
        embed: { Value._dismissal },
        extract: { $0._childAction == nil ? () : nil },
        identity: CaseKeyIdentity(child: "dismiss")))
  }
}

extension CaseKey where Value: _StackActionProtocol {
  /// A key to a pop, through this key's stack actions: `receive(CaseKey.path.popFrom)`
  /// asserts that a screen was popped, as a screen's own `.dismiss` pops it. The key's value
  /// is the id of the lowest screen popped; receive the action by value to name the id.
  public var popFrom: CaseKey<Root, StackElementID> {
    appending(
      CaseKey<Value, StackElementID>(
        embed: { Value._popFrom(id: $0) },
        extract: { $0._poppedID },
        identity: CaseKeyIdentity(child: "popFrom")))
  }
}

/// What ``CaseKey/popFrom`` needs of ``StackAction``, which alone conforms: a key's `Value`
/// can be constrained to a protocol, not to a generic type with parameters of its own.
public protocol _StackActionProtocol: Sendable {
  /// The pop of the screen with `id` and every screen above it.
  static func _popFrom(id: StackElementID) -> Self
  /// The id popped from, or `nil` for another action.
  var _poppedID: StackElementID? { get }
}

extension StackAction: _StackActionProtocol {
  /// The pop of the screen with `id` and every screen above it: ``popFrom(id:)``.
  ///
  /// - Parameter id: The lowest screen popped.
  /// - Returns: The pop.
  public static func _popFrom(id: StackElementID) -> Self { .popFrom(id: id) }

  /// The id popped from, or `nil` for another action.
  public var _poppedID: StackElementID? {
    if case .popFrom(let id) = self { id } else { nil }
  }
}

/// What ``CaseKey/presented`` and ``CaseKey/dismiss`` need of ``PresentationAction``, which
/// alone conforms: a key's `Value` can be constrained to a protocol, not to a generic type
/// with a parameter of its own.
public protocol _PresentationActionProtocol: Sendable {
  /// The presented child's action type.
  associatedtype ChildAction: Sendable
  /// The action for the presented child.
  static func presented(_ action: ChildAction) -> Self
  /// The dismissal.
  static var _dismissal: Self { get }
  /// The child's action, or `nil` for the dismissal.
  var _childAction: ChildAction? { get }
}

extension PresentationAction: _PresentationActionProtocol {
  /// The dismissal: ``dismiss``.
  public static var _dismissal: Self { .dismiss }

  /// The child's action, or `nil` for the dismissal: ``presented``.
  public var _childAction: Action? { presented }
}
