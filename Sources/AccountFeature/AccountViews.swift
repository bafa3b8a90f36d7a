/// What the profile header shows: a view of the one account state, computed when read.
public struct ProfileHeader: Equatable, Sendable {
  /// The name the header shows, or `nil` when signed out: the display name, or the username
  /// when the display name is blank.
  public var displayName: String?
  /// The header's greeting: "Welcome" when signed out, "Hello" and the name when signed in
  /// (just "Hello" if the user has no name to show).
  public var greeting: String {
    guard let displayName else { return "Welcome" }
    return displayName.isEmpty ? "Hello" : "Hello, \(displayName)"
  }
}

/// What the account badge shows: a view of the one account state, computed when read.
public struct AccountBadge: Equatable, Sendable {
  /// The initial shown in the badge, or `nil` when signed out: the display name's first
  /// letter, or the username's when the display name is blank (renamed elsewhere to nothing),
  /// or `"?"` when both are.
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
    ProfileHeader(displayName: profile?.shownName)
  }

  /// The account badge's view of this state.
  public var badge: AccountBadge {
    AccountBadge(
      initial: profile.map { $0.shownName.first ?? "?" },
      isBusy: isSigningIn)
  }

  /// The settings screen's view of this state.
  public var settings: AccountSettings {
    AccountSettings(profile: profile)
  }
}
