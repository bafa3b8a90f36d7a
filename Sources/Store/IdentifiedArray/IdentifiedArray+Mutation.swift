import Effects

extension IdentifiedArray {
  /// Adds an element at the end.
  ///
  /// - Parameter element: The element. Its id must not be present.
  /// - Precondition: No element with the same id is present; see ``updateOrAppend(_:)``.
  /// - Complexity: Amortized O(1).
  @inlinable
  public mutating func append(_ element: Element) {
    precondition(
      find(element.id) == nil,
      duplicateMessage(
        element.id, adding: "append",
        advice: "; use updateOrAppend(_:) to replace the element with that id")
    )
    appendIndexed(element)
    recordArrival(at: (storage.count - 1)..<storage.count)
  }

  /// Adds an element at the end, unless an element with its id is present already.
  ///
  /// For elements that may repeat one already there, such as an action replayed or delivered
  /// twice: the present element is kept as it is. (``append(_:)`` treats a repeat as a
  /// programming error and stops the program.)
  ///
  /// ```swift
  /// case .itemAdded(let item):
  ///   state.items.appendIfAbsent(item)
  /// ```
  ///
  /// - Parameter element: The element.
  /// - Returns: Whether it was appended, and the position of the element with its id.
  /// - Complexity: Amortized O(1).
  @inlinable
  @discardableResult
  public mutating func appendIfAbsent(_ element: Element) -> (appended: Bool, index: Int) {
    if let position = index(id: element.id) { return (false, position) }
    appendIndexed(element)
    recordArrival(at: (storage.count - 1)..<storage.count)
    return (true, storage.count - 1)
  }

  /// Adds elements at the end.
  ///
  /// - Parameter elements: The elements. None of their ids may be present, or repeat.
  /// - Precondition: Every id is new.
  /// - Complexity: O(*m*), for *m* new elements.
  @inlinable
  public mutating func append(contentsOf elements: some Sequence<Element>) {
    // One structural change for all of them: appended one by one, each took a stamp and a
    // line of history (45 times an array's append).
    // Room made by doubling, as appends do: an exact reservation at each call would copy
    // the whole array for every small batch. Counted only for elements in memory already,
    // as `appendUnique(_:)` counts them: a lazy sequence may give billions as its
    // `underestimatedCount`, and run out of memory before its second element repeats an id.
    let needed = storage.count + (elements.withContiguousStorageIfAvailable { $0.count } ?? 0)
    if needed > storage.capacity {
      storage.reserveCapacity(Swift.max(needed, 2 * storage.capacity))
    }
    let first = storage.count
    for element in elements {
      precondition(
        find(element.id) == nil,
        duplicateMessage(
          element.id, adding: "append",
          advice: "; use updateOrAppend(_:) to replace the element with that id")
      )
      appendIndexed(element)
    }
    if storage.count > first { recordArrival(at: first..<storage.count) }
  }

  /// Inserts an element at a position, moving later elements back.
  ///
  /// - Parameters:
  ///   - element: The element. Its id must not be present.
  ///   - position: Where to insert, from 0 through ``count``.
  /// - Precondition: No element with the same id is present (see
  ///   ``insertIfAbsent(_:at:)``), and `position` is in `0...count`.
  /// - Complexity: O(*n*).
  @inlinable
  public mutating func insert(_ element: Element, at position: Int) {
    precondition(
      find(element.id) == nil,
      duplicateMessage(
        element.id, adding: "insert",
        advice: "; use insertIfAbsent(_:at:) to keep the element with that id")
    )
    precondition(
      (0...storage.count).contains(position),
      """
      IdentifiedArray: cannot insert the element with id \(describeID(element.id)) at position \(position) \
      of \(storage.count) elements (positions 0 through \(storage.count) are valid).
      """)
    insertIndexed(CollectionOfOne(element), at: position)
    recordArrival(at: position..<(position + 1))
  }

