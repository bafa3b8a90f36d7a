import Effects
import Synchronization

/// An ordered collection of identifiable elements, with constant-time lookup and update by id.
///
/// Use it for child collections in state: rows of a list, items of a cart. Each element's id
/// is its identity: it keys the element's child store and the lifetime of its effects.
///
/// ```swift
/// var items: IdentifiedArrayOf<Item> = [Item(id: 1, name: "Tea")]
/// items[id: 1]?.quantity += 1        // update in place by id
/// items.append(Item(id: 2, name: "Milk"))
/// items.remove(id: 1)
/// ```
///
/// ## Identity rules
///
/// Ids are unique and stable, and the array enforces it rather than silently breaking it:
/// - Adding an element whose id is already present (``append(_:)``, ``insert(_:at:)``, an array
///   literal) stops the program with a message naming the id, as a duplicate dictionary
///   literal key does: it is a programming error, and dropping either row would lose data.
///   Use ``updateOrAppend(_:)`` to replace by id, or ``init(uniqueElements:)`` for data from
///   outside, which throws instead.
/// - Decoding JSON with a duplicate id fails with a `DecodingError` naming the id.
/// - An id must be equal to itself: one that is not (a floating-point NaN) could never be
///   found, so adding it stops the program, naming it and its position, and
///   ``init(uniqueElements:)`` and decoding throw.
/// - A mutation through a subscript that changes an element's id stops the program with a
///   message naming both ids: an element's identity cannot change behind the array's back.
///   Remove the element and add a new one instead.
///
/// ## Complexity
///
/// Lookup, update and membership by id are O(1) on average; access by position is O(1);
/// appending and removing the last element are amortized O(1). Removing from the middle is
/// O(*n*) for one reason only: the later elements move up in memory, as in
/// `Array.remove(at:)`. The id index is not rewritten at each removal: removals record the
/// slots they free (one per 128 elements, 64 to 1,024 of them), lookups subtract the freed
/// slots before theirs (a binary search, at most 11 comparisons), and one re-index serves all
/// those removals, so a removal's share of it is about 128 writes up to 131,072 elements.
/// Inserting in the middle and reordering are O(*n*). (No list has both O(1) access by
/// position and O(1) removal from the middle; access by position is what lists do most, so
/// it wins, and removal costs what an array's does.)
public struct IdentifiedArray<ID: Hashable, Element: Identifiable> where Element.ID == ID {
  /// Elements in order.
  @usableFromInline var storage: ContiguousArray<Element>
  /// The id index: a hash table of slots (see `IdentifiedArray+Index.swift`), each bucket
  /// 0 for empty or a slot + 1. An element's slot is its position in `storage` as of the last
  /// re-index. Removals do not re-index at once; they record the slot they freed in
  /// `removedSlots`, and an element's position is its slot less the freed slots before it
  /// (see ``position(ofSlot:)``).
  @usableFromInline var buckets: ContiguousArray<UInt32>
  /// Slots freed by removals since the last re-index, ascending. At most
  /// `removedSlotLimit`: the next removal re-indexes once and empties it, so one re-index of
  /// the later elements serves that many removals.
  ///
  /// Invariant: the slots in `buckets` (one per present element) and `removedSlots` together
  /// are exactly `0..<(storage.count + removedSlots.count)`, and slots ascend with positions.
  @usableFromInline var removedSlots: ContiguousArray<Int> = []
  /// The structure and content stamps, stored side by side, so that a store can read both
  /// where its state keeps them, in one load.
  @usableFromInline var stamps: CollectionStamps
  /// Changes whenever the set or order of ids changes (never for element content), so that
  /// reducers can skip looking for removed ids after a step that did not touch structure.
  @inlinable var structure: UInt64 {
    get { stamps.structure }
    set { stamps.structure = newValue }
  }
  /// Recent structural changes, so removed ids can be found without comparing all ids.
  @usableFromInline var history = StructureHistory<ID>()
  /// Changes whenever an element may have changed through ``subscript(id:)`` or
  /// ``updateOrAppend(_:)``, so element stores can tell which rows to re-check.
  @inlinable var content: UInt64 {
    get { stamps.content }
    set { stamps.content = newValue }
  }
  /// Recent element changes: which stamp each replaced, and which id it touched.
  @usableFromInline var contentHistory = StructureHistory<ID>()

  /// Creates an empty array.
  ///
  /// - Complexity: O(1).
  public init() {
    storage = []
    buckets = []
    // Unique, both: an array that replaces another never looks unchanged.
    stamps = CollectionStamps(structure: Self.nextStructure(), content: Self.nextContent())
  }

  /// An empty array with `stamps`, taking no new stamps: what a store keeps of an array it
  /// only compares (see `HollowingPlan`). Taking new ones would tell every root that a
  /// structure moved, and walk its places, at each read.
  init(hollowWith stamps: CollectionStamps) {
    storage = []
    buckets = []
    self.stamps = stamps
  }

