import Effects

/// A key path as a message names it: as Swift writes it (`\State.rows`), without the
/// address Swift writes for a computed property, whose name it does not keep:
/// `\State.<computed (Optional<Editor.State>)>`, not
/// `\State.<computed 0x0000556f89f10b10 (Optional<Editor.State>)>`, an address that changes
/// from run to run and says nothing to the reader.
package func describeKeyPath(_ keyPath: AnyKeyPath) -> String {
  let text = "\(keyPath)"
  guard text.contains("<computed 0x") else { return text }
  var result = ""
  var rest = Substring(text)
  while let marker = rest.firstRange(of: "<computed 0x") {
    result += rest[..<marker.lowerBound] + "<computed"
    rest = rest[marker.upperBound...].drop { $0.isHexDigit }
  }
  return result + rest
}

/// Identifies one place in state (a key path) as part of an effect lifetime's identity.
///
/// `@unchecked Sendable`: key paths are immutable once created, so sharing one across
/// threads is safe; the compiler only lacks a conformance for the generic class.
@usableFromInline
struct KeyPathIdentity: Hashable, @unchecked Sendable, CustomStringConvertible {
  @usableFromInline let keyPath: AnyKeyPath
  /// The key path's root type, kept to tell whether the key path goes through stored
  /// properties only, when that is asked (rarely): a type, not a test made at every action.
  @usableFromInline let root: any StoredPathChecking.Type
  @usableFromInline var description: String { describeKeyPath(keyPath) }

  @inlinable
  init<Root, Value>(keyPath: KeyPath<Root, Value>) {
    self.keyPath = keyPath
    self.root = StoredPathCheck<Root>.self
  }

  /// Whether the key path goes through stored properties only.
  var isStored: Bool { root.isStored(keyPath) }

  @usableFromInline
  static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.keyPath == rhs.keyPath
  }

  @usableFromInline
  func hash(into hasher: inout Hasher) {
    hasher.combine(keyPath)
  }
}

/// Tells whether a key path from a type goes through stored properties only.
@usableFromInline
protocol StoredPathChecking {
  /// Whether `keyPath`, from this type, goes through stored properties only.
  static func isStored(_ keyPath: AnyKeyPath) -> Bool
}

/// ``StoredPathChecking`` for key paths from `Root`.
@usableFromInline
enum StoredPathCheck<Root>: StoredPathChecking {
  @usableFromInline
  static func isStored(_ keyPath: AnyKeyPath) -> Bool {
    guard let keyPath = keyPath as? PartialKeyPath<Root> else { return false }
    return MemoryLayout<Root>.offset(of: keyPath) != nil
  }
}

/// Used as a namespace by `screenLifecycle`, for the hooks of the screen whose state holds
/// the key path: the same level as the namespace above it.
extension KeyPathIdentity: LifetimePlace {
  var canBeGone: Bool { false }

  func locate(inLevel state: Any, wantsState: Bool) -> PlaceLookup {
    .present(state, wantsState: wantsState)
  }
}

/// The lifetime identity of one element of an identified collection.
@usableFromInline
struct ElementIdentity<ID: Hashable & Sendable>: Hashable, Sendable {
  @usableFromInline let collection: KeyPathIdentity
  @usableFromInline let id: ID
  /// Where the reducer that runs the elements was declared, for the warning about a screen's
  /// `.send` dropped because another push took its place; `nil` where an identity is made
  /// only to be looked up. Not part of the identity: the same element whatever made it.
  @usableFromInline let site: SourceSite?

  @inlinable
  init(collection: KeyPathIdentity, id: ID, site: SourceSite? = nil) {
    self.collection = collection
    self.id = id
    self.site = site
  }

  @inlinable
  static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.collection == rhs.collection && lhs.id == rhs.id
  }

  @inlinable
  func hash(into hasher: inout Hasher) {
    hasher.combine(collection)
    hasher.combine(id)
  }
}

extension ElementIdentity: LifetimePlace {
  var canBeGone: Bool { true }
  var isReadable: Bool { collection.isStored }
  var stampedContainer: AnyKeyPath? { collection.keyPath }

  func locate(inContainer container: Any, wantsState: Bool) -> PlaceLookup {
    guard let elements = container as? any IdentifiedLookup else { return .unknown }
    return elements.lifetimeState(forID: id, wantsState: wantsState)
  }

  func removedSiblings(in container: Any, since stamp: UInt64) -> [EffectID]? {
    siblings(withIDs: (container as? any IdentifiedLookup)?.removedLifetimeIDs(since: stamp))
  }

