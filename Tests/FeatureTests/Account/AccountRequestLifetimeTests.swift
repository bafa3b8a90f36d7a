import AccountFeature
import Effects
import Foundation
import Store
import StoreTesting
import Testing

/// The sign-in and sign-out requests are the feature's, not the sending screen's; a sign-out
/// forgets the saved session before any wait; a restored session clears the form.
@MainActor
@Suite struct AccountRequestLifetimeTests {
  let clock = TestClock()
  let ada = AccountProfile(username: "ada", displayName: "Ada")

  func signedIn(as profile: AccountProfile) -> Account.State {
    var state = Account.State()
    state.profile = profile
    return state
  }

  /// The settings screen that sent the sign-out closes, and its task ends: the revoke still
  /// reaches the server.
  @Test func cancellingTheSignOutsTaskDoesNotStopTheRevoke() async {
    let revokes = Locked(0)
    var client = AccountTestClient(clock: clock).client
    client.signOut = { [clock] in
      try await clock.sleep(for: .seconds(1))
      revokes.withLock { $0 += 1 }
    }
    let store = TestStore(initialState: signedIn(as: ada)) { Account(client: client) }
    let signOut = await store.send(.settings(.signOutTapped)) { $0.profile = nil }
    signOut.cancel()
    await clock.advance(by: .seconds(1))
    await store.finish()
    #expect(revokes.withLock { $0 } == 1)
  }

  /// Cancelling the sign-in's task (the sheet closed) leaves the request to its answer:
  /// `isSigningIn` does not stay set for good, refusing every later sign-in.
  @Test func cancellingTheSignInsTaskLeavesTheRequestToItsAnswer() async {
    let store = TestStore(initialState: Account.State()) {
      Account(client: AccountTestClient(clock: clock).client)
    }
    await store.send(.usernameChanged("ada")) { $0.form.username = "ada" }
    let signIn = await store.send(.signInTapped) {
      $0.isSigningIn = true
      $0.signInsStarted = 1
    }
    signIn.cancel()
    await clock.advance(by: .seconds(1))
    await store.receive(.signInSucceeded(ada)) {
      $0.isSigningIn = false
      $0.profile = self.ada
      $0.form = Account.SignInForm()
    }
    await store.finish()
  }

  /// A sign-out still cancels a sign-in in flight, by its id.
  @Test func aSignOutStillCancelsASignInInFlight() async {
    let store = TestStore(initialState: Account.State()) {
      Account(client: AccountTestClient(clock: clock).client)
    }
    await store.send(.usernameChanged("ada")) { $0.form.username = "ada" }
    await store.send(.signInTapped) {
      $0.isSigningIn = true
      $0.signInsStarted = 1
    }
    await store.send(.signOutTapped) {
      $0.isSigningIn = false
      $0.form = Account.SignInForm()
    }
    await clock.advance(by: .seconds(5))
    await store.finish()
  }

  /// The simulated client forgets the session before its round trip: a sign-out cut short
  /// there leaves nothing to restore.
  @Test func theSimulatedSignOutForgetsTheSessionBeforeItsWait() async {
    let credentials = CredentialStore(session: .init(token: "t-ada", profile: ada))
    let client = AuthenticationClient.simulated(credentials: credentials, clock: clock)
    let signOut = Task { try await client.signOut() }
    #expect(await clock.waitForSleepers())
    #expect(credentials.session == nil)
    signOut.cancel()
    await #expect(throws: CancellationError.self) { try await signOut.value }
    #expect(credentials.session == nil)
  }

  /// The app quits (its store let go) while the revoke waits for the server: the next launch
  /// restores no session.
  @Test func anAppThatQuitsDuringASignOutRestoresNoSessionAtItsNextLaunch() async {
    let credentials = CredentialStore(session: .init(token: "t-ada", profile: ada))
    let client = AuthenticationClient.simulated(credentials: credentials, clock: clock)
    var store: StoreOf<Account>? = Store(initialState: signedIn(as: ada)) {
      Account(client: client)
    }
    store?.send(.signOutTapped)
    #expect(await clock.waitForSleepers())
    store = nil
    await clock.advance(by: .seconds(1))
    #expect(credentials.session == nil)

    let relaunch = TestStore(initialState: Account.State()) { Account(client: client) }
    let launch = await relaunch.send(.lifecycle(.startup))
    await clock.advance(by: .seconds(1))
    await relaunch.receive(.sessionRestored(nil))
    await relaunch.receive(.lifecycle(.hookFinished))
    await launch.finish()
    await relaunch.finish()
  }

  /// A session restored while the user was typing clears the form, password included, as a
  /// sign-in does: the password does not stay in state for the whole session.
  @Test func aRestoredSessionClearsTheForm() async {
    var state = Account.State()
    state.form.username = "ada"
    state.form.password = "hunter2"
    let store = TestStore(initialState: state) { Account(client: .unconfigured) }
    await store.send(.sessionRestored(ada)) {
      $0.profile = self.ada
      $0.form = Account.SignInForm()
    }
    await store.finish()
  }

  /// No session found leaves what the user typed.
  @Test func noSessionFoundLeavesTheForm() async {
    var state = Account.State()
    state.form.username = "ada"
    let store = TestStore(initialState: state) { Account(client: .unconfigured) }
    await store.send(.sessionRestored(nil))
    await store.finish()
  }
}

/// What the header and badge show for names that are blank.
@Suite struct AccountNameDisplayTests {
  func state(username: String, displayName: String) -> Account.State {
    var state = Account.State()
    state.profile = AccountProfile(username: username, displayName: displayName)
    return state
  }

  @Test func aBlankDisplayNameShowsTheUsername() {
    let renamed = state(username: "ada", displayName: " ")
    #expect(renamed.badge.initial == "a")
    #expect(renamed.header.displayName == "ada")
    #expect(renamed.header.greeting == "Hello, ada")
  }

  @Test func noNameAtAllStillShowsSignedIn() {
    let nameless = state(username: "", displayName: "")
    #expect(nameless.badge.initial == "?")
    #expect(nameless.header.greeting == "Hello")
    #expect(Account.State().badge.initial == nil)
    #expect(Account.State().header.greeting == "Welcome")
  }

  @Test func aDisplayNameIsShownTrimmed() {
    let spaced = state(username: "ada", displayName: "  Ada L. ")
    #expect(spaced.badge.initial == "A")
    #expect(spaced.header.greeting == "Hello, Ada L.")
  }
}
