/// A navigation stack as state: the screens pushed on top of a root, each with a
/// deterministic id.
///
/// Push a destination by value; the stack gives it the next ``StackElementID`` (0, 1, 2, …
/// for this stack), so a recorded session replays with the same ids. Pop one, pop back to a
/// screen, or pop to the root. Popping ends the lifetime of the popped screens' effects.
///
/// ```swift
/// state.path.append(.itemEditor(id))  // push (the cart's `CartRoute`)
/// state.path.popLast()                // back
/// state.path.removeAll()              // to the root
/// ```
public struct StackState<Element> {
  /// One pushed screen: its id and its state.
  public struct Entry: Identifiable, LifetimeStateCarrier {
    /// The screen's id in this stack.
    public let id: StackElementID
    /// The screen's state.
    public var element: Element
    /// Unique to this push, whatever the id: a stack set back to a copy saved before a push
    /// (an undo) and pushed onto again gives the new screen the undone screen's id, and this
    /// tells the two apart (their effects, their stores). Not part of the value: equality,
    /// hashing, coding and dumps ignore it.
    @usableFromInline let birth: UInt64

    init(id: StackElementID, element: Element) {
      self.id = id
      self.element = element
      self.birth = structureStamps.add(1, ordering: .relaxed).newValue
    }

    package var carriedLifetimeState: Any { element }
    package var lifetimeToken: UInt64 { birth }
  }

  @usableFromInline var entries: IdentifiedArray<StackElementID, Entry>
  var nextID: Int
  /// Unique to each stack made (copies share it): a stack that replaces another numbers its
  /// screens from 0 again, and this tells its screens from the old ones. Not part of the
  /// value: equality, hashing and coding ignore it.
  @usableFromInline var lineage: UInt64

  /// Creates an empty stack: only the root shows.
  public init() {
    self.init([])
  }

  /// Creates a stack holding `elements`, bottom first.
  ///
  /// - Parameter elements: The screens to start with.
  /// - Complexity: O(*n*).
  public init(_ elements: some Sequence<Element>) {
    entries = []
    nextID = 0
    lineage = structureStamps.add(1, ordering: .relaxed).newValue
    for element in elements { append(element) }
  }

  /// The ids of the screens, bottom first.
  ///
  /// - Complexity: O(*n*).
  public var ids: [StackElementID] {
    entries.ids
  }

  /// The id of the screen at `position`, counted from the bottom.
  ///
  /// - Parameter position: A valid position.
  /// - Complexity: O(1).
  public func id(at position: Int) -> StackElementID {
    entries[position].id
  }

  /// The id of the top screen, or `nil` when only the root shows.
  ///
  /// - Complexity: O(1).
  public var lastID: StackElementID? {
    entries.last?.id
  }

  /// The id of the lowest screen whose state satisfies `predicate`.
  ///
  /// - Parameter predicate: Whether a screen's state is the one sought.
  /// - Returns: Its id, or `nil`.
  /// - Complexity: O(*n*).
  public func firstID(where predicate: (Element) throws -> Bool) rethrows -> StackElementID? {
    try entries.first { try predicate($0.element) }?.id
  }

  /// The id of the highest screen whose state satisfies `predicate`.
  ///
  /// - Parameter predicate: Whether a screen's state is the one sought.
  /// - Returns: Its id, or `nil`.
  /// - Complexity: O(*n*).
  public func lastID(where predicate: (Element) throws -> Bool) rethrows -> StackElementID? {
    try entries.last { try predicate($0.element) }?.id
  }

  /// Whether a screen with `id` is on the stack.
  ///
  /// - Parameter id: The screen's id.
  /// - Returns: Whether it is there.
  /// - Complexity: O(1) on average.
  public func contains(id: StackElementID) -> Bool {
    entries.contains(id: id)
  }

  /// The id the next pushed screen will get.
  public var nextElementID: StackElementID {
    StackElementID(rawValue: nextID)
  }

  /// The state of the screen with `id`, or `nil`; setting `nil` pops it and the screens
  /// above it.
  ///
  /// Setting a value for an id no screen has changes nothing: a stack's ids come from its
  /// pushes, so a screen cannot be added at an id of the caller's choosing (push it with
  /// ``append(_:)``). That is what a late write wants, too, such as an effect's answer for a
  /// screen the user popped meanwhile: as with `path[id: id]?.title = title`, there is no
  /// screen left to change.
  ///
  /// - Parameter id: The screen's id.
  /// - Complexity: O(1) on average to read or update.
  public subscript(id id: StackElementID) -> Element? {
    get { entries[id: id]?.element }
    set {
      if let newValue {
        entries[id: id]?.element = newValue
      } else {
        pop(from: id)
      }
    }
  }

