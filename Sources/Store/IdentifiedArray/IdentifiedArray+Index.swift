import Effects

// The id index: an open-addressing hash table (linear probing) of 4-byte buckets. A bucket is
// 0 when empty; otherwise it holds an element's slot + 1 in its low 24 bits and 8 bits of the
// id's hash above them, so a probe skips almost every other id without reading its element.
// The id is confirmed on the element itself, which the caller reads next anyway. For 100,000
// elements the table is 512 KiB: it stays in a core's cache where a dictionary's keys and
// values would not, and a lookup in a large array costs one miss, on the element. Tables of
// more than 4,194,304 buckets hold full 32-bit slots and no hash bits. Every present element
// has exactly one bucket; freed slots have none.

extension IdentifiedArray {
  /// The bucket count of the smallest table.
  @inlinable static var minimumBucketCount: Int { 8 }

  /// The largest table whose buckets carry hash bits. Its slots stay below 2²⁴: at most
  /// 4/5 of the buckets are used, plus at most 1,024 pending removals.
  @inlinable static var largestFingerprintedTable: Int { 1 << 22 }

  /// Whether the table grows before adding an element to `count` others.
  @inlinable
  static func isFull(_ bucketCount: Int, toHold count: Int) -> Bool {
    count &* 5 > bucketCount &* 4
  }

  /// The id of the element in `slot`.
  @inlinable
  func id(inSlot slot: Int) -> ID {
    id(at: position(ofSlot: slot))
  }

  /// The id of the element at `position`, read where the element lies: `storage[position].id`
  /// would copy the whole element first in unspecialized code, and so would a buffer's
  /// subscript (its getter returns the element).
  @inlinable
  func id(at position: Int) -> ID {
    storage.withUnsafeBufferPointer {
      precondition(
        position >= 0 && position < $0.count,
        "IdentifiedArray: position \(position) is out of range for \($0.count) elements")
      return identity(of: $0.baseAddress.unsafelyUnwrapped + position, as: Element.self)
    }
  }

  /// Finds `id`: the bucket holding it and its slot, or `nil` when it is absent.
  ///
  /// - Complexity: O(1) on average.
  @inlinable
  func find(_ id: ID) -> (bucket: Int, slot: Int)? {
    let bucketCount = buckets.count
    if bucketCount == 0 { return nil }
    let mask = bucketCount &- 1
    let hash = id.hashValue
    var bucket = hash & mask
    // The bucket decoding of `slot(in:ifHashBits:bucketCount:)`, unrolled: the hot path.
    if let bits = Self.hashBits(hash, bucketCount: bucketCount) {
      while true {
        let entry = buckets[bucket]
        if entry == 0 { return nil }
        if entry &>> 24 == bits {
          let slot = Int(entry & 0xFF_FFFF) &- 1
          if self.id(inSlot: slot) == id { return (bucket, slot) }
        }
        bucket = (bucket &+ 1) & mask
      }
    }
    while true {
      let entry = buckets[bucket]
      if entry == 0 { return nil }
      let slot = Int(entry) &- 1
      if self.id(inSlot: slot) == id { return (bucket, slot) }
      bucket = (bucket &+ 1) & mask
    }
  }

  /// The slot of the element with `id`, or `nil`.
  ///
  /// - Complexity: O(1) on average.
  @inlinable
  func slot(of id: ID) -> Int? {
    find(id)?.slot
  }

  /// Appends `element`, whose id must be new, to `storage` and indexes it.
  ///
  /// - Complexity: Amortized O(1): the table doubles, rebuilt, when it would be more than
  ///   4/5 full.
  @inlinable
  mutating func appendIndexed(_ element: Element) {
    Self.checkFindable(element.id, position: storage.count)
    storage.append(element)
    if Self.isFull(buckets.count, toHold: storage.count) {
      rebuildIndex()
      return
    }
    // The next slot: after every present element's and every freed one.
    let slot = storage.count - 1 + removedSlots.count
    place(element.id.hashValue, slot: slot, bucketCount: buckets.count)
  }

