/// The signed-in user, as the account screens show it. Holds no credentials: tokens stay
/// inside ``AuthenticationClient``.
public struct AccountProfile: Equatable, Hashable, Sendable, Codable {
  /// The name the user signs in with.
  public var username: String
  /// The name shown on screen.
  public var displayName: String

  /// Creates a profile.
  ///
  /// - Parameters:
  ///   - username: The name the user signs in with.
  ///   - displayName: The name shown on screen.
  public init(username: String, displayName: String) {
    self.username = username
    self.displayName = displayName
  }
}