  /// Creates an array from elements whose ids must be unique.
  ///
  /// - Parameter elements: The elements, in order.
  /// - Throws: ``IdentifiedArrayError/duplicateID(_:positions:)`` naming the first repeated id,
  ///   or ``IdentifiedArrayError/idNotEqualToItself(_:position:)`` for an id that is not equal
  ///   to itself (a floating-point NaN).
  /// - Complexity: O(*n*).
  @inlinable
  public init(uniqueElements elements: some Sequence<Element>) throws(IdentifiedArrayError) {
    self.init()
    if let (error, _) = appendUnique(elements) { throw error }
  }

  /// Appends `elements` to an empty array, stopping at the first whose id is already present
  /// or is not equal to itself: that one's error and id, or `nil` when all were appended.
  ///
  /// - Complexity: O(*n*).
  @inlinable
  mutating func appendUnique(_ elements: some Sequence<Element>) -> (IdentifiedArrayError, ID)? {
    // Room for all of them at once when they are in memory already (an array, a range's
    // `map`): grown by doubling, 100,000 rows took storage for 131,072. Not from
    // `underestimatedCount`, which a lazy sequence may give as billions, and whose ids may
    // repeat at the second element.
    if let count = elements.withContiguousStorageIfAvailable({ $0.count }) {
      storage.reserveCapacity(count)
    }
    for element in elements {
      if let existing = slot(of: element.id) {
        let positions = [existing, storage.count]
        return (.duplicateID(describeID(element.id), positions: positions), element.id)
      }
      guard element.id == element.id else {
        return (.idNotEqualToItself(describeID(element.id), position: storage.count), element.id)
      }
      appendIndexed(element)
    }
    return nil
  }

  /// The message of the trap of an initializer that takes ids as unique (`init(_:)`, an array
  /// literal) for `error` about `id`: the initializer, the error, and for a UUID a counting
  /// generator could have made, how a test's generator starts above a fixture's ids, as
  /// ``append(_:)``'s trap says.
  @usableFromInline
  static func uniqueElementsTrapMessage(
    _ initializer: String, _ error: IdentifiedArrayError, id: ID
  ) -> String {
    let hint = countedIDHint(id)
    return hint.isEmpty ? "\(initializer): \(error)" : "\(initializer): \(error).\(hint)"
  }

  /// Creates an array from elements whose ids are unique by construction: rows made from a
  /// range, or from another identified collection.
  ///
  /// ```swift
  /// let rows = IdentifiedArray((0..<100).map { Row.State(id: $0) })
  /// ```
  ///
  /// For data from outside the program (a server's response, a file), whose ids may repeat,
  /// use ``init(uniqueElements:)``, which throws, or ``init(_:uniquingIDsWith:)``.
  ///
  /// - Parameter elements: The elements, in order.
  /// - Precondition: The ids are unique: a repeated id stops the program, naming the id and
  ///   both positions, as ``append(_:)`` and array literals do.
  /// - Complexity: O(*n*).
  @inlinable
  public init(_ elements: some Sequence<Element>) {
    self.init()
    if let (error, id) = appendUnique(elements) {
      preconditionFailure(Self.uniqueElementsTrapMessage("IdentifiedArray(_:)", error, id: id))
    }
  }

  /// Creates an array from elements that may repeat ids, resolving each repeat with
  /// `combine`.
  ///
  /// - Parameters:
  ///   - elements: The elements, in order. A repeated id keeps the position of its first
  ///     occurrence.
  ///   - combine: Returns the element to keep, given the one already kept and the repeat.
  /// - Precondition: `combine` returns an element with the same id; one with another id
  ///   stops the program, naming the id. Every id is equal to itself: one that is not (a
  ///   floating-point NaN) stops the program, naming it and the position it would take, as
  ///   ``append(_:)`` does.
  /// - Complexity: O(*n*).
  public init(
    _ elements: some Sequence<Element>,
    uniquingIDsWith combine: (_ kept: Element, _ repeated: Element) throws -> Element
  ) rethrows {
    self.init()
    for element in elements {
      if let existing = slot(of: element.id) {
        let merged = try combine(storage[existing], element)
        precondition(
          merged.id == element.id,
          """
          IdentifiedArray(_:uniquingIDsWith:): combine returned an element with id \
          \(describeID(merged.id)) for the elements with id \(describeID(element.id)); it must \
          keep the id.
          """)
        storage[existing] = merged
      } else {
        appendIndexed(element)
      }
    }
  }

  /// The ids, in order.
  ///
  /// - Complexity: O(*n*).
  public var ids: [ID] {
    // Each id read in place: a `map` over the elements copied each one whole to read its id
    // (a stack's screens, rows with large state).
    storage.withUnsafeBufferPointer { elements in
      var ids: [ID] = []
      ids.reserveCapacity(elements.count)
      for index in elements.indices { ids.append(elements[index].id) }
      return ids
    }
  }

  /// Whether the ids are `ids`, in order: without making an array of them.
  ///
  /// - Complexity: O(*n*).
  func hasIDs(_ ids: [ID]) -> Bool {
    guard storage.count == ids.count else { return false }
    for index in ids.indices where storage[index].id != ids[index] { return false }
    return true
  }

  /// The elements, in order, as a plain array.
  ///
  /// - Complexity: O(*n*).
  public var elements: [Element] {
    Array(storage)
  }