  func changedSiblings(in container: Any, since stamp: UInt64) -> [EffectID]? {
    siblings(withIDs: (container as? any IdentifiedLookup)?.changedLifetimeIDs(since: stamp))
  }

  /// Only a stack's screen changes hands in its place (the others have no occupant token): the
  /// stack is named as its reducer's warnings name it, without the entries it keeps its
  /// screens in.
  func takeover(inLevel state: Any) -> PlaceTakeover {
    guard id is StackElementID else {
      return PlaceTakeover(
        place: "the element with id \(describeID(id)) of \(collection)",
        newcomer: "another element with that id")
    }
    var stack = collection.description
    if stack.hasSuffix(".entries") { stack.removeLast(".entries".count) }
    return PlaceTakeover(
      place: "the screen with id \(describeID(id)) of the stack at \(stack)",
      newcomer: """
        another screen pushed with that id (the stack was replaced, or set back to an earlier \
        copy, and pushed onto again)
        """,
      site: site)
  }

  /// The identities of the elements of this collection with `ids`, or `nil` for `nil`.
  private func siblings(withIDs ids: [any Hashable]?) -> [EffectID]? {
    ids?.compactMap { id in
      (id as? ID).map { EffectID(ElementIdentity(collection: collection, id: $0)) }
    }
  }
}

/// The lifetime identity of an optional child: the key path to it.
///
/// `@unchecked Sendable`: key paths are immutable once created. The occupant's id, which
/// need not be `Sendable`, is a copy of a value of the state, read only on the main actor,
/// for a warning, but it may be released elsewhere: its copies live in effect values.
@usableFromInline
struct PresenceIdentity<Parent, Child>: Hashable, @unchecked Sendable, CustomStringConvertible {
  @usableFromInline let keyPath: KeyPath<Parent, Child?>
  /// Where the child lies in the parent, when the key path is a chain of stored properties
  /// (`nil` otherwise, and the walk does not read the place).
  @usableFromInline let childOffset: Int?
  /// Reads the child at an offset in a parent at an address.
  ///
  /// Made in `init`, which is inlined where `ifLet` is written: there the parent's and the
  /// child's types are known, and the closure, which captures nothing, is compiled for them.
  /// Generic code that reads the child, run for each action while the child's effects run,
  /// looked up `Optional<Child>` and the child's id type at run time each time: most of the
  /// 430 ns a row action cost beside a running detail effect.
  @usableFromInline let readChild: ChildReader
  /// Where the `ifLet` or `presents` was declared, for the warnings about the child.
  @usableFromInline let site: SourceSite
  /// The id of the child the effects scoped with this identity started for, when kept (see
  /// ``keptOccupant(_:)``), for the warning about a `.send` of theirs dropped because
  /// another child took the place. Neither this nor `site` is part of the identity.
  @usableFromInline var occupant: (any Hashable)?
  @usableFromInline var description: String { describeKeyPath(keyPath) }

  /// - Parameters:
  ///   - keyPath: The key path to the child.
  ///   - childOffset: `MemoryLayout<Parent>.offset(of: keyPath)`.
  ///   - site: Where the reducer that runs the child was declared.
  @inlinable
  init(keyPath: KeyPath<Parent, Child?>, childOffset: Int?, site: SourceSite) {
    self.keyPath = keyPath
    self.childOffset = childOffset
    self.site = site
    self.readChild = { parent, offset, wantsState in
      let child = parent.advanced(by: offset).assumingMemoryBound(to: Child?.self)
      guard let token = child.pointee.map(lifetimeToken(of:)) else { return .gone }
      return .present(token: token, state: wantsState ? child.pointee : nil)
    }
  }

  @usableFromInline
  static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.keyPath == rhs.keyPath
  }

  @usableFromInline
  func hash(into hasher: inout Hasher) {
    hasher.combine(keyPath)
  }
}

/// Reads an optional child at an offset (the second argument) in its parent, at an address
/// (the first), with its state when the third argument asks for it.
@usableFromInline
typealias ChildReader = @Sendable (UnsafeRawPointer, Int, Bool) -> ChildPresence

/// What a ``ChildReader`` found.
@usableFromInline
enum ChildPresence {
  /// The child is `nil`.
  case gone
  /// The child is there, with its token (see ``lifetimeToken(of:)``) and, when asked for, its
  /// state.
  case present(token: UInt64?, state: Any?)
}

extension PresenceIdentity: LifetimePlace {
  var canBeGone: Bool { true }
  var isReadable: Bool { childOffset != nil }

