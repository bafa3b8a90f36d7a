import Foundation
import Testing

@testable import Store

/// An identified array's lazy bookkeeping (freed slots waiting to be re-indexed, stamps and the
/// histories of removals and changes) checked against a plain array after every step of a
/// seeded session that mixes every mutation, throwing ones included, with copies and filters;
/// and a stack's pushes and pops (by id, to an id, through its subscript, an undo to a saved
/// copy) against a plain array of ids and a next id.
@Suite struct CollectionLazyStateHuntTests {
  /// An id whose hash collides with one in 16 others: long probe runs in the id index.
  struct Key: Hashable, Codable, Sendable {
    var value: Int
    func hash(into hasher: inout Hasher) { hasher.combine(value % 16) }
  }

  struct Item: Identifiable, Equatable, Hashable, Codable, Sendable {
    var id: Key
    var name: String
  }

  struct Stop: Error {}

  /// Changes `value` through `inout`, then throws.
  static func change<T>(_ value: inout T, to new: T) throws {
    value = new
    throw Stop()
  }

  /// What the array was at some step: its stamps and elements, and the ids removed since.
  struct Snapshot {
    var structure: UInt64
    var content: UInt64
    var elements: [Item]
    var removedSince: [Key] = []
    var touchedSince: Set<Key> = []
  }

  /// Records an issue and returns `false` where `items` disagrees with `model`, or with what
  /// it said of the changes since `snapshots`.
  static func check(
    _ items: IdentifiedArrayOf<Item>, _ model: [Item], _ snapshots: [Snapshot], _ label: String,
    comparingWithAFreshArray: Bool = true
  ) -> Bool {
    guard items.elements == model else {
      Issue.record("\(label): elements \(items.ids) differ from the model \(model.map(\.id))")
      return false
    }
    for (position, item) in model.enumerated()
    where items.index(id: item.id) != position || items[id: item.id] != item {
      Issue.record(
        "\(label): id \(item.id) at \(position) is looked up at \(String(describing: items.index(id: item.id)))"
      )
      return false
    }
    let fresh = comparingWithAFreshArray ? IdentifiedArray(model) : items
    guard fresh == items, fresh.hashValue == items.hashValue else {
      Issue.record("\(label): equality or hashing with a fresh array differ")
      return false
    }
    for snapshot in snapshots {
      if items.structure == snapshot.structure, snapshot.elements.map(\.id) != model.map(\.id) {
        Issue.record("\(label): the ids changed, the structure stamp did not")
        return false
      }
      if items.versionStamp
        == VersionStamp(structure: snapshot.structure, content: snapshot.content),
        snapshot.elements != model
      {
        Issue.record("\(label): the elements changed, the stamps did not")
        return false
      }
      if let removed = items.removedIDs(since: snapshot.structure),
        Set(removed) != Set(snapshot.removedSince)
      {
        Issue.record(
          "\(label): removed since a snapshot: \(removed), expected \(snapshot.removedSince)")
        return false
      }
      if let changed = items.changedIDs(since: snapshot.content) {
        let then = Dictionary(uniqueKeysWithValues: snapshot.elements.map { ($0.id, $0) })
        let differing = model.filter { then[$0.id] != $0 }.map(\.id)
        let missing = Set(differing).union(snapshot.touchedSince).subtracting(changed)
          .intersection(model.map(\.id))
        if !missing.isEmpty {
          Issue.record(
            "\(label): changed since a snapshot, not told: \(missing.map(\.value).sorted())")
          return false
        }
      }
    }
    return true
  }