  /// The state of the screen with `id` as one case of an enum of screens: `nil` when no screen
  /// has that id or it shows another case. Setting a value puts the screen in that case;
  /// setting `nil` pops a screen of that case and the screens above it, as
  /// ``subscript(id:)`` does, and leaves a screen of another case alone.
  ///
  /// A test states one field of one screen without restating the rest:
  ///
  /// ```swift
  /// await store.send(.path(.element(id: 0, action: .screenA(.incrementTapped)))) {
  ///   $0.path[id: 0, case: .screenA]?.count = 1
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - id: The screen's id.
  ///   - screenCase: The case of the screens' state enum, by its ``CaseKey``.
  /// - Complexity: O(1) on average to read or update.
  public subscript<Case>(id id: StackElementID, case screenCase: CaseKey<Element, Case>) -> Case? {
    get { self[id: id].flatMap(screenCase.extract) }
    set {
      guard let newValue else {
        // Only a screen of this case: an optional chain through a screen of another case
        // (`path[id: 0, case: .a]?.count += 1`) writes back the `nil` it read.
        if self[id: id, case: screenCase] != nil { self[id: id] = nil }
        return
      }
      guard contains(id: id) else { return }
      self[id: id] = screenCase.embed(newValue)
    }
  }

  /// Pushes a screen on top of the stack.
  ///
  /// - Parameter element: The screen's state.
  /// - Complexity: Amortized O(1).
  public mutating func append(_ element: Element) {
    entries.append(Entry(id: StackElementID(rawValue: nextID), element: element))
    nextID += 1
  }

  /// A push with a given id (a recorded `.push` action) must stay below this, so that pushing
  /// can never overflow the next id: no stack is pushed onto `Int.max / 2` times. (`append`
  /// goes on past it; decoding accepts up to ``decodedNextIDLimit``.)
  static var idLimit: Int { Int.max / 2 }

  /// Decoding accepts a next id up to this: above ``idLimit``, since a stack pushed onto with
  /// an id just below that limit goes on giving ids with `append`, and still far enough from
  /// `Int.max` that no stack decoded with it can be pushed onto until it overflows.
  static var decodedNextIDLimit: Int { idLimit + idLimit / 2 }

  /// Pushes a screen with a given id, as a `.push(id:state:)` action does: in a test, the
  /// state such an action leaves (`$0.path.push(Detail.State(), id: 3)`).
  ///
  /// Later ``append(_:)`` calls go on from the id after it.
  ///
  /// - Parameters:
  ///   - element: The screen's state.
  ///   - id: Its id. It must not be below ``nextElementID`` (ids are never reused), nor at or
  ///     above `Int.max / 2`.
  /// - Returns: Whether it was pushed; a stack given an id it cannot take is left as it was.
  /// - Complexity: O(1) amortized.
  @discardableResult
  public mutating func push(_ element: Element, id: StackElementID) -> Bool {
    guard id.rawValue >= nextID, id.rawValue < Self.idLimit else { return false }
    entries.append(Entry(id: id, element: element))
    nextID = id.rawValue + 1
    return true
  }

  /// Pops the top screen.
  ///
  /// - Returns: Its state, or `nil` when the stack is empty.
  /// - Complexity: O(1).
  @discardableResult
  public mutating func popLast() -> Element? {
    guard !entries.isEmpty else { return nil }
    return entries.remove(at: entries.count - 1).element
  }

  /// Not available: a stack pops with ``popLast()``, ``pop(from:)`` or ``pop(to:)``.
  ///
  /// Declared so that `state.path.removeLast()`, as written for an array or for The
  /// Composable Architecture's stack, fails with this message instead of one about
  /// `Slice<StackState<…>>` (`BidirectionalCollection`'s `removeLast()`), and, inside a
  /// `Reduce` closure at the head of a modifier chain, at once: the other error took the type
  /// checker a minute to find in a trial's body of 20 children.
  ///
  /// - Returns: Never returns.
  @available(
    *, unavailable, renamed: "popLast()",
    message: "a StackState pops with popLast(), pop(from:) or pop(to:)"
  )
  @discardableResult
  public mutating func removeLast() -> Element {
    fatalError("unavailable")
  }

  /// Pops the screen with `id` and every screen above it.
  ///
  /// - Parameter id: The lowest screen to pop.
  /// - Returns: Whether a screen with `id` was on the stack.
  /// - Complexity: O(*k*) for the *k* screens popped.
  @discardableResult
  public mutating func pop(from id: StackElementID) -> Bool {
    guard let position = entries.index(id: id) else { return false }
    entries.removeSuffix(from: position) { _ in true }
    return true
  }

