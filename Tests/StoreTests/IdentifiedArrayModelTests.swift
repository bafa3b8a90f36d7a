import Foundation
import Testing

@testable import Store

/// Checks an identified array against a plain array after every step of random operations,
/// the multi-element ones included (moves of many, removals at offsets or by predicate, sorts,
/// inserts of many), on the array and on copies of it that are changed later: elements, id
/// lookups, equality and hashing with a fresh array, and a JSON round trip all agree.
@Suite struct IdentifiedArrayModelTests {
  struct Item: Identifiable, Equatable, Hashable, Codable, Sendable {
    var id: Int
    var name: String
  }

  /// Records an issue naming `label` and returns `false` where `items` and `model` disagree.
  /// Comparing with a fresh array rebuilds it, so the main loop does that every few steps only.
  static func check(
    _ items: IdentifiedArrayOf<Item>, _ model: [Item], _ label: String,
    comparingWithAFreshArray: Bool = true
  ) -> Bool {
    guard items.elements == model else {
      let first =
        zip(items.elements, model).enumerated()
        .first { $0.element.0 != $0.element.1 }.map { String($0.offset) } ?? "the end"
      Issue.record(
        "\(label): \(items.count) elements, the model \(model.count); first difference at \(first)")
      return false
    }
    for (position, item) in model.enumerated() {
      guard items.index(id: item.id) == position, items[id: item.id] == item,
        items.contains(id: item.id)
      else {
        let found = items.index(id: item.id).map(String.init) ?? "nil"
        Issue.record("\(label): id \(item.id) at \(position) is looked up at \(found)")
        return false
      }
    }
    guard items.ids == model.map(\.id) else {
      Issue.record("\(label): ids differ")
      return false
    }
    guard comparingWithAFreshArray else { return true }
    let rebuilt = IdentifiedArray(model)
    guard rebuilt == items, rebuilt.hashValue == items.hashValue else {
      Issue.record("\(label): equality/hash with a fresh array differ")
      return false
    }
    return true
  }

  // A broken index can send a lookup round its table for good: the limit makes that a failure.
  @Test(.timeLimit(.minutes(10)), arguments: 0..<4 as Range<UInt64>)
  func multiElementOperationsAndCopiesMatchAPlainArray(seed: UInt64) throws {
    var random = SeededGenerator(state: seed &+ 1000)
    var items = IdentifiedArrayOf<Item>()
    var model: [Item] = []
    var copies: [(IdentifiedArrayOf<Item>, [Item])] = []
    var nextID = 0
    func newItem() -> Item {
      defer { nextID += 1 }
      return Item(id: nextID, name: "\(nextID)")
    }
    for step in 0..<2_000 {
      let growing = (step / 300) % 2 == 0
      let choice =
        model.isEmpty ? 0 : Int.random(in: 0..<(growing ? 60 : 100), using: &random)
      switch choice {
      case 0..<20:
        let item = newItem()
        items.append(item)
        model.append(item)
      case 20..<25:
        let batch = (0..<Int.random(in: 0...30, using: &random)).map { _ in newItem() }
        let position = Int.random(in: 0...model.count, using: &random)
        items.insert(contentsOf: batch, at: position)
        model.insert(contentsOf: batch, at: position)
      case 25..<30:
        let position = Int.random(in: 0..<model.count, using: &random)
        items[position].name += "p"
        model[position].name += "p"
      case 30..<35:
        let count = Int.random(in: 1...min(5, model.count), using: &random)
        let sources = (0..<count).map { _ in Int.random(in: 0..<model.count, using: &random) }
        let destination = Int.random(in: 0...model.count, using: &random)
        items.move(fromOffsets: sources, toOffset: destination)
        // Model: the moved ones, in order, before `destination`.
        let set = Set(sources)
        let moved = set.sorted().map { model[$0] }
        var result: [Item] = []
        for position in 0...model.count {
          if position == destination { result.append(contentsOf: moved) }
          if position < model.count, !set.contains(position) { result.append(model[position]) }
        }
        model = result
      case 35..<45:
        // Snapshot a copy to mutate later.
        copies.append((items, model))
        if copies.count > 4 { copies.removeFirst() }
      case 45..<55:
        let position = Int.random(in: 0..<model.count, using: &random)
        let id = model.remove(at: position).id
        items.remove(id: id)
      case 55..<60:
        let position = Int.random(in: 0..<model.count, using: &random)
        let id = model[position].id
        items[id: id]?.name += "i"
        model[position].name += "i"
      case 60..<70:
        let count = Int.random(in: 1...max(1, model.count / 4), using: &random)
        let offsets = (0..<count).map { _ in Int.random(in: 0..<model.count, using: &random) }
        items.remove(atOffsets: offsets)
        let set = Set(offsets)
        model = model.enumerated().filter { !set.contains($0.offset) }.map(\.element)
      case 70..<80:
        let position = Int.random(in: 0..<model.count, using: &random)
        let id = model.remove(at: position).id
        items[id: id] = nil
      case 80..<85:
        let modulus = Int.random(in: 3..<20, using: &random)
        items.removeAll { $0.id % modulus == 1 }
        model.removeAll { $0.id % modulus == 1 }
      case 85..<90:
        let byNameLengthThenIDDescending: (Item, Item) -> Bool = {
          ($0.name.count, $1.id) < ($1.name.count, $0.id)
        }
        items.sort(by: byNameLengthThenIDDescending)
        model.sort(by: byNameLengthThenIDDescending)
      case 90..<95:
        // Mutate a saved copy, then make it current.
        if var (copy, copyModel) = copies.popLast() {
          if !copyModel.isEmpty {
            let position = Int.random(in: 0..<copyModel.count, using: &random)
            copy.remove(id: copyModel.remove(at: position).id)
          }
          let item = newItem()
          copy.insert(item, at: copyModel.count / 2)
          copyModel.insert(item, at: copyModel.count / 2)
          // The live one must not have been touched by the copy's mutation.
          guard Self.check(items, model, "seed \(seed) step \(step) live after copy mutation")
          else { return }
          items = copy
          model = copyModel
        }
      default:
        let data = try JSONEncoder().encode(items)
        let decoded = try JSONDecoder().decode(IdentifiedArrayOf<Item>.self, from: data)
        guard Self.check(decoded, model, "seed \(seed) step \(step) decoded") else { return }
        if Bool.random(using: &random) { items = decoded }
      }
      guard
        Self.check(
          items, model, "seed \(seed) step \(step) choice \(choice)",
          comparingWithAFreshArray: step % 10 == 0)
      else { return }
      for (index, (copy, copyModel)) in copies.enumerated() where step % 50 == 0 {
        guard Self.check(copy, copyModel, "seed \(seed) step \(step) copy \(index)") else { return }
      }
    }
  }
}
