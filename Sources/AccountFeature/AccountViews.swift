/// What the profile header shows: a view of the one account state, computed when read.
public struct ProfileHeader: Equatable, Sendable {
  /// The signed-in user's display name, or `nil` when signed out.
  public var displayName: String?
  /// The header's greeting.
  public var greeting: String {
    displayName.map { "Hello, \($0)" } ?? "Welcome"
  }
}

/// What the account badge shows: a view of the one account state, computed when read.
public struct AccountBadge: Equatable, Sendable {
  /// The initial shown in the badge, or `nil` when signed out.
  public var initial: Character?
  /// Whether a sign-in is in flight, so the badge can show progress.
  public var isBusy: Bool
}

/// What the settings screen shows: a view of the one account state, computed when read.
public struct AccountSettings: Equatable, Sendable {
  /// The signed-in user's names, or `nil` when signed out.
  public var profile: AccountProfile?
  /// Whether the sign-out button is shown.
  public var canSignOut: Bool { profile != nil }

  /// What the settings screen can do.
  public enum Action: Equatable, Sendable, Codable {
    /// The user tapped sign out.
    case signOutTapped
  }
}

extension Account.State {
  /// The profile header's view of this state.
  public var header: ProfileHeader {
    ProfileHeader(displayName: profile?.displayName)
  }

  /// The account badge's view of this state.
  public var badge: AccountBadge {
    AccountBadge(initial: profile?.displayName.first, isBusy: isSigningIn)
  }

  /// The settings screen's view of this state.
  public var settings: AccountSettings {
    AccountSettings(profile: profile)
  }
}