  /// Whether an element with `id` is present.
  ///
  /// - Parameter id: The id to look for.
  /// - Returns: Whether it is present.
  /// - Complexity: O(1) on average.
  @inlinable
  public func contains(id: ID) -> Bool {
    find(id) != nil
  }

  /// The position of the element with `id`, or `nil`.
  ///
  /// - Parameter id: The id to look for.
  /// - Returns: Its position.
  /// - Complexity: O(1) on average.
  @inlinable
  public func index(id: ID) -> Int? {
    slot(of: id).map(position(ofSlot:))
  }

  /// How many removals may share one re-index of the id index: one per 128 elements, from 64
  /// to 1,024. A re-index rewrites at most *n* positions, so a removal's share of it is at most
  /// 128 writes (and at most *n* / 1,024 beyond 131,072 elements), while a lookup with removals
  /// pending searches at most 1,024 freed slots (11 comparisons).
  @inlinable var removedSlotLimit: Int { Swift.min(Swift.max(64, storage.count / 128), 1_024) }

  /// The position of the element in `slot`: the slot less the slots freed before it.
  ///
  /// - Complexity: O(1) with no pending removal; O(log *k*) for *k* ≤ 1,024 pending removals.
  @inlinable
  func position(ofSlot slot: Int) -> Int {
    if removedSlots.isEmpty { return slot }
    return slot - Self.countBelow(slot, in: removedSlots)
  }

  /// The number of elements of the ascending `sorted` that are less than `value`.
  @inlinable
  static func countBelow(_ value: Int, in sorted: ContiguousArray<Int>) -> Int {
    var low = 0
    var high = sorted.count
    while low < high {
      let middle = (low + high) / 2
      if sorted[middle] < value { low = middle + 1 } else { high = middle }
    }
    return low
  }

  /// The bytes the array's buffers occupy, roughly: element storage, the id index, and the
  /// records of recent changes (which grow, with the changes, to a sixteenth of the count).
  package var approximateByteCount: Int {
    storage.capacity * MemoryLayout<Element>.stride
      + buckets.capacity * MemoryLayout<UInt32>.stride
      + removedSlots.capacity * MemoryLayout<Int>.stride
      + history.approximateByteCount + contentHistory.approximateByteCount
  }

  /// A new structure stamp. One counter serves every array, so an array replaced wholesale
  /// never carries the stamp of the one it replaced.
  @usableFromInline
  static func nextStructure() -> UInt64 {
    structureStamps.add(1, ordering: .relaxed).newValue
  }

  /// A new content stamp, from a counter of its own: the structure counter moves only when
  /// some array's ids change, which a store checks after each action (see `RootCore`).
  @usableFromInline
  static func nextContent() -> UInt64 {
    contentStamps.add(1, ordering: .relaxed).newValue
  }
}

/// The structure stamps of every identified array: it moves whenever some array's ids change
/// or an array is made.
@usableFromInline let structureStamps = Atomic<UInt64>(0)
/// The content stamps of every identified array.
@usableFromInline let contentStamps = Atomic<UInt64>(0)

/// An identified array's structure and content stamps.
@usableFromInline
package struct CollectionStamps: Equatable, Sendable, BitwiseCopyable {
  @usableFromInline package var structure: UInt64
  @usableFromInline package var content: UInt64

  @inlinable
  package init(structure: UInt64, content: UInt64) {
    self.structure = structure
    self.content = content
  }
}

/// An identified array of `Element`, keyed by its `id`.
public typealias IdentifiedArrayOf<Element: Identifiable> = IdentifiedArray<Element.ID, Element>

/// Why building an ``IdentifiedArray`` failed.
public enum IdentifiedArrayError: Error, Hashable, Sendable, CustomStringConvertible {
  /// Two elements have the same id: the repeated id, described as a test writes it, and the
  /// positions of the first element with the id and of its repeat.
  ///
  /// A string id is quoted and escaped as a literal (`""`, `"a\nb"`, `"\u{A0}"`), so that an
  /// empty id or one with a space or a line break reads as what it is; past 120 characters it
  /// is cut, with its length given (`"kkk…"… (300 characters)`), so two long ids that differ
  /// only past that read, and compare, alike. A UUID that a counting generator could have
  /// made reads `UUID(counting: 3)`; any other id as it describes itself (`7`).
  case duplicateID(String, positions: [Int])

  /// An id is not equal to itself, as a floating-point NaN is not: the id, described as in
  /// ``duplicateID(_:positions:)``, and the position of its element. No lookup could find the
  /// element, and a second element with the id would pass for new.
  case idNotEqualToItself(String, position: Int)

  /// The error, naming the id and positions.
  public var description: String {
    switch self {
    case .duplicateID(let id, let positions):
      "Duplicate id \(id) at positions \(positions.map(String.init).joined(separator: " and "))"
    case .idNotEqualToItself(let id, let position):
      """
      The id \(id) at position \(position) is not equal to itself (a floating-point NaN?): no \
      lookup by id could find its element. Ids must equal themselves.
      """
    }
  }
}

extension IdentifiedArray: Sendable where Element: Sendable, ID: Sendable {}
