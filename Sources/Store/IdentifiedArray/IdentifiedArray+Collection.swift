import Effects

extension IdentifiedArray: RandomAccessCollection {
  /// The position of the first element: always 0.
  ///
  /// - Complexity: O(1).
  @inlinable public var startIndex: Int { 0 }

  /// The position after the last element: the count.
  ///
  /// - Complexity: O(1).
  @inlinable public var endIndex: Int { storage.count }

  /// The element at `position`; a change through it is made in place.
  ///
  /// For changing every element, or many, without looking each one up by id:
  ///
  /// ```swift
  /// for position in state.items.indices { state.items[position].isSelected = false }
  /// ```
  ///
  /// The array is not a `MutableCollection`: its elements cannot be swapped or reordered
  /// through positions (use ``move(fromOffsets:toOffset:)`` or ``sort(by:)``), only changed.
  ///
  /// - Parameter position: A valid position.
  /// - Precondition: A change must not change the element's id; it stops the program, naming
  ///   both ids.
  /// - Complexity: O(1).
  @inlinable
  public subscript(position: Int) -> Element {
    get { storage[position] }
    _modify {
      let id = self.id(at: position)
      defer {
        Self.checkID(self.id(at: position), is: id)
        touch(id)
      }
      yield &storage[position]
    }
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
  /// Reading and updating are O(1) on average. An update through this subscript
  /// (`items[id: 1]?.quantity += 1`) moves the element out of the array for the mutation and
  /// back, without copying the rest. Setting `nil` removes the element; setting an element for
  /// an id that is absent appends it.
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
        // In a `defer`, as below: a caller that throws after setting the value ends the
        // access without coming back here, and the value set must still be kept (a
        // dictionary keeps it).
        defer {
          if let added {
            Self.checkSetID(added.id, is: id)
            append(added)
          }
        }
        yield &added
        return
      }
      // Move the element out (swapped to the end and popped, so nothing else moves), lend
      // it, and put it back; nothing can read the array meanwhile (exclusive access).
      let position = position(ofSlot: slot)
      let last = storage.count - 1
      storage.swapAt(position, last)
      var element: Element? = storage.removeLast()
      defer {
        if let element {
          storage.append(element)
          storage.swapAt(position, last)
          Self.checkID(element.id, is: id)
          touch(id)
        } else {
          // Put the element that stood in for it back at the end, then forget the slot.
          if position < last { storage.append(storage.remove(at: position)) }
          removeMovedOut(at: position, bucket: bucket, slot: slot, id: id)
        }
      }
      yield &element
    }
    set {
      if let newValue {
        Self.checkSetID(newValue.id, is: id)
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

  /// Changes the element in `slot` in place, with no copy of it, and marks it touched.
  ///
  /// - Parameters:
  ///   - slot: A slot from ``find(_:)``.
  ///   - body: The change. It must not change the element's id.
  /// - Returns: What `body` returns.
  /// - Complexity: O(1), besides `body`.
  @inlinable
  mutating func modifyElement<Result>(
    inSlot slot: Int, _ body: (inout Element) -> Result
  ) -> Result {
    let position = position(ofSlot: slot)
    let id = id(at: position)
    defer {
      Self.checkID(self.id(at: position), is: id)
      touch(id)
    }
    return body(&storage[position])
  }

  @usableFromInline
  static func checkID(_ found: ID, is id: ID) {
    precondition(
      found == id,
      """
      IdentifiedArray: the element for id \(describeID(id)) now has id \(describeID(found)). An \
      element's id is its identity and cannot change; remove it and add a new element instead.
      """
    )
  }

  /// Calls `body` with the address of the element with `id`, where the array keeps it, or with
  /// `nil` when there is none; the address is valid during the call only.
  ///
  /// For the stores of the elements, which read their element after each action that may
  /// have changed it: `self[id: id]` would copy the element out, into an optional, in code not
  /// specialized for its type, before the store copies it once more, to keep.
  ///
  /// - Complexity: O(1) on average.
  func withElement<Result>(id: ID, _ body: (UnsafePointer<Element>?) -> Result) -> Result {
    guard let slot = slot(of: id) else { return body(nil) }
    let position = position(ofSlot: slot)
    return storage.withUnsafeBufferPointer { body($0.baseAddress.unsafelyUnwrapped + position) }
  }

  /// Checks that a value set through ``subscript(id:)`` has the id it is set for.
  @usableFromInline
  static func checkSetID(_ found: ID, is id: ID) {
    precondition(
      found == found,
      """
      IdentifiedArray: a value with id \(describeID(found)) was set through subscript(id:), but \
      that id is not equal to itself (a floating-point NaN, say): no element could be found by it.
      """
    )
    precondition(
      found == id,
      """
      IdentifiedArray: a value with id \(describeID(found)) was set for id \(describeID(id)). A \
      value set through subscript(id:) must have the id it is set for: set it for id \
      \(describeID(found)), or append it.
      """
    )
  }

  /// Finishes removing the element with `id`, which a mutation through ``subscript(id:)``
  /// set to `nil`: it has left `storage` already, from `position`.
  @inlinable
  mutating func removeMovedOut(at position: Int, bucket: Int, slot: Int, id: ID) {
    // The slot is forgotten first, so that emptying the bucket reads the other elements'
    // ids at their new positions; unless forgetting re-indexed everything already.
    if forget(slot: slot, at: position) { unindex(bucket: bucket) }
    restructure(removed: [id])
  }

  /// Records that the element in `slot`, at `position`, was removed from `storage`.
  ///
  /// - Complexity: O(1) for the last element; otherwise O(log *k* + *k*) for *k* pending
  ///   removals; when *k* reaches `removedSlotLimit`, O(*n*) to rebuild the whole index
  ///   instead, shared by the `removedSlotLimit` removals before it (*n*/128 of them up to
  ///   131,072 elements, 1,024 past that).
  /// - Returns: `false` when it rebuilt the index from `storage`, so that no bucket names the
  ///   slot any more.
  @inlinable
  @discardableResult
  mutating func forget(slot: Int, at position: Int) -> Bool {
    let below = Self.countBelow(slot, in: removedSlots)
    if position == storage.count {
      // The last element: the slots freed after it are the top of the range; drop them with
      // it, so that popping never re-indexes.
      removedSlots.removeSubrange(below...)
      return true
    }
    if removedSlots.count >= removedSlotLimit {
      rebuildIndex()
      return false
    }
    removedSlots.insert(slot, at: below)
    return true
  }

  /// Marks that the elements at `positions`, just appended or inserted, arrived: a change of
  /// the ids, and of the content, as each arriving element is new to whoever saw the array
  /// before. A view built anew at each read keeps the last build's structure stamp when its
  /// ids are the same (`continueStructure`), so the arrival of a row removed and added back,
  /// or of rows appended to a copy of another array, is told by the content stamp alone.
  @inlinable
  mutating func recordArrival(at positions: Range<Int>) {
    restructure(removed: [])
    let ids: StructureHistory<ID>.IDs =
      switch positions.count {
      case 1: .one(id(at: positions.lowerBound))
      case ...StructureHistory<ID>.maximumIDsPerChange: .many(positions.map(id(at:)))
      default: .unknown
      }
    recordContentChange(ids)
  }

  /// Marks that the element with `id` may have changed.
  @inlinable
  mutating func touch(_ id: ID) {
    recordContentChange(.one(id))
  }

  /// Moves the content stamp, recording `ids` as the elements that may have changed.
  @inlinable
  mutating func recordContentChange(_ ids: StructureHistory<ID>.IDs) {
    let previous = content
    content = Self.nextContent()
    contentHistory.record(
      from: previous, to: content, ids: ids,
      capacity: StructureHistory<ID>.capacity(forCount: count),
      idLimit: StructureHistory<ID>.idLimit(forCount: count))
  }

}

extension IdentifiedArray {
  /// The elements that satisfy `isIncluded`, in order, as an identified array: a filtered
  /// view of a list (`var visibleRows`) that can be looked up by id, and scoped to.
  ///
  /// ```swift
  /// var activeTodos: IdentifiedArrayOf<Todo.State> { todos.filter { !$0.isComplete } }
  /// ```
  ///
  /// The result keeps what this array knows of which elements changed lately: the stores of
  /// a filtered view's rows, built anew at each read, learn from it which rows an action
  /// changed, as the rows of a stored collection do, instead of each comparing its row.
  ///
  /// - Parameter isIncluded: Whether an element is in the result.
  /// - Returns: The included elements; their ids are unique, as the array's are.
  /// - Complexity: O(*n*).
  @inlinable
  public func filter(_ isIncluded: (Element) throws -> Bool) rethrows -> IdentifiedArray {
    var included = IdentifiedArray()
    for element in storage where try isIncluded(element) { included.storage.append(element) }
    // Indexed once, at the size reached: the ids are unique already, as this array's are.
    if !included.storage.isEmpty { included.rebuildIndex() }
    // The same elements, so the same content, and the same changes since earlier content
    // stamps; the ids of changed elements the result lacks are ids it has no store for.
    included.stamps.content = content
    included.contentHistory = contentHistory
    return included
  }
}
