import Testing

@testable import Store

@Suite struct IdentifiedArrayRemovalReviewTests {
  struct Item: Identifiable, Equatable { let id: Int; var v = 0 }
  struct Stop: Error {}

  /// Random removals by offsets and predicates (few and many, with pending lazy removals
  /// from `remove(id:)` in between), compared with a plain array; the recorded removed ids
  /// and the index checked after each.
  @Test(arguments: 0..<20 as Range<UInt64>)
  func removalsMatchAModel(seed: UInt64) throws {
    var random = SeededGenerator(state: seed &+ 11)
    var items = IdentifiedArray((0..<300).map { Item(id: $0) })
    var model = Array(0..<300)
    var nextID = 300
    for _ in 0..<200 {
      let stamp = items.structure
      var expectedRemoved: [Int] = []
      switch Int.random(in: 0..<5, using: &random) {
      case 0 where !model.isEmpty:
        let offsets =
          (0..<Int.random(in: 1...(Bool.random(using: &random) ? 40 : 6), using: &random))
          .map { _ in Int.random(in: 0..<model.count, using: &random) }
        let sorted = Set(offsets).sorted()
        expectedRemoved = sorted.map { model[$0] }
        items.remove(atOffsets: offsets)
        for o in sorted.reversed() { model.remove(at: o) }
      case 1:
        let m = Int.random(in: 2...40, using: &random)
        let r = Int.random(in: 0..<m, using: &random)
        expectedRemoved = model.filter { $0 % m == r }
        items.removeAll { $0.id % m == r }
        model.removeAll { $0 % m == r }
      case 2 where !model.isEmpty:
        let id = model.randomElement(using: &random)!
        items.remove(id: id)
        model.removeAll { $0 == id }
        expectedRemoved = [id]
      case 3:
        // A throwing predicate removes nothing.
        let before = items.ids
        let limit = Int.random(in: 0..<max(1, model.count), using: &random)
        var asked = 0
        var threw = false
        do {
          try items.removeAll { _ in
            asked += 1
            if asked > limit { throw Stop() }
            return true
          }
        } catch { threw = true }
        #expect(threw || model.isEmpty, "count \(model.count) limit \(limit) asked \(asked)")
        #expect(items.ids == before)
        #expect(items.structure == stamp)
        continue
      default:
        for _ in 0..<Int.random(in: 1...10, using: &random) {
          items.append(Item(id: nextID)); model.append(nextID); nextID += 1
        }
        continue
      }
      #expect(items.ids == model)
      for (position, id) in model.enumerated() {
        if items.index(id: id) != position {
          Issue.record(
            "seed \(seed): id \(id) indexed at \(String(describing: items.index(id: id))), is at \(position)"
          )
          return
        }
      }
      if !expectedRemoved.isEmpty, expectedRemoved.count <= 64 {
        #expect(items.removedIDs(since: stamp).map(Set.init) == Set(expectedRemoved))
      }
    }
  }
}
