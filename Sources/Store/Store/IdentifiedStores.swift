import Effects

/// The stores for the elements of an identified collection or the screens of a navigation
/// stack, in order; made by a store's `scope(state:action:)`.
///
/// Two ways in, answering for two moments:
/// - By position (and ``ids``): the elements as they were when the collection was made, the
///   list a view drew, so that a row removed since can still play its removal; its store
///   reads the row's last state, even once another element has taken its id (an undo that
///   adds the row back, a stack replaced by one whose ids start over). A position gives the
///   same store each time.
/// - By id (``subscript(id:)``): the collection now. An id removed since gives `nil`, even
///   if the collection lists it; an id another element has taken since gives that element's
///   store.
///
/// Each element's store reads that element's current state while it is there. A removed
/// element's store is not notified of the removal (its state, the row's last, did not
/// change); observers of the collection's list are, as its ids changed. The `scope` call is
/// what reads the list for observation: a view observes it by scoping in its body, while a
/// collection made earlier and kept is a snapshot, whose reads register nothing.
///
/// Scoped to a filtered view of a collection (a computed property such as `\.visibleRows`, or
/// a collection stored in a child state that a computed property builds, scoped to through
/// that child's store), an element that leaves the view is removed, as far as its store is
/// concerned: the store keeps the element's last state and ignores its sends with a runtime
/// warning, though the element is still in the whole collection. (A text field on a row
/// leaving the view cannot change a row its store no longer shows. The end of a screen's
/// task that ``Store/runScreen(lifecycle:currentPhase:scenePhases:)`` sends goes on to the
/// whole collection.)
///
/// An element's store follows its collection, learning that its element was removed, while
/// something checks the collection after each action: the store it was scoped from (held by
/// a view, or by the store above it), or a collection of its stores. Once both are let go
/// (the root store released while a view still holds a row's store, say), the row's store
/// keeps its element's last state and ignores its sends with a runtime warning from then on,
/// its very next send included, as for a removed element: it could no longer tell its
/// element from one added later with its id.
@MainActor
public struct IdentifiedStores<ID: Hashable & Sendable, ElementState, ElementAction: Sendable>:
  @MainActor RandomAccessCollection
{
  /// The ids of the elements, in order, as of when the collection was made.
  public let ids: [ID]
  let cache: ElementStoreCache<ID, ElementState, ElementAction>
  /// How many element stores the cache had let go when the collection was made.
  let listedAt: Int
  /// The stores this collection handed out, by the id listed at their position, held while it
  /// lives (its copies share them): read again by position, it gives the store it gave
  /// before, even once nothing else holds that store (a list that diffs its old rows against
  /// the new ones did that, and the program stopped, saying no store had been made), and even
  /// once another element has taken the id (it gave the newcomer's store, which read and
  /// drove the newcomer).
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

  /// The store of the element at `position`, as the collection was when it was made.
  ///
  /// A position gives the same store each time it is read, through this collection or one of
  /// its copies. The element may have been removed since the collection was made, as when a
  /// view plays a removed row's animation, and another element may have taken its id since
  /// (a row added back by an undo, the first screen of a stack that replaced the stack, whose
  /// ids start over): its store is then the one made for it before, not the newcomer's. That
  /// store reads the element's last state (as it stood after the last `send` before the one
  /// that removed it, once anything was read through the store: what a view last drew), and
  /// its actions are ignored with a runtime warning. ``subscript(id:)`` gives the newcomer's.
  ///
  /// - Parameter position: A valid position.
  /// - Precondition: The element is still in the collection, or its store was asked for by
  ///   position before it was removed, through this collection or one of its copies, or its
  ///   store (asked for anywhere, by id too) is still held. Failing that, another store for
  ///   the same id is handed out: one still held for a later element with it that was removed
  ///   too, else the store of the element with it now, else one still held for an earlier
  ///   element with it. A collection made before a removal and read after it, for an element
  ///   it never gave a store for and no held store was made for, whose id no element has now,
  ///   has no state to give: the program stops.
  /// - Complexity: O(1) on average.
  public subscript(position: Int) -> Store<ElementState, ElementAction> {
    let id = ids[position]
    // A view reads its rows again after each action: most reads end here. The cache is not
    // asked again: by then another element may have the id, and the cache would give its
    // store.
    if let store = handedOut.stores[id] { return store }
    guard let store = cache.store(for: id, listedAt: listedAt) else {
      preconditionFailure(
        """
        No element has id \(describeID(id)) any more, and no store was made for it before it was removed \
        that this collection handed out or that is still held: an IdentifiedStores lists the \
        ids as of when it was made; scope again after the collection changes.
        """
      )
    }
    handedOut.stores[id] = store
    return store
  }

  /// The store of the element with `id`, or `nil` if the collection has no such element now
  /// (even if the collection, made before its removal, lists it: read by position for that).
  ///
  /// - Parameter id: The element's id.
  /// - Complexity: O(1) on average.
  public subscript(id id: ID) -> Store<ElementState, ElementAction>? {
    cache.isPresent(id) ? cache.store(for: id) : nil
  }
}

/// The stores an ``IdentifiedStores`` handed out, shared by its copies.
@MainActor
final class HandedOutStores<ID: Hashable, ElementState, ElementAction: Sendable> {
  var stores: [ID: Store<ElementState, ElementAction>] = [:]
}
