import Effects
import Foundation
import Testing

@testable import Store

/// The identified array's messages name an id as the store's warnings do (`describeID`): a
/// string quoted and escaped as a literal. Bare, an empty id read "Duplicate id  at positions
/// 0 and 1", one made of a space read the same with one more space, and one with a line break
/// split the message in two.
@Suite struct IdentifiedArrayIDDescriptionTests {
  struct Tag: Identifiable, Equatable, Codable, Sendable {
    var id: String
  }

  struct Item: Identifiable, Equatable, Codable, Sendable {
    var id: Int
  }

  struct Note: Identifiable, Equatable, Codable, Sendable {
    var id: UUID
  }

  /// Each string id, and how the messages write it.
  static let stringIDs: [(id: String, written: String)] = [
    ("", #""""#),
    (" ", #"" ""#),
    ("\"", #""\"""#),
    ("\n", #""\n""#),
    // A no-break space, which read as a space.
    ("\u{A0}", #""\u{A0}""#),
  ]

  @Test(arguments: stringIDs)
  func aRepeatedStringIDIsQuotedInTheError(id: String, written: String) {
    #expect(throws: IdentifiedArrayError.duplicateID(written, positions: [0, 1])) {
      try IdentifiedArrayOf<Tag>(uniqueElements: [Tag(id: id), Tag(id: id)])
    }
    #expect(
      IdentifiedArrayError.duplicateID(written, positions: [0, 1]).description
        == "Duplicate id \(written) at positions 0 and 1")
  }

  @Test(arguments: stringIDs)
  func decodingARepeatedStringIDQuotesItWithBothPositions(id: String, written: String) throws {
    let json = try JSONEncoder().encode([Tag(id: id), Tag(id: "other"), Tag(id: id)])
    do {
      _ = try JSONDecoder().decode(IdentifiedArrayOf<Tag>.self, from: json)
      Issue.record("a repeated id was decoded")
    } catch DecodingError.dataCorrupted(let context) {
      #expect(
        context.debugDescription == """
          Duplicate id \(written) at positions 0 and 2 of an IdentifiedArray; ids must be \
          unique.
          """)
    }
  }

  /// An id that is not a string reads as before; a UUID a counting generator could have made
  /// reads as a test writes it, as the store's warnings and the array's traps write it.
  @Test func otherIDsReadAsTheStoresWarningsWriteThem() throws {
    #expect(throws: IdentifiedArrayError.duplicateID("7", positions: [0, 1])) {
      try IdentifiedArrayOf<Item>(uniqueElements: [Item(id: 7), Item(id: 7)])
    }
    #expect(throws: IdentifiedArrayError.duplicateID("UUID(counting: 3)", positions: [0, 1])) {
      try IdentifiedArrayOf<Note>(uniqueElements: [
        Note(id: UUID(counting: 3)), Note(id: UUID(counting: 3)),
      ])
    }
    let random = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!
    #expect(throws: IdentifiedArrayError.duplicateID(random.uuidString, positions: [0, 1])) {
      try IdentifiedArrayOf<Note>(uniqueElements: [Note(id: random), Note(id: random)])
    }
  }

  #if EXIT_TESTS
    /// A literal and `init(_:)` stop the program with the error's description: the id quoted,
    /// on one line.
    @Test func aRepeatedStringIDInALiteralOrInitStopsTheProgramQuotingIt() async throws {
      let literal = try await #require(
        processExitsWith: .failure, observing: [\.standardErrorContent]
      ) {
        let tags: IdentifiedArrayOf<Tag> = [Tag(id: ""), Tag(id: "")]
        _ = tags
      }
      #expect(
        String(decoding: literal.standardErrorContent, as: UTF8.self).contains(
          #"IdentifiedArray literal: Duplicate id "" at positions 0 and 1"#))
      let initializer = try await #require(
        processExitsWith: .failure, observing: [\.standardErrorContent]
      ) {
        _ = IdentifiedArrayOf<Tag>([Tag(id: "a\nb"), Tag(id: "a\nb")])
      }
      #expect(
        String(decoding: initializer.standardErrorContent, as: UTF8.self).contains(
          #"IdentifiedArray(_:): Duplicate id "a\nb" at positions 0 and 1"#))
    }

    /// A repeated UUID that a counting generator could have made gets, in a literal's and
    /// `init(_:)`'s traps, the hint `append`'s trap gives: start the generator above the
    /// fixture's ids.
    @Test func aRepeatedCountedUUIDInALiteralOrInitGetsTheGeneratorHint() async throws {
      let literal = try await #require(
        processExitsWith: .failure, observing: [\.standardErrorContent]
      ) {
        let notes: IdentifiedArrayOf<Note> = [
          Note(id: UUID(counting: 2)), Note(id: UUID(counting: 2)),
        ]
        _ = notes
      }
      let literalText = String(decoding: literal.standardErrorContent, as: UTF8.self)
      #expect(
        literalText.contains(
          "IdentifiedArray literal: Duplicate id UUID(counting: 2) at positions 0 and 1. If a "
            + "UUIDGenerator.incrementing() made it"))
      #expect(literalText.contains("UUIDGenerator.incrementing(from:)"))
      let initializer = try await #require(
        processExitsWith: .failure, observing: [\.standardErrorContent]
      ) {
        _ = IdentifiedArrayOf<Note>([Note(id: UUID(counting: 5)), Note(id: UUID(counting: 5))])
      }
      let initializerText = String(decoding: initializer.standardErrorContent, as: UTF8.self)
      #expect(
        initializerText.contains(
          "IdentifiedArray(_:): Duplicate id UUID(counting: 5) at positions 0 and 1. If a "
            + "UUIDGenerator.incrementing() made it"))
    }
  #endif
}
