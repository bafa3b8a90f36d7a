import Effects

/// Reads the value at `keyPath` of `root` without copying `root`, and without writing to it.
///
/// Reducers read parts of a feature's state through key paths. Written as
/// `state[keyPath: path]` inside a reducer, a read or an assignment makes unspecialized code
/// (debug builds, generic reducers) reserve stack for a whole copy of the root or of the value
/// for as long as that reducer runs, its children's reducers included, whether the line runs
/// or not: with large state, tens of kilobytes per level of a reducer tree. Here the state is
/// read through its address, in a closure whose frame lasts only the read. Unlike an `inout`
/// access to the value (`&state[keyPath: path]`), this never runs the setter or observers of
/// a computed or observed property. `LargeStateStackTests` measures the stack;
/// `ReviewRegressionTests` checks that nothing is written.
@inlinable
func read<Root, Value>(_ keyPath: KeyPath<Root, Value>, in root: inout Root) -> Value {
  withUnsafePointer(to: &root) { $0.pointee[keyPath: keyPath] }
}

/// Reads `part` of the value at `keyPath` of `root`, where the value lies when `offset` (the
/// key path's `MemoryLayout<Root>.offset(of:)`, found once by the caller) is known: no copy of
/// the value, which would retain every buffer it holds, and no look-up of the key path's types
/// at run time, which generic key path code makes at each read. Without an offset (a computed
/// property), reads as ``read(_:in:)`` does.
@inlinable
func read<Root, Value, Part>(
  _ part: (Value) -> Part, of keyPath: KeyPath<Root, Value>, at offset: Int?,
  in root: inout Root
) -> Part {
  guard let offset else {
    return withUnsafePointer(to: &root) { part($0.pointee[keyPath: keyPath]) }
  }
  return withUnsafeBytes(of: &root) { bytes in
    part(
      bytes.baseAddress.unsafelyUnwrapped.advanced(by: offset)
        .assumingMemoryBound(to: Value.self).pointee)
  }
}

/// Reads `part` of the value at `keyPath` of `root` through the value's address, where the
/// value lies when `offset` is known (see ``read(_:of:at:in:)``): not even the read passes the
/// value on by copy. Without an offset (a computed property), the value is made once.
@inlinable
func read<Root, Value, Part>(
  through part: (UnsafePointer<Value>) -> Part, of keyPath: KeyPath<Root, Value>, at offset: Int?,
  in root: inout Root
) -> Part {
  guard let offset else { return readComputed(through: part, of: keyPath, in: &root) }
  return withUnsafeBytes(of: &root) { bytes in
    part(
      bytes.baseAddress.unsafelyUnwrapped.advanced(by: offset).assumingMemoryBound(to: Value.self))
  }
}

/// ``read(through:of:at:in:)`` for a computed property, whose value is made. Never inlined:
/// inlined, the value's stack would be reserved in the caller's frame on the other path too.
@inlinable @inline(never)
func readComputed<Root, Value, Part>(
  through part: (UnsafePointer<Value>) -> Part, of keyPath: KeyPath<Root, Value>,
  in root: inout Root
) -> Part {
  let value = withUnsafePointer(to: &root) { $0.pointee[keyPath: keyPath] }
  return withUnsafePointer(to: value) { part($0) }
}

/// Whether the optional at `keyPath` of `root` holds a value, read as ``read(_:in:)`` reads,
/// with no copy of the value outside the read.
@inlinable
func isPresent<Root, Value>(_ keyPath: KeyPath<Root, Value?>, in root: inout Root) -> Bool {
  withUnsafePointer(to: &root) { $0.pointee[keyPath: keyPath] != nil }
}

/// Reads the id of a `Child`, given by address, as an `AnyHashable` when the type is `Identifiable`, otherwise
/// `nil`. Made once per store, so its reads neither look up the conformance again nor box the
/// value.
func identityReader<Child>(_: Child.Type) -> ((UnsafePointer<Child>) -> AnyHashable)? {
  guard let identifiable = Child.self as? any Identifiable.Type else { return nil }
  func reader<I: Identifiable>(_: I.Type) -> (UnsafePointer<Child>) -> AnyHashable {
    { AnyHashable(ChildIdentity(identity(of: $0, as: I.self))) }
  }
  return reader(identifiable)
}