  // A broken index can send a lookup round its table for good: the limit makes that a failure.
  @Test(.timeLimit(.minutes(30)), arguments: 0..<2 as Range<UInt64>)
  func everyMutationKeepsLookupsStampsAndHistoriesRight(seed: UInt64) throws {
    var random = SeededGenerator(state: seed &+ 7_331)
    var items = IdentifiedArrayOf<Item>()
    var model: [Item] = []
    var snapshots: [Snapshot] = []
    var copies: [(IdentifiedArrayOf<Item>, [Item])] = []
    var nextID = 0
    func newItem() -> Item {
      defer { nextID += 1 }
      return Item(id: Key(value: nextID), name: "\(nextID)")
    }
    func randomPosition(_ upTo: Int) -> Int { Int.random(in: 0..<upTo, using: &random) }
    for step in 0..<1_500 {
      // Large enough, at times, for more than 64 pending removals.
      let growing = (step / 400) % 2 == 0
      let choice = model.isEmpty ? 0 : Int.random(in: 0..<(growing ? 70 : 100), using: &random)
      var removed: [Key] = []
      var touched: Set<Key> = []
      var replaced = false
      switch choice {
      case 0..<10:
        let batch = (0..<Int.random(in: 1...40, using: &random)).map { _ in newItem() }
        if Bool.random(using: &random) {
          for item in batch { items.append(item) }
        } else {
          items.append(contentsOf: batch)
        }
        model += batch
        touched.formUnion(batch.map(\.id))
      case 10..<15:
        let batch = (0..<Int.random(in: 0...20, using: &random)).map { _ in newItem() }
        let position = randomPosition(model.count + 1)
        if batch.count == 1, Bool.random(using: &random) {
          items.insertIfAbsent(batch[0], at: position)
        } else {
          items.insert(contentsOf: batch, at: position)
        }
        model.insert(contentsOf: batch, at: position)
        touched.formUnion(batch.map(\.id))
      case 15..<18:
        let present = model[randomPosition(model.count)]
        let result = items.insertIfAbsent(present, at: randomPosition(model.count + 1))
        #expect(result.inserted == false)
        #expect(result.index == model.firstIndex(of: present))
        let appended = items.appendIfAbsent(present)
        #expect(appended.appended == false)
      case 18..<22:
        let position = randomPosition(model.count)
        items[position].name += "p"
        model[position].name += "p"
        touched.insert(model[position].id)
      case 22..<24:
        // A change through a position whose caller throws is kept.
        let position = randomPosition(model.count)
        var changed = model[position]
        changed.name += "t"
        try? Self.change(&items[position], to: changed)
        model[position] = changed
        touched.insert(changed.id)
      case 24..<28:
        let position = randomPosition(model.count)
        items[id: model[position].id]?.name += "i"
        model[position].name += "i"
        touched.insert(model[position].id)
      case 28..<31:
        // Through `[id:]`, then a throw: a change, a removal or an addition is kept.
        switch Int.random(in: 0..<3, using: &random) {
        case 0:
          let position = randomPosition(model.count)
          var changed = model[position]
          changed.name += "u"
          try? Self.change(&items[id: changed.id], to: changed)
          model[position] = changed
          touched.insert(changed.id)
        case 1:
          let position = randomPosition(model.count)
          let id = model.remove(at: position).id
          try? Self.change(&items[id: id], to: nil)
          removed.append(id)
        default:
          let item = newItem()
          try? Self.change(&items[id: item.id], to: item)
          model.append(item)
          touched.insert(item.id)
        }
      case 31..<34:
        let position = randomPosition(model.count)
        var changed = model[position]
        changed.name += "o"
        let old = items.updateOrAppend(changed)
        #expect(old == model[position])
        model[position] = changed
        touched.insert(changed.id)
      case 34..<36:
        let item = newItem()
        items[id: item.id] = item
        model.append(item)
        touched.insert(item.id)
      case 36..<44:
        let position = randomPosition(model.count)
        let id = model.remove(at: position).id
        switch Int.random(in: 0..<4, using: &random) {
        case 0: items.remove(id: id)
        case 1: items.remove(at: position)
        case 2: items[id: id] = nil
        default:
          func clear(_ item: inout Item?) { item = nil }
          clear(&items[id: id])
        }
        removed.append(id)
      case 44..<47:
        switch Int.random(in: 0..<3, using: &random) {
        case 0:
          items.removeFirst()
          removed.append(model.removeFirst().id)
        case 1:
          items.removeLast()
          removed.append(model.removeLast().id)
        default:
          _ = items.popLast()
          removed.append(model.removeLast().id)
        }
      case 47..<52:
        let count = Int.random(in: 1...max(1, model.count / (growing ? 8 : 3)), using: &random)
        let offsets = (0..<count).map { _ in randomPosition(model.count) }
        let set = Set(offsets)
        removed = set.sorted().map { model[$0].id }
        items.remove(atOffsets: offsets)
        model = model.enumerated().filter { !set.contains($0.offset) }.map(\.element)
      case 52..<55:
        let modulus = Int.random(in: 2..<30, using: &random)
        let remainder = Int.random(in: 0..<modulus, using: &random)
        if Bool.random(using: &random) {
          // Throws midway: nothing is removed.
          let limit = randomPosition(model.count)
          var asked = 0
          do {
            try items.removeAll {
              asked += 1
              if asked > limit { throw Stop() }
              return $0.id.value % modulus == remainder
            }
            Issue.record("seed \(seed) step \(step): the predicate did not throw")
          } catch {}
        } else {
          removed = model.filter { $0.id.value % modulus == remainder }.map(\.id)
          items.removeAll { $0.id.value % modulus == remainder }
          model.removeAll { $0.id.value % modulus == remainder }
        }
      case 55..<60:
        let count = Int.random(in: 1...min(3, model.count), using: &random)
        let sources = (0..<count).map { _ in randomPosition(model.count) }
        let destination = randomPosition(model.count + 1)
        items.move(fromOffsets: sources, toOffset: destination)
        let set = Set(sources)
        let moved = set.sorted().map { model[$0] }
        var result: [Item] = []
        for position in 0...model.count {
          if position == destination { result.append(contentsOf: moved) }
          if position < model.count, !set.contains(position) { result.append(model[position]) }
        }
        model = result
      case 60..<62:
        let (i, j) = (randomPosition(model.count), randomPosition(model.count))
        items.swapAt(i, j)
        model.swapAt(i, j)
      case 62..<64:
        let modulus = Int.random(in: 2..<5, using: &random)
        let order: (Item, Item) -> Bool = { ($0.id.value % modulus) < ($1.id.value % modulus) }
        if Bool.random(using: &random) {
          // A comparison that throws leaves the elements in some order: every one findable.
          let limit = Int.random(in: 0..<(model.count * 2 + 1), using: &random)
          var asked = 0
          do {
            try items.sort {
              asked += 1
              if asked > limit { throw Stop() }
              return order($0, $1)
            }
            model.sort(by: order)
          } catch {
            #expect(Set(items.ids) == Set(model.map(\.id)))
            model = items.elements
          }
        } else {
          items.sort(by: order)
          model.sort(by: order)
        }
      case 64..<66:
        copies.append((items, model))
        if copies.count > 3 { copies.removeFirst() }
      case 66..<68:
        guard var (copy, copyModel) = copies.popLast() else { continue }
        // The copy, changed while the live array has removals pending: neither sees the other.
        if !copyModel.isEmpty {
          let position = randomPosition(copyModel.count)
          copy.remove(id: copyModel.remove(at: position).id)
        }
        let item = newItem()
        copy.insert(item, at: copyModel.count / 2)
        copyModel.insert(item, at: copyModel.count / 2)
        guard Self.check(items, model, snapshots, "seed \(seed) step \(step) live")
        else { return }
        guard Self.check(copy, copyModel, [], "seed \(seed) step \(step) copy") else { return }
        if Bool.random(using: &random) {
          (items, model) = (copy, copyModel)
          replaced = true
        }
      case 68..<70:
        let modulus = Int.random(in: 2..<6, using: &random)
        var filtered = items.filter { $0.id.value % modulus != 0 }
        var filteredModel = model.filter { $0.id.value % modulus != 0 }
        if !filteredModel.isEmpty {
          let position = randomPosition(filteredModel.count)
          filtered[position].name += "f"
          filteredModel[position].name += "f"
          filtered.remove(id: filteredModel.remove(at: randomPosition(filteredModel.count)).id)
        }
        guard Self.check(items, model, snapshots, "seed \(seed) step \(step) source")
        else { return }
        guard Self.check(filtered, filteredModel, [], "seed \(seed) step \(step) filtered")
        else { return }
      case 70..<73:
        // A JSON round trip, with removals pending.
        let decoded = try JSONDecoder().decode(
          IdentifiedArrayOf<Item>.self, from: JSONEncoder().encode(items))
        guard Self.check(decoded, model, [], "seed \(seed) step \(step) decoded") else { return }
      case 73..<75 where model.count < 30:
        removed = model.map(\.id)
        items.removeAll()
        model.removeAll()
      default:
        let position = randomPosition(model.count)
        let id = model.remove(at: position).id
        items.remove(id: id)
        removed.append(id)
      }
      if replaced {
        snapshots.removeAll()
      } else {
        for index in snapshots.indices {
          snapshots[index].removedSince += removed
          snapshots[index].touchedSince.formUnion(touched)
        }
      }
      let label = "seed \(seed) step \(step) choice \(choice)"
      // The ids collide one in 16, so each lookup probes a sixteenth of the array: a full
      // check (every id looked up, every snapshot's history) cost this test about 15 s a seed
      // when it ran each step. The full check runs every 6th step and at the end; the steps
      // between check the elements, what this step added, changed or removed, and a few ids.
      if step % 6 == 0 || step == 1_499 {
        guard Self.check(items, model, snapshots, label) else { return }
      } else {
        guard items.elements == model else {
          Issue.record("\(label): elements \(items.ids) differ from the model \(model.map(\.id))")
          return
        }
        let sampled =
          model.isEmpty ? [] : (1...4).map { model[(step &* 7_919 &* $0) % model.count].id }
        for id in touched.union(sampled) {
          let position = model.firstIndex { $0.id == id }
          guard items.index(id: id) == position, items[id: id] == position.map({ model[$0] })
          else {
            Issue.record(
              "\(label): id \(id) is looked up at \(String(describing: items.index(id: id)))")
            return
          }
        }
        for id in removed where items.contains(id: id) {
          Issue.record("\(label): removed id \(id) is still found")
          return
        }
      }
      if step % 7 == 0 {
        snapshots.append(
          Snapshot(structure: items.structure, content: items.content, elements: model))
        if snapshots.count > 6 { snapshots.removeFirst() }
      }
    }
  }

