import Effects
import Foundation
import Store

/// Signs users in and out, and reports profile changes made elsewhere; injected into
/// ``Account`` through its initializer.
///
/// Credentials live inside the client (the simulated one keeps its token in
/// ``CredentialStore``), never in state, actions or logs: the feature only ever sees an
/// ``AccountProfile``.
public struct AuthenticationClient: Sendable {
  /// Signs in, storing the session's token inside the client.
  public var signIn:
    @Sendable (_ username: String, _ password: String) async throws -> AccountProfile
  /// The profile of a session saved earlier, if there is one.
  public var restoreSession: @Sendable () async throws -> AccountProfile?
  /// The signed-in user's current profile, fetched again.
  public var refreshProfile: @Sendable () async throws -> AccountProfile
  /// Forgets the session's credentials, then revokes them with the server. The simulated
  /// client forgets them on this device first, before any network wait, as a live one
  /// should: a sign-out cut short (the app quits while the revoke is under way) leaves no
  /// session to restore at the next launch.
  public var signOut: @Sendable () async throws -> Void
  /// Profile changes made elsewhere (another device renaming the user, say), for as long as
  /// the caller listens.
  public var profileChanges: @Sendable () async -> AsyncStream<AccountProfile>

  /// Creates a client from its endpoints.
  ///
  /// - Parameters:
  ///   - signIn: Signs in, storing the token inside the client.
  ///   - restoreSession: The profile of a saved session, if any.
  ///   - refreshProfile: Fetches the current profile.
  ///   - signOut: Forgets the credentials on this device, then revokes them with the server.
  ///   - profileChanges: Profile changes made elsewhere.
  public init(
    signIn: @escaping @Sendable (String, String) async throws -> AccountProfile,
    restoreSession: @escaping @Sendable () async throws -> AccountProfile?,
    refreshProfile: @escaping @Sendable () async throws -> AccountProfile,
    signOut: @escaping @Sendable () async throws -> Void,
    profileChanges: @escaping @Sendable () async -> AsyncStream<AccountProfile>
  ) {
    self.signIn = signIn
    self.restoreSession = restoreSession
    self.refreshProfile = refreshProfile
    self.signOut = signOut
    self.profileChanges = profileChanges
  }
}

/// Why authentication failed.
public enum AuthenticationError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The username or password is wrong.
  case invalidCredentials
  /// There is no session to act on.
  case notSignedIn
  /// An endpoint the test did not configure was called.
  case notConfigured(String)

  /// A message fit to show the user.
  public var description: String {
    switch self {
    case .invalidCredentials: "The username or password is incorrect."
    case .notSignedIn: "You are not signed in."
    case .notConfigured(let endpoint): "AuthenticationClient.\(endpoint) is not configured."
    }
  }
}

extension AuthenticationClient {
  /// A client whose every endpoint that can fail fails with
  /// ``AuthenticationError/notConfigured(_:)``: tests start from it and set the endpoints they
  /// expect to be called, so any other call fails the test through the feature's error
  /// handling. `profileChanges`, which cannot throw, is a stream that ends at once: a test
  /// that expects changes sets it, and one that does not sees none.
  public static let unconfigured = AuthenticationClient(
    signIn: { _, _ in throw AuthenticationError.notConfigured("signIn") },
    restoreSession: { throw AuthenticationError.notConfigured("restoreSession") },
    refreshProfile: { throw AuthenticationError.notConfigured("refreshProfile") },
    signOut: { throw AuthenticationError.notConfigured("signOut") },
    profileChanges: { AsyncStream { $0.finish() } }
  )

  /// A simulated server: accepts any username that is not empty with the password
  /// `"secret"`, after a short delay on `clock`, and keeps the session's token in
  /// `credentials`. Each sign-in gets a token no other session has (`token-`, the username,
  /// `-` and a UUID: `token-ada-` and a UUID for `ada`), and saves it only if the sign-in
  /// was not cancelled (by a sign-out) by then. A sign-out forgets the saved session at once,
  /// then waits as for the server's answer, so it never forgets a session saved after it
  /// started.
  ///
  /// - Parameters:
  ///   - credentials: Where the token is kept (secure storage, outside state).
  ///   - clock: The clock that measures simulated network delays.
  ///   - latency: How long each request takes.
  /// - Returns: The client.
  public static func simulated(
    credentials: CredentialStore = CredentialStore(),
    clock: any Clock<Duration>,
    latency: Duration = .milliseconds(300)
  ) -> AuthenticationClient {
    AuthenticationClient(
      signIn: { username, password in
        try await clock.sleep(for: latency)
        guard password == "secret", !username.isEmpty else {
          throw AuthenticationError.invalidCredentials
        }
        let profile = AccountProfile(username: username, displayName: username.capitalized)
        // A token no other session has, whatever the store held before: a revoke of an
        // earlier session never names this one. Tokens never enter state, actions or logs, so
        // a random one changes nothing a test or a replay compares. Not saved once a
        // sign-out cancelled the sign-in (its wait was over, the answer on its way): the
        // sign-out forgets only what was saved when it started.
        guard
          credentials.saveUnlessCancelled(
            token: "token-\(username)-\(UUID().uuidString)", for: profile)
        else { throw CancellationError() }
        return profile
      },
      restoreSession: {
        try await clock.sleep(for: latency)
        return credentials.session?.profile
      },
      refreshProfile: {
        try await clock.sleep(for: latency)
        guard let profile = credentials.session?.profile else {
          throw AuthenticationError.notSignedIn
        }
        return profile
      },
      signOut: {
        // Forgotten here at once, then revoked with the (simulated) server: an app that
        // quits during the round trip restores nothing at its next launch. The session
        // forgotten is the one saved now: one saved later (the next user's) stays.
        if let token = credentials.session?.token.value { credentials.revoke(token: token) }
        try await clock.sleep(for: latency)
      },
      profileChanges: { credentials.changes() }
    )
  }
}