/// An optional or case child's id as the child's identity: an id that is not equal to itself
/// (one holding a `Double` that is NaN) is equal to another such id with the same hash (the
/// same bits, for a `Double`), so that a child with one is, to its store and its reducers, the
/// child that was there while its id stays the same, instead of a new child at every look (a
/// store scoped again at each read, its sends refused as sent to a child that changed its id,
/// its effects ended at its next action). A child whose id differs in another part, which
/// hashes otherwise, is another child.
///
/// (`IdentifiedArray` refuses such ids: a collection cannot look them up.)
@usableFromInline
struct ChildIdentity<ID: Hashable>: Hashable {
  @usableFromInline let id: ID

  @inlinable
  init(_ id: ID) {
    self.id = id
  }

  @inlinable
  static func == (lhs: Self, rhs: Self) -> Bool {
    // (Equal identities hash alike: ids equal to each other do, and the others are equal only
    // when they do.)
    lhs.id == rhs.id
      || (lhs.id != lhs.id && rhs.id != rhs.id && lhs.id.hashValue == rhs.id.hashValue)
  }

  @inlinable
  func hash(into hasher: inout Hasher) {
    id.hash(into: &hasher)
  }
}

extension ChildIdentity: CustomStringConvertible {
  /// The id as messages show it (a warning about the child it names).
  @usableFromInline
  var description: String { describeID(id) }
}

/// The id of the value at `value`, which is an `Identifier`.
@inlinable
func identity<Identifier: Identifiable>(of value: UnsafeRawPointer, as _: Identifier.Type)
  -> Identifier.ID
{
  // Read from an `inout` value: read from `pointee`, the value would be copied first in
  // unoptimized builds (stack for a whole child, to read its id). Nothing is written.
  func id(_ value: inout Identifier) -> Identifier.ID { value.id }
  return id(
    &UnsafeMutableRawPointer(mutating: value).assumingMemoryBound(to: Identifier.self).pointee)
}

/// Both effects, without building a merge when either is `.none` (as most are).
@inlinable
func merged<Action>(_ first: Effect<Action>, _ second: Effect<Action>) -> Effect<Action> {
  if first.isNone { return second }
  if second.isNone { return first }
  return .merge(first, second)
}

// MARK: - Reading a store's state through its address

// A store core hands out its state by address (`StoreCore.withState`), and what reads it
// goes on by address: in unoptimized builds, every copy of a value of a generic type takes
// stack of its own for as long as the function that made it runs, and reads through nested
// stores nest, one frame per level. By address, a read through ten nested stores of a 64 KiB
// state used no more stack than one of an empty state; by value, it used 800 KB.

/// Calls `body` with the address of the value at `keyPath` of the value at `root`: inside it,
/// when `offset` (`MemoryLayout<Root>.offset(of: keyPath)`, found once by the caller) is known;
/// else of the value, made once (a computed property).
func withValue<Root, Value, Result>(
  at keyPath: KeyPath<Root, Value>, offset: Int?, in root: UnsafePointer<Root>,
  _ body: (UnsafePointer<Value>) -> Result
) -> Result {
  guard let offset else { return withComputedValue(at: keyPath, in: root, body) }
  return body(UnsafeRawPointer(root).advanced(by: offset).assumingMemoryBound(to: Value.self))
}

/// ``withValue(at:offset:in:_:)`` for a computed property. Never inlined: the value's stack
/// would otherwise be reserved in the caller's frame on the other path too.
@inline(never)
func withComputedValue<Root, Value, Result>(
  at keyPath: KeyPath<Root, Value>, in root: UnsafePointer<Root>,
  _ body: (UnsafePointer<Value>) -> Result
) -> Result {
  var value = computedValue(at: keyPath, in: root)
  return withUnsafeMutablePointer(to: &value) { body(UnsafePointer($0)) }
}

