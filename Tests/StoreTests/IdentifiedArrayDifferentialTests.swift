import Foundation
import Testing

@testable import Store

/// A differential test: an identified array against a plain array, with ids that
/// come back after removal, ids whose hashes collide, every mutation path (the `_modify` of
/// `subscript(id:)` setting `nil` or adding, positional writes, moves near and far, swaps with
/// removals pending) and lookups of absent ids.
@Suite struct IdentifiedArrayDifferentialTests {
  /// An id whose hash has only a few values: long probe runs, shared fingerprints.
  struct CollidingID: Hashable, Codable, Sendable, CustomStringConvertible {
    var value: Int
    static func == (a: Self, b: Self) -> Bool { a.value == b.value }
    func hash(into hasher: inout Hasher) { hasher.combine(value % 5) }
    var description: String { "c\(value)" }
  }

  struct Item<ID: Hashable & Codable & Sendable>: Identifiable, Equatable, Hashable, Codable,
    Sendable
  {
    var id: ID
    var name: String
  }

  /// Whether `items` holds `model`'s elements, in order, and finds each by id at its
  /// position; records an issue naming `place` and the `recent` operations otherwise.
  static func matches<ID: Hashable, E: Identifiable & Equatable>(
    _ items: IdentifiedArray<ID, E>, _ model: [E], at place: String, recent: some Sequence<String>
  ) -> Bool where E.ID == ID {
    guard items.elements == model, items.count == model.count else {
      Issue.record("\(place): elements differ; recent \(Array(recent))")
      return false
    }
    for (position, element) in model.enumerated() where items.index(id: element.id) != position {
      Issue.record(
        """
        \(place): \(element.id) at \(position) looked up at \
        \(String(describing: items.index(id: element.id))); recent \(Array(recent))
        """)
      return false
    }
    return true
  }

  static func setNil<T>(_ value: inout T?) { value = nil }
  static func setValue<T>(_ value: inout T?, _ new: T) { value = new }

