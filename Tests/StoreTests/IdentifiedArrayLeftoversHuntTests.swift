import Foundation
import Testing

@testable import Store

/// Defects the earlier collection hunts left in `IdentifiedArray`.
@Suite struct IdentifiedArrayLeftoversHuntTests {
  struct Row: Identifiable, Equatable, Codable, Sendable {
    var id: Int
    var name = ""
  }

  struct Reading: Identifiable, Equatable, Codable, Sendable {
    var id: Double
  }

  /// A sequence that says it holds at least `announced` elements, and holds `rows`.
  struct Announcing: Sequence {
    var rows: [Row]
    var announced: Int

    var underestimatedCount: Int { announced }

    func makeIterator() -> IndexingIterator<[Row]> { rows.makeIterator() }
  }

  // MARK: - append(contentsOf:)

  /// `append(contentsOf:)` reserved room for the sequence's `underestimatedCount`, which the
  /// initializer does not trust: a lazy sequence may announce billions and repeat an id at
  /// its second element, so the append ran out of memory (or overflowed the size of its
  /// buffer) before it could say which id repeated. Only the count of elements in memory
  /// already is reserved now.
  @Test func anAppendDoesNotReserveWhatASequenceAnnounces() {
    for announced in [1 << 40, Int.max / 2] {
      var rows: IdentifiedArrayOf<Row> = [Row(id: 0)]
      rows.append(contentsOf: Announcing(rows: (1...3).map { Row(id: $0) }, announced: announced))
      #expect(rows.ids == [0, 1, 2, 3])
      #expect(rows.storage.capacity < 1_000)
      #expect(rows.index(id: 3) == 3)
    }
  }

  /// Elements in memory already still get their room at once (doubling, as appends do).
  @Test func anAppendOfAnArrayReservesItsCount() {
    var rows: IdentifiedArrayOf<Row> = [Row(id: 0)]
    rows.append(contentsOf: (1...1_000).map { Row(id: $0) })
    #expect(rows.storage.capacity >= 1_001)
    #expect(rows.ids == Array(0...1_000))
    // A lazy collection that is no array is appended by doubling, whole.
    rows.append(contentsOf: (1_001...3_000).lazy.map { Row(id: $0) })
    #expect(rows.ids == Array(0...3_000))
    #expect(rows.index(id: 2_500) == 2_500)
  }

