/// How many `Store.runScreen` calls are running for one screen, by lifecycle case: those of
/// one store, or those of every store that a computed view's cache made for one row.
///
/// Overlapping calls are one run of the screen: the first sends `taskStarted`, and the last to
/// end sends `taskEnded`. A row of a filtered view that leaves the view and comes back gets a
/// new store, whose task SwiftUI may start before the old store's task sees its cancellation:
/// counted per store, the new start was refused as a second task, with a runtime warning, and
/// the old end, sent once the row was back in the view, was dropped. The cache hands one count
/// to each store it makes for the row's id while another store's task for it runs.
///
/// A screen the row presents comes back with it with a new store too, scoped from the row's
/// new store: the counts of a store scoped from one whose counts are shared are shared the same
/// way, by scope and the child's id (see ``child(scopedWith:id:)``), as are those of the stores
/// of a collection's elements in such a store (a stack's screens, by id and push).
@MainActor
final class ScreenTaskCounts {
  /// The calls running, by the lifecycle case they were given; no entry for none.
  var counts: [CaseKeyIdentity: Int] = [:]

  /// Whether these counts are shared by the stores made for one row of a computed view, or
  /// by the stores scoped the same way from those: a store scoped from a store with such
  /// counts gets its counts from them.
  let isShared: Bool

  /// The counts of the stores scoped from the stores with these counts, by scope and child's
  /// id, held by those stores: while a task of one runs, a store scoped again the same way
  /// (from the row's store made when the row came back) shares them.
  private var children: [ChildKey: HeldCounts] = [:]

  /// The counts these are a child of, and the key they have there: kept while a store holds
  /// these, as the cache holds a row's counts weakly, and finds them while a task of a store
  /// scoped from the row's runs.
  private let enclosing: (counts: ScreenTaskCounts, key: ChildKey)?

  /// Creates the counts of one store, or, `isShared`, those of the stores made for one row of
  /// a computed view.
  init(isShared: Bool = false) {
    self.isShared = isShared
    self.enclosing = nil
  }

  private init(enclosing: ScreenTaskCounts, key: ChildKey) {
    self.isShared = true
    self.enclosing = (enclosing, key)
  }

  /// Whether no call is running, on these stores or on those scoped from them.
  var isIdle: Bool {
    counts.isEmpty && children.values.allSatisfy { $0.counts?.isIdle ?? true }
  }

  /// The counts for a store scoped with `scope` from a store with these counts, for the child
  /// with `id` (`nil` for one with none): those of an earlier store scoped so while a call on
  /// it runs (the child went with its row, and is back with it), or new ones.
  func child(scopedWith scope: ScopeKey, id: AnyHashable?) -> ScreenTaskCounts {
    let key = ChildKey(scope: scope, id: id)
    if let running = children[key]?.counts, !running.isIdle { return running }
    children = children.filter { $0.value.counts != nil }
    let made = ScreenTaskCounts(enclosing: self, key: key)
    children[key] = HeldCounts(counts: made)
    return made
  }

  /// Leaves the counts these are a child of, once the child was closed (rather than gone with
  /// its row): a child presented there again is another screen, with a run of its own.
  func leaveEnclosing() {
    guard let enclosing, enclosing.counts.children[enclosing.key]?.counts === self else { return }
    enclosing.counts.children[enclosing.key] = nil
  }

  /// A store scoped from a store with shared counts: its scope, and its child's id.
  private struct ChildKey: Hashable {
    var scope: ScopeKey
    var id: AnyHashable?
  }

  /// Counts held weakly: by their stores.
  private struct HeldCounts {
    weak var counts: ScreenTaskCounts?
  }
}