  /// Inserts an element at a position, moving later elements back, unless an element with its
  /// id is present already, which is then kept where and as it is.
  ///
  /// For elements that may repeat one already there, such as the newest item of a feed
  /// fetched again: ``insert(_:at:)`` treats a repeat as a programming error and stops the
  /// program.
  ///
  /// ```swift
  /// case .newestLoaded(let item):
  ///   state.items.insertIfAbsent(item, at: 0)
  /// ```
  ///
  /// - Parameters:
  ///   - element: The element.
  ///   - position: Where to insert, from 0 through ``count``.
  /// - Returns: Whether it was inserted, and the position of the element with its id.
  /// - Precondition: `position` is in `0...count`, even when the id is present.
  /// - Complexity: O(1) on average when the id is present; otherwise O(*n*).
  @inlinable
  @discardableResult
  public mutating func insertIfAbsent(_ element: Element, at position: Int)
    -> (inserted: Bool, index: Int)
  {
    // Checked first, whatever the id: a position out of range is a mistake in the call,
    // which a repeated id would otherwise hide until the first new one.
    precondition(
      (0...storage.count).contains(position),
      """
      IdentifiedArray: cannot insert the element with id \(describeID(element.id)) at position \(position) \
      of \(storage.count) elements (positions 0 through \(storage.count) are valid).
      """)
    if let present = index(id: element.id) { return (false, present) }
    insertIndexed(CollectionOfOne(element), at: position)
    recordArrival(at: position..<(position + 1))
    return (true, position)
  }

  /// Inserts elements at a position, moving later elements back: one move of the later
  /// elements for all of them, where inserting them one by one moves them once each.
  ///
  /// - Parameters:
  ///   - elements: The elements, in order. None of their ids may be present, or repeat.
  ///   - position: Where to insert, from 0 through ``count``.
  /// - Precondition: Every id is new, and `position` is in `0...count`. Otherwise the
  ///   program stops, naming the id and its position in the array, or, for an id repeated
  ///   among the new elements, both of its positions among them.
  /// - Complexity: O(*n* + *m*), for *m* new elements.
  public mutating func insert(contentsOf elements: some Collection<Element>, at position: Int) {
    // Read once: a lazy collection may give other elements (other ids) at each pass.
    let elements = ContiguousArray(elements)
    precondition(
      (0...storage.count).contains(position),
      """
      IdentifiedArray: cannot insert \(elements.count) elements at position \(position) of \
      \(storage.count) elements (positions 0 through \(storage.count) are valid).
      """)
    var newIDs = [ID: Int](minimumCapacity: elements.count)
    for (offset, element) in elements.enumerated() {
      precondition(
        find(element.id) == nil,
        duplicateMessage(element.id, adding: "insert", advice: ""))
      if let first = newIDs.updateValue(offset, forKey: element.id) {
        preconditionFailure(Self.repeatedInsertMessage(element.id, positions: [first, offset]))
      }
    }
    guard !elements.isEmpty else { return }
    insertIndexed(elements, at: position)
    recordArrival(at: position..<(position + elements.count))
  }

  /// Replaces the element with the same id, or appends the element if its id is new.
  ///
  /// - Parameter element: The element.
  /// - Returns: The element it replaced, if any.
  /// - Complexity: O(1) on average; amortized when appending.
  @inlinable
  @discardableResult
  public mutating func updateOrAppend(_ element: Element) -> Element? {
    if let position = index(id: element.id) {
      defer {
        storage[position] = element
        touch(element.id)
      }
      return storage[position]
    }
    append(element)
    return nil
  }

  /// Removes the element with `id`.
  ///
  /// - Parameter id: The id of the element to remove.
  /// - Returns: The removed element, or `nil` if no element had the id.
  /// - Complexity: O(*n*), for one reason: later elements move up in memory, as in
  ///   `Array.remove(at:)`. The id index is re-indexed once per 64 to 1,024 removals (one
  ///   per 128 elements), not at each.
  ///   Removing the last element is O(1).
  @inlinable
  @discardableResult
  public mutating func remove(id: ID) -> Element? {
    guard let (bucket, slot) = find(id) else { return nil }
    return remove(bucket: bucket, slot: slot)
  }

  /// Removes the element at a position.
  ///
  /// - Parameter position: A valid position.
  /// - Returns: The removed element.
  /// - Precondition: `position` is in `0..<count`.
  /// - Complexity: O(*n*), as ``remove(id:)``; removing the last element is O(1).
  @inlinable
  @discardableResult
  public mutating func remove(at position: Int) -> Element {
    precondition(
      storage.indices.contains(position),
      "IdentifiedArray: cannot remove at position \(position) of \(storage.count) elements")
    let (bucket, slot) = find(id(at: position))!
    return remove(bucket: bucket, slot: slot)
  }

