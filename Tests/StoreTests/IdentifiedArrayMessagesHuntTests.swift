import Effects
import Foundation
import Testing

@testable import Store

/// `insert(contentsOf:at:)`'s trap for an id repeated within the new elements, worded as the
/// other duplicate-id traps are: the id as a test writes it, its positions (within the
/// inserted elements), and for a UUID a counting generator could have made, how to start the
/// generator above a fixture's ids. It read "cannot insert the id 2 twice", with neither.
/// And `init(_:uniquingIDsWith:)` stops the program for an id not equal to itself, as its doc
/// now says.
@Suite struct IdentifiedArrayMessagesHuntTests {
  struct Tag: Identifiable, Equatable, Sendable {
    var id: String
  }

  struct Note: Identifiable, Equatable, Sendable {
    var id: UUID
  }

  struct Reading: Identifiable, Equatable, Sendable {
    var id: Double
  }

  @Test func aRepeatWithinInsertedElementsNamesTheIDAndItsPositions() {
    #expect(
      IdentifiedArrayOf<Tag>.repeatedInsertMessage("a\nb", positions: [1, 3]) == """
        IdentifiedArray: cannot insert an element with id "a\\nb" twice, at positions 1 and 3 \
        of the inserted elements. Ids must be unique.
        """)
    let counted = IdentifiedArrayOf<Note>.repeatedInsertMessage(
      UUID(counting: 4), positions: [0, 2])
    #expect(
      counted.hasPrefix(
        """
        IdentifiedArray: cannot insert an element with id UUID(counting: 4) twice, at positions \
        0 and 2 of the inserted elements. Ids must be unique. If a UUIDGenerator.incrementing() \
        made it
        """))
    #expect(counted.hasSuffix(countedIDHint(UUID(counting: 4))))
    #expect(counted.contains("UUIDGenerator.incrementing(from:)"))
  }

  #if EXIT_TESTS
    @Test func insertingARepeatedCountedUUIDStopsTheProgramNamingItsPositions() async throws {
      let result = try await #require(
        processExitsWith: .failure, observing: [\.standardErrorContent]
      ) {
        var notes: IdentifiedArrayOf<Note> = [Note(id: UUID(counting: 0))]
        notes.insert(
          contentsOf: [
            Note(id: UUID(counting: 1)), Note(id: UUID(counting: 2)),
            Note(id: UUID(counting: 1)),
          ],
          at: 1)
      }
      let text = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(
        text.contains(
          """
          IdentifiedArray: cannot insert an element with id UUID(counting: 1) twice, at \
          positions 0 and 2 of the inserted elements. Ids must be unique. If a \
          UUIDGenerator.incrementing() made it
          """))
    }

    @Test func aNaNIDStopsUniquingIDsWith() async throws {
      let result = try await #require(
        processExitsWith: .failure, observing: [\.standardErrorContent]
      ) {
        _ = IdentifiedArrayOf<Reading>([Reading(id: 1), Reading(id: 1), Reading(id: .nan)]) {
          kept, _ in kept
        }
      }
      #expect(
        String(decoding: result.standardErrorContent, as: UTF8.self).contains(
          "The id nan at position 1 is not equal to itself"))
    }
  #endif
}