  /// The push stamp of the newest screen pushed anywhere so far: a screen pushed after
  /// this is read has a greater ``Entry`` birth, a screen on a stack now (or on a copy of
  /// one) a birth no greater.
  static var currentBirth: UInt64 { structureStamps.load(ordering: .relaxed) }

  /// Pops the screen with `id` and the screens above it that were pushed by `stamp` (see
  /// ``currentBirth``), wherever they are now: a screen pushed since, in answer to the pop,
  /// stays, even with the id of one popped (a stack the parent set anew numbers its screens
  /// from 0 again; one set back to a copy saved before a push gives the next push the undone
  /// screen's id); a screen set back from a saved copy goes, as the stack held it. A screen
  /// with `id` pushed since is not the one the pop named: nothing is popped.
  ///
  /// - Complexity: O(*k*) for the *k* screens from `id` up.
  mutating func pop(from id: StackElementID, pushedBy stamp: UInt64) {
    guard let position = entries.index(id: id), entries[position].birth <= stamp else {
      return
    }
    entries.removeSuffix(from: position) { $0.birth <= stamp }
  }

  /// Pops every screen above the one with `id`.
  ///
  /// - Parameter id: The screen to go back to.
  /// - Returns: Whether a screen with `id` was on the stack.
  /// - Complexity: O(*k*) for the *k* screens popped.
  @discardableResult
  public mutating func pop(to id: StackElementID) -> Bool {
    guard let position = entries.index(id: id) else { return false }
    entries.removeSuffix(from: position + 1) { _ in true }
    return true
  }

  /// Pops every screen: back to the root.
  ///
  /// - Complexity: O(*n*).
  public mutating func removeAll() {
    entries.removeAll()
  }
}

extension StackState: RandomAccessCollection {
  /// The position of the bottom screen: 0.
  public var startIndex: Int { 0 }

  /// The position after the top screen.
  public var endIndex: Int { entries.count }

  /// The state of the screen at `position`, counted from the bottom.
  ///
  /// - Parameter position: A valid position.
  /// - Complexity: O(1).
  public subscript(position: Int) -> Element {
    entries[position].element
  }
}

extension StackState: ExpressibleByArrayLiteral {
  /// Creates a stack from a literal, bottom first.
  ///
  /// - Parameter elements: The screens.
  public init(arrayLiteral elements: Element...) {
    self.init(elements)
  }
}

extension StackState.Entry: Equatable where Element: Equatable {
  /// Whether both hold the same id and equal states.
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.id == rhs.id && lhs.element == rhs.element
  }
}

extension StackState.Entry: Hashable where Element: Hashable {
  /// Hashes the id and the state.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(id)
    hasher.combine(element)
  }
}

extension StackState.Entry: Sendable where Element: Sendable {}

extension StackState.Entry: Codable where Element: Codable {
  private enum CodingKeys: String, CodingKey {
    case id, element
  }

