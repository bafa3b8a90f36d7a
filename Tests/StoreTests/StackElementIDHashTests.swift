import Store
import Testing

/// `StackElementID` hashes as its push order, an `Int`, hashes itself: one word at once,
/// which the stack's index does at every screen action (bench 17).
@Suite struct StackElementIDHashTests {
  @Test func anIDHashesAsItsPushOrderDoes() {
    for order in [0, 1, 7, -1, Int.max, Int.min] {
      let id = StackElementID(rawValue: order)
      #expect(id.hashValue == order.hashValue)
      #expect(id._rawHashValue(seed: 42) == order._rawHashValue(seed: 42))
    }
  }

  @Test func setsAndDictionariesFindEveryID() {
    let ids = (0..<2_000).map(StackElementID.init(rawValue:))
    let set = Set(ids)
    #expect(set.count == ids.count)
    #expect(ids.allSatisfy(set.contains))
    #expect(!set.contains(StackElementID(rawValue: 2_000)))
    let names = Dictionary(uniqueKeysWithValues: ids.map { ($0, $0.description) })
    #expect(ids.allSatisfy { names[$0] == "#\($0.rawValue)" })
  }

  @Test func aStackFindsItsScreensByIDAfterPushesAndPops() {
    var stack = StackState<Int>()
    for value in 0..<300 { stack.append(value) }
    for _ in 0..<100 { _ = stack.popLast() }
    for value in 300..<400 { stack.append(value) }
    for (position, id) in stack.ids.enumerated() {
      #expect(stack[id: id] == stack[position])
    }
    #expect(stack[id: StackElementID(rawValue: 250)] == nil)
  }
}
