import Effects
import Foundation
import Store

/// The account screen: signing in and out, and the one account state that every
/// account-related view reads.
///
/// - A second sign-in tap while a sign-in is in flight is ignored (the button would be
///   disabled; the reducer does not rely on it), and so is one while signed in: another user
///   signs out first, which resets what the app keeps for the last one. A username is
///   trimmed of surrounding spaces, and one that is blank is not sent.
/// - An error message shows until the next sign-in, sign-out or profile that arrives for
///   the signed-in user.
/// - The password is cleared from state the moment the request is sent; the request holds
///   the only copy. Tokens never enter state: ``AuthenticationClient`` keeps them.
/// - Sign-out resets everything visible at once, cancels work in flight, then asks the client
///   to revoke the credentials. The sign-in and sign-out requests are not the sending
///   screen's work (`outlivingSendersTask()`): cancelling the task `send` returned stops
///   neither, so no request is left without its answer (a sign-in stuck in flight) and no
///   revoke is cut short; `await store.send(.signInTapped).finish()` returns before the
///   answer (watch ``State/isSigningIn``). A sign-out cancels a sign-in in flight.
/// - A restored session clears the form, as a sign-in does.
/// - The screen's lifecycle restores a saved session at startup (unless a sign-in started
///   first, which wins, as it does over a restore under way), refreshes the profile when
///   the app regains focus, and listens for profile changes made elsewhere while the screen's
///   task runs.
public struct Account: Reducer {
  /// The account state: one owner for the profile header, settings and badge.
  public struct State: Equatable, Sendable, Codable {
    /// The signed-in user, or `nil` when signed out.
    public var profile: AccountProfile?
    /// The sign-in form.
    public var form = SignInForm()
    /// Whether a sign-in request is in flight.
    public var isSigningIn = false
    /// The last error to show, if any.
    public var errorMessage: String?
    /// Where the account screen is in its lifecycle.
    public var lifecycle = ScreenLifecycleState()
    /// How many sign-ins this account has started. A sign-out's revoke reports a failure
    /// with the count at the sign-out, so a report that comes after a later sign-in started
    /// is told apart, whoever is signed in by then.
    ///
    /// Past `Int.max` (a count decoded or set so), the next sign-in counts from 1 again,
    /// never a trap, and never 0, which means no sign-in started: the count only has to
    /// differ from the one a sign-out's report carries.
    public var signInsStarted = 0

    /// Creates the signed-out state.
    public init() {}

    /// Decodes an account, refusing one that no sign-in leaves: signing in while a user is
    /// signed in (``Account/Action/signInTapped`` is ignored then, and a restore is ignored
    /// while a sign-in is in flight), signing in with no sign-in counted in
    /// ``signInsStarted``, or a negative count: no sequence of actions reaches these.
    ///
    /// A state saved while a sign-in was in flight decodes as it was saved, and says it signs
    /// in: a replay needs it so. Restored in a new store, no request answers it, and every
    /// sign-in is ignored until a sign-out; restore it through ``relaunched``.
    ///
    /// - Parameter decoder: The decoder.
    /// - Throws: `DecodingError.dataCorrupted` saying which rule the state breaks, or any
    ///   error decoding a field.
    public init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      profile = try container.decodeIfPresent(AccountProfile.self, forKey: .profile)
      form = try container.decode(SignInForm.self, forKey: .form)
      isSigningIn = try container.decode(Bool.self, forKey: .isSigningIn)
      errorMessage = try container.decodeIfPresent(String.self, forKey: .errorMessage)
      lifecycle = try container.decode(ScreenLifecycleState.self, forKey: .lifecycle)
      signInsStarted = try container.decode(Int.self, forKey: .signInsStarted)
      if signInsStarted < 0 {
        throw DecodingError.dataCorruptedError(
          forKey: .signInsStarted, in: container,
          debugDescription: """
            signInsStarted is \(signInsStarted): a count of sign-ins is never negative.
            """)
      }
      if isSigningIn, let profile {
        throw DecodingError.dataCorruptedError(
          forKey: .isSigningIn, in: container,
          debugDescription: """
            The account is signing in while signed in as \(LogText.quoted(profile.username)): \
            no sign-in starts while a user is signed in, and none ends without clearing \
            isSigningIn.
            """)
      }
      if isSigningIn, signInsStarted == 0 {
        throw DecodingError.dataCorruptedError(
          forKey: .isSigningIn, in: container,
          debugDescription: """
            The account is signing in with signInsStarted 0: every sign-in is counted as it \
            starts.
            """)
      }
    }