  /// Decodes an entry: a screen pushed anew.
  ///
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError` when the id or the state is missing or malformed.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      id: try container.decode(StackElementID.self, forKey: .id),
      element: try container.decode(Element.self, forKey: .element))
  }

  /// Encodes the id and the state.
  ///
  /// - Parameter encoder: The encoder.
  /// - Throws: What the encoder throws, for the entry or its state.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(id, forKey: .id)
    try container.encode(element, forKey: .element)
  }
}

extension StackState.Entry: CustomReflectable {
  /// The id and the state, as they are compared and coded.
  public var customMirror: Mirror {
    Mirror(self, children: ["id": id, "element": element], displayStyle: .struct)
  }
}

extension StackState: Equatable where Element: Equatable {
  /// Whether both stacks hold equal screens with the same ids, and will give the next screen
  /// pushed the same id.
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.nextID == rhs.nextID && lhs.entries == rhs.entries
  }
}

extension StackState: Hashable where Element: Hashable {
  /// Hashes the screens, their ids and the next id.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(entries)
    hasher.combine(nextID)
  }
}

extension StackState: Sendable where Element: Sendable {}

extension StackState: CustomReflectable {
  /// The screens with their ids, and the next id: the value, as it is coded and compared,
  /// without the stack's lineage (bookkeeping, not value). Test diffs read this (an
  /// action-log schema fingerprint counts a stack by its type's name).
  public var customMirror: Mirror {
    Mirror(self, children: ["entries": entries, "nextID": nextID], displayStyle: .struct)
  }
}

extension StackState: Codable where Element: Codable {
  private enum CodingKeys: String, CodingKey {
    case entries, nextID
  }

  /// Decodes a stack, checking that it is one pushes could have made: ids unique, ascending
  /// from the bottom and below the next id.
  ///
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError.dataCorrupted` when an id repeats, is negative, is not above the
  ///   id below it or not below `nextID`, or when `nextID` is negative or above three quarters
  ///   of `Int.max`.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    entries = try container.decode(IdentifiedArray<StackElementID, Entry>.self, forKey: .entries)
    nextID = try container.decode(Int.self, forKey: .nextID)
    lineage = structureStamps.add(1, ordering: .relaxed).newValue
    let ids = entries.ids
    if let lowest = ids.min(), lowest.rawValue < 0 {
      throw DecodingError.dataCorruptedError(
        forKey: .entries,
        in: container,
        debugDescription: "The stack's id \(lowest.rawValue) is negative."
      )
    }
    guard (0...Self.decodedNextIDLimit).contains(nextID) else {
      throw DecodingError.dataCorruptedError(
        forKey: .nextID,
        in: container,
        debugDescription: "nextID \(nextID) is outside 0...\(Self.decodedNextIDLimit)."
      )
    }
    // Pushes give ascending ids: a stack out of that order would pop the wrong screens
    // (`pop(from:)` pops everything above a screen's position).
    for (below, above) in zip(ids, ids.dropFirst()) where above < below {
      throw DecodingError.dataCorruptedError(
        forKey: .entries,
        in: container,
        debugDescription: """
          The stack's screen with id \(above.rawValue) is above the one with id \
          \(below.rawValue), but ids ascend from the bottom: each push gets a higher id.
          """
      )
    }
    if let highest = ids.last, highest.rawValue >= nextID {
      throw DecodingError.dataCorruptedError(
        forKey: .nextID,
        in: container,
        debugDescription: "nextID \(nextID) is not above the stack's id \(highest.rawValue)."
      )
    }
  }

  /// Encodes the screens with their ids, and the next id.
  ///
  /// - Parameter encoder: The encoder.
  /// - Throws: `EncodingError.invalidValue` when the next id is above what decoding accepts
  ///   (three quarters of `Int.max`: only a stack decoded near that limit and appended to
  ///   gets there), so that no stack is written that cannot be read back; or what the encoder
  ///   throws, for the stack or a screen's state.
  public func encode(to encoder: any Encoder) throws {
    guard nextID <= Self.decodedNextIDLimit else {
      throw EncodingError.invalidValue(
        nextID,
        EncodingError.Context(
          codingPath: encoder.codingPath + [CodingKeys.nextID],
          debugDescription: """
            nextID \(nextID) is above \(Self.decodedNextIDLimit), the highest a stack decodes \
            with, so the stack could not be read back.
            """
        )
      )
    }
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(entries, forKey: .entries)
    try container.encode(nextID, forKey: .nextID)
  }
}

/// The id of a screen in a ``StackState``: its push order in that stack, from 0.
public struct StackElementID: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
  /// The push order.
  public let rawValue: Int

  /// Creates an id.
  ///
  /// - Parameter rawValue: The push order.
  public init(rawValue: Int) {
    self.rawValue = rawValue
  }

  /// Whether `lhs` was pushed before `rhs`.
  public static func < (lhs: Self, rhs: Self) -> Bool {
    lhs.rawValue < rhs.rawValue
  }

  /// The id as `#n`.
  public var description: String { "#\(rawValue)" }

  /// Hashes the push order as `Int` hashes itself, one word at once, rather than through a
  /// `Hasher` made for the call, as a type with only ``hash(into:)`` is hashed (the stack's
  /// index hashes the id at every screen action). Equal ids hash alike, as
  /// ``hash(into:)`` says they must: both hash `rawValue` alone.
  ///
  /// - Parameter seed: The seed of the table the id is hashed for.
  /// - Returns: The hash.
  @inlinable
  public func _rawHashValue(seed: Int) -> Int {
    rawValue._rawHashValue(seed: seed)
  }

  /// Encodes the id as a bare number.
  ///
  /// - Parameter encoder: The encoder.
  /// - Throws: What the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(rawValue)
  }

  /// Decodes an id from a bare number.
  ///
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError` when the value is not an integer.
  public init(from decoder: any Decoder) throws {
    rawValue = try decoder.singleValueContainer().decode(Int.self)
  }
}

extension StackElementID: ExpressibleByIntegerLiteral {
  /// Creates an id from its push order written as a number, as tests name screens:
  /// `.popFrom(id: 0)`.
  ///
  /// - Parameter value: The push order.
  public init(integerLiteral value: Int) {
    self.init(rawValue: value)
  }
}
