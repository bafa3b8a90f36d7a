import Foundation
import Testing

@testable import Store

@Suite struct IdentifiedArrayTests {
  struct Item: Identifiable, Equatable, Hashable, Codable, Sendable {
    var id: Int
    var name: String
  }

  @Test func lookupUpdateAndRemovalByID() {
    var items: IdentifiedArrayOf<Item> = [Item(id: 1, name: "a"), Item(id: 2, name: "b")]
    #expect(items[id: 2]?.name == "b")
    items[id: 2]?.name = "B"
    #expect(items[1] == Item(id: 2, name: "B"))
    #expect(items.remove(id: 1) == Item(id: 1, name: "a"))
    #expect(items.ids == [2])
    #expect(items.index(id: 2) == 0)
    #expect(items.remove(id: 99) == nil)
  }

  @Test func subscriptByIDAddsAndRemoves() {
    var items = IdentifiedArrayOf<Item>()
    items[id: 3] = Item(id: 3, name: "c")
    #expect(items.ids == [3])
    items[id: 3] = nil
    #expect(items.isEmpty)
  }

  @Test func positionsStayCorrectAfterEveryKindOfChange() {
    var items = IdentifiedArrayOf<Item>((0..<6).map { Item(id: $0, name: "\($0)") }) { a, _ in a }
    items.insert(Item(id: 10, name: "x"), at: 2)
    items.remove(id: 0)
    items.removeAll { $0.id % 2 == 1 }
    items.move(fromOffsets: [0], toOffset: 3)
    items.sort { $0.id > $1.id }
    for (position, item) in items.enumerated() {
      #expect(items.index(id: item.id) == position)
      #expect(items[id: item.id] == item)
    }
    #expect(items.ids == [10, 4, 2])
  }

  @Test func updateOrAppendReplacesByID() {
    var items: IdentifiedArrayOf<Item> = [Item(id: 1, name: "a")]
    #expect(items.updateOrAppend(Item(id: 1, name: "A")) == Item(id: 1, name: "a"))
    #expect(items.updateOrAppend(Item(id: 2, name: "b")) == nil)
    #expect(items.elements == [Item(id: 1, name: "A"), Item(id: 2, name: "b")])
  }

  @Test func aDuplicateIDFromOutsideIsRejectedNamingTheID() {
    #expect(throws: IdentifiedArrayError.duplicateID("7", positions: [0, 2])) {
      try IdentifiedArrayOf<Item>(uniqueElements: [
        Item(id: 7, name: "a"), Item(id: 8, name: "b"), Item(id: 7, name: "c"),
      ])
    }
    let merged = IdentifiedArrayOf<Item>([Item(id: 7, name: "a"), Item(id: 7, name: "c")]) {
      kept, repeated in Item(id: kept.id, name: kept.name + repeated.name)
    }
    #expect(merged.elements == [Item(id: 7, name: "ac")])
  }

  @Test func appendingADuplicateIDStopsTheProgram() async {
    await #expect(processExitsWith: .failure) {
      IdentifiedArrayTests.appendDuplicate()
    }
  }

  @Test func changingAnIDThroughAMutationStopsTheProgram() async {
    await #expect(processExitsWith: .failure) {
      IdentifiedArrayTests.changeID()
    }
  }

  static func appendDuplicate() {
    var items: IdentifiedArrayOf<Item> = [Item(id: 1, name: "a")]
    items.append(Item(id: 1, name: "again"))
  }

  static func changeID() {
    var items: IdentifiedArrayOf<Item> = [Item(id: 1, name: "a")]
    items[id: 1]?.id = 2
  }

  @Test func decodingDuplicateIDsFailsNamingTheID() throws {
    let json = Data(#"[{"id": 4, "name": "a"}, {"id": 4, "name": "b"}]"#.utf8)
    do {
      _ = try JSONDecoder().decode(IdentifiedArrayOf<Item>.self, from: json)
      Issue.record("decoding should fail")
    } catch DecodingError.dataCorrupted(let context) {
      #expect(context.debugDescription.contains("Duplicate id 4"))
    }
  }

  @Test func codableRoundTripKeepsOrder() throws {
    let items: IdentifiedArrayOf<Item> = [Item(id: 2, name: "b"), Item(id: 1, name: "a")]
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    let data = try encoder.encode(items)
    #expect(String(decoding: data, as: UTF8.self) == #"[{"id":2,"name":"b"},{"id":1,"name":"a"}]"#)
    #expect(try JSONDecoder().decode(IdentifiedArrayOf<Item>.self, from: data) == items)
  }

  @Test func equalityAndHashingFollowElementsInOrder() {
    let a: IdentifiedArrayOf<Item> = [Item(id: 1, name: "a"), Item(id: 2, name: "b")]
    let b: IdentifiedArrayOf<Item> = [Item(id: 2, name: "b"), Item(id: 1, name: "a")]
    #expect(a != b)
    #expect(Set([a, a, b]).count == 2)
    #expect(a.description == b.elements.reversed().description)
  }

  @Test func removedIDsAreKnownFromRecentHistory() {
    var items: IdentifiedArrayOf<Item> = [Item(id: 1, name: "a"), Item(id: 2, name: "b")]
    let start = items.structure
    items.remove(id: 1)
    items.append(Item(id: 3, name: "c"))
    items.removeAll { $0.id == 3 }
    #expect(items.removedIDs(since: start) == [1, 3])
    #expect(items.removedIDs(since: items.structure) == [])
    let other: IdentifiedArrayOf<Item> = [Item(id: 2, name: "b")]
    #expect(other.removedIDs(since: start) == nil)
    for id in 10..<40 { items.append(Item(id: id, name: "")) }
    #expect(items.removedIDs(since: start) == nil, "history too short: the caller compares ids")
  }

  @Test func structureChangesOnlyWhenIDsChange() {
    var items: IdentifiedArrayOf<Item> = [Item(id: 1, name: "a")]
    let start = items.structure
    items[id: 1]?.name = "changed"
    #expect(items.structure == start)
    items.append(Item(id: 2, name: "b"))
    #expect(items.structure != start)
    let replaced: IdentifiedArrayOf<Item> = [Item(id: 1, name: "a")]
    #expect(replaced.structure != start)
  }
}