  /// Inserts `elements`, whose ids must be new, at `position` in `storage`, and indexes them.
  ///
  /// The elements at and after `position` move back: with no removal pending, their slots are their
  /// positions, and each of their buckets is raised by the count inserted, in one pass over
  /// the table with no hashing (rebuilding the index hashed and placed every id again: 34
  /// times the cost of the array's own insert at 100,000 elements).
  ///
  /// - Complexity: O(*n* + *m*).
  @inlinable
  mutating func insertIndexed(_ elements: some Collection<Element>, at position: Int) {
    for (offset, element) in elements.enumerated() {
      Self.checkFindable(element.id, position: position + offset)
    }
    let count = elements.count
    guard !Self.isFull(buckets.count, toHold: storage.count + count), !isIndexOversized else {
      storage.insert(contentsOf: elements, at: position)
      rebuildIndex()
      return
    }
    // The elements at and after `position` move back by `count`; pending removals are folded
    // in by the same pass.
    repositionByScan { $0 >= position ? $0 + count : $0 }
    storage.insert(contentsOf: elements, at: position)
    // The ids as stored, not read from `elements` again.
    for slot in position..<position + count {
      place(id(at: slot).hashValue, slot: slot, bucketCount: buckets.count)
    }
  }

  /// Stops the program when `id`, to be added at `position`, is not equal to itself (a
  /// floating-point NaN): no lookup could find its element, and a second one with it would
  /// pass for new.
  @inlinable
  static func checkFindable(_ id: ID, position: Int) {
    precondition(
      id == id,
      IdentifiedArrayError.idNotEqualToItself(describeID(id), position: position)
        .description)
  }

  /// Puts `slot`, whose id hashes to `hash`, in the first empty bucket from its own.
  @inlinable
  mutating func place(_ hash: Int, slot: Int, bucketCount: Int) {
    let mask = bucketCount &- 1
    var bucket = hash & mask
    while buckets[bucket] != 0 { bucket = (bucket &+ 1) & mask }
    buckets[bucket] = Self.entry(slot: slot, hash: hash, bucketCount: bucketCount)
  }

  /// Removes the entry in `bucket`, moving later entries of its run back so that every
  /// lookup still finds them (no tombstones). The other entries' slots must map to their
  /// elements' positions.
  ///
  /// - Complexity: O(1) on average: the length of the run.
  @inlinable
  mutating func unindex(bucket: Int) {
    let mask = buckets.count &- 1
    var hole = bucket
    var next = bucket
    while true {
      next = (next &+ 1) & mask
      let entry = buckets[next]
      if entry == 0 { break }
      let slot = Self.slot(in: entry, ifHashBits: nil, bucketCount: buckets.count)!
      let ideal = id(inSlot: slot).hashValue & mask
      // The entry can fill the hole if the hole lies on its probe path, from `ideal` on.
      if (next &- ideal) & mask >= (next &- hole) & mask {
        buckets[hole] = entry
        hole = next
      }
    }
    buckets[hole] = 0
  }

  /// Makes every slot its element's position again, with no removal pending: each bucket's
  /// slot is lowered by the count of freed slots below it, in one pass over the table with no
  /// hashing. (``rebuildIndex()`` hashes and places every id again: an insertion, swap or move
  /// just after a removal cost 40 to 110 times the array's own.)
  ///
  /// - Complexity: O(*b* log *k*) for the *b* buckets and *k* ≤ 1,024 pending removals.
  @inlinable
  mutating func foldRemovedSlots() {
    guard !removedSlots.isEmpty else { return }
    if isIndexOversized {
      rebuildIndex()
      return
    }
    repositionByScan { $0 }
  }

  /// Whether the table has more than 16 buckets an element: one grown for many elements and
  /// left that size by removals from the end, which never re-index. A pass over all of its
  /// buckets would cost more than the O(*n*) the operations that pass over the index promise
  /// (an insertion at the front of 10 elements left of 3,000 visited 4,096 buckets), so they
  /// rebuild it to the elements' size instead, once.
  @inlinable var isIndexOversized: Bool {
    buckets.count > Self.minimumBucketCount && storage.count &* 16 < buckets.count
  }

