/// Reads an identified collection from a store's state, for the stores of its elements and
/// for the observers of its ids.
///
/// A stored collection is read afresh each time: a copy shares its buffers, at no cost. A
/// computed view of one (a filter, such as `\.visibleRows`) is built anew at each read, so
/// that each of *k* row stores reading its row through the view, as they do after every
/// action, would build it again: *k* builds per action. The view built is kept instead, and
/// read again while the state has not changed.
///
/// Only a view built during the read is kept. A computed property that hands out a stored
/// collection shares its buffers, which a kept copy would make the next change to the
/// collection copy whole. Whether the read built it is told by its stamp, not by the key path:
/// a stored property of a store's state is built anew too when that state is (a child state
/// that a computed property makes, scoped with `computedStateIsSafeToRead`).
///
/// Each build carries on the structure history of the one before it
/// (``IdentifiedArray/continueStructure(from:)``): with the same ids, it keeps that build's
/// structure stamp, and otherwise records which ids left. With the content history a view made
/// by ``IdentifiedArray/filter(_:)`` keeps from the array it filtered, the stores of its
/// elements then check only the rows an action changed, as for a stored collection, rather
/// than each its own after every action (100 observed rows of a view of 1,000: 170 us an
/// action, against 40 us now).
@MainActor
final class CollectionReader<State, ID: Hashable, Element: Identifiable> where Element.ID == ID {
  /// Reads the collection from the state, by address.
  private let readElements:
    @MainActor ((UnsafePointer<State>) -> IdentifiedArray<ID, Element>) -> IdentifiedArray<
      ID, Element
    >
  /// Looks at the state by address, for ``look(_:)``.
  private let lookAtState: @MainActor ((UnsafePointer<State>) -> LookPresence) -> LookPresence
  private let version: @MainActor () -> Int
  /// The path to the collection.
  let keyPath: KeyPath<State, IdentifiedArray<ID, Element>>
  /// Whether the collection is stored: the key path goes through stored properties only, of
  /// a state that is not built anew at each read (the root's, a part of it reached through
  /// stored properties, or a derived store's copy of such a part). A stored property of a
  /// child state that a computed property makes is built anew with it, a view as a filter is,
  /// whether the child is read through its own store or through the store of an optional or
  /// an enum's case it lies in (whose copy is of what the property built: see
  /// ``StoreCore/viewsComputedState``): its elements' stores take an element gone from it for
  /// one that left the view (see `ElementStoreCache`), which the `forEach` over the whole
  /// collection would still find.
  let isStored: Bool
  /// Where the collection lies in the state, when it is stored.
  private let offset: Int?
  /// The view last built, and the ``StoreCore/stateVersion`` it was built at.
  private var kept: IdentifiedArray<ID, Element>?
  /// The ``StoreCore/stateVersion`` `kept` was built at, or -1 when nothing is kept: compared
  /// first, an integer, where an optional tuple of generic types looked up its type's metadata
  /// at every look of every element store, kept view or not.
  private var keptVersion = -1
  /// Whether the last read that reached the state built the collection anew.
  private(set) var builtAnew = false
  /// Reads the stamps of a stored collection where the root stores it, in place: no copy of
  /// the state or the collection (`nil` when the store's core cannot, or the collection is a
  /// computed view).
  let stampsInPlace: (@MainActor () -> CollectionStamps)?

  init<Action>(
    _ core: any StoreCore<State, Action>, _ keyPath: KeyPath<State, IdentifiedArray<ID, Element>>
  ) {
    readElements = { core.withState($0) }
    lookAtState = { core.withState($0) }
    version = { core.stateVersion }
    self.keyPath = keyPath
    offset = MemoryLayout<State>.offset(of: keyPath)
    isStored =
      offset != nil && (core.stateLiesInPlace || core.keepsCopyOfState)
      && !core.viewsComputedState
    stampsInPlace = isStored ? core.inPlaceReader(keyPath.appending(path: \.stamps)) : nil
  }

