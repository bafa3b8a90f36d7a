import Synchronization

/// A `Mutex` with the hand-off `Locked` adds for ThreadSanitizer (see why there), defined in
/// this module so that `withLock` is specialized for the value it guards.
///
/// `Locked`, from `Effects`, is generic code of another module: called from here, its
/// `withLock` is not specialized for the dictionaries of the caches on the action path (made
/// `@inlinable`, an action to a presented child still took 5.2 to 5.7 times `Scope`, against 3.4
/// to 3.6 this way). Use it for locks an action takes; `Locked` elsewhere. A bare `Mutex` is
/// not used in this package: on Linux, two threads meeting at one draw reports of races under
/// the lock (`CodeRuleTests` checks the sources).
struct ModuleLock<Value: ~Copyable>: ~Copyable, Sendable {
  private let mutex: Mutex<Value>
  private let handOff = Atomic<UInt8>(0)

  /// A lock around `initialValue`.
  init(_ initialValue: consuming sending Value) {
    mutex = Mutex(initialValue)
  }

  /// Runs `body` with exclusive access to the value, waiting for the lock if another thread
  /// holds it: an acquiring load of the hand-off after taking the lock, a releasing store
  /// before giving it back.
  ///
  /// - Parameter body: Reads or changes the value; it must not take this lock again.
  /// - Returns: What `body` returns.
  @inline(__always)
  borrowing func withLock<Result: ~Copyable, E: Error>(
    _ body: (inout sending Value) throws(E) -> sending Result
  ) throws(E) -> sending Result {
    try mutex.withLock { (value: inout sending Value) throws(E) -> sending Result in
      _ = handOff.load(ordering: .acquiring)
      defer { handOff.store(0, ordering: .releasing) }
      return try body(&value)
    }
  }
}
