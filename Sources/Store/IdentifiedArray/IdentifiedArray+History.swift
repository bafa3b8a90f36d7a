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

  @inlinable static var maximumIDsPerChange: Int { 64 }

  /// How many changes the history keeps for an array of `count` elements: at least 16, and
  /// one for every 16 elements, in powers of two.
  ///
  /// Those who find the history too short fall back to work in proportion to the array (a
  /// look at every element store, or every running lifetime): with room for a sixteenth of
  /// the array, that only happens to an action that changed more than a sixteenth of it, and
  /// the fallback costs at most 16 times what the action's changes did. A fixed 16 let an
  /// action that changed 17 rows of 100,000 look at every one of their stores (32 ms, 4,800
  /// times one that changed 16; large-state adversary trial). Growing in powers of two
  /// keeps the cost of growing constant per change; a history grown for a large array stays
  /// that size when the array shrinks, at 32 bytes or so per change, plus the ids it holds (at
  /// most ``idLimit(forCount:)``).
  @inlinable
  static func capacity(forCount count: Int) -> Int {
    let wanted = count / 16
    guard wanted > 16 else { return 16 }
    return 1 << (Int.bitWidth - (wanted - 1).leadingZeroBitCount)
  }

  /// The changes, written round-robin once full, so recording never shifts the buffer.
  @usableFromInline var changes: [Change] = []
  @usableFromInline var next = 0
  /// The largest capacity asked for so far: the history never shrinks, so that an array
  /// whose size goes back and forth across a boundary does not put its history in order
  /// again at each change.
  @usableFromInline var largestCapacity = 0
  /// How many ids the changes hold in all.
  @usableFromInline var idCount = 0
  /// How many of the oldest changes are known to hold no ids (forgotten, or recorded with
  /// none): a forgetting pass starts after them. Without it, each pass went over every
  /// change kept, and once an array had shrunk below a quarter of the ids its history held,
  /// every change passed over them all (an update by id, a pop: 8,192 changes each, for an
  /// array that had held 100,000 elements).
  @usableFromInline var forgottenOldest = 0

  @inlinable init() {}

  /// The bytes the history occupies, roughly: its changes, with the one id a change can hold
  /// in place, and the arrays of those that hold more (not those arrays' headers).
  ///
  /// - Complexity: O(*c*) for the *c* changes kept.
  var approximateByteCount: Int {
    changes.reduce(changes.capacity * MemoryLayout<Change>.stride) { total, change in
      guard case .many(let ids) = change.ids else { return total }
      return total + ids.capacity * MemoryLayout<ID>.stride
    }
  }

  /// How many ids the history holds at most for an array of `count` elements: a quarter of
  /// the elements, and at least 256. The ids of removed elements (and whatever objects they
  /// hold) are let go once past it, the oldest first: with up to 64 ids a change, a history
  /// that had grown for a large array kept four to eight times its peak count of ids, after
  /// the array was emptied (leak adversary trial).
  @inlinable
  static func idLimit(forCount count: Int) -> Int {
    max(256, count / 4)
  }

  /// Records a change, in a history of up to `capacity` changes holding up to `idLimit` ids.
  @inlinable
  mutating func record(
    from: UInt64, to: UInt64, ids: IDs, capacity wanted: Int, idLimit: Int = .max
  ) {
    let change = Change(from: from, to: to, ids: ids)
    largestCapacity = max(largestCapacity, wanted)
    let capacity = largestCapacity
    idCount += change.ids.count
    if changes.count < capacity {
      // Room to grow. A history that went round at a smaller capacity is put oldest first
      // (once per doubling of the capacity).
      if next != changes.count {
        changes = Array(changes[next...] + changes[..<next])
      }
      changes.append(change)
      next = changes.count == capacity ? 0 : changes.count
    } else {
      // Full: the oldest goes.
      idCount -= changes[next].ids.count
      changes[next] = change
      next = (next + 1) % changes.count
      forgottenOldest = max(0, forgottenOldest - 1)
    }
    if idCount > idLimit { forgetOldestIDs(downTo: idLimit) }
  }

  /// Forgets the ids of the oldest changes until at most `limit` are left: those changes say
  /// they removed too many to keep, so that a question reaching back to them is answered
  /// "unknown" (the asker then compares ids) rather than wrongly.
  ///
  /// - Complexity: O(1) amortized over the changes recorded: it starts past the oldest
  ///   changes known to hold no ids (`forgottenOldest`), so it passes over each change at
  ///   most once while the history keeps it.
  @usableFromInline
  mutating func forgetOldestIDs(downTo limit: Int) {
    // Oldest first: from `next` once the ring is full, else from the start.
    let start = changes.count == largestCapacity ? next : 0
    while idCount > limit, forgottenOldest < changes.count {
      let index = (start + forgottenOldest) % changes.count
      idCount -= changes[index].ids.count
      if changes[index].ids.count > 0 { changes[index].ids = .unknown }
      forgottenOldest += 1
    }
  }

  @inlinable
  mutating func record(
    from: UInt64, to: UInt64, removed: [ID], capacity: Int, idLimit: Int = .max
  ) {
    let ids: IDs =
      switch removed.count {
      case 0: .none
      case 1: .one(removed[0])
      case ...Self.maximumIDsPerChange: .many(removed)
      default: .unknown
      }
    record(from: from, to: to, ids: ids, capacity: capacity, idLimit: idLimit)
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

extension StructureHistory.IDs {
  /// How many ids this holds.
  @inlinable var count: Int {
    switch self {
    case .none, .unknown: 0
    case .one: 1
    case .many(let ids): ids.count
    }
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
    history.record(
      from: previous, to: structure, removed: removed,
      capacity: StructureHistory<ID>.capacity(forCount: count),
      idLimit: StructureHistory<ID>.idLimit(forCount: count))
  }

  /// Carries on the structure history of `previous`, the array built by the last read of a
  /// collection a store's state builds anew at each read (a filtered view): with the same ids
  /// in the same order, this array takes `previous`'s structure stamp; otherwise its own
  /// stamp follows `previous`'s, recording the ids that left. Whatever was scoped from the
  /// view then tells which rows left, and that none did, as for a stored collection, instead
  /// of looking at each row it made a store for.
  ///
  /// Not for the screens of a stack, which a stack with the same ids replaces with others
  /// (their tokens tell them apart): their arrays keep the fresh stamp and empty history
  /// they were built with, which say that anything may have changed.
  ///
  /// - Complexity: O(*n* + *m*) for the *n* elements here and the *m* in `previous`.
  mutating func continueStructure(from previous: IdentifiedArray) {
    guard !(Element.self is any LifetimeStateCarrier.Type) else { return }
    let count = storage.count
    // Through both buffers at once, each id read where its element lies: in code not
    // specialized for the element's type, `id(at:)` for each position made a filtered view's
    // rows cost twice as much (bench row 19), and a buffer's subscript copied each element
    // (its strings and all) to read its id, half of what a row action cost there.
    let sameIDs =
      count == previous.storage.count
      && storage.withUnsafeBufferPointer { now in
        previous.storage.withUnsafeBufferPointer { then in
          guard let now = now.baseAddress, let then = then.baseAddress, now != then else {
            return true
          }
          for position in 0..<count {
            let id: ID = identity(of: now + position, as: Element.self)
            guard id == identity(of: then + position, as: Element.self) else { return false }
          }
          return true
        }
      }
    if sameIDs {
      structure = previous.structure
      history = previous.history
      return
    }
    var removed: [ID] = []
    for position in previous.storage.indices {
      let id = previous.id(at: position)
      guard !contains(id: id) else { continue }
      removed.append(id)
      // One more than a change keeps: recorded as too many to list.
      if removed.count > StructureHistory<ID>.maximumIDsPerChange { break }
    }
    history = previous.history
    history.record(
      from: previous.structure, to: structure, removed: removed,
      capacity: StructureHistory<ID>.capacity(forCount: count),
      idLimit: StructureHistory<ID>.idLimit(forCount: count))
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

  package static var structureStampOffset: Int {
    MemoryLayout<Self>.offset(of: \Self.stamps)!
      + MemoryLayout<CollectionStamps>.offset(of: \CollectionStamps.structure)!
  }

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
