/// An action for one element of an identified collection: the element's id and its action.
///
/// A parent embeds element actions in one case of its own action enum:
///
/// ```swift
/// enum Action: Sendable {
///   case rows(IdentifiedAction<Row.State.ID, Row.Action>)
/// }
/// store.send(.rows(.element(id: rowID, action: .toggleTapped)))
/// ```
public enum IdentifiedAction<ID: Hashable & Sendable, Action: Sendable>: Sendable {
  /// `action`, for the element with `id`.
  case element(id: ID, action: Action)

  /// The element's id.
  public var id: ID {
    switch self {
    case .element(let id, _): id
    }
  }

  /// The element's action.
  public var action: Action {
    switch self {
    case .element(_, let action): action
    }
  }
}

extension IdentifiedAction: Equatable where Action: Equatable {}
extension IdentifiedAction: Hashable where Action: Hashable {}
extension IdentifiedAction: Codable where ID: Codable, Action: Codable {}

/// The action of an identified collection run by `R`: ``IdentifiedAction`` with `R`'s
/// element id and action.
///
/// ```swift
/// case rows(IdentifiedActionOf<Row>)
/// ```
public typealias IdentifiedActionOf<R: Reducer> = IdentifiedAction<R.State.ID, R.Action>
where R.State: Identifiable, R.State.ID: Sendable
