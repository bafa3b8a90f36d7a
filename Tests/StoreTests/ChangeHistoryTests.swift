import Testing

@testable import Store

/// An identified array tells which ids were removed, and which elements changed, since a
/// stamp, for as many changes as a sixteenth of its size (at least 16): an action that changed
/// 17 rows of 100,000 made every row store check its row, 4,800 times the cost of one that
/// changed 16 (large-state adversary trial).
@Suite struct ChangeHistoryTests {
  struct Row: Identifiable, Equatable {
    let id: Int
    var count = 0
  }

  func rows(_ count: Int) -> IdentifiedArrayOf<Row> {
    IdentifiedArrayOf((0..<count).map { Row(id: $0) })
  }

  @Test func aLargeArrayTellsWhichOfItsElementsManyChangesTouched() {
    var array = rows(10_000)
    let content = array.contentStamp
    for id in stride(from: 0, to: 10_000, by: 20) { array[id: id]?.count += 1 }
    let changed = array.changedIDs(since: content)
    #expect(changed?.count == 500)
    #expect(changed?.first == 0)
  }

  @Test func aLargeArrayTellsWhatManyRemovalsAndAppendsRemoved() {
    var array = rows(10_000)
    let structure = array.structureStamp
    for id in 0..<300 { array.remove(id: id * 3) }
    for id in 10_000..<10_300 { array.append(Row(id: id)) }
    #expect(array.removedIDs(since: structure) == (0..<300).map { $0 * 3 })
  }

  @Test func aSmallArrayKeepsSixteenChangesAndThenCannotTell() {
    var array = rows(100)
    let content = array.contentStamp
    for id in 0..<16 { array[id: id]?.count += 1 }
    #expect(array.changedIDs(since: content) == Array(0..<16))
    array[id: 16]?.count += 1
    #expect(array.changedIDs(since: content) == nil)
  }

  /// A history that went round at one capacity, then grew with the array, keeps its changes
  /// in order. (Each append is a change too, an element's arrival: the stamp is taken after
  /// them.)
  @Test func aHistoryThatGrowsAfterGoingRoundKeepsItsOrder() {
    var array = rows(200)
    for id in 0..<40 { array[id: id]?.count += 1 }
    for id in 200..<1_200 { array.append(Row(id: id)) }
    let content = array.contentStamp
    for id in 40..<80 { array[id: id]?.count += 1 }
    #expect(array.changedIDs(since: content) == Array(40..<80))
    // Arrivals are listed as changes.
    let beforeArrival = array.contentStamp
    array.append(Row(id: 5_000))
    array.insert(Row(id: 5_001), at: 3)
    array.append(contentsOf: [Row(id: 5_002), Row(id: 5_003)])
    #expect(array.changedIDs(since: beforeArrival) == [5_000, 5_001, 5_002, 5_003])
  }

  /// A history grown for a larger array went on past its end once the array shrank (the
  /// random-operations test found it).
  @Test func aHistoryGrownForALargerArrayGoesOnAsTheArrayShrinks() {
    var array = rows(1_000)
    for id in 0..<20 { array[id: id]?.count += 1 }
    array.removeAll { $0.id >= 100 }
    let content = array.contentStamp
    for id in 0..<10 { array[id: id]?.count += 1 }
    #expect(array.changedIDs(since: content) == Array(0..<10))
  }

  /// The ids of removed elements the history holds are bounded by a quarter of the array's
  /// elements (at least 256): an array of 20,000 emptied 64 rows at a time held all 20,000
  /// ids, and whatever objects they held, after it was empty (leak adversary trial).
  @Test func anEmptiedArrayKeepsFewOfTheIDsItRemoved() {
    var array = rows(20_000)
    let start = array.structureStamp
    while !array.isEmpty {
      let batch = Set(array.prefix(64).map(\.id))
      array.removeAll { batch.contains($0.id) }
    }
    let held = array.history.changes.reduce(0) { $0 + $1.ids.count }
    #expect(held == array.history.idCount)
    #expect(held <= 256, "\(held) removed ids held")
    // Too far back: the history says it cannot tell, rather than leaving ids out.
    #expect(array.removedIDs(since: start) == nil)
    // Recent removals are still told.
    var refilled = rows(1_000)
    let before = refilled.structureStamp
    for id in 0..<64 { refilled.remove(id: id) }
    #expect(refilled.removedIDs(since: before) == Array(0..<64))
  }

  /// Once ids are forgotten, a question reaching back past them is "unknown", and one that
  /// does not is answered whole.
  @Test func forgottenIDsMakeOnlyOlderQuestionsUnknown() {
    var array = rows(1_000)
    let oldest = array.structureStamp
    for id in 0..<5 { array.remove(id: id) }
    let middle = array.structureStamp
    // 300 ids in single removals of 60: past the limit of 256, the oldest are forgotten.
    for batch in 0..<5 {
      let ids = Set((100 + batch * 60)..<(160 + batch * 60))
      array.removeAll { ids.contains($0.id) }
    }
    #expect(array.history.idCount <= 256)
    #expect(array.removedIDs(since: oldest) == nil)
    #expect(array.removedIDs(since: middle) == nil)
    let recent = array.structureStamp
    array.remove(id: 900)
    #expect(array.removedIDs(since: recent) == [900])
  }
}