  static func run<ID: Hashable & Codable & Sendable>(
    seed: UInt64, steps: Int, idSpace: Int, makeID: (Int) -> ID
  ) throws {
    typealias E = Item<ID>
    var random = SeededGenerator(state: seed &* 7919 &+ 3)
    var items = IdentifiedArray<ID, E>()
    var model: [E] = []
    var copies: [(IdentifiedArray<ID, E>, [E])] = []
    var serial = 0
    func fresh(_ raw: Int) -> E {
      serial += 1
      return E(id: makeID(raw), name: "v\(serial)")
    }
    func modelIndex(_ id: ID) -> Int? { model.firstIndex { $0.id == id } }
    func absentRaw() -> Int? {
      for _ in 0..<20 {
        let raw = Int.random(in: 0..<idSpace, using: &random)
        if modelIndex(makeID(raw)) == nil { return raw }
      }
      return nil
    }
    var log: [String] = []
    for step in 0..<steps {
      // Grow for a while, then shrink, so that removals pile up past the re-index limit.
      let phase = (step / 400) % 3
      let choice = Int.random(in: 0..<(phase == 0 ? 55 : 100), using: &random)
      var what = ""
      switch choice {
      case 0..<14:
        if let raw = absentRaw() {
          let e = fresh(raw)
          switch Int.random(in: 0..<6, using: &random) {
          case 0: items.append(e); model.append(e); what = "append \(e.id)"
          case 1:
            let p = Int.random(in: 0...model.count, using: &random)
            items.insert(e, at: p); model.insert(e, at: p); what = "insert \(e.id) at \(p)"
          case 2: items.updateOrAppend(e); model.append(e); what = "updateOrAppend new \(e.id)"
          case 3: items[id: e.id] = e; model.append(e); what = "set new \(e.id)"
          case 4: setValue(&items[id: e.id], e); model.append(e); what = "modify-add \(e.id)"
          default:
            let p = Int.random(in: 0...model.count, using: &random)
            let r = items.insertIfAbsent(e, at: p)
            #expect(r.inserted && r.index == p)
            model.insert(e, at: p); what = "insertIfAbsent \(e.id) at \(p)"
          }
        }
      case 14..<18:
        var batch: [E] = []
        for _ in 0..<Int.random(in: 0...20, using: &random) {
          if let raw = absentRaw(), !batch.contains(where: { $0.id == makeID(raw) }) {
            batch.append(fresh(raw))
          }
        }
        let p = Int.random(in: 0...model.count, using: &random)
        if Bool.random(using: &random) {
          items.insert(contentsOf: batch, at: p); model.insert(contentsOf: batch, at: p)
          what = "insert(contentsOf:) \(batch.count) at \(p)"
        } else {
          items.append(contentsOf: batch); model.append(contentsOf: batch)
          what = "append(contentsOf:) \(batch.count)"
        }
      case 18..<40 where !model.isEmpty:
        let p = Int.random(in: 0..<model.count, using: &random)
        let id = model[p].id
        switch Int.random(in: 0..<7, using: &random) {
        case 0: items.remove(id: id); what = "remove id \(id)"
        case 1: items.remove(at: p); what = "remove at \(p)"
        case 2: items[id: id] = nil; what = "set nil \(id)"
        case 3: setNil(&items[id: id]); what = "modify-nil \(id) at \(p)"
        case 4:
          items.removeLast(); what = "removeLast"
          model.removeLast()
          break
        case 5:
          items.removeFirst(); what = "removeFirst"
          model.removeFirst()
          break
        default: _ = items.popLast(); model.removeLast(); what = "popLast"
        }
        if what.hasPrefix("remove id") || what.hasPrefix("remove at") || what.hasPrefix("set nil")
          || what.hasPrefix("modify-nil")
        {
          model.remove(at: p)
        }
      case 40..<43 where !model.isEmpty:
        let offsets = Set(
          // Mostly a few, as a swipe to delete; now and then more than are removed one by one.
          (0..<Int.random(in: 1...(step.isMultiple(of: 3) ? 40 : 5), using: &random)).map { _ in
            Int.random(in: 0..<model.count, using: &random)
          })
        items.remove(atOffsets: offsets)
        model = model.enumerated().filter { !offsets.contains($0.offset) }.map(\.element)
        what = "remove(atOffsets:) \(offsets.sorted())"
      case 43..<45:
        let k = Int.random(in: 2...9, using: &random)
        items.removeAll { $0.name.hasSuffix("\(k)") }
        model.removeAll { $0.name.hasSuffix("\(k)") }
        what = "removeAll(where: suffix \(k))"
      case 45..<55 where !model.isEmpty:
        let p = Int.random(in: 0..<model.count, using: &random)
        let id = model[p].id
        switch Int.random(in: 0..<3, using: &random) {
        case 0: items[p].name += "p"; model[p].name += "p"
        case 1: items[id: id]!.name += "i"; model[p].name += "i"
        default:
          let e = E(id: id, name: "u\(step)")
          let old = items.updateOrAppend(e)
          #expect(old == model[p])
          model[p] = e
        }
        what = "mutate \(id)"
      case 55..<65 where model.count > 1:
        let from = Int.random(in: 0..<model.count, using: &random)
        let near = Bool.random(using: &random)
        let dest =
          near
          ? min(model.count, max(0, from + Int.random(in: -17...18, using: &random)))
          : Int.random(in: 0...model.count, using: &random)
        items.move(fromOffsets: [from], toOffset: dest)
        let e = model.remove(at: from)
        model.insert(e, at: dest > from ? dest - 1 : dest)
        what = "move \(from) to \(dest)"
      case 65..<68 where model.count > 1:
        let sources = Set(
          (0..<Int.random(in: 2...6, using: &random)).map { _ in
            Int.random(in: 0..<model.count, using: &random)
          })
        let dest = Int.random(in: 0...model.count, using: &random)
        items.move(fromOffsets: sources, toOffset: dest)
        let moved = sources.sorted().map { model[$0] }
        var result: [E] = []
        for p in 0...model.count {
          if p == dest { result.append(contentsOf: moved) }
          if p < model.count, !sources.contains(p) { result.append(model[p]) }
        }
        model = result
        what = "move many \(sources.sorted()) to \(dest)"
      case 68..<75 where !model.isEmpty:
        let i = Int.random(in: 0..<model.count, using: &random)
        let j = Int.random(in: 0..<model.count, using: &random)
        items.swapAt(i, j); model.swapAt(i, j)
        what = "swap \(i) \(j)"
      case 75..<77:
        items.sort { $0.name < $1.name }
        model.sort { $0.name < $1.name }
        what = "sort"
      case 77..<78:
        if Int.random(in: 0..<4, using: &random) == 0 {
          items.removeAll(); model.removeAll(); what = "removeAll"
        }
      case 78..<81:
        copies.append((items, model))
        if copies.count > 4 { copies.removeFirst() }
        what = "copy"
      case 81..<83 where !copies.isEmpty:
        (items, model) = copies.randomElement(using: &random)!
        what = "restore copy"
      case 83..<85:
        let data = try JSONEncoder().encode(items)
        items = try JSONDecoder().decode(IdentifiedArray<ID, E>.self, from: data)
        what = "json round trip"
      case 85..<87:
        let k = Int.random(in: 0...9, using: &random)
        items = items.filter { !$0.name.hasSuffix("\(k)") }
        model = model.filter { !$0.name.hasSuffix("\(k)") }
        what = "filter"
      default:
        break
      }
      log.append(what)
      // Cheap checks every step, a full check every few.
      for probe in 0..<8 {
        let raw = Int.random(in: 0..<idSpace, using: &random)
        let id = makeID(raw)
        let expected = modelIndex(id)
        let found = items.index(id: id)
        if found != expected || items.contains(id: id) != (expected != nil)
          || items[id: id] != expected.map({ model[$0] })
        {
          Issue.record(
            """
            seed \(seed) step \(step) probe \(probe): id \(id) found at \(String(describing: found)), \
            model \(String(describing: expected)); count \(items.count); recent \(log.suffix(6))
            """)
          return
        }
      }
      if step % 7 == 0 || step == steps - 1 {
        guard matches(items, model, at: "seed \(seed) step \(step)", recent: log.suffix(6)) else {
          return
        }
        let fresh = IdentifiedArray<ID, E>(model)
        guard fresh == items, fresh.hashValue == items.hashValue else {
          Issue.record("seed \(seed) step \(step): equality or hash with a fresh array differ")
          return
        }
      }
    }
  }

