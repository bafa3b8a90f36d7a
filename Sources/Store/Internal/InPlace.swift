/// Returns a copy of `value`, read where it lies.
///
/// Reducers read parts of a feature's state through key paths. Written as
/// `state[keyPath: path]`, a read or an assignment makes unspecialized code (debug builds,
/// generic reducers) reserve stack for a whole copy of the root, or of the value, on every
/// call, whether that line runs or not: with large state, tens of kilobytes per level of a
/// reducer tree. Passing `&state[keyPath: path]` to a function accesses the value in place;
/// reducers read through this function and change through `inout` helpers instead.
/// `LargeStateStackTests` measures it.
@inlinable
func readInPlace<Value>(_ value: inout Value) -> Value {
  value
}
