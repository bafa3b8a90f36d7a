import Effects

/// Finds the clocks a feature holds, so that a test store can look at its test clocks'
/// sleepers when a `receive` waits in vain, or say where it holds a real clock.
///
/// A test store is not given the clock: the feature is. The clock is usually one of the
/// reducer's stored properties (`Search(clock: clock)`, an `any Clock<Duration>` included), or
/// a child reducer's, which a mirror of the reducer reaches. A clock captured only in a
/// closure (a dependency's), or held by an object, is out of the search's sight, and is not
/// found.
enum TestClockFinder {
  /// What the search found: the test clocks, and the real clocks.
  struct Found {
    /// The distinct test clocks.
    var testClocks: [TestClock] = []
    /// Where a `ContinuousClock` or `SuspendingClock` is held, such as
    /// `Notes.rows.clock (a ContinuousClock)`: a clock a test cannot advance, which an effect
    /// asleep on it wakes from in real time.
    var realClocks: [String] = []
  }

  /// The distinct test clocks and the real clocks in `value`'s stored properties, looked for
  /// through at most `depth` levels and `limit` values, so that a reducer holding a large
  /// value costs little. A clock past the limit is not found; then the store's failure
  /// message only says what to look for.
  ///
  /// - Complexity: O(`limit`).
  static func search(_ value: Any, depth: Int = 6, limit: Int = 256) -> Found {
    var found = Found()
    // Breadth first, so a reducer's own properties come before what they hold; at most
    // `limit` values are ever queued, however large a collection among them.
    var queue: [(value: Any, depth: Int, path: String)] = [
      (value, 0, TypeName.name(of: type(of: value)))
    ]
    var position = 0
    while position < queue.count {
      let (next, level, path) = queue[position]
      position += 1
      if let clock = next as? TestClock {
        if !found.testClocks.contains(where: { $0 === clock }) { found.testClocks.append(clock) }
        continue
      }
      if next is ContinuousClock || next is SuspendingClock {
        found.realClocks.append("\(path) (a \(TypeName.name(of: type(of: next))))")
        continue
      }
      // Not into objects: another thread may be changing what one holds (a client's cache,
      // an actor's state), and a mirror would read it unsynchronized.
      guard level < depth, !(type(of: next) is AnyObject.Type) else { continue }
      for (index, child) in Mirror(reflecting: next).children.enumerated() {
        guard queue.count < limit else { break }
        queue.append((child.value, level + 1, path + "." + (child.label ?? "\(index)")))
      }
    }
    return found
  }
}