  @Test(.timeLimit(.minutes(10)), arguments: 0..<6 as Range<UInt64>)
  func collidingIDsThatComeBackMatchAPlainArray(seed: UInt64) throws {
    try Self.run(seed: seed, steps: 4_000, idSpace: 400) { CollidingID(value: $0) }
  }

  @Test(.timeLimit(.minutes(10)), arguments: 0..<6 as Range<UInt64>)
  func intIDsThatComeBackMatchAPlainArray(seed: UInt64) throws {
    try Self.run(seed: seed, steps: 4_000, idSpace: 3_000) { $0 }
  }

  @Test(.timeLimit(.minutes(10)), arguments: 0..<3 as Range<UInt64>)
  func stringIDsThatComeBackMatchAPlainArray(seed: UInt64) throws {
    try Self.run(seed: seed, steps: 3_000, idSpace: 200) { "id\($0)" }
  }
}

extension IdentifiedArrayDifferentialTests {
  /// A large array (limit of pending removals well above 64), with removals interleaved with
  /// every operation that folds or scans them, and ids that come back.
  // One seed, few steps: it runs synchronously, and a longer run holds a thread of the
  // shared pool for long enough that other tests' time limits run out.
  @Test(.timeLimit(.minutes(10)), arguments: 0..<1 as Range<UInt64>)
  func aLargeArrayWithPendingRemovalsMatchesAPlainArray(seed: UInt64) {
    typealias E = Item<Int>
    var random = SeededGenerator(state: seed &+ 99)
    let n = 12_000
    var items = IdentifiedArray((0..<n).map { E(id: $0, name: "\($0)") })
    var model = (0..<n).map { E(id: $0, name: "\($0)") }
    var position: [Int: Int] = [:]
    func reindexModel() {
      position = [:]
      for (p, e) in model.enumerated() { position[e.id] = p }
    }
    reindexModel()
    var removed: [E] = []
    var log: [String] = []
    for step in 0..<400 {
      let choice = Int.random(in: 0..<100, using: &random)
      var what = ""
      switch choice {
      case 0..<55:
        let p = Int.random(in: 0..<model.count, using: &random)
        let e = model.remove(at: p)
        if Bool.random(using: &random) { items.remove(id: e.id) } else { items.remove(at: p) }
        removed.append(e)
        what = "remove \(e.id) at \(p)"
      case 55..<62 where !removed.isEmpty:
        let e = removed.remove(at: Int.random(in: 0..<removed.count, using: &random))
        let p = Int.random(in: 0...model.count, using: &random)
        items.insert(e, at: p)
        model.insert(e, at: p)
        what = "insert back \(e.id) at \(p)"
      case 62..<66 where !removed.isEmpty:
        let e = removed.removeLast()
        items.append(e)
        model.append(e)
        what = "append back \(e.id)"
      case 66..<74:
        let from = Int.random(in: 0..<model.count, using: &random)
        let to =
          Bool.random(using: &random)
          ? min(model.count, max(0, from + Int.random(in: -16...17, using: &random)))
          : Int.random(in: 0...model.count, using: &random)
        items.move(fromOffsets: [from], toOffset: to)
        let e = model.remove(at: from)
        model.insert(e, at: to > from ? to - 1 : to)
        what = "move \(from) to \(to)"
      case 74..<80:
        let i = Int.random(in: 0..<model.count, using: &random)
        let j = Int.random(in: 0..<model.count, using: &random)
        items.swapAt(i, j)
        model.swapAt(i, j)
        what = "swap \(i) \(j)"
      case 80..<85:
        let id = model[Int.random(in: 0..<model.count, using: &random)].id
        items[id: id]!.name += "!"
        model[model.firstIndex { $0.id == id }!].name += "!"
        what = "rename \(id)"
      case 85..<88 where removed.count > 3:
        let batch = Array(removed.suffix(3))
        removed.removeLast(3)
        let p = Int.random(in: 0...model.count, using: &random)
        items.insert(contentsOf: batch, at: p)
        model.insert(contentsOf: batch, at: p)
        what = "insert 3 at \(p)"
      case 88..<90:
        let id = model[Int.random(in: 0..<model.count, using: &random)].id
        Self.setNil(&items[id: id])
        let p = model.firstIndex { $0.id == id }!
        removed.append(model.remove(at: p))
        what = "modify-nil \(id) at \(p)"
      default:
        _ = items.popLast()
        removed.append(model.removeLast())
        what = "popLast"
      }
      log.append(what)
      reindexModel()
      for _ in 0..<20 {
        let id = Int.random(in: 0..<n, using: &random)
        if items.index(id: id) != position[id] {
          Issue.record(
            "seed \(seed) step \(step): id \(id) at \(String(describing: items.index(id: id))), model \(String(describing: position[id])); recent \(log.suffix(5))"
          )
          return
        }
      }
      if step % 100 == 0 {
        guard Self.matches(items, model, at: "seed \(seed) step \(step)", recent: log.suffix(5))
        else {
          return
        }
      }
    }
  }
}