  #if EXIT_TESTS
    /// A lazy sequence of a billion billion rows whose second row repeats the first's id stops
    /// the program naming the id, as `append(_:)` does, instead of running out of memory.
    @Test func aHugeLazySequenceRepeatingAnIDStopsTheProgramNamingTheID() async throws {
      let result = try await #require(
        processExitsWith: .failure, observing: [\.standardErrorContent]
      ) {
        var rows: IdentifiedArrayOf<Row> = []
        rows.append(contentsOf: (0..<(Int.max / 2)).lazy.map { _ in Row(id: 7) })
      }
      #expect(
        String(decoding: result.standardErrorContent, as: UTF8.self).contains(
          "cannot append an element with id 7, which is already at position 0"))
    }
  #endif

  // MARK: - Mutations that change nothing

  /// What a store compares to tell that an array's ids, or its elements, changed.
  struct Stamps: Equatable {
    var structure: UInt64
    var content: UInt64

    init(_ rows: IdentifiedArrayOf<Row>) {
      (structure, content) = (rows.structure, rows.content)
    }
  }

  enum NoOp: String, CaseIterable, CustomTestStringConvertible {
    case emptyMoveToStart, emptyMoveToEnd, emptyMoveInside
    case moveOneInFrontOfItself, moveOneInFrontOfTheNext, moveLastToEnd
    case moveRunToItsStart, moveRunInside, moveRunPastItsEnd
    case swapWithItself, sortSorted, sortSortedByName, removeNoneWhere, removeAtNoOffsets

    var testDescription: String { rawValue }

    func apply(to rows: inout IdentifiedArrayOf<Row>) {
      switch self {
      case .emptyMoveToStart: rows.move(fromOffsets: [Int](), toOffset: 0)
      case .emptyMoveToEnd: rows.move(fromOffsets: [Int](), toOffset: rows.count)
      case .emptyMoveInside: rows.move(fromOffsets: [Int](), toOffset: 3)
      case .moveOneInFrontOfItself: rows.move(fromOffsets: [2], toOffset: 2)
      case .moveOneInFrontOfTheNext: rows.move(fromOffsets: [2], toOffset: 3)
      case .moveLastToEnd: rows.move(fromOffsets: [rows.count - 1], toOffset: rows.count)
      case .moveRunToItsStart: rows.move(fromOffsets: [3, 1, 2], toOffset: 1)
      case .moveRunInside: rows.move(fromOffsets: [1, 2, 3], toOffset: 3)
      case .moveRunPastItsEnd: rows.move(fromOffsets: [1, 2, 3], toOffset: 4)
      case .swapWithItself: rows.swapAt(2, 2)
      case .sortSorted: rows.sort { $0.id < $1.id }
      // Stable: rows the comparison orders neither way keep their order.
      case .sortSortedByName: rows.sort { $0.name < $1.name }
      case .removeNoneWhere: rows.removeAll { _ in false }
      case .removeAtNoOffsets: rows.remove(atOffsets: [Int]())
      }
    }
  }

  /// An empty move took a new structure stamp and recorded a change, as did a move of a row
  /// (or a run of them) in front of itself or of the row after it, and a sort of rows in
  /// order: whoever watched the ids was told they changed when none had. With a removal
  /// waiting to be re-indexed, the index stays right.
  @Test(arguments: NoOp.allCases)
  func aMutationThatChangesNothingRecordsNothing(_ noOp: NoOp) {
    var rows = IdentifiedArray((0..<8).map { Row(id: $0, name: $0 < 4 ? "a" : "b") })
    rows.remove(id: 5)
    let (stamps, ids) = (Stamps(rows), rows.ids)
    noOp.apply(to: &rows)
    #expect(rows.ids == ids)
    #expect(Stamps(rows) == stamps)
    #expect(rows.removedIDs(since: stamps.structure) == [])
    for (position, id) in ids.enumerated() { #expect(rows.index(id: id) == position) }
  }

  /// Moves and sorts that do change the order still record a change, and agree with a plain
  /// array's.
  @Test(arguments: [
    ([0], 8), ([7], 0), ([2], 4), ([1, 2], 0), ([1, 3], 2), ([0, 7], 4), ([1, 2, 3], 5),
    ([0, 1, 2, 3, 4, 5, 6, 7], 0), ([5, 6], 8),
  ])
  func aMoveThatChangesTheOrderRecordsIt(sources: [Int], destination: Int) {
    var rows = IdentifiedArray((0..<8).map { Row(id: $0) })
    var model = Array(0..<8)
    let before = rows.structure
    rows.move(fromOffsets: sources, toOffset: destination)
    let moved = sources.map { model[$0] }
    let kept = model.indices.filter { !sources.contains($0) }
    let front = kept.filter { $0 < destination }.map { model[$0] }
    let back = kept.filter { $0 >= destination }.map { model[$0] }
    model = front + moved + back
    #expect(rows.ids == model)
    #expect((rows.structure != before) == (model != Array(0..<8)))
    for (position, id) in model.enumerated() { #expect(rows.index(id: id) == position) }
  }

  @Test func aSortThatChangesTheOrderRecordsIt() {
    var rows = IdentifiedArray((0..<8).map { Row(id: $0) })
    let before = rows.structure
    rows.sort { $0.id > $1.id }
    #expect(rows.ids == Array((0..<8).reversed()))
    #expect(rows.structure != before)
    #expect(rows.removedIDs(since: before) == [])
    for id in 0..<8 { #expect(rows.index(id: id) == 7 - id) }
  }

  // MARK: - Decoding

  /// The path JSONDecoder gives an error inside the row at `position` of a list, alone or
  /// under the key `rows`: the list's path and the element's index key.
  static func foundationPath(ofElement position: Int, wrapping: Bool) throws -> [String] {
    // A row whose id is no number fails inside the row, at its id.
    var rows = (0..<position).map { #"{"id":\#($0),"name":""}"# }
    rows.append(#"{"id":"x","name":""}"#)
    let list = "[" + rows.joined(separator: ",") + "]"
    do {
      if wrapping {
        _ = try JSONDecoder().decode(
          [String: [Row]].self, from: Data(#"{"rows":\#(list)}"#.utf8))
      } else {
        _ = try JSONDecoder().decode([Row].self, from: Data(list.utf8))
      }
    } catch DecodingError.typeMismatch(_, let context) {
      return context.codingPath.dropLast().map(\.stringValue)
    }
    return []
  }

  /// A repeated id was refused at the array's coding path, the positions in the message
  /// alone: JSONDecoder puts an error inside an element at the element's index key
  /// (`Index 2`, with 2 as its `intValue`), and so does the array now, at the later of the
  /// two.
  @Test func aRepeatedIDIsRefusedAtTheLaterElement() throws {
    let json = #"[{"id":1,"name":"a"},{"id":2,"name":"b"},{"id":1,"name":"c"}]"#
    do {
      _ = try JSONDecoder().decode(IdentifiedArrayOf<Row>.self, from: Data(json.utf8))
      Issue.record("a repeated id decoded")
    } catch DecodingError.dataCorrupted(let context) {
      #expect(context.codingPath.map(\.stringValue) == ["Index 2"])
      #expect(context.codingPath.last?.intValue == 2)
      #expect(
        context.codingPath.map(\.stringValue)
          == (try Self.foundationPath(ofElement: 2, wrapping: false)))
      #expect(
        context.debugDescription
          == "Duplicate id 1 at positions 0 and 2 of an IdentifiedArray; ids must be unique.")
    }
    let wrapped = #"{"rows":[{"id":4,"name":"a"},{"id":4,"name":"b"}]}"#
    do {
      _ = try JSONDecoder().decode([String: IdentifiedArrayOf<Row>].self, from: Data(wrapped.utf8))
      Issue.record("a repeated id decoded")
    } catch DecodingError.dataCorrupted(let context) {
      #expect(
        context.codingPath.map(\.stringValue)
          == (try Self.foundationPath(ofElement: 1, wrapping: true)))
      #expect(context.codingPath.map(\.stringValue) == ["rows", "Index 1"])
      #expect(context.codingPath.last?.intValue == 1)
      #expect(context.debugDescription.contains("Duplicate id 4 at positions 0 and 1"))
    }
  }

  /// An id that is not equal to itself is refused at its element too.
  @Test func anIDNotEqualToItselfIsRefusedAtItsElement() throws {
    let decoder = JSONDecoder()
    decoder.nonConformingFloatDecodingStrategy = .convertFromString(
      positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
    do {
      _ = try decoder.decode(
        IdentifiedArrayOf<Reading>.self, from: Data(#"[{"id":1},{"id":"nan"}]"#.utf8))
      Issue.record("a NaN id decoded")
    } catch DecodingError.dataCorrupted(let context) {
      #expect(context.codingPath.map(\.stringValue) == ["Index 1"])
      #expect(context.codingPath.last?.intValue == 1)
      #expect(context.debugDescription.contains("nan at position 1 is not equal to itself"))
    }
  }
}
