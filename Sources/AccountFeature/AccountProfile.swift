import Foundation

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

  /// The name to show: ``displayName``, or ``username`` when the display name is blank (the
  /// user was renamed elsewhere to nothing), trimmed of surrounding spaces. Empty only when
  /// both are blank.
  public var shownName: String {
    let name = displayName.trimmingCharacters(in: .whitespacesAndNewlines)
    return name.isEmpty ? username.trimmingCharacters(in: .whitespacesAndNewlines) : name
  }
}
