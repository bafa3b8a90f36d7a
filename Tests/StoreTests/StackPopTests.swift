import Testing

@testable import Store

/// The pops of `StackState` remove the screens they pop in one change: the popped screens
/// from the top, with no screen moved up in memory, and one entry in the id history, so that
/// what readers ask of it ("which ids went since?") is answered for a pop of many screens.
@Suite struct StackPopTests {
  /// Changes recorded in `stack`'s id history since `stamp`.
  private static func changes(of stack: StackState<Int>, since stamp: UInt64) -> Int {
    stack.entries.history.changes.filter { $0.to > stamp }.count
  }

  /// `pop(from:pushedBy:)` (a `.popFrom` action) popped one screen at a time from the lowest
  /// popped position, so each removal moved every screen above it: O(k²) moves for k screens,
  /// where O(k) is documented, and one history entry per screen (past 16, the history could
  /// no longer tell which ids went).
  @Test func aPopFromTheBottomIsOneChangeThatMovesNoScreen() {
    var stack = StackState(0..<40)
    let before = stack.entries.structure
    stack.pop(from: 0, pushedBy: StackState<Int>.currentBirth)
    #expect(stack.isEmpty)
    #expect(Self.changes(of: stack, since: before) == 1)
    // A removal below the top leaves a pending slot: none means no screen moved up.
    #expect(stack.entries.removedSlots.isEmpty)
    #expect(
      stack.entries.removedIDs(since: before) == (0..<40).map { StackElementID(rawValue: $0) })
  }

  /// A screen pushed since the stamp stays where it was among the popped ones, still found
  /// by its id, and the pop is still one change naming only the popped ids.
  @Test func screensPushedSinceTheStampStayInOrder() {
    typealias Entry = StackState<Int>.Entry
    let old = (0..<30).map { Entry(id: StackElementID(rawValue: $0 * 2), element: $0 * 2) }
    let stamp = StackState<Int>.currentBirth
    var stack = StackState<Int>()
    for (index, entry) in old.enumerated() {
      stack.entries.append(entry)
      // A screen pushed after the stamp, above each old one but the lowest.
      if index > 0 {
        let id = entry.id.rawValue + 1
        stack.entries.append(Entry(id: StackElementID(rawValue: id), element: id))
      }
    }
    stack.nextID = 60
    let before = stack.entries.structure
    stack.pop(from: 2, pushedBy: stamp)
    let kept = [0] + (1..<30).map { $0 * 2 + 1 }
    #expect(Array(stack) == kept)
    #expect(stack.ids == kept.map { StackElementID(rawValue: $0) })
    #expect(kept.allSatisfy { stack[id: StackElementID(rawValue: $0)] == $0 })
    #expect(Self.changes(of: stack, since: before) == 1)
    #expect(
      stack.entries.removedIDs(since: before) == (1..<30).map { StackElementID(rawValue: $0 * 2) })
  }

  /// `pop(from:)` and `pop(to:)` record one change, however many screens they pop.
  @Test func publicPopsAreOneChange() {
    var stack = StackState(0..<40)
    var before = stack.entries.structure
    stack.pop(to: 9)
    #expect(Array(stack) == Array(0..<10))
    #expect(Self.changes(of: stack, since: before) == 1)
    #expect(
      stack.entries.removedIDs(since: before) == (10..<40).map { StackElementID(rawValue: $0) })
    before = stack.entries.structure
    stack.pop(from: 2)
    #expect(Array(stack) == [0, 1])
    #expect(Self.changes(of: stack, since: before) == 1)
    #expect(
      stack.entries.removedIDs(since: before) == (2..<10).map { StackElementID(rawValue: $0) })
  }
}
