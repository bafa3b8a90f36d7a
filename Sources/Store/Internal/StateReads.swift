/// The reads of store state in progress on the main actor, and the dispatches that wait for
/// them to end.
///
/// A store's state is read where it lies: a computed property's getter, an `==` of an
/// observation check, a case key's `extract` run on a child store's state all run on the
/// state itself, not on a copy. An action reduced during such a read would change, or free,
/// what the read is still using (the buffer of an array a getter walks): a getter that sent
/// an action read freed memory. So an action sent while a read is in progress (by a getter, or
/// by the `deinit` of a value the read lets go) waits in its root's queue, and is reduced,
/// in order, once the outermost read has ended.
@MainActor @usableFromInline
enum StateReads {
  /// How many reads are in progress, nested.
  @usableFromInline static private(set) var depth = 0
  /// What runs once the outermost read ends: the dispatches of roots whose actions wait.
  private static var waiting: [@MainActor () -> Void] = []

  /// Whether a read is in progress.
  @inlinable static var areInProgress: Bool { depth > 0 }

  /// Runs `body`, a read of a store's state, then the dispatches that waited for it to end,
  /// when it is the outermost read.
  @inline(__always)
  static func during<Result>(_ body: () -> Result) -> Result {
    depth += 1
    defer {
      depth -= 1
      if depth == 0 && !waiting.isEmpty { runWaiting() }
    }
    return body()
  }

  /// Runs `dispatch` once no read is in progress.
  static func afterReads(_ dispatch: @escaping @MainActor () -> Void) {
    waiting.append(dispatch)
  }

  /// Runs the waiting dispatches, in the order they came, including those that come meanwhile.
  private static func runWaiting() {
    while !waiting.isEmpty {
      let next = waiting
      waiting = []
      for dispatch in next { dispatch() }
    }
  }
}
