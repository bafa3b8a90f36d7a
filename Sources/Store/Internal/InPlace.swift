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

/// Reads the id of a `Child` as an `AnyHashable` when the type is `Identifiable`, otherwise
/// `nil`. Made once per store, so its reads neither look up the conformance again nor box the
/// value.
func identityReader<Child>(_: Child.Type) -> ((Child) -> AnyHashable)? {
  guard let identifiable = Child.self as? any Identifiable.Type else { return nil }
  func reader<I: Identifiable>(_: I.Type) -> (Child) -> AnyHashable {
    { AnyHashable(unsafeBitCast($0, to: I.self).id) }
  }
  return reader(identifiable)
}

/// Both effects, without building a merge when either is `.none` (as most are).
@inlinable
func merged<Action>(_ first: Effect<Action>, _ second: Effect<Action>) -> Effect<Action> {
  if first.isNone { return second }
  if second.isNone { return first }
  return .merge(first, second)
}