  /// Records an issue and returns `false` where `stack` disagrees with `model` and `nextID`.
  static func check(
    _ stack: StackState<String>, _ model: [(id: Int, title: String)], nextID: Int, _ label: String,
    comparingWithOthers: Bool = true
  ) throws -> Bool {
    guard stack.ids.map(\.rawValue) == model.map(\.id), Array(stack) == model.map(\.title),
      stack.nextElementID.rawValue == nextID, stack.lastID?.rawValue == model.last?.id
    else {
      Issue.record("\(label): \(stack.ids) \(Array(stack)), the model \(model) next \(nextID)")
      return false
    }
    for (position, entry) in model.enumerated() {
      let id = StackElementID(rawValue: entry.id)
      guard stack.contains(id: id), stack[id: id] == entry.title, stack.id(at: position) == id
      else {
        Issue.record("\(label): screen \(entry.id) at \(position) is not found")
        return false
      }
    }
    guard comparingWithOthers else { return true }
    var rebuilt = StackState<String>()
    for entry in model { rebuilt.push(entry.title, id: StackElementID(rawValue: entry.id)) }
    rebuilt.nextID = nextID
    let decoded = try JSONDecoder().decode(
      StackState<String>.self, from: JSONEncoder().encode(stack))
    guard rebuilt == stack, rebuilt.hashValue == stack.hashValue, decoded == stack,
      decoded.hashValue == stack.hashValue
    else {
      Issue.record("\(label): equality or hashing with a rebuilt or decoded stack differ")
      return false
    }
    return true
  }