  /// The collection's structure and content stamps now.
  ///
  /// - Complexity: O(1) for a stored collection, and for a view while the state has not
  ///   changed since it was built; otherwise what the view costs to build.
  func stamps() -> CollectionStamps {
    if let stampsInPlace { return stampsInPlace() }
    return read().stamps
  }

  /// The collection as the state has it now.
  ///
  /// - Complexity: O(1) for a stored collection, and for a view while the state has not
  ///   changed since it was built; otherwise what the view costs to build.
  func read() -> IdentifiedArray<ID, Element> {
    read(from: nil)
  }

  /// The collection as the state at `state`, the state now, has it: read from it rather than
  /// from the store again.
  func read(given state: UnsafePointer<State>) -> IdentifiedArray<ID, Element> {
    read(from: state)
  }

  /// Calls `body` with the address of the collection as the state has it now, valid during the
  /// call only: for a stored collection, where the state keeps it.
  ///
  /// An element's store looks at its element this way after each action that may have
  /// changed it: ``read()`` copies the collection out (a reference to each of its buffers, in
  /// code not specialized for its types), once for each element store checked, which was a
  /// fifth of the cost of the check of an element that had not changed.
  ///
  /// - Complexity: O(1) for a stored collection, and for a view while the state has not
  ///   changed since it was built; otherwise what the view costs to build.
  func look(_ body: (UnsafePointer<IdentifiedArray<ID, Element>>) -> LookPresence)
    -> LookPresence
  {
    let version = self.version()
    if keptVersion == version, let kept { return withUnsafePointer(to: kept, body) }
    guard let offset else { return withUnsafePointer(to: read(), body) }
    // As `read(from:)` does: a collection built during the read (of a store whose state is
    // itself built anew at each read) is kept, for the next element store's look.
    let before = structureStamps.load(ordering: .relaxed)
    return lookAtState { state in
      let elements = UnsafeRawPointer(state).advanced(by: offset).assumingMemoryBound(
        to: IdentifiedArray<ID, Element>.self)
      guard let built = keepIfBuilt(elements, since: before, version: version) else {
        return body(elements)
      }
      return withUnsafePointer(to: built, body)
    }
  }

  /// The view kept, while the state has not changed since it was built; else the collection
  /// read from `state`, or from the state read now, and kept if the read built it.
  private func read(from state: UnsafePointer<State>?) -> IdentifiedArray<ID, Element> {
    let version = self.version()
    if keptVersion == version, let kept { return kept }
    let before = structureStamps.load(ordering: .relaxed)
    let keyPath = self.keyPath
    let offset = self.offset
    let read: (UnsafePointer<State>) -> IdentifiedArray<ID, Element> = {
      withValue(at: keyPath, offset: offset, in: $0) { $0.pointee }
    }
    let elements = state.map(read) ?? readElements(read)
    return withUnsafePointer(to: elements) { keepIfBuilt($0, since: before, version: version) }
      ?? elements
  }

  /// Keeps the collection a read found at `elements`, if the read built it (its structure
  /// stamp is newer than `before`, the last stamp taken before the read: the stamps of the
  /// collections in the state were all taken earlier), and returns what it kept; else lets
  /// go of what was kept (for a stored collection, nothing, and nothing touched: see
  /// `keptVersion`) and returns `nil`.
  ///
  /// What it keeps carries on the structure history of the last build
  /// (``IdentifiedArray/continueStructure(from:)``): its element stores and the observers of
  /// its ids then tell which rows left, and that none did, from its stamps.
  private func keepIfBuilt(
    _ elements: UnsafePointer<IdentifiedArray<ID, Element>>, since before: UInt64, version: Int
  ) -> IdentifiedArray<ID, Element>? {
    builtAnew = elements.pointee.structure > before
    guard builtAnew else {
      if keptVersion != -1 {
        kept = nil
        keptVersion = -1
      }
      return nil
    }
    var built = elements.pointee
    if let previous = kept { built.continueStructure(from: previous) }
    kept = built
    keptVersion = version
    return built
  }
}
