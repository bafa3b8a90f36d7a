import Foundation

/// A screen pushed on the cart's navigation stack, named by value.
///
/// A route holds only the identity of what it shows, never a copy of it: the item editor's
/// route holds the item's id, and the editor reads and edits the item where it lives, in
/// ``Cart/State/items``. Pushing a route is a forward data flow with one source of truth.
public enum CartRoute: Equatable, Hashable, Sendable, Codable {
  /// The editor of the item with this id.
  case itemEditor(CartItem.ID)

  /// The id of the item the screen shows.
  public var itemID: CartItem.ID {
    switch self {
    case .itemEditor(let id): id
    }
  }
}
