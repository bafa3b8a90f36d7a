/// The last few structural changes of an identified array: which stamp each replaced, and
/// which ids it removed.
///
/// Reducers and element-store caches that saw the array at some stamp ask what was removed
/// since, and get the answer in time proportional to the changes rather than to the array's
/// size. The history is bookkeeping, not value: it takes no part in equality, hashing or
/// coding, and when it does not reach back far enough (many changes, or an array replaced
/// wholesale), callers fall back to comparing ids.
@usableFromInline
struct StructureHistory<ID: Hashable> {
  struct Change {
    var from: UInt64
    var to: UInt64
    /// The removed ids, or `nil` when there were too many to keep.
    var removed: [ID]?
  }

  static var capacity: Int { 16 }
  static var maximumRemovedPerChange: Int { 64 }

  private var changes: [Change] = []

  @usableFromInline init() {}

  mutating func record(from: UInt64, to: UInt64, removed: [ID]) {
    if changes.count == Self.capacity { changes.removeFirst() }
    let kept = removed.count <= Self.maximumRemovedPerChange ? removed : nil
    changes.append(Change(from: from, to: to, removed: kept))
  }

  /// The ids removed between stamps `from` and `to`, in removal order, or `nil` if the
  /// history cannot tell.
  func removed(from: UInt64, to: UInt64) -> [ID]? {
    var stamp = to
    var segments: [[ID]] = []
    for change in changes.reversed() {
      if stamp == from { break }
      guard change.to == stamp, let ids = change.removed else { return nil }
      segments.append(ids)
      stamp = change.from
    }
    return stamp == from ? segments.reversed().flatMap { $0 } : nil
  }
}

extension StructureHistory: Sendable where ID: Sendable {}
extension StructureHistory.Change: Sendable where ID: Sendable {}

extension IdentifiedArray {
  /// Marks a change of the set or order of ids, recording the removed ids.
  @usableFromInline
  mutating func restructure(removed: [ID]) {
    let previous = structure
    structure = Self.nextStructure()
    history.record(from: previous, to: structure, removed: removed)
  }

  /// The ids removed since the array had structure stamp `stamp`, or `nil` when that cannot
  /// be told cheaply (the stamp is too old, or belongs to another array).
  ///
  /// - Complexity: O(*c* + *r*) for the *c* recent changes and *r* removed ids.
  func removedIDs(since stamp: UInt64) -> [ID]? {
    stamp == structure ? [] : history.removed(from: stamp, to: structure)
  }

  /// The ids of the elements that may have changed since the array had content stamp
  /// `stamp`, or `nil` when that cannot be told cheaply.
  ///
  /// - Complexity: O(*c*) for the *c* recent changes.
  func changedIDs(since stamp: UInt64) -> [ID]? {
    stamp == content ? [] : contentHistory.removed(from: stamp, to: content)
  }
}
