import Effects
import Store

/// Secure storage for a session's token, outside any state: the place a real app would put
/// the keychain. Only ``AuthenticationClient`` sees it.
///
/// Its methods are synchronous and thread-safe, like a keychain call, so a simulated client
/// that uses it does no work off the caller's executor: under a test store, or the demo's
/// recorder, a sign-in runs to completion deterministically.
public final class CredentialStore: Sendable {
  /// A saved session: the token and whose it is.
  public struct Session: Sendable {
    /// The bearer token. Never copied into state, actions or logs; a `Secret`, so printing or
    /// dumping a session does not show it either.
    public var token: Secret<String>
    /// The profile the token belongs to.
    public var profile: AccountProfile

    /// Creates a session.
    ///
    /// - Parameters:
    ///   - token: The bearer token.
    ///   - profile: The profile the token belongs to.
    public init(token: String, profile: AccountProfile) {
      self.token = Secret(token)
      self.profile = profile
    }
  }

  private struct Storage {
    var session: Session?
    var listeners: [Int: AsyncStream<AccountProfile>.Continuation] = [:]
    var nextListener = 0
  }
  /// `Locked`, this package's `Mutex`, whose hand-offs ThreadSanitizer sees on Linux too
  /// (outside this package, which `Locked` is not visible to, a `Mutex`).
  private let storage: Locked<Storage>

  /// Creates storage, empty or holding a saved session.
  ///
  /// - Parameter session: A session saved earlier.
  public init(session: Session? = nil) {
    storage = Locked(Storage(session: session))
  }

  /// The saved session, if any.
  public var session: Session? {
    storage.withLock { $0.session }
  }

  /// Saves a session.
  ///
  /// - Parameters:
  ///   - token: The session's token.
  ///   - profile: Whose it is.
  public func save(token: String, for profile: AccountProfile) {
    storage.withLock { $0.session = Session(token: token, profile: profile) }
  }

  /// Saves a session unless the calling task is cancelled, as a sign-in a sign-out cancelled
  /// must not: its answer was on its way when the user signed out.
  ///
  /// The check and the save are one step under the store's lock. A sign-out cancels the
  /// sign-in, then forgets the session saved by then: this sign-in's, if it saved before the
  /// cancellation, so that either way no session outlives the sign-out. (A plain
  /// `Task.isCancelled` check before ``save(token:for:)`` leaves a moment between the two
  /// in which the sign-out can come and go.)
  ///
  /// - Parameters:
  ///   - token: The session's token.
  ///   - profile: Whose it is.
  /// - Returns: Whether the session was saved: `false` if the task was cancelled.
  public func saveUnlessCancelled(token: String, for profile: AccountProfile) -> Bool {
    storage.withLock { storage in
      guard !Task.isCancelled else { return false }
      storage.session = Session(token: token, profile: profile)
      return true
    }
  }

  /// Forgets the session.
  public func revoke() {
    storage.withLock { $0.session = nil }
  }

  /// Forgets the session if its token is `token`: the one a sign-out set out to revoke. A
  /// sign-out whose answer comes after another session was saved leaves that session alone.
  ///
  /// - Parameter token: The token of the session to forget.
  /// - Returns: Whether the session was forgotten.
  @discardableResult
  public func revoke(token: String) -> Bool {
    storage.withLock { storage in
      guard storage.session?.token.value == token else { return false }
      storage.session = nil
      return true
    }
  }

  /// Changes the saved profile, as another device would, and tells every listener.
  ///
  /// - Parameter displayName: The new display name.
  public func rename(to displayName: String) {
    let (profile, listeners) = storage.withLock {
      storage -> (AccountProfile?, [AsyncStream<AccountProfile>.Continuation]) in
      guard var session = storage.session else { return (nil, []) }
      session.profile.displayName = displayName
      storage.session = session
      return (session.profile, Array(storage.listeners.values))
    }
    guard let profile else { return }
    for listener in listeners { listener.yield(profile) }
  }

  /// A stream of profile changes, until the listener stops listening.
  public func changes() -> AsyncStream<AccountProfile> {
    let (stream, continuation) = AsyncStream.makeStream(of: AccountProfile.self)
    let id = storage.withLock { storage in
      storage.nextListener += 1
      storage.listeners[storage.nextListener] = continuation
      return storage.nextListener
    }
    continuation.onTermination = { [weak self] _ in
      _ = self?.storage.withLock { $0.listeners.removeValue(forKey: id) }
    }
    return stream
  }
}