  /// Removes the last element.
  ///
  /// - Returns: The removed element.
  /// - Precondition: The array is not empty.
  /// - Complexity: O(1) on average.
  @inlinable
  @discardableResult
  public mutating func removeLast() -> Element {
    precondition(
      !storage.isEmpty, "IdentifiedArray: cannot remove the last element of an empty array")
    return remove(at: storage.count - 1)
  }

  /// Removes the first element.
  ///
  /// - Returns: The removed element.
  /// - Precondition: The array is not empty.
  /// - Complexity: O(*n*), as ``remove(at:)``: the later elements move up.
  @inlinable
  @discardableResult
  public mutating func removeFirst() -> Element {
    precondition(
      !storage.isEmpty, "IdentifiedArray: cannot remove the first element of an empty array")
    return remove(at: 0)
  }

  /// Removes and returns the last element, or `nil` if the array is empty.
  ///
  /// - Returns: The removed element, or `nil`.
  /// - Complexity: O(1) on average.
  @inlinable
  public mutating func popLast() -> Element? {
    storage.isEmpty ? nil : remove(at: storage.count - 1)
  }

  /// Removes the element that `find` located in `bucket` and `slot`.
  @inlinable
  mutating func remove(bucket: Int, slot: Int) -> Element {
    let element = removeUnrecorded(bucket: bucket, slot: slot)
    restructure(removed: [element.id])
    return element
  }

  /// Removes the element that `find` located in `bucket` and `slot`, without recording the
  /// change: a removal of several elements records them once.
  @inlinable
  @discardableResult
  mutating func removeUnrecorded(bucket: Int, slot: Int) -> Element {
    let position = position(ofSlot: slot)
    // The bucket is emptied first, while every other slot still maps to its element.
    unindex(bucket: bucket)
    let element = storage.remove(at: position)
    forget(slot: slot, at: position)
    return element
  }

  /// How many elements a removal of several takes out one at a time, each as ``remove(at:)``
  /// does (the later elements move up; the id index is patched lazily), rather than in one
  /// pass that re-indexes every element: below it, the moves cost less than hashing every id
  /// again (a swipe to delete one row of 10,000 re-indexed all 10,000: 2 ms; performance
  /// trial).
  @inlinable static var fewRemovals: Int { 16 }

  /// Removes the elements at `positions`, which are valid, ascending and unique, and records
  /// their ids as one change.
  @inlinable
  mutating func remove(ascendingPositions positions: [Int]) {
    let removed = positions.map(id(at:))
    if positions.count <= Self.fewRemovals {
      // From the last, so that the positions still to remove stay where they were.
      for id in removed.reversed() {
        let (bucket, slot) = find(id)!
        removeUnrecorded(bucket: bucket, slot: slot)
      }
    } else {
      var kept = ContiguousArray<Element>()
      kept.reserveCapacity(storage.count - positions.count)
      var next = 0
      for position in storage.indices {
        if next < positions.count, positions[next] == position {
          next += 1
        } else {
          kept.append(storage[position])
        }
      }
      storage = kept
      rebuildIndex()
    }
    restructure(removed: removed)
  }

  /// Removes the elements from `position` up that `isRemoved` picks, keeping the others in
  /// their order, and records the removed ids, first to last, as one change: a navigation
  /// stack's pop. Each element is taken off the end, where a removal moves nothing; the kept
  /// ones are put back. (Removed one at a time from `position`, each removal moved every
  /// element above it: O(*k*²) for *k* elements, with a change recorded for each.)
  ///
  /// - Complexity: O(*k*) on average for the *k* elements from `position`.
  @inlinable
  mutating func removeSuffix(from position: Int, where isRemoved: (Element) -> Bool) {
    var kept: [Element] = []
    var removed: [ID] = []
    while storage.count > position {
      let (bucket, slot) = find(id(at: storage.count - 1))!
      let element = removeUnrecorded(bucket: bucket, slot: slot)
      if isRemoved(element) { removed.append(element.id) } else { kept.append(element) }
    }
    for element in kept.reversed() { appendIndexed(element) }
    guard !removed.isEmpty else { return }
    restructure(removed: removed.reversed())
  }

