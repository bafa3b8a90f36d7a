import Effects

/// Finds the test clocks a feature holds, so that a test store can look at their sleepers
/// when a `receive` waits in vain.
///
/// A test store is not given the clock: the feature is. The clock is usually one of the
/// reducer's stored properties (`Search(clock: clock)`, an `any Clock<Duration>` included), or
/// a child reducer's, which a mirror of the reducer reaches. A clock captured only in a
/// closure (a dependency's), or held by an object, is out of the search's sight, and is not
/// found.
enum TestClockFinder {
  /// The distinct test clocks in `value`'s stored properties, looked for through at most
  /// `depth` levels and `limit` values, so that a reducer holding a large value costs little.
  /// A clock past the limit is not found; then the store's failure message only says what
  /// to look for.
  ///
  /// - Complexity: O(`limit`).
  static func clocks(in value: Any, depth: Int = 6, limit: Int = 256) -> [TestClock] {
    var found: [TestClock] = []
    // Breadth first, so a reducer's own properties come before what they hold; at most
    // `limit` values are ever queued, however large a collection among them.
    var queue: [(value: Any, depth: Int)] = [(value, 0)]
    var position = 0
    while position < queue.count {
      let (next, level) = queue[position]
      position += 1
      if let clock = next as? TestClock {
        if !found.contains(where: { $0 === clock }) { found.append(clock) }
        continue
      }
      // Not into objects: another thread may be changing what one holds (a client's cache,
      // an actor's state), and a mirror would read it unsynchronized.
      guard level < depth, !(type(of: next) is AnyObject.Type) else { continue }
      for child in Mirror(reflecting: next).children {
        guard queue.count < limit else { break }
        queue.append((child.value, level + 1))
      }
    }
    return found
  }
}