/// The value at `keyPath` of the value at `root`.
func computedValue<Root, Value>(at keyPath: KeyPath<Root, Value>, in root: UnsafePointer<Root>)
  -> Value
{
  // Applied to an `inout` root: applied to `root.pointee`, or to a parameter passed by value,
  // a key path reads a copy of the whole root in unoptimized builds. Nothing is written.
  func read(_ root: inout Root) -> Value { root[keyPath: keyPath] }
  return read(&UnsafeMutablePointer(mutating: root).pointee)
}

/// A copy of the value at `keyPath` of the value at `root`, made from where the value lies when
/// `keyPath` goes through stored properties only.
func copyOfValue<Root, Value>(at keyPath: KeyPath<Root, Value>, in root: UnsafePointer<Root>)
  -> Value
{
  // A computed value is made once, and returned: through `withValue`, it was made, then copied.
  guard let offset = MemoryLayout<Root>.offset(of: keyPath) else {
    return computedValue(at: keyPath, in: root)
  }
  return UnsafeRawPointer(root).advanced(by: offset).assumingMemoryBound(to: Value.self).pointee
}

/// Calls `body` with the address of the value the optional at `optional` wraps, or with `nil`
/// when it holds none.
func withWrapped<Wrapped, Result>(
  _ optional: UnsafePointer<Wrapped?>, _ body: (UnsafePointer<Wrapped>?) -> Result
) -> Result {
  guard holdsValue(optional) else { return body(nil) }
  // A forced unwrap of an `inout` optional projects the wrapped value in place (it checks the
  // case where the optional lies, and writes nothing back): no copy of it.
  return withUnsafeMutablePointer(to: &UnsafeMutablePointer(mutating: optional).pointee!) {
    body(UnsafePointer($0))
  }
}

/// Whether the optional at `optional` holds a value. The copy that a look at its case makes
/// in unoptimized builds (however it is written: `!= nil`, `if case`, `map`, on a parameter
/// passed `inout` too) lasts only this frame.
@inlinable @inline(never)
func holdsValue<Wrapped>(_ optional: UnsafePointer<Wrapped?>) -> Bool {
  optional.pointee != nil
}

/// Calls `body` with the address of what `extract` (a case key's) finds in the value at
/// `root`, or with `nil` when it finds nothing.
func withExtracted<Root, Value, Result>(
  _ extract: (Root) -> Value?, from root: UnsafePointer<Root>,
  _ body: (UnsafePointer<Value>?) -> Result
) -> Result {
  var found = extracted(extract, from: root)
  return withUnsafeMutablePointer(to: &found) { withWrapped(UnsafePointer($0), body) }
}

/// What `extract` finds in the value at `root`.
func extracted<Root, Value>(_ extract: (Root) -> Value?, from root: UnsafePointer<Root>)
  -> Value?
{
  // Passed from an `inout` root: passed from `root.pointee`, the root would be copied first in
  // unoptimized builds. Nothing is written.
  func find(_ root: inout Root) -> Value? { extract(root) }
  return find(&UnsafeMutablePointer(mutating: root).pointee)
}

/// Copies the one value at `source` to `destination`, whose memory holds a value to replace
/// when `replacing`, and is uninitialized otherwise.
///
/// Not `initialize(from:count:)` or `update(from:count:)`: for a type of plain data they copy
/// `count` times the type's stride, which, for a lone value of a type whose size is less than
/// its stride (a struct that ends in a `Bool`), reads past the value's end (AddressSanitizer
/// stopped at the first optional child store of such a type).
func copyValue<Value>(
  _ source: UnsafePointer<Value>, to destination: UnsafeMutablePointer<Value>, replacing: Bool
) {
  if _isPOD(Value.self) {
    UnsafeMutableRawPointer(destination).copyMemory(
      from: source, byteCount: MemoryLayout<Value>.size)
  } else if replacing {
    destination.update(from: source, count: 1)
  } else {
    destination.initialize(from: source, count: 1)
  }
}
