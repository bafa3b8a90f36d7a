import Foundation
import Testing

// MainActorByDefault.md's error table: a client struct left isolated, with only its memberwise
// initializer, is made from nonisolated code without "call to main actor-isolated
// initializer" (Swift 6.3.1): that error comes from an initializer the client declares
// itself, and the client's `static` values fail with "main actor-isolated static property".
// This test compiling is the check (a review found the table's first version said otherwise).

struct ReviewCoverClient: Sendable {  // left isolated, as the row describes
  var load: @Sendable (UUID) async throws -> Data
}

nonisolated func makeReviewCoverClient() -> ReviewCoverClient {
  ReviewCoverClient(load: { _ in Data() })  // no "call to main actor-isolated initializer"
}

@Test nonisolated func anIsolatedClientWithAMemberwiseInitIsMadeFromNonisolatedCode() async throws {
  let client = makeReviewCoverClient()
  #expect(try await client.load(UUID()).isEmpty)
}
