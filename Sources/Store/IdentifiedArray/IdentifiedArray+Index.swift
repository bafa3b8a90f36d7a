// The id index: an open-addressing hash table (linear probing) whose buckets hold only slot
// numbers, 4 bytes each. A lookup hashes the id, reads one bucket run, and confirms the id on
// the element itself, which the caller reads next anyway: for a large array, one cache miss in
// a table a quarter the size of a dictionary's, instead of one each in a dictionary's bitmap,
// keys and values. Every present element has exactly one bucket; freed slots have none.

extension IdentifiedArray {
  /// The bucket count of the smallest table.
  @inlinable static var minimumBucketCount: Int { 8 }

  /// The id of the element in `slot`.
  @inlinable
  func id(inSlot slot: Int) -> ID {
    id(at: position(ofSlot: slot))
  }

  /// The id of the element at `position`, read where the element lies: `storage[position].id`
  /// would copy the whole element first in unspecialized code.
  @inlinable
  func id(at position: Int) -> ID {
    storage.withUnsafeBufferPointer { $0[position].id }
  }

  /// Finds `id`: the bucket holding it and its slot, or `nil` when it is absent.
  ///
  /// - Complexity: O(1) on average.
  @inlinable
  func find(_ id: ID) -> (bucket: Int, slot: Int)? {
    if buckets.isEmpty { return nil }
    let mask = buckets.count &- 1
    var bucket = id.hashValue & mask
    while true {
      let entry = buckets[bucket]
      if entry == 0 { return nil }
      let slot = Int(entry &- 1)
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

  /// Indexes the element just appended to `storage`, in `slot`. Its id must be new.
  ///
  /// - Complexity: Amortized O(1): the table doubles, rebuilt, when it would be more than
  ///   three quarters full.
  @inlinable
  mutating func indexAppended(_ id: ID, slot: Int) {
    if storage.count &* 4 > buckets.count &* 3 {
      rebuildIndex()
      return
    }
    let mask = buckets.count &- 1
    var bucket = id.hashValue & mask
    while buckets[bucket] != 0 { bucket = (bucket &+ 1) & mask }
    buckets[bucket] = Self.entry(forSlot: slot)
  }

  /// Removes the entry in `bucket`, moving later entries of its run back so that every
  /// lookup still finds them (no tombstones). Call it before the element leaves `storage`.
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
      let ideal = id(inSlot: Int(entry &- 1)).hashValue & mask
      // The entry can fill the hole if the hole lies on its probe path, from `ideal` on.
      if (next &- ideal) & mask >= (next &- hole) & mask {
        buckets[hole] = entry
        hole = next
      }
    }
    buckets[hole] = 0
  }

  /// Rebuilds the index from `storage`: afterwards each element's slot is its position and no
  /// removal is pending.
  ///
  /// - Complexity: O(*n*).
  @inlinable
  mutating func rebuildIndex() {
    removedSlots.removeAll(keepingCapacity: true)
    var size = Self.minimumBucketCount
    while size &* 3 < storage.count &* 4 { size &<<= 1 }
    buckets.removeAll(keepingCapacity: buckets.count == size)
    buckets.append(contentsOf: repeatElement(0, count: size))
    let mask = size &- 1
    for position in storage.indices {
      var bucket = id(at: position).hashValue & mask
      while buckets[bucket] != 0 { bucket = (bucket &+ 1) & mask }
      buckets[bucket] = Self.entry(forSlot: position)
    }
  }

  /// The bucket value for `slot`.
  @inlinable
  static func entry(forSlot slot: Int) -> UInt32 {
    precondition(slot < Int(UInt32.max), "IdentifiedArray: more than 4,294,967,294 elements")
    return UInt32(truncatingIfNeeded: slot &+ 1)
  }
}
