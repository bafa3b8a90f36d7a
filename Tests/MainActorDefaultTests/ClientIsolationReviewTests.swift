import Foundation
import Testing

// Review of MainActorByDefault.md's new table row: "`call to main actor-isolated initializer
// 'init(load:)' in a synchronous nonisolated context` | a dependency's client struct left
// isolated, made in a reducer's or a test's nonisolated code". The article's own client,
// `struct CoverClient: Sendable { var load: @Sendable (UUID) async throws -> Data }`, left
// isolated here, is made from nonisolated code without that error: its memberwise
// initializer is nonisolated (Swift 6.3.1). The error comes only from an initializer the
// client declares itself; the article's client fails instead at its `static` values
// ("main actor-isolated static property 'live' can not be referenced from a nonisolated
// context"). This test compiling is the check: the row's cause is not what produces it.

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