  /// Removes every element that satisfies `shouldBeRemoved`.
  ///
  /// - Parameter shouldBeRemoved: Whether to remove an element; asked once for each, in order.
  ///   If it throws, no element is removed.
  /// - Complexity: O(*n*), however many are removed.
  @inlinable
  public mutating func removeAll(where shouldBeRemoved: (Element) throws -> Bool) rethrows {
    var positions: [Int] = []
    for position in storage.indices where try shouldBeRemoved(storage[position]) {
      positions.append(position)
    }
    guard !positions.isEmpty else { return }
    remove(ascendingPositions: positions)
  }

  /// Removes the elements at the given positions, such as the `IndexSet` a list's swipe to
  /// delete gives.
  ///
  /// - Parameter offsets: The positions to remove, in any order; a repeated one counts once.
  /// - Precondition: Every position is in `0..<count`.
  /// - Complexity: O(*n* + *k* log *k*) for *k* positions. Up to 16 positions are removed one
  ///   at a time, as ``remove(at:)`` removes one: removing the last rows moves nothing.
  @inlinable
  public mutating func remove(atOffsets offsets: some Sequence<Int>) {
    let positions = Set(offsets).sorted()
    guard !positions.isEmpty else { return }
    precondition(
      positions[0] >= 0 && positions[positions.count - 1] < storage.count,
      "IdentifiedArray: cannot remove at \(positions) of \(storage.count) elements")
    remove(ascendingPositions: positions)
  }

  /// Removes every element.
  ///
  /// - Complexity: O(*n*).
  public mutating func removeAll() {
    let removed = ids
    storage.removeAll()
    buckets.removeAll()
    removedSlots.removeAll()
    restructure(removed: removed)
  }

  /// Moves the elements at `source` to before `destination`, keeping their order.
  ///
  /// - Parameters:
  ///   - source: The positions to move.
  ///   - destination: The position to move them in front of, counted before the move.
  /// - Precondition: Every source is in `0..<count`, and `destination` in `0...count`.
  /// - Complexity: O(*k*) on average to move one element across *k* ≤ 16 positions (a row
  ///   dragged to a nearby place) when no removal is waiting to be re-indexed, else O(*n*),
  ///   as the array's own remove and insert, with no id hashed for one element.
  public mutating func move(fromOffsets source: some Sequence<Int>, toOffset destination: Int) {
    let moving = Set(source)
    precondition(
      (0...storage.count).contains(destination),
      "IdentifiedArray: cannot move to position \(destination) of \(storage.count) elements")
    precondition(
      moving.allSatisfy(storage.indices.contains),
      "IdentifiedArray: cannot move from \(moving.sorted()) with \(storage.count) elements")
    let sources = moving.sorted()
    // Nothing moves: no change is recorded (whoever watches the ids would be told of one
    // that did not happen).
    guard !Self.leavesOrder(moving: sources, to: destination) else { return }
    if moving.count == 1, let from = moving.first {
      let to = destination > from ? destination - 1 : destination
      // Across a few places, a look-up of each element that moves; further, one pass over
      // the index, which hashes nothing (a look-up per element, or hashing every id again,
      // cost 200 to 400 times the array's own remove and insert).
      if abs(to - from) <= 16 {
        foldRemovedSlots()
        shift(from: from, to: to)
      } else {
        moveByScan(from: from, to: to)
      }
      restructure(removed: [])
      return
    }
    let moved = sources.map { storage[$0] }
    var result = ContiguousArray<Element>()
    result.reserveCapacity(storage.count)
    for position in 0...storage.count {
      if position == destination { result.append(contentsOf: moved) }
      if position < storage.count, !moving.contains(position) { result.append(storage[position]) }
    }
    storage = result
    rebuildIndex()
    restructure(removed: [])
  }