    /// Whether a user is signed in.
    public var isSignedIn: Bool { profile != nil }

    /// This account as a new launch of the app starts from it, restored from a copy saved in
    /// an earlier one: not signing in, and with a screen lifecycle that has not started.
    ///
    /// A copy saved while a sign-in was in flight says it signs in (``isSigningIn``), and
    /// decodes so, as a replay needs it. In a new process no request is there to answer it,
    /// and every sign-in would be ignored until a sign-out. Here it is not signing in, and the
    /// screen's next start runs `ScreenLifecycleAction.startup` again, as in any new
    /// launch (a copy saved while the screen showed would otherwise have that start refused
    /// as a second task): signed out, the account then looks for a saved session, and finds
    /// the one the lost sign-in saved if its request finished before the app quit. Otherwise
    /// the user signs in again. ``signInsStarted``, the form (its password was cleared as the
    /// request was sent), the profile and the error message are kept.
    ///
    /// ```swift
    /// let saved = try JSONDecoder().decode(Account.State.self, from: data)
    /// let store = Store(initialState: saved.relaunched) { Account(client: client) }
    /// ```
    public var relaunched: Self {
      var relaunched = self
      relaunched.isSigningIn = false
      relaunched.lifecycle = ScreenLifecycleState()
      return relaunched
    }
  }

  /// The sign-in form.
  public struct SignInForm: Equatable, Sendable, Codable {
    /// The username typed so far.
    public var username = ""
    /// The password typed so far: redacted in logs and dumps.
    public var password: Secret<String> = ""

    /// Creates an empty form.
    public init() {}
  }

  /// What can happen on the account screen.
  public enum Action: Equatable, Sendable, Codable {
    /// The user edited the username.
    case usernameChanged(String)
    /// The user edited the password.
    case passwordChanged(Secret<String>)
    /// The user submitted the form. Ignored while a sign-in is in flight, while signed in,
    /// or with a username that is blank once trimmed.
    case signInTapped
    /// The sign-in request succeeded.
    case signInSucceeded(AccountProfile)
    /// The sign-in request failed, with a message to show.
    case signInFailed(String)
    /// The user asked to sign out.
    case signOutTapped
    /// Revoking the credentials failed: the message to show, and
    /// ``State/signInsStarted`` as it was at the sign-out. Ignored once a sign-in has started
    /// since (the count moved on), even one that failed or signed out again: the message was
    /// about an earlier session, not the one starting or just ended.
    case signOutFailed(String, signInsStarted: Int)
    /// A saved session was looked for at startup.
    case sessionRestored(AccountProfile?)
    /// The profile was fetched again.
    case profileRefreshed(AccountProfile)
    /// Fetching the profile failed, with a message to show.
    case profileRefreshFailed(String)
    /// The profile changed elsewhere.
    case profileChanged(AccountProfile)
    /// The settings screen did something.
    case settings(AccountSettings.Action)
    /// The screen's lifecycle.
    case lifecycle(ScreenLifecycleAction)
  }

  enum CancelID: Hashable, Sendable {
    case signIn, refresh, restore
  }

  let client: AuthenticationClient

  /// The message an action carries for `error`: an ``AuthenticationError``'s own words, and
  /// for any other error only a fixed sentence. Another error's description can hold what the
  /// client sent (a `URLError` names the URL, with any token in its query), and the message
  /// goes into state, the action log and its checkpoints.
  static func message(for error: any Error) -> String {
    (error as? AuthenticationError)?.description
      ?? "Something went wrong while talking to the server. Try again."
  }

  /// Creates the reducer.
  ///
  /// - Parameter client: Signs in and out; holds the credentials.
  public init(client: AuthenticationClient) {
    self.client = client
  }

  /// The account logic, with its screen lifecycle.
  public var body: some Reducer<State, Action> {
    Reduce(reduceCore)
      .screenLifecycle(\.lifecycle, action: .lifecycle)
  }

  private func reduceCore(_ state: inout State, _ action: Action) -> Effect<Action> {
    switch action {
    case .usernameChanged(let username):
      state.form.username = username
      return .none

    case .passwordChanged(let password):
      state.form.password = password
      return .none

    case .signInTapped:
      let username = state.form.username.trimmingCharacters(in: .whitespacesAndNewlines)
      guard !state.isSigningIn, !state.isSignedIn, !username.isEmpty else { return .none }
      state.isSigningIn = true
      // From 1 again past `Int.max` (see `signInsStarted`): a count decoded at the top trapped.
      state.signInsStarted = state.signInsStarted == .max ? 1 : state.signInsStarted + 1
      state.errorMessage = nil
      let password = state.form.password
      state.form.password = ""
      // A sign-in wins over a restore still under way.
      return .merge(
        .cancel(id: CancelID.restore),
        // The request's own: a screen's task that ends (the sheet closed) does not cancel
        // it, since nothing would then clear `isSigningIn`, and every later sign-in would be
        // ignored. A sign-out cancels it by its id.
        .run { [client] send in
          send(.signInSucceeded(try await client.signIn(username, password.value)))
        } catch: { error in
          .signInFailed(Self.message(for: error))
        }
        .cancellable(id: CancelID.signIn)
        .outlivingSendersTask()
      )

    case .signInSucceeded(let profile):
      state.isSigningIn = false
      state.profile = profile
      state.form = SignInForm()
      state.errorMessage = nil
      return .none

    case .signInFailed(let message):
      state.isSigningIn = false
      state.errorMessage = message
      return .none

    case .signOutTapped, .settings(.signOutTapped):
      state.profile = nil
      state.form = SignInForm()
      state.isSigningIn = false
      state.errorMessage = nil
      let signIns = state.signInsStarted
      return .merge(
        .cancel(id: CancelID.signIn),
        .cancel(id: CancelID.refresh),
        // A restore still under way would sign the user back in with the session revoked.
        .cancel(id: CancelID.restore),
        // Not the sender's: the settings screen that sent the sign-out closes once signed
        // out, and its task ending must not stop the revoke.
        .run { [client] _ in
          try await client.signOut()
        } catch: { error in
          .signOutFailed(Self.message(for: error), signInsStarted: signIns)
        }
        .outlivingSendersTask()
      )

    case .signOutFailed(let message, let signIns):
      // The count tells a sign-in since, even one already over; signed in without one (a
      // restored session), the report is not the user's either.
      guard signIns == state.signInsStarted, !state.isSigningIn, !state.isSignedIn else {
        return .none
      }
      state.errorMessage = "Signed out, but the credentials could not be revoked: \(message)"
      return .none

    case .sessionRestored(let profile):
      // A sign-in that finished (or started) first wins over a slower restore.
      guard state.profile == nil, !state.isSigningIn else { return .none }
      state.profile = profile
      if profile != nil {
        state.errorMessage = nil
        // What was typed meanwhile, the password with it, goes as after a sign-in.
        state.form = SignInForm()
      }
      return .none

    case .profileRefreshed(let profile), .profileChanged(let profile):
      guard state.profile?.username == profile.username else { return .none }
      state.profile = profile
      state.errorMessage = nil
      return .none

    case .profileRefreshFailed(let message):
      state.errorMessage = message
      return .none

    case .lifecycle(.startup):
      // A sign-in that started first wins, as over a restore under way: its outcome is the
      // session, and a restore that failed would show its error to a signed-in user.
      guard !state.isSignedIn, !state.isSigningIn else { return .none }
      return .run { [client] send in
        send(.sessionRestored(try await client.restoreSession()))
      } catch: { error in
        .profileRefreshFailed(Self.message(for: error))
      }
      .cancellable(id: CancelID.restore)

    case .lifecycle(.regainedFocus):
      guard state.isSignedIn else { return .none }
      return .run { [client] send in
        send(.profileRefreshed(try await client.refreshProfile()))
      } catch: { error in
        .profileRefreshFailed(Self.message(for: error))
      }
      .cancellable(id: CancelID.refresh, cancelInFlight: true)

    case .lifecycle(.subscribe):
      return .run { [client] send in
        for await profile in await client.profileChanges() {
          send(.profileChanged(profile))
        }
      }

    case .lifecycle, .settings:
      return .none
    }
  }
}

extension CaseKey<Account.Action, ScreenLifecycleAction> {
  /// The case that carries lifecycle actions.
  public static var lifecycle: Self {
    Self(Account.Action.lifecycle) { if case .lifecycle(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<Account.Action, AccountSettings.Action> {
  /// The case that carries the settings screen's actions.
  public static var settings: Self {
    Self(Account.Action.settings) { if case .settings(let a) = $0 { a } else { nil } }
  }
}
