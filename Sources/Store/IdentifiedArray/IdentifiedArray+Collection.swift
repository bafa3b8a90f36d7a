extension IdentifiedArray: RandomAccessCollection {
  /// The position of the first element: always 0.
  ///
  /// - Complexity: O(1).
  @inlinable public var startIndex: Int { 0 }

  /// The position after the last element: the count.
  ///
  /// - Complexity: O(1).
  @inlinable public var endIndex: Int { storage.count }

  /// The element at `position`.
  ///
  /// - Parameter position: A valid position.
  /// - Complexity: O(1).
  @inlinable
  public subscript(position: Int) -> Element {
    storage[position]!
  }

  /// The number of elements.
  ///
  /// - Complexity: O(1).
  @inlinable public var count: Int { storage.count }

  /// Whether the array is empty.
  ///
  /// - Complexity: O(1).
  @inlinable public var isEmpty: Bool { storage.isEmpty }
}

extension IdentifiedArray {
  /// The element with `id`, or `nil`; setting changes, adds or removes it.
  ///
  /// Reading and updating are O(1) on average, and an update through this subscript
  /// (`items[id: 1]?.quantity += 1`) changes the element in place, without copying it.
  /// Setting `nil` removes the element; setting an element for an id that is absent appends it.
  ///
  /// - Parameter id: The id of the element.
  /// - Precondition: A value set must have the id it is set for, and a mutation must not change
  ///   the element's id.
  /// - Complexity: O(1) on average to read or update; O(*n*) to remove.
  @inlinable
  public subscript(id id: ID) -> Element? {
    get {
      guard let slot = slot(of: id) else { return nil }
      return storage[position(ofSlot: slot)]
    }
    _modify {
      guard let (bucket, slot) = find(id) else {
        var added: Element? = nil
        yield &added
        if let added {
          Self.checkID(of: added, is: id)
          append(added)
        }
        return
      }
      let position = position(ofSlot: slot)
      yield &storage[position]
      guard let element = storage[position] else {
        removeEmptySlot(at: position, bucket: bucket, slot: slot, id: id)
        return
      }
      Self.checkID(of: element, is: id)
      touch(id)
    }
    set {
      if let newValue {
        Self.checkID(of: newValue, is: id)
        if let slot = slot(of: id) {
          storage[position(ofSlot: slot)] = newValue
          touch(id)
        } else {
          append(newValue)
        }
      } else {
        remove(id: id)
      }
    }
  }

  @usableFromInline
  static func checkID(of element: Element, is id: ID) {
    precondition(
      element.id == id,
      """
      IdentifiedArray: the element for id \(id) now has id \(element.id). An element's id is \
      its identity and cannot change; remove it and add a new element instead.
      """
    )
  }

  @inlinable
  mutating func removeEmptySlot(at position: Int, bucket: Int, slot: Int, id: ID) {
    // The element is gone already (set to nil); its bucket is known, and emptying it reads
    // only the ids of other elements.
    unindex(bucket: bucket)
    storage.remove(at: position)
    forget(slot: slot, at: position)
    restructure(removed: [id])
  }

  /// Records that the element in `slot`, at `position`, was removed from `storage`.
  ///
  /// - Complexity: O(1) for the last element; otherwise O(log *k* + *k*) for *k* pending
  ///   removals, and when *k* reaches `removedSlotLimit` the removal re-indexes the elements
  ///   after the first freed slot instead.
  @inlinable
  mutating func forget(slot: Int, at position: Int) {
    let below = Self.countBelow(slot, in: removedSlots)
    if position == storage.count {
      // The last element: the slots freed after it are the top of the range; drop them with
      // it, so that popping never re-indexes.
      removedSlots.removeSubrange(below...)
      return
    }
    if removedSlots.count >= removedSlotLimit {
      rebuildIndex()
      return
    }
    removedSlots.insert(slot, at: below)
  }

  /// Marks that the element with `id` may have changed.
  @inlinable
  mutating func touch(_ id: ID) {
    let previous = content
    content = Self.nextStructure()
    contentHistory.record(from: previous, to: content, ids: .one(id))
  }

}