  func locate(inLevel state: Any, wantsState: Bool) -> PlaceLookup {
    // Opened, not cast: a cast to `Parent` copies the parent out of its box.
    func look<Level>(_ level: Level) -> PlaceLookup {
      guard Level.self == Parent.self, let childOffset else {
        return locate(throughKeyPathIn: state, wantsState: wantsState)
      }
      let found = withUnsafePointer(to: level) {
        readChild(UnsafeRawPointer($0), childOffset, wantsState)
      }
      switch found {
      case .gone: return .gone
      case .present(let token, let state): return .present(state, token: token)
      }
    }
    return _openExistential(state, do: look)
  }

  func takeover(inLevel state: Any) -> PlaceTakeover {
    PlaceTakeover(
      place: occupant.map { "the child with id \($0) at \(self)" } ?? "the child at \(self)",
      newcomer: newcomer(in: locate(inLevel: state, wantsState: true)), site: site)
  }

  /// This identity, for effects started for the child with `id`.
  @inlinable
  func occupied<ID: Hashable>(by id: ID?) -> Self {
    var identity = self
    identity.occupant = keptOccupant(id)
    return identity
  }

  /// The child read through the key path, from a parent cast out of `state`: for a key path
  /// through a computed property, or a level of another type.
  ///
  /// Out of line: in `look`, this path's temporaries (a `Parent?` and a `Child?`, of types
  /// unknown there) made `look` fetch the metadata of both optionals on entry, for stack to
  /// hold them, at every call, whichever path it took: two look-ups in the runtime's cache of
  /// generic types, about 900 instructions of a row action while a detail's effect runs
  /// (bench row 14).
  @inline(never)
  private func locate(throughKeyPathIn state: Any, wantsState: Bool) -> PlaceLookup {
    guard let parent = state as? Parent else { return .unknown }
    guard let child = parent[keyPath: keyPath] else { return .gone }
    return .present(child, wantsState: wantsState, token: lifetimeToken(of: child))
  }
}

/// The lifetime identity of an enum case's child: where the reducer was declared and the case
/// key's own identity (the child's state type is in the identity's type), and how to find the
/// case.
///
/// It shares the cancellation ids of the enum's reducer (see `SharesCancellationIDs`): a case
/// is the enum's state seen as one kind of screen or row, so a parent's
/// `.cancel(id:inElement:of:)`, `.cancel(id:inScreen:of:)` or `.cancel(id:inScope:action:)`
/// reaches what the case's child made cancellable, as it reaches a child that is not an enum;
/// the case's effects still end with the case.
///
/// `@unchecked Sendable`: the case key's closures are `@Sendable`; the compiler only lacks a
/// conformance for the generic struct holding them. The occupant's id, which need not be
/// `Sendable`, is a copy of a value of the state, read only on the main actor, for a warning,
/// but it may be released elsewhere: its copies live in effect values.
@usableFromInline
struct CaseIdentity<State, CaseState>: Hashable, @unchecked Sendable, SharesCancellationIDs,
  PartOfItsFeature
{
  @usableFromInline let site: SourceSite
  @usableFromInline let toCase: CaseKey<State, CaseState>
  /// The id of the payload the effects scoped with this identity started for, when kept (see
  /// ``keptOccupant(_:)``), for the warning about a `.send` of theirs dropped because
  /// another payload took the case. Not part of the identity.
  @usableFromInline var occupant: (any Hashable)?

  @usableFromInline
  init(site: SourceSite, toCase: CaseKey<State, CaseState>) {
    self.site = site
    self.toCase = toCase
  }

  /// This identity, for effects started for the payload with `id`.
  @inlinable
  func occupied<ID: Hashable>(by id: ID?) -> Self {
    var identity = self
    identity.occupant = keptOccupant(id)
    return identity
  }

  @usableFromInline
  static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.site == rhs.site && lhs.toCase.identity == rhs.toCase.identity
  }

  @usableFromInline
  func hash(into hasher: inout Hasher) {
    hasher.combine(site)
    hasher.combine(toCase.identity)
  }
}

extension CaseIdentity: LifetimePlace {
  var canBeGone: Bool { true }

  func locate(inLevel state: Any, wantsState: Bool) -> PlaceLookup {
    guard let state = state as? State else { return .unknown }
    guard let child = toCase.extract(state) else { return .gone }
    return .present(child, wantsState: wantsState, token: lifetimeToken(of: child))
  }