  @Test(.timeLimit(.minutes(30)), arguments: 0..<2 as Range<UInt64>)
  func stackOperationsMatchAPlainArray(seed: UInt64) throws {
    var random = SeededGenerator(state: seed &+ 4_242)
    var stack = StackState<String>()
    var model: [(id: Int, title: String)] = []
    var nextID = 0
    var saved: [(StackState<String>, [(id: Int, title: String)], Int)] = []
    // Mostly a screen on the stack; at times an id popped or never given out.
    func randomID() -> Int {
      guard !model.isEmpty, Int.random(in: 0..<4, using: &random) > 0 else {
        return Int.random(in: 0..<(nextID + 1), using: &random)
      }
      return model[Int.random(in: 0..<model.count, using: &random)].id
    }
    for step in 0..<1_000 {
      let choice =
        model.isEmpty
        ? Int.random(in: 0..<3, using: &random) : Int.random(in: 0..<20, using: &random)
      let structure = stack.entries.structure
      var removed: [Int] = []
      switch choice {
      case 0..<4:
        stack.append("s\(nextID)")
        model.append((nextID, "s\(nextID)"))
        nextID += 1
      case 4..<6:
        let id = nextID + Int.random(in: -2...3, using: &random)
        let pushed = stack.push("p\(id)", id: StackElementID(rawValue: id))
        #expect(pushed == (id >= nextID))
        if id >= nextID {
          model.append((id, "p\(id)"))
          nextID = id + 1
        }
      case 6..<8:
        let popped = stack.popLast()
        #expect(popped == model.last?.title)
        if let last = model.popLast() { removed = [last.id] }
      case 8..<10:
        let id = randomID()
        let position = model.firstIndex { $0.id == id }
        #expect(stack.pop(from: StackElementID(rawValue: id)) == (position != nil))
        if let position {
          removed = model[position...].map(\.id)
          model.removeSubrange(position...)
        }
      case 10..<12:
        let id = randomID()
        let position = model.firstIndex { $0.id == id }
        #expect(stack.pop(to: StackElementID(rawValue: id)) == (position != nil))
        if let position {
          removed = model[(position + 1)...].map(\.id)
          model.removeSubrange((position + 1)...)
        }
      case 12..<14:
        let id = randomID()
        let position = model.firstIndex { $0.id == id }
        if Bool.random(using: &random) {
          stack[id: StackElementID(rawValue: id)] = "c\(step)"
          if let position { model[position].title = "c\(step)" }
        } else {
          stack[id: StackElementID(rawValue: id)] = nil
          if let position {
            removed = model[position...].map(\.id)
            model.removeSubrange(position...)
          }
        }
      case 14..<15 where model.count < 5:
        removed = model.map(\.id)
        stack.removeAll()
        model.removeAll()
      case 15..<17:
        saved.append((stack, model, nextID))
        if saved.count > 3 { saved.removeFirst() }
      case 17..<18:
        // Set back to a copy saved earlier (an undo): it pushes on from its own next id.
        guard let (copy, copyModel, copyNext) = saved.popLast() else { continue }
        (stack, model, nextID) = (copy, copyModel, copyNext)
        continue
      default:
        if let id = model.randomElement(using: &random)?.id {
          let position = model.firstIndex { $0.id == id }!
          #expect(stack.firstID { $0 == model[position].title }?.rawValue == id)
          #expect(stack.lastID { $0 == model[position].title }?.rawValue == id)
        }
      }
      guard
        try Self.check(
          stack, model, nextID: nextID, "seed \(seed) step \(step) choice \(choice)",
          comparingWithOthers: step % 5 == 0)
      else { return }
      if !removed.isEmpty, let told = stack.entries.removedIDs(since: structure) {
        #expect(Set(told.map(\.rawValue)) == Set(removed), "seed \(seed) step \(step)")
      }
    }
  }
}
