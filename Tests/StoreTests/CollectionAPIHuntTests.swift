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

  /// The collection laws hold with removals waiting to be re-indexed: positions are
  /// `0..<count`, stepped one at a time, and a slice, the reversed array and `firstIndex`
  /// agree with `index(id:)`.
  @Test func collectionLawsHoldWithRemovalsPending() {
    var rows = IdentifiedArray((0..<200).map { Row(id: $0) })
    for id in stride(from: 1, to: 200, by: 3) { rows.remove(id: id) }
    #expect(!rows.removedSlots.isEmpty)
    let ids: [Int] = (0..<200).filter { $0 % 3 != 1 }
    #expect(rows.ids == ids)
    #expect(rows.indices == 0..<ids.count)
    #expect(rows.index(after: 4) == 5 && rows.index(before: 5) == 4)
    #expect(rows.distance(from: 3, to: 10) == 7 && rows.index(3, offsetBy: 7) == 10)
    let slice: [Int] = rows[10..<15].map(\.id)
    #expect(slice == Array(ids[10..<15]))
    let reversed: [Int] = rows.reversed().map(\.id)
    #expect(reversed == ids.reversed())
    for id in ids {
      let position: Int? = rows.firstIndex { $0.id == id }
      #expect(rows.index(id: id) == position)
    }
    #expect(rows.index(id: 1) == nil && rows.firstIndex { $0.id == 1 } == nil)
  }

  /// `init(_:uniquingIDsWith:)`: a repeated id keeps the position of its first occurrence.
  @Test func uniquingKeepsThePositionOfTheFirstOccurrence() {
    let fetched = [Row(id: 5, count: 1), Row(id: 6), Row(id: 5, count: 2), Row(id: 7)]
    let rows = IdentifiedArray(fetched) { kept, repeated in
      Row(id: kept.id, count: kept.count + repeated.count)
    }
    #expect(rows.ids == [5, 6, 7])
    #expect(rows[0] == Row(id: 5, count: 3))
    #expect(rows.index(id: 7) == 2)
  }

  struct Holder: Codable {
    var rows: IdentifiedArrayOf<Row>
  }

  /// Bad input is a `DecodingError` saying what and where, never a stop.
  @Test func badlyShapedRowsAreRefusedSayingWhere() throws {
    func error(_ json: String) -> DecodingError? {
      do {
        _ = try JSONDecoder().decode(Holder.self, from: Data(json.utf8))
        return nil
      } catch {
        return error as? DecodingError
      }
    }
    guard case .typeMismatch(_, let object)? = error(#"{"rows":{"id":1,"count":0}}"#) else {
      Issue.record("an object for the rows decoded, or failed otherwise")
      return
    }
    #expect(object.codingPath.map(\.stringValue) == ["rows"])
    guard
      case .keyNotFound(let key, let missing)? = error(
        #"{"rows":[{"id":1,"count":0},{"count":2}]}"#)
    else {
      Issue.record("a row without an id decoded, or failed otherwise")
      return
    }
    #expect(key.stringValue == "id")
    #expect(missing.codingPath.map(\.stringValue) == ["rows", "Index 1"])
    guard
      case .dataCorrupted(let repeated)? = error(
        #"{"rows":[{"id":1,"count":0},{"id":2,"count":0},{"id":1,"count":0}]}"#)
    else {
      Issue.record("a repeated id decoded, or failed otherwise")
      return
    }
    #expect(repeated.codingPath.map(\.stringValue) == ["rows", "Index 2"])
    #expect(repeated.debugDescription.contains("Duplicate id 1 at positions 0 and 2"))
  }

  /// A stack's ids are whole numbers: a fraction, a string or a number past `Int` is a
  /// `DecodingError` at the id, and a repeated id names it.
  @Test(arguments: [
    #"{"entries":[{"id":1.5,"element":"a"}],"nextID":2}"#,
    #"{"entries":[{"id":"0","element":"a"}],"nextID":2}"#,
    #"{"entries":[{"id":1e30,"element":"a"}],"nextID":2}"#,
    #"{"entries":[{"id":0,"element":"a"}],"nextID":"1"}"#,
  ])
  func aStackWithAnIDThatIsNoWholeNumberIsRefused(json: String) {
    #expect(throws: DecodingError.self) {
      try JSONDecoder().decode(StackState<String>.self, from: Data(json.utf8))
    }
  }

  @Test func aStackWithARepeatedIDIsRefusedNamingIt() throws {
    let json = #"{"entries":[{"id":0,"element":"a"},{"id":0,"element":"b"}],"nextID":2}"#
    do {
      _ = try JSONDecoder().decode(StackState<String>.self, from: Data(json.utf8))
      Issue.record("a repeated id decoded")
    } catch DecodingError.dataCorrupted(let context) {
      #expect(context.codingPath.map(\.stringValue) == ["entries", "Index 1"])
      #expect(context.debugDescription.contains("Duplicate id #0 at positions 0 and 1"))
    }
  }

  /// A stack's value is its screens, their ids and its next id: a decoded copy, or one built
  /// by the same pushes and pops, is equal and hashes alike; a stack that has not counted the
  /// same pushes is not equal.
  @Test func stacksEqualByScreensIDsAndNextIDHashAlike() throws {
    var stack = StackState(["a", "b", "c"])
    stack.popLast()
    stack.append("d")
    var again = StackState(["a", "b"])
    again.append("x")
    again.pop(from: 2)
    again.append("d")
    #expect(stack == again && stack.hashValue == again.hashValue)
    let decoded = try JSONDecoder().decode(
      StackState<String>.self, from: JSONEncoder().encode(stack))
    #expect(decoded == stack && decoded.hashValue == stack.hashValue)
    #expect(decoded.ids == [0, 1, 3] && decoded.nextElementID == 4)
    let fresh = StackState(["a", "b", "d"])
    #expect(fresh != stack)
    var emptied = stack
    emptied.removeAll()
    #expect(emptied.nextElementID == 4 && emptied.isEmpty)
    emptied.append("e")
    #expect(emptied.ids == [4])
  }
}
