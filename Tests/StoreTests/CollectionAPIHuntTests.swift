import Foundation
import Testing

@testable import Store

/// `IdentifiedArray`, `StackState` and `StackElementID` as public API a demanding user calls
/// directly: documented costs, collection laws, coding of bad input.
@Suite struct CollectionAPIHuntTests {
  struct Row: Identifiable, Equatable, Hashable, Codable {
    var id: Int
    var count = 0
  }

  /// Whether the oldest `forgottenOldest` changes of `history` hold no ids and the next one,
  /// if any, holds some: where a forgetting pass starts is where the ids held begin.
  static func forgettingStartsAtTheFirstIDHeld(_ history: StructureHistory<Int>) -> Bool {
    let count = history.changes.count
    let start = count == history.largestCapacity ? history.next : 0
    let held = (0..<count).map { age in history.changes[(start + age) % count].ids.count }
    let firstHeld = held.firstIndex { $0 > 0 } ?? count
    return history.forgottenOldest <= firstHeld && held.reduce(0, +) == history.idCount
  }

  /// Once an array shrank below a quarter of the ids its history held (100,000 rows cut to
  /// 20,000), each change recorded (an update by id, documented O(1)) forgot one id by
  /// passing over all 8,192 changes the history keeps; a forgetting pass now starts past the
  /// changes it forgot already, and forgets the same ids.
  @Test func aShrunkArraysUpdateByIDDoesNotPassOverTheForgottenChanges() {
    var rows = IdentifiedArray((0..<100_000).map { Row(id: $0) })
    for id in 0..<8_192 { rows[id: id]?.count += 1 }
    #expect(rows.contentHistory.changes.count == 8_192)
    rows.removeAll { $0.id >= 20_000 }
    let before = rows.content
    for id in 0..<100 { rows[id: id]?.count += 1 }
    let history = rows.contentHistory
    // A quarter of 20,000 ids are kept, the newest.
    #expect(history.idCount == 5_000)
    #expect(history.forgottenOldest == 8_192 - 5_000)
    #expect(Self.forgettingStartsAtTheFirstIDHeld(history))
    #expect(rows.changedIDs(since: before) == Array(0..<100))
    #expect(rows[id: 99]?.count == 2)
  }

  /// The history alone: ids recorded one a change into a history of 4,096 changes limited to
  /// 256 ids. The newest 256 are told; older questions are unknown, as before.
  @Test func aHistoryFullOfForgottenChangesForgetsFromWhereItStopped() {
    var history = StructureHistory<Int>()
    var stamp: UInt64 = 0
    for id in 0..<10_000 {
      history.record(
        from: stamp, to: stamp + 1, ids: .one(id), capacity: 4_096, idLimit: 256)
      stamp += 1
      if id == 300 || id == 4_095 || id == 4_096 || id == 9_999 {
        #expect(history.idCount == 256)
        #expect(Self.forgettingStartsAtTheFirstIDHeld(history), "after \(id)")
      }
    }
    #expect(history.forgottenOldest == 4_096 - 256)
    #expect(history.removed(from: stamp - 256, to: stamp) == Array(9_744..<10_000))
    #expect(history.removed(from: stamp - 257, to: stamp) == nil)
    // A larger limit (the array grew again) forgets nothing more.
    history.record(from: stamp, to: stamp + 1, ids: .many([1, 2]), capacity: 4_096)
    #expect(history.idCount == 258)
    #expect(Self.forgettingStartsAtTheFirstIDHeld(history))
  }
}
