import Testing

@testable import Store

/// A function that changes `items[id:]` through `inout` and then throws: Swift writes the
/// argument back anyway, as a dictionary's value, an array's element or a stored property
/// keeps what was set. The identified array keeps it too, whether the id was there or not.
@Suite struct IdentifiedArrayThrowingMutationTests {
  struct Item: Identifiable, Equatable {
    var id: Int
    var name: String
  }
  struct Failure: Error {}

  static func set(_ slot: inout Item?, to item: Item?) throws {
    slot = item
    throw Failure()
  }

  /// An adversary trial's case: the element added was lost, silently.
  @Test func anElementAddedBeforeAThrowIsKept() {
    var dictionary: [Int: Item] = [:]
    try? Self.set(&dictionary[5], to: Item(id: 5, name: "new"))
    var items: IdentifiedArrayOf<Item> = [Item(id: 1, name: "a")]
    try? Self.set(&items[id: 5], to: Item(id: 5, name: "new"))
    #expect(items[id: 5] == dictionary[5])
    #expect(items.ids == [1, 5])
  }

  @Test func aChangeOrARemovalBeforeAThrowIsKept() {
    var items: IdentifiedArrayOf<Item> = [Item(id: 1, name: "a"), Item(id: 2, name: "b")]
    try? Self.set(&items[id: 1], to: Item(id: 1, name: "changed"))
    #expect(items.elements == [Item(id: 1, name: "changed"), Item(id: 2, name: "b")])
    try? Self.set(&items[id: 1], to: nil)
    #expect(items.elements == [Item(id: 2, name: "b")])
    #expect(items.index(id: 2) == 0)
  }
}
