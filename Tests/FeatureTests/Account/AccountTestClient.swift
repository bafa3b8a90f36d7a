import AccountFeature
import Effects

/// A controllable authentication client for tests: it records calls, answers from a script
/// after a delay on a test clock, and lets a test push profile changes.
final class AccountTestClient: Sendable {
  let clock: any Clock<Duration>
  private let calls = Locked<[String]>([])
  private let changes = Locked<[Int: AsyncStream<AccountProfile>.Continuation]>([:])
  private let nextListener = Locked(0)
  let signInResult: @Sendable (String, String) throws -> AccountProfile
  let savedSession: AccountProfile?

  init(
    clock: any Clock<Duration>,
    savedSession: AccountProfile? = nil,
    signIn: @escaping @Sendable (String, String) throws -> AccountProfile = { username, _ in
      AccountProfile(username: username, displayName: username.capitalized)
    }
  ) {
    self.clock = clock
    self.savedSession = savedSession
    self.signInResult = signIn
  }

  var recordedCalls: [String] { calls.withLock { $0 } }
  var listenerCount: Int { changes.withLock { $0.count } }

  /// Tells every listener that the profile changed elsewhere.
  func push(_ profile: AccountProfile) {
    for continuation in changes.withLock({ Array($0.values) }) { continuation.yield(profile) }
  }

  var client: AuthenticationClient {
    AuthenticationClient(
      signIn: { username, password in
        self.calls.withLock { $0.append("signIn(\(username))") }
        try await self.clock.sleep(for: .seconds(1))
        return try self.signInResult(username, password)
      },
      restoreSession: {
        self.calls.withLock { $0.append("restoreSession") }
        try await self.clock.sleep(for: .seconds(1))
        return self.savedSession
      },
      refreshProfile: {
        self.calls.withLock { $0.append("refreshProfile") }
        try await self.clock.sleep(for: .seconds(1))
        return AccountProfile(username: "ada", displayName: "Ada L.")
      },
      signOut: {
        self.calls.withLock { $0.append("signOut") }
        try await self.clock.sleep(for: .seconds(1))
      },
      profileChanges: {
        let (stream, continuation) = AsyncStream.makeStream(of: AccountProfile.self)
        let id = self.nextListener.withLock { value in
          value += 1
          return value
        }
        self.changes.withLock { $0[id] = continuation }
        continuation.onTermination = { _ in
          _ = self.changes.withLock { $0.removeValue(forKey: id) }
        }
        return stream
      }
    )
  }
}
