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
  func clientWhoseRevokeFails(
    _ server: AccountTestClient? = nil, after delay: Duration = .seconds(2)
  ) -> AuthenticationClient {
    var client = (server ?? AccountTestClient(clock: clock)).client
    client.signOut = { [clock] in
      try await clock.sleep(for: delay)
      throw AuthenticationError.notSignedIn
    }
    return client
  }

  func signedIn(as profile: AccountProfile) -> Account.State {
    var state = Account.State()
    state.profile = profile
    return state
  }

  /// Ada, signed in, signs out; Bob signs in, and his sign-in succeeds a second later.
  func signOutAndSignInBob(_ store: TestStoreOf<Account>) async {
    await store.send(.signOutTapped) { $0.profile = nil }
    await store.send(.usernameChanged("bob")) { $0.form.username = "bob" }
    await store.send(.signInTapped) {
      $0.isSigningIn = true
      $0.signInsStarted = 1
    }
    await clock.advance(by: .seconds(1))
    await store.receive(.signInSucceeded(bob)) {
      $0.isSigningIn = false
      $0.profile = self.bob
      $0.form = Account.SignInForm()
    }
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
      $0.signInsStarted = 1
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
    await signOutAndSignInBob(store)
    await clock.advance(by: .seconds(1))
    await store.receive(.signOutFailed("You are not signed in.", signInsStarted: 0))
    await store.finish()
  }

  /// Bob's sign-in fails before Ada's revoke reports its failure: Bob keeps his own error
  /// (the reducer looked only at whether someone was signed in or signing in, and replaced
  /// it; bug hunt).
  @Test func aFailedRevokeDoesNotReplaceTheNextUsersSignInError() async {
    let server = AccountTestClient(clock: clock) { _, _ in
      throw AuthenticationError.invalidCredentials
    }
    let store = makeStore(clientWhoseRevokeFails(server), state: signedIn(as: ada))
    await store.send(.signOutTapped) { $0.profile = nil }
    await store.send(.usernameChanged("bob")) { $0.form.username = "bob" }
    await store.send(.signInTapped) {
      $0.isSigningIn = true
      $0.signInsStarted = 1
    }
    await clock.advance(by: .seconds(1))
    let refused = AuthenticationError.invalidCredentials.description
    await store.receive(.signInFailed(refused)) {
      $0.isSigningIn = false
      $0.errorMessage = refused
    }
    await clock.advance(by: .seconds(1))
    await store.receive(.signOutFailed("You are not signed in.", signInsStarted: 0))
    #expect(store.state.errorMessage == refused)
    await store.finish()
  }

  /// Bob signs in and out while Ada's revoke is slow; his own revoke succeeds. Ada's failure
  /// does not tell him his credentials were not revoked.
  @Test func aFailedRevokeOfAnEarlierSessionIsNotShownAfterTheNextUserSignsOut() async {
    let server = AccountTestClient(clock: clock)
    var client = server.client
    let revokes = Locked(0)
    client.signOut = { [clock] in
      // The first revoke (Ada's) fails after three seconds; the next (Bob's) succeeds.
      let revoke = revokes.withLock { count in
        count += 1
        return count
      }
      guard revoke == 1 else { return }
      try await clock.sleep(for: .seconds(3))
      throw AuthenticationError.notSignedIn
    }
    let store = makeStore(client, state: signedIn(as: ada))
    await signOutAndSignInBob(store)
    await store.send(.signOutTapped) { $0.profile = nil }
    await clock.advance(by: .seconds(2))
    await store.receive(.signOutFailed("You are not signed in.", signInsStarted: 0))
    #expect(store.state.errorMessage == nil)
    await store.finish()
  }

  @Test func aFailedRevokeIsShownWhenNobodySignedInSince() async {
    let store = makeStore(clientWhoseRevokeFails(), state: signedIn(as: ada))
    await store.send(.signOutTapped) { $0.profile = nil }
    await clock.advance(by: .seconds(2))
    await store.receive(.signOutFailed("You are not signed in.", signInsStarted: 0)) {
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

  /// A sign-in whose wait was over, its answer on the way, when the user signed out: the
  /// sign-out cancels it, and the simulated server's session is not saved. (It was: the
  /// sign-out had forgotten the session saved when it started, none, and the next launch
  /// restored the session of the user who had signed out.)
  @Test(.timeLimit(.minutes(30)))
  func aSignInCancelledByASignOutAfterItsWaitSavesNoSession() async {
    let credentials = CredentialStore()
    let gate = GateClock()
    let store = makeStore(.simulated(credentials: credentials, clock: gate))
    await store.send(.usernameChanged("ada")) { $0.form.username = "ada" }
    await store.send(.passwordChanged("secret")) { $0.form.password = "secret" }
    await store.send(.signInTapped) {
      $0.isSigningIn = true
      $0.signInsStarted = 1
      $0.form.password = ""
    }
    await store.send(.signOutTapped) {
      $0.isSigningIn = false
      $0.form = Account.SignInForm()
    }
    gate.open()
    await store.finish()
    #expect(credentials.session == nil)
  }

  /// Starts `request`, and waits until it sleeps on the clock, `sleepers` sleeping in all.
  private func started<Value: Sendable>(
    sleepers: Int, _ request: @escaping @Sendable () async throws -> Value
  ) async -> Task<Value, any Error> {
    let task = Task { try await request() }
    #expect(await clock.waitForSleepers(sleepers))
    return task
  }

  /// The same user signing in again while a sign-out is under way gets a new token, so the
  /// sign-out's revoke, answered later, leaves the new session.
  @Test func aSignOutAnsweredAfterTheSameUsersNextSignInLeavesTheNewSession() async throws {
    let credentials = CredentialStore()
    let client = AuthenticationClient.simulated(credentials: credentials, clock: clock)
    let firstSignIn = await started(sleepers: 1) { try await client.signIn("ada", "secret") }
    await clock.advance(by: .seconds(1))
    #expect(try await firstSignIn.value == ada)
    let firstToken = try #require(credentials.session?.token.value)
    let signInAgain = await started(sleepers: 1) { try await client.signIn("ada", "secret") }
    await clock.advance(by: .milliseconds(100))
    let signOut = await started(sleepers: 2) { try await client.signOut() }
    await clock.advance(by: .milliseconds(200))
    #expect(try await signInAgain.value == ada)
    let secondToken = try #require(credentials.session?.token.value)
    #expect(secondToken != firstToken)
    await clock.advance(by: .milliseconds(100))
    try await signOut.value
    #expect(credentials.session?.profile == ada, "the revoke named the first session's token")
    #expect(credentials.session?.token.value == secondToken)
  }

  /// No sign-in gets the token of a session saved before the client made any, nor of
  /// another sign-in: a revoke answered after the newest sign-in names an older session.
  @Test func aRevokeOfAnOlderSessionLeavesTheNewestOne() async throws {
    let credentials = CredentialStore(session: .init(token: "token-ada-2", profile: ada))
    let client = AuthenticationClient.simulated(credentials: credentials, clock: clock)
    let first = await started(sleepers: 1) { try await client.signIn("ada", "secret") }
    await clock.advance(by: .milliseconds(50))
    let second = await started(sleepers: 2) { try await client.signIn("ada", "secret") }
    await clock.advance(by: .milliseconds(50))
    let signOut = await started(sleepers: 3) { try await client.signOut() }
    await clock.advance(by: .milliseconds(200))
    #expect(try await first.value == ada)
    let firstToken = try #require(credentials.session?.token.value)
    await clock.advance(by: .milliseconds(50))
    #expect(try await second.value == ada)
    let secondToken = try #require(credentials.session?.token.value)
    #expect(Set(["token-ada-2", firstToken, secondToken]).count == 3)
    await clock.advance(by: .milliseconds(50))
    try await signOut.value
    #expect(credentials.session?.token.value == secondToken, "the revoke named token-ada-2")
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

/// A clock whose sleeps all end when the test opens it, and not before, cancelled or not: a
/// request whose wait is over, and its answer on the way, when it is cancelled.
private final class GateClock: Clock, Sendable {
  private struct Gate {
    var isOpen = false
    var sleepers: [CheckedContinuation<Void, Never>] = []
  }
  private let gate = Locked(Gate())

  var now: ContinuousClock.Instant { .now }
  var minimumResolution: Duration { .zero }

  func sleep(until deadline: ContinuousClock.Instant, tolerance: Duration?) async throws {
    await withCheckedContinuation { continuation in
      let isOpen = gate.withLock { gate in
        if !gate.isOpen { gate.sleepers.append(continuation) }
        return gate.isOpen
      }
      if isOpen { continuation.resume() }
    }
  }

  /// Ends every sleep, and the later ones at once.
  func open() {
    let sleepers = gate.withLock { gate in
      gate.isOpen = true
      defer { gate.sleepers = [] }
      return gate.sleepers
    }
    for sleeper in sleepers { sleeper.resume() }
  }
}
