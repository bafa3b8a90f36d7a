import Effects

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
  @usableFromInline
  enum IDs {
    case none
    case one(ID)
    case many([ID])
    /// Too many to keep.
    case unknown
  }

  @usableFromInline
  struct Change {
    @usableFromInline var from: UInt64
    @usableFromInline var to: UInt64
    @usableFromInline var ids: IDs

    @inlinable
    init(from: UInt64, to: UInt64, ids: IDs) {
      self.from = from
      self.to = to
      self.ids = ids
    }
  }

  @inlinable static var capacity: Int { 16 }
  @inlinable static var maximumIDsPerChange: Int { 64 }

  /// The changes, written round-robin once full, so recording never shifts the buffer.
  @usableFromInline var changes: [Change] = []
  @usableFromInline var next = 0

  @inlinable init() {}

  @inlinable
  mutating func record(from: UInt64, to: UInt64, ids: IDs) {
    let change = Change(from: from, to: to, ids: ids)
    if changes.count < Self.capacity {
      changes.append(change)
    } else {
      changes[next] = change
    }
    next = (next + 1) % Self.capacity
  }

  @inlinable
  mutating func record(from: UInt64, to: UInt64, removed: [ID]) {
    let ids: IDs =
      switch removed.count {
      case 0: .none
      case 1: .one(removed[0])
      case ...Self.maximumIDsPerChange: .many(removed)
      default: .unknown
      }
    record(from: from, to: to, ids: ids)
  }

  /// The ids recorded between stamps `from` and `to`, in order, or `nil` if the history
  /// cannot tell.
  ///
  /// Inlinable, so that it is specialized for the id type where it is called: in generic code
  /// it looked up the types of its arrays at every structural change (a third of an append's
  /// cost through `forEach`).
  ///
  /// - Complexity: O(*c* + *r*) for the *c* changes between the stamps and the *r* ids.
  @inlinable
  func removed(from: UInt64, to: UInt64) -> [ID]? {
    // Back from `to` to `from`, checking that the changes link up; then forward, collecting.
    var stamp = to
    var index = next
    var steps = 0
    while stamp != from {
      guard steps < changes.count else { return nil }
      index = (index &- 1 &+ changes.count) % changes.count
      let change = changes[index]
      guard change.to == stamp else { return nil }
      if case .unknown = change.ids { return nil }
      stamp = change.from
      steps &+= 1
    }
    var removed: [ID] = []
    for step in 0..<steps {
      switch changes[(index &+ step) % changes.count].ids {
      case .none, .unknown: break
      case .one(let id): removed.append(id)
      case .many(let ids): removed.append(contentsOf: ids)
      }
    }
    return removed
  }
}

extension StructureHistory: Sendable where ID: Sendable {}
extension StructureHistory.Change: Sendable where ID: Sendable {}
extension StructureHistory.IDs: Sendable where ID: Sendable {}

extension IdentifiedArray {
  /// Marks a change of the set or order of ids, recording the removed ids.
  @inlinable
  mutating func restructure(removed: [ID]) {
    let previous = structure
    structure = Self.nextStructure()
    history.record(from: previous, to: structure, removed: removed)
  }

  /// The ids removed since the array had structure stamp `stamp`, or `nil` when that cannot
  /// be told cheaply (the stamp is too old, or belongs to another array).
  ///
  /// - Complexity: O(*c* + *r*) for the *c* recent changes and *r* removed ids.
  @inlinable
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

extension IdentifiedArray: StampedContainer, IdentifiedLookup {
  package var structureStamp: UInt64 { structure }

  package var contentStamp: UInt64 { content }

  func lifetimeState(forID id: any Hashable, wantsState: Bool) -> PlaceLookup {
    guard let id = id as? ID else { return .unknown }
    // A stack's screen has a token of its own, which a screen pushed later with its id does
    // not share; a row is its id.
    let carriesToken = Element.self is any LifetimeStateCarrier.Type
    guard carriesToken || wantsState else {
      return contains(id: id) ? .present(nil) : .gone
    }
    guard let element = self[id: id] else { return .gone }
    if let carrier = element as? any LifetimeStateCarrier {
      return .present(
        wantsState ? carrier.carriedLifetimeState : nil, token: carrier.lifetimeToken)
    }
    return .present(wantsState ? element : nil)
  }

  func removedLifetimeIDs(since stamp: UInt64) -> [any Hashable]? {
    removedIDs(since: stamp)
  }

  func changedLifetimeIDs(since stamp: UInt64) -> [any Hashable]? {
    changedIDs(since: stamp)
  }
}