  /// Points every bucket at `newPosition` of its element's position now (its slot less the
  /// freed slots below it), in one pass over the table with no hashing, and forgets the
  /// pending removals: afterwards each slot is the position `newPosition` gave.
  ///
  /// - Complexity: O(*b* log *k*) for the *b* buckets and *k* ≤ 1,024 pending removals.
  @inlinable
  mutating func repositionByScan(_ newPosition: (Int) -> Int) {
    let fingerprinted = buckets.count <= Self.largestFingerprintedTable
    let removed = removedSlots
    buckets.withUnsafeMutableBufferPointer { table in
      for bucket in table.indices {
        let entry = table[bucket]
        if entry == 0 { continue }
        // The slot + 1, as `entry` holds it, below the hash bits a small table keeps.
        let slot = Int(fingerprinted ? entry & 0xFF_FFFF : entry) &- 1
        let moved = newPosition(
          removed.isEmpty ? slot : slot &- Self.countBelow(slot, in: removed))
        guard moved != slot else { continue }
        let bits = fingerprinted ? entry & ~0xFF_FFFF : 0
        table[bucket] = bits | UInt32(truncatingIfNeeded: moved &+ 1)
      }
    }
    removedSlots.removeAll(keepingCapacity: true)
  }

  /// Moves the element at position `from` to `to`, the elements between moving one place,
  /// and points the index at their new positions in one pass over the table, with no hashing
  /// (pending removals folded in by the same pass).
  ///
  /// - Complexity: O(*n*), as the array's own remove and insert; no id is hashed.
  @inlinable
  mutating func moveByScan(from: Int, to: Int) {
    guard from != to else { return }
    let element = storage.remove(at: from)
    storage.insert(element, at: to)
    if isIndexOversized {
      rebuildIndex()
      return
    }
    let (low, high) = (Swift.min(from, to), Swift.max(from, to))
    let step = from < to ? -1 : 1
    repositionByScan { position in
      guard position >= low, position <= high else { return position }
      return position == from ? to : position + step
    }
  }

  /// Rebuilds the index from `storage`: afterwards each element's slot is its position and no
  /// removal is pending.
  ///
  /// - Complexity: O(*n*).
  @inlinable
  mutating func rebuildIndex() {
    removedSlots.removeAll(keepingCapacity: true)
    var size = Self.minimumBucketCount
    while Self.isFull(size, toHold: storage.count) { size &<<= 1 }
    buckets.removeAll(keepingCapacity: buckets.count == size)
    buckets.append(contentsOf: repeatElement(0, count: size))
    for position in storage.indices {
      place(id(at: position).hashValue, slot: position, bucketCount: size)
    }
  }

  /// The 8 hash bits a bucket keeps for `hash`, or `nil` in a table too large to keep them.
  @inlinable
  static func hashBits(_ hash: Int, bucketCount: Int) -> UInt32? {
    guard bucketCount <= largestFingerprintedTable else { return nil }
    return UInt32(truncatingIfNeeded: UInt(bitPattern: hash) &>> (UInt.bitWidth &- 8))
  }

  /// The bucket value for `slot`, whose id hashes to `hash`.
  @inlinable
  static func entry(slot: Int, hash: Int, bucketCount: Int) -> UInt32 {
    guard let bits = hashBits(hash, bucketCount: bucketCount) else {
      // Compared as UInt: `Int(UInt32.max)` does not fit a 32-bit Int.
      precondition(
        UInt(bitPattern: slot) < UInt(UInt32.max),
        "IdentifiedArray: more than 4,294,967,294 elements")
      return UInt32(truncatingIfNeeded: slot &+ 1)
    }
    assert(slot < 0xFF_FFFF, "a table of at most 2^22 buckets holds slots below 2^24")
    return bits &<< 24 | UInt32(truncatingIfNeeded: slot &+ 1)
  }

  /// The slot a bucket value holds, or `nil` when `hashBits` are given and differ from the
  /// ones it keeps.
  @inlinable
  static func slot(in entry: UInt32, ifHashBits bits: UInt32?, bucketCount: Int) -> Int? {
    guard bucketCount <= largestFingerprintedTable else { return Int(entry) &- 1 }
    if let bits, entry &>> 24 != bits { return nil }
    return Int(entry & 0xFF_FFFF) &- 1
  }
}