  func takeover(inLevel state: Any) -> PlaceTakeover {
    let caseName = enumCaseName(of: state, holding: CaseState.self).map { " .\($0)" } ?? ""
    let id = occupant.map { " with id \($0)" } ?? ""
    return PlaceTakeover(
      place: """
        the case\(caseName) of \(TypeName.name(of: State.self)) holding \
        \(TypeName.name(of: CaseState.self))\(id)
        """,
      newcomer: newcomer(in: locate(inLevel: state, wantsState: true)), site: site)
  }
}

/// What has taken a place whose occupant is known by its id (an `Identifiable` child or
/// case), as the runtime warning about an action dropped for it names it: with the id of the
/// child there now, when it can be read.
private func newcomer(in lookup: PlaceLookup) -> String {
  guard case .present(let state?, _) = lookup, let child = state as? any Identifiable else {
    return "a child with another id"
  }
  func described<Child: Identifiable>(_ child: Child) -> String { describeID(child.id) }
  return "a child with another id (\(described(child)))"
}

/// The id a child's effects started under, as its identity keeps it for the warning about a
/// `.send` of theirs dropped because another child took the place (see
/// ``PresenceIdentity/occupied(by:)``): only an id that an existential stores inline, which
/// takes no allocation: one that fits its three words of room (24 bytes on 64-bit platforms,
/// where an `Int`, a `UUID` or a `String` does), aligned no wider than a word, and that is
/// bitwise-takable (movable by copying its bytes; the runtime boxes one that is not, however
/// small). Any other would be copied to the heap at every child action that returns an
/// effect, and is not kept (the warning then names the place and the newcomer's id alone).
@inlinable
func keptOccupant<ID: Hashable>(_ id: ID?) -> (any Hashable)? {
  guard let id, MemoryLayout<ID>.size <= 3 * MemoryLayout<Int>.size,
    MemoryLayout<ID>.alignment <= MemoryLayout<Int>.alignment, _isBitwiseTakable(ID.self)
  else { return nil }
  return id
}

/// A child's token as a ``LifetimePlace``: the hash of its id when it is `Identifiable` (one
/// replaced by a child with another id is a new child, whose place the old one's effects do
/// not belong to), `nil` otherwise.
///
/// Decided by the child's type, and its id read in place: no copy of the child, and, where
/// this is specialized for a type known to be `Identifiable`, no look-up at run time.
@inlinable
func lifetimeToken<Child>(of child: Child) -> UInt64? {
  guard let identifiable = Child.self as? any Identifiable.Type else { return nil }
  func byID<Element: Identifiable>(_: Element.Type) -> UInt64 {
    withUnsafePointer(to: child) {
      lifetimeToken(ofID: ChildIdentity(identity(of: $0, as: Element.self)))
    }
  }
  return byID(identifiable)
}

/// A child's token from its id: the id's hash, the same whatever the id's static type.
@usableFromInline
func lifetimeToken(ofID id: some Hashable) -> UInt64 {
  UInt64(bitPattern: Int64(id.hashValue))
}

/// A collection whose elements a ``LifetimePlace`` can look up by id, as `Any`.
protocol IdentifiedLookup {
  /// The state of the element with `id` (when wanted), or `.gone`; `.unknown` for an id of
  /// another type.
  func lifetimeState(forID id: any Hashable, wantsState: Bool) -> PlaceLookup

  /// The ids removed since the collection had structure stamp `stamp`, or `nil` when it
  /// cannot tell.
  func removedLifetimeIDs(since stamp: UInt64) -> [any Hashable]?

  /// The ids of the elements that may have changed since the collection had content stamp
  /// `stamp`, or `nil` when it cannot tell.
  func changedLifetimeIDs(since stamp: UInt64) -> [any Hashable]?
}

/// An element whose lifetime state is a part of it: a stack entry, whose screen's reducer runs
/// on its element, and which a test's state dump shows as that part alone, under its id.
package protocol LifetimeStateCarrier {
  /// The part the element's reducer runs on.
  var carriedLifetimeState: Any { get }
  /// The element's token as a ``LifetimePlace`` occupant: unique to the element, whatever
  /// its id (a stack's screen pushed with the id of an undone one is another screen).
  var lifetimeToken: UInt64 { get }
}

/// Lends a value to a `@Sendable` closure that the effect runtime calls synchronously on the
/// main actor while it starts an effect, right after the reducer that made it returned.
///
/// `@unchecked Sendable`: the value is only read, and only on the main actor, before the
/// store reduces anything else.
@usableFromInline
struct MainActorLoan<Value>: @unchecked Sendable {
  @usableFromInline let value: Value

  @inlinable
  init(value: Value) {
    self.value = value
  }
}