  /// Whether moving the elements at `sources` (ascending, unique) in front of `destination`
  /// leaves every element where it is: there are none, or they are a run that `destination`
  /// is at or just past.
  static func leavesOrder(moving sources: [Int], to destination: Int) -> Bool {
    guard let lowest = sources.first, let highest = sources.last else { return true }
    return highest - lowest + 1 == sources.count && (lowest...(highest + 1)).contains(destination)
  }

  /// Exchanges the elements at two positions.
  ///
  /// - Parameters:
  ///   - i: A valid position.
  ///   - j: A valid position.
  /// - Precondition: Both are in `0..<count`.
  /// - Complexity: O(1) on average when no removal is waiting to be re-indexed, else one
  ///   pass over the index, which hashes no id.
  public mutating func swapAt(_ i: Int, _ j: Int) {
    precondition(
      storage.indices.contains(i) && storage.indices.contains(j),
      "IdentifiedArray: cannot swap positions \(i) and \(j) of \(storage.count) elements")
    guard i != j else { return }
    foldRemovedSlots()
    let (first, second) = (find(id(at: i))!.bucket, find(id(at: j))!.bucket)
    storage.swapAt(i, j)
    reindex(bucket: first, as: j)
    reindex(bucket: second, as: i)
    restructure(removed: [])
  }

  /// Moves the element at `from` to `to`, shifting those between by one, and re-indexes just
  /// those. Slots must be positions (no removal waiting to be re-indexed).
  ///
  /// - Complexity: O(*k*) on average for the *k* positions between.
  mutating func shift(from: Int, to: Int) {
    guard from != to else { return }
    let range = from < to ? from...to : to...from
    // The buckets of the elements that move, found while the index still matches.
    let found = range.map { find(id(at: $0))!.bucket }
    let step = from < to ? 1 : -1
    var position = from
    while position != to {
      storage.swapAt(position, position + step)
      position += step
    }
    for (offset, bucket) in found.enumerated() {
      let old = range.lowerBound + offset
      reindex(bucket: bucket, as: old == from ? to : old - step)
    }
  }

  /// Points the index entry in `bucket` at `position`, where its element now lies.
  private mutating func reindex(bucket: Int, as position: Int) {
    buckets[bucket] = Self.entry(
      slot: position, hash: id(at: position).hashValue, bucketCount: buckets.count)
  }

  /// Sorts the elements in place.
  ///
  /// The sort is stable, as the standard library's is: elements that `areInIncreasingOrder`
  /// orders neither way keep their order (sorting pinned rows first keeps the rest as they
  /// were).
  ///
  /// - Parameter areInIncreasingOrder: Whether the first element belongs before the second.
  /// - Complexity: O(*n* log *n*).
  public mutating func sort(by areInIncreasingOrder: (Element, Element) throws -> Bool) rethrows {
    // Elements already in order stay where they are (the sort is stable): then no change is
    // recorded, and the index stands.
    let before = ids
    // A comparison that throws leaves the elements partly sorted: index them as they are.
    defer {
      if !hasIDs(before) {
        rebuildIndex()
        restructure(removed: [])
      }
    }
    try storage.sort(by: areInIncreasingOrder)
  }
}

extension IdentifiedArray {
  /// The message of a trap for inserting elements among which `id` repeats, at `positions`
  /// of the inserted elements: as ``duplicateMessage(_:adding:advice:)`` words it, with the
  /// positions, and for a UUID a counting generator could have made, the same hint.
  static func repeatedInsertMessage(_ id: ID, positions: [Int]) -> String {
    """
    IdentifiedArray: cannot insert an element with id \(describeID(id)) twice, at positions \
    \(positions.map(String.init).joined(separator: " and ")) of the inserted elements. Ids \
    must be unique.\(countedIDHint(id))
    """
  }

  /// The message of a trap for adding an element whose id is already at a position: the id
  /// as a test writes it, that position, `advice` (empty, or a clause starting with `; `),
  /// and, for a UUID a counting generator could have made, how a test's generator does that.
  @usableFromInline
  func duplicateMessage(_ id: ID, adding verb: String, advice: String) -> String {
    """
    IdentifiedArray: cannot \(verb) an element with id \(describeID(id)), which is already \
    at position \(index(id: id) ?? -1). Ids must be unique\(advice).\(countedIDHint(id))
    """
  }
}
