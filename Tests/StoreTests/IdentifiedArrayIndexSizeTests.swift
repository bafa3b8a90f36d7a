import Testing

@testable import Store

/// The operations that pass over the whole id index (an insertion, a far move, a fold of
/// pending removals) pass over a table sized for the elements: one grown for many elements
/// and left that large by removals from the end, which never re-index, made each of them
/// visit every bucket (a random-operations probe found it).
@Suite struct IdentifiedArrayIndexSizeTests {
  struct Item: Identifiable, Equatable {
    let id: Int
  }

  /// 3,000 elements (a table of 4,096 buckets) removed from the end, in every way, down to
  /// `left`.
  static func poppedDown(to left: Int) -> IdentifiedArrayOf<Item> {
    var items = IdentifiedArrayOf<Item>((0..<3_000).map { Item(id: $0) })
    while items.count > left {
      let last = items.count - 1
      switch items.count % 4 {
      case 0: _ = items.popLast()
      case 1: items.removeLast()
      case 2: items.remove(id: last)
      default: items[id: last] = nil
      }
    }
    return items
  }

  /// Whether `items` finds each of its elements at its position.
  static func isIndexed(_ items: IdentifiedArrayOf<Item>) -> Bool {
    items.indices.allSatisfy { items.index(id: items[$0].id) == $0 }
  }

  /// With 10 of 3,000 elements left, an insertion at the front went over 4,096 buckets; now
  /// over a table of at most 16 buckets an element.
  @Test func anInsertionAfterRemovalsFromTheEndPassesOverASmallTable() {
    var items = Self.poppedDown(to: 10)
    items.insert(Item(id: -1), at: 0)
    #expect(items.buckets.count <= 16 * items.count)
    #expect(items.ids == [-1] + Array(0..<10))
    #expect(Self.isIndexed(items))
    items.insert(contentsOf: [Item(id: -2), Item(id: -3)], at: 1)
    #expect(items.buckets.count <= 16 * items.count)
    #expect(Self.isIndexed(items))
  }

  @Test func aFarMoveAfterRemovalsFromTheEndPassesOverASmallTable() {
    var items = Self.poppedDown(to: 40)
    items.move(fromOffsets: [0], toOffset: 40)
    #expect(items.buckets.count <= 16 * items.count)
    #expect(items.ids == Array(1..<40) + [0])
    #expect(Self.isIndexed(items))
  }

  @Test func aSwapAfterARemovalFromTheMiddlePassesOverASmallTable() {
    var items = Self.poppedDown(to: 10)
    items.remove(id: 4)
    items.swapAt(0, 8)
    #expect(items.buckets.count <= 16 * items.count)
    #expect(items.ids == [9, 1, 2, 3, 5, 6, 7, 8, 0])
    #expect(Self.isIndexed(items))
  }
}
