import Effects

/// The stores for the elements of an identified collection or the screens of a navigation
/// stack, in order; made by a store's `scope(state:action:)`.
///
/// Two ways in, answering for two moments:
/// - By position (and ``ids``): the elements as they were when the collection was made, the
///   list a view drew, so that a row removed since can still play its removal; its store
///   reads the row's last state.
/// - By id (``subscript(id:)``): the collection now. An id removed since gives `nil`, even
///   if the collection lists it.
///
/// Each element's store reads that element's current state while it is there. A removed
/// element's store is not notified of the removal (its state, the row's last, did not
/// change); observers of the collection's list are, as its ids changed. The `scope` call is
/// what reads the list for observation: a view observes it by scoping in its body, while a
/// collection made earlier and kept is a snapshot, whose reads register nothing.
///
/// Scoped to a filtered view of a collection (a computed property such as `\.visibleRows`),
/// an element that leaves the view is removed, as far as its store is concerned: the store
/// keeps the element's last state and ignores its sends with a runtime warning, though the
/// element is still in the whole collection. (A text field on a row leaving the view cannot
/// change a row its store no longer shows.)
@MainActor
public struct IdentifiedStores<ID: Hashable & Sendable, ElementState, ElementAction: Sendable>:
  @MainActor RandomAccessCollection
{
  /// The ids of the elements, in order, as of when the collection was made.
  public let ids: [ID]
  let cache: ElementStoreCache<ID, ElementState, ElementAction>
  /// How many element stores the cache had let go when the collection was made.
  let listedAt: Int
  /// The stores this collection handed out, held while it lives (its copies share them): read
  /// again by position after its element was removed, it gives the store it gave before,
  /// even once nothing else holds that store. A list that diffs its old rows against the new
  /// ones did that, and the program stopped, saying no store had been made.
  let handedOut = HandedOutStores<ID, ElementState, ElementAction>()

  init(ids: [ID], cache: ElementStoreCache<ID, ElementState, ElementAction>) {
    self.ids = ids
    self.cache = cache
    self.listedAt = cache.retirementCount
  }

  /// The first position: 0.
  public var startIndex: Int { 0 }

  /// The position after the last element.
  public var endIndex: Int { ids.count }

  /// The store of the element at `position`.
  ///
  /// The element may have been removed since the collection was made, as when a view plays
  /// a removed row's animation: its store is then the one made for it before, which reads
  /// the element's last state (as it stood after the last `send` before the one that removed
  /// it, once anything was read through the store: what a view last drew) and whose actions
  /// are ignored with a runtime warning.
  ///
  /// - Parameter position: A valid position.
  /// - Precondition: The element is still in the collection, or its store was asked for
  ///   before it was removed, through this collection or one of its copies, or elsewhere and
  ///   is still held (failing that, a store still held for an earlier or later element with
  ///   the same id is handed out). A collection made before a removal and read after it, for
  ///   an element it never gave a store for and no held store was made for, has no state to
  ///   give: the program stops.
  /// - Complexity: O(1) on average.
  public subscript(position: Int) -> Store<ElementState, ElementAction> {
    let id = ids[position]
    if let store = cache.store(for: id, listedAt: listedAt) {
      // A view reads its rows again after each action: most reads find the store there.
      if handedOut.stores[id] !== store { handedOut.stores[id] = store }
      return store
    }
    guard let store = handedOut.stores[id] else {
      preconditionFailure(
        """
        No element has id \(id) any more, and no store was made for it before it was removed \
        that this collection handed out or that is still held: an IdentifiedStores lists the \
        ids as of when it was made; scope again after the collection changes.
        """
      )
    }
    return store
  }

  /// The store of the element with `id`, or `nil` if the collection has no such element now
  /// (even if the collection, made before its removal, lists it: read by position for that).
  ///
  /// - Parameter id: The element's id.
  /// - Complexity: O(1) on average.
  public subscript(id id: ID) -> Store<ElementState, ElementAction>? {
    cache.isPresent(id) ? cache.store(for: id, listedAt: listedAt) : nil
  }
}

/// The stores an ``IdentifiedStores`` handed out, shared by its copies.
@MainActor
final class HandedOutStores<ID: Hashable, ElementState, ElementAction: Sendable> {
  var stores: [ID: Store<ElementState, ElementAction>] = [:]
}
