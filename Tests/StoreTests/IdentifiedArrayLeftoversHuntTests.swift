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
}
