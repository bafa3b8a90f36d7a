import AccountFeature
import Effects
import Foundation
import Store
import StoreTesting
import Testing

/// Who a session belongs to: no second user signs in over the first, a blank username is not
/// sent, an error goes once a profile arrives, and a failed revoke of the last session is not
/// shown to the next user.
@MainActor
@Suite struct AccountSessionTests {
  let clock = TestClock()
  let ada = AccountProfile(username: "ada", displayName: "Ada")
  let bob = AccountProfile(username: "bob", displayName: "Bob")

  func makeStore(_ client: AuthenticationClient, state: Account.State = Account.State())
    -> TestStoreOf<Account>
  {
    TestStore(initialState: state) { Account(client: client) }
  }

  /// The test server, but for a sign-out that fails two seconds after it is asked.
  func clientWhoseRevokeFails() -> AuthenticationClient {
    var client = AccountTestClient(clock: clock).client
    client.signOut = { [clock] in
      try await clock.sleep(for: .seconds(2))
      throw AuthenticationError.notSignedIn
    }
    return client
  }

  func signedIn(as profile: AccountProfile) -> Account.State {
    var state = Account.State()
    state.profile = profile
    return state
  }

  @Test func aSignInWhileSignedInIsIgnored() async {
    let server = AccountTestClient(clock: clock)
    let store = makeStore(server.client, state: signedIn(as: ada))
    await store.send(.usernameChanged("bob")) { $0.form.username = "bob" }
    await store.send(.passwordChanged("secret")) { $0.form.password = "secret" }
    await store.send(.signInTapped)
    await clock.advance(by: .seconds(1))
    #expect(server.recordedCalls.isEmpty)
    #expect(store.state.profile == ada)
    await store.finish()
  }

  @Test(arguments: ["", "   ", "\n\t "])
  func aBlankUsernameIsNotSent(username: String) async {
    let server = AccountTestClient(clock: clock)
    var state = Account.State()
    state.form.username = username
    state.form.password = "secret"
    let store = makeStore(server.client, state: state)
    await store.send(.signInTapped)
    #expect(server.recordedCalls.isEmpty)
    await store.finish()
  }

  @Test func aUsernameIsSentWithoutTheSpacesAroundIt() async {
    let server = AccountTestClient(clock: clock)
    var state = Account.State()
    state.form.username = "  ada "
    state.form.password = "secret"
    let store = makeStore(server.client, state: state)
    await store.send(.signInTapped) {
      $0.isSigningIn = true
      $0.form.password = ""
    }
    await clock.advance(by: .seconds(1))
    await store.receive(.signInSucceeded(ada)) {
      $0.isSigningIn = false
      $0.profile = self.ada
      $0.form = Account.SignInForm()
    }
    #expect(server.recordedCalls == ["signIn(ada)"])
    await store.finish()
  }

  @Test func anErrorGoesOnceTheSignedInUsersProfileArrives() async {
    let server = AccountTestClient(clock: clock)
    var state = signedIn(as: ada)
    state.errorMessage = "Something went wrong while talking to the server. Try again."
    let store = makeStore(server.client, state: state)
    let renamed = AccountProfile(username: "ada", displayName: "Ada L.")
    await store.send(.profileRefreshed(renamed)) {
      $0.profile = renamed
      $0.errorMessage = nil
    }
    await store.send(.profileRefreshFailed("The server is busy.")) {
      $0.errorMessage = "The server is busy."
    }
    await store.send(.profileChanged(ada)) {
      $0.profile = self.ada
      $0.errorMessage = nil
    }
    // Another user's profile changes nothing, the error included.
    await store.send(.profileRefreshFailed("The server is busy.")) {
      $0.errorMessage = "The server is busy."
    }
    await store.send(.profileChanged(bob))
    await store.finish()
  }

  @Test func aRestoredSessionClearsTheErrorOfAnEarlierAttempt() async {
    let server = AccountTestClient(clock: clock)
    var state = Account.State()
    state.errorMessage = "The server is busy."
    let store = makeStore(server.client, state: state)
    await store.send(.sessionRestored(nil))
    await store.send(.sessionRestored(ada)) {
      $0.profile = self.ada
      $0.errorMessage = nil
    }
    await store.finish()
  }

  /// Ada signs out and the revoke fails two seconds later; Bob signs in meanwhile. The
  /// failure is about Ada's session: Bob does not see it.
  @Test func aFailedRevokeIsNotShownToTheNextUser() async {
    let store = makeStore(clientWhoseRevokeFails(), state: signedIn(as: ada))
    await store.send(.signOutTapped) { $0.profile = nil }
    await store.send(.usernameChanged("bob")) { $0.form.username = "bob" }
    await store.send(.signInTapped) { $0.isSigningIn = true }
    await clock.advance(by: .seconds(1))
    await store.receive(.signInSucceeded(bob)) {
      $0.isSigningIn = false
      $0.profile = self.bob
      $0.form = Account.SignInForm()
    }
    await clock.advance(by: .seconds(1))
    await store.receive(.signOutFailed("You are not signed in."))
    await store.finish()
  }

  @Test func aFailedRevokeIsShownWhenNobodySignedInSince() async {
    let store = makeStore(clientWhoseRevokeFails(), state: signedIn(as: ada))
    await store.send(.signOutTapped) { $0.profile = nil }
    await clock.advance(by: .seconds(2))
    await store.receive(.signOutFailed("You are not signed in.")) {
      $0.errorMessage =
        "Signed out, but the credentials could not be revoked: You are not signed in."
    }
    await store.finish()
  }

  /// The simulated server revokes the session it was asked to: a sign-out answered after the
  /// next user's sign-in saved a session leaves that session.
  @Test func aSignOutAnsweredAfterTheNextSignInLeavesTheNewSession() async throws {
    let credentials = CredentialStore(session: .init(token: "token-ada", profile: ada))
    let client = AuthenticationClient.simulated(credentials: credentials, clock: clock)
    let signOut = Task { try await client.signOut() }
    #expect(await clock.waitForSleepers(1))
    credentials.save(token: "token-bob", for: bob)
    await clock.advance(by: .seconds(1))
    try await signOut.value
    #expect(credentials.session?.profile == bob)
    #expect(credentials.session?.token.value == "token-bob")
  }

  @Test func revokingByTokenForgetsOnlyThatSession() {
    let credentials = CredentialStore(session: .init(token: "token-ada", profile: ada))
    #expect(!credentials.revoke(token: "token-bob"))
    #expect(credentials.session?.profile == ada)
    #expect(credentials.revoke(token: "token-ada"))
    #expect(credentials.session == nil)
    #expect(!credentials.revoke(token: "token-ada"))
  }
}
