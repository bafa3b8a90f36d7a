/// A value an observer read, kept as its parts with the stamped collections it holds kept as
/// their version stamps: what a store remembers of a struct or enum that holds an
/// ``IdentifiedArray`` or a ``StackState`` (`store.state`, or `store.list` for a struct that
/// holds the rows), to tell after each action whether it changed.
///
/// A copy of the whole value would share the collections' buffers, so the next write to one
/// element, in the reducer, would find the buffer shared and copy every element, at each
/// action for as long as a view shows the value. The outline keeps the other parts (copies of
/// them, which share only their own buffers) and each collection's stamps, which move with any
/// change to the collection.
///
/// An outline reaches into stored properties, tuples, enum payloads and optionals, as `Mirror`
/// shows them. It does not reach into arrays, dictionaries, sets, objects, or a type with a
/// custom mirror: those are parts, kept whole, and a stamped collection inside them is
/// copied with them, as before.
///
/// Parts are compared one by one, as a copy of the value would be compared: a part by `==`
/// when it is `Equatable` and its bytes changed, an object by identity, anything else by its
/// bytes; a collection by its stamps, so any write to it counts as a change, as when it is
/// read itself. The value's own `==` is not asked: one that ignores a property still sees a
/// change to it reported.
@MainActor
struct ValueOutline {
  private let root: OutlinePart

  /// The outline of `value`, or `nil` when an outline reaches no stamped collection in it (a
  /// copy then shares no collection's buffer that a reducer writes element by element).
  ///
  /// - Complexity: O(*p*) for the *p* parts an outline reaches; O(1) for a type known to hold
  ///   no stamped collection where an outline reaches.
  init?<Value>(of value: Value) {
    guard let root = outlinePart(of: value), case .node = root else { return nil }
    self.root = root
  }

  /// Whether `value` is the value outlined: the same parts, and its collections' stamps the
  /// same.
  ///
  /// - Complexity: O(*p*) for the *p* parts of the outline, as they are reached.
  func matches<Value>(_ value: Value) -> Bool {
    outlinePart(root, matches: value)
  }
}

/// One part of a ``ValueOutline``, with the type it was (a part of another type, as an enum
/// payload or an existential's value can be, is another value).
private indirect enum OutlinePart {
  /// A stamped collection, by its stamps.
  case stamps(ObjectIdentifier, VersionStamp)
  /// A part kept whole: a copy and how to compare it (see `equality(of:)`).
  case whole(ObjectIdentifier, (Any) -> Bool)
  /// A struct, tuple, enum or optional, by its children in order; for an enum, the case's
  /// name too.
  case node(ObjectIdentifier, caseName: String?, [OutlinePart])
}

/// Types in which an outline reaches no stamped collection, whatever their value: checked
/// before anything else, so that tracking a title or a count walks nothing.
@MainActor private var typesWithoutStamps: Set<ObjectIdentifier> = []

/// The part for `value`, or `nil` when an outline reaches no stamped collection in it.
@MainActor
private func outlinePart(of value: Any) -> OutlinePart? {
  let type = type(of: value)
  let id = ObjectIdentifier(type)
  if typesWithoutStamps.contains(id) { return nil }
  if type is any VersionStamped.Type {
    return .stamps(id, (value as! any VersionStamped).versionStamp)
  }
  let mirror = Mirror(reflecting: value)
  guard isReached(type, style: mirror.displayStyle) else {
    typesWithoutStamps.insert(id)
    return nil
  }
  let isEnum = mirror.displayStyle == .enum || mirror.displayStyle == .optional
  var children: [(value: Any, part: OutlinePart?)] = []
  var reachesStamps = false
  // Whether every child is of a type that never holds a stamped collection: then neither
  // does this type, unless it is an enum (another case can hold one). A property of an
  // existential type holding a value of such a type makes this guess wrong for later values
  // of it: they are kept whole, as before outlines, which costs a copy and is still correct.
  var childrenNeverHoldStamps = true
  var caseName: String?
  for child in mirror.children {
    if isEnum, caseName == nil { caseName = child.label }
    let part = outlinePart(of: child.value)
    if part != nil { reachesStamps = true }
    if !typesWithoutStamps.contains(ObjectIdentifier(Swift.type(of: child.value))) {
      childrenNeverHoldStamps = false
    }
    children.append((child.value, part))
  }
  guard reachesStamps else {
    if childrenNeverHoldStamps, mirror.displayStyle != .enum {
      // An optional's child is of the wrapped type: with none in it, an optional holds none.
      // Without a child (`nil`), it says nothing of the wrapped type.
      if mirror.displayStyle != .optional || !children.isEmpty {
        typesWithoutStamps.insert(id)
      }
    }
    return nil
  }
  return .node(
    id, caseName: caseName,
    children.map { $0.part ?? _openExistential($0.value, do: wholePart) })
}

/// Whether an outline reaches into values of `type`: a struct, tuple, enum or optional with no
/// custom mirror, large enough to hold a collection.
private func isReached(_ type: Any.Type, style: Mirror.DisplayStyle?) -> Bool {
  guard !(type is any CustomReflectable.Type) else { return false }
  switch style {
  case .struct, .tuple, .enum, .optional: break
  default: return false
  }
  // A stamped collection is several words; a smaller value cannot hold one inline (an
  // indirect enum's payload is behind one word, so a word is enough).
  return sizeOfValue(type) >= MemoryLayout<Int>.size
}

/// `MemoryLayout.size` of a type known only at run time.
private func sizeOfValue(_ type: Any.Type) -> Int {
  func size<T>(_: T.Type) -> Int { MemoryLayout<T>.size }
  return _openExistential(type, do: size)
}

/// A part kept whole: a copy of `value`, compared as `equality(of:)` compares.
private func wholePart<T>(_ value: T) -> OutlinePart {
  let isEqual = equality(of: T.self)
  var kept = value
  return .whole(ObjectIdentifier(T.self)) { other in
    guard var other = other as? T else { return false }
    return withUnsafeMutablePointer(to: &kept) { kept in
      withUnsafeMutablePointer(to: &other) { isEqual(kept, $0) }
    }
  }
}

/// Whether `value` has the parts of `part`.
@MainActor
private func outlinePart(_ part: OutlinePart, matches value: Any) -> Bool {
  switch part {
  case .stamps(let type, let stamps):
    guard ObjectIdentifier(Swift.type(of: value)) == type else { return false }
    return (value as! any VersionStamped).versionStamp == stamps
  case .whole(let type, let isEqual):
    return ObjectIdentifier(Swift.type(of: value)) == type && isEqual(value)
  case .node(let type, let caseName, let parts):
    guard ObjectIdentifier(Swift.type(of: value)) == type else { return false }
    let children = Mirror(reflecting: value).children.makeIterator()
    var isFirst = true
    for part in parts {
      guard let child = children.next() else { return false }
      if isFirst, let caseName, child.label != caseName { return false }
      isFirst = false
      guard outlinePart(part, matches: child.value) else { return false }
    }
    return children.next() == nil
  }
}
