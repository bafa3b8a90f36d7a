/// Secure storage for a session's token, outside any state: the place a real app would put
/// the keychain. Only ``AuthenticationClient`` sees it.
public actor CredentialStore {
  /// A saved session: the token and whose it is.
  public struct Session: Sendable {
    /// The bearer token. Never copied into state, actions or logs.
    public var token: String
    /// The profile the token belongs to.
    public var profile: AccountProfile
  }

  /// The saved session, if any.
  public private(set) var session: Session?
  private var listeners: [Int: AsyncStream<AccountProfile>.Continuation] = [:]
  private var nextListener = 0

  /// Creates storage, empty or holding a saved session.
  ///
  /// - Parameter session: A session saved earlier.
  public init(session: Session? = nil) {
    self.session = session
  }

  /// Saves a session.
  ///
  /// - Parameters:
  ///   - token: The session's token.
  ///   - profile: Whose it is.
  public func save(token: String, for profile: AccountProfile) {
    session = Session(token: token, profile: profile)
  }

  /// Forgets the session.
  public func revoke() {
    session = nil
  }

  /// Changes the saved profile, as another device would, and tells every listener.
  ///
  /// - Parameter displayName: The new display name.
  public func rename(to displayName: String) {
    guard var session else { return }
    session.profile.displayName = displayName
    self.session = session
    for listener in listeners.values { listener.yield(session.profile) }
  }

  /// A stream of profile changes, until the listener stops listening.
  public func changes() -> AsyncStream<AccountProfile> {
    let (stream, continuation) = AsyncStream.makeStream(of: AccountProfile.self)
    nextListener += 1
    let id = nextListener
    listeners[id] = continuation
    continuation.onTermination = { _ in
      Task { await self.removeListener(id) }
    }
    return stream
  }

  private func removeListener(_ id: Int) {
    listeners[id] = nil
  }
}
