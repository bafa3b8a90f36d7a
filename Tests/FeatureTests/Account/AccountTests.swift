import AccountFeature
import Effects
import Foundation
import Observation
import Store
import StoreTesting
import Testing

@MainActor
@Suite struct AccountTests {
  let clock = TestClock()
  let ada = AccountProfile(username: "ada", displayName: "Ada")

  func makeStore(_ server: AccountTestClient, state: Account.State = Account.State())
    -> TestStoreOf<Account>
  {
    TestStore(initialState: state) { Account(client: server.client) }
  }

  func signedIn() -> Account.State {
    var state = Account.State()
    state.profile = ada
    return state
  }

  @Test func signingInClearsThePasswordAtOnceAndSetsTheDisplayName() async {
    let server = AccountTestClient(clock: clock)
    let store = makeStore(server)
    await store.send(.usernameChanged("ada")) { $0.form.username = "ada" }
    await store.send(.passwordChanged("secret")) { $0.form.password = "secret" }
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

  @Test func aFailedSignInShowsTheErrorAndKeepsTheUsername() async {
    let server = AccountTestClient(clock: clock) { _, _ in
      throw AuthenticationError.invalidCredentials
    }
    var state = Account.State()
    state.form.username = "ada"
    state.form.password = "wrong"
    let store = makeStore(server, state: state)
    await store.send(.signInTapped) {
      $0.isSigningIn = true
      $0.signInsStarted = 1
      $0.form.password = ""
    }
    await clock.advance(by: .seconds(1))
    await store.receive(.signInFailed("The username or password is incorrect.")) {
      $0.isSigningIn = false
      $0.errorMessage = "The username or password is incorrect."
    }
    await store.finish()
  }

  /// An error another client throws can describe what was sent (a `URLError` names its URL,
  /// token and all): the action, the state and so the log got `"\(error)"`; now a fixed
  /// sentence.
  @Test func anErrorsDescriptionNeverReachesTheActionOrTheState() async {
    struct RequestFailed: Error { var url = "https://auth.example/sign-in?password=hunter2" }
    let server = AccountTestClient(clock: clock) { _, _ in throw RequestFailed() }
    var state = Account.State()
    state.form.username = "ada"
    let store = makeStore(server, state: state)
    await store.send(.signInTapped) {
      $0.isSigningIn = true
      $0.signInsStarted = 1
    }
    await clock.advance(by: .seconds(1))
    let message = "Something went wrong while talking to the server. Try again."
    await store.receive(.signInFailed(message)) {
      $0.isSigningIn = false
      $0.errorMessage = message
    }
    await store.finish()
  }

  @Test func aSavedSessionDoesNotPrintItsToken() {
    let session = CredentialStore.Session(token: "token-ada", profile: ada)
    var dumped = ""
    dump(session, to: &dumped)
    #expect(!"\(session)".contains("token-ada"))
    #expect(!dumped.contains("token-ada"))
    #expect(session.token.value == "token-ada")
  }

  @Test func aSecondSubmitWhileSigningInIsIgnored() async {
    let server = AccountTestClient(clock: clock)
    var state = Account.State()
    state.form.username = "ada"
    let store = makeStore(server, state: state)
    await store.send(.signInTapped) {
      $0.isSigningIn = true
      $0.signInsStarted = 1
    }
    await store.send(.signInTapped)
    await clock.advance(by: .seconds(1))
    await store.receive(.signInSucceeded(ada)) {
      $0.isSigningIn = false
      $0.profile = self.ada
      $0.form.username = ""
    }
    #expect(server.recordedCalls == ["signIn(ada)"])
    await store.finish()
  }

  @Test func signOutResetsEverythingVisibleAndRevokesCredentials() async {
    let server = AccountTestClient(clock: clock)
    var state = signedIn()
    state.errorMessage = "old error"
    state.form.username = "draft"
    let store = makeStore(server, state: state)
    await store.send(.signOutTapped) {
      $0.profile = nil
      $0.errorMessage = nil
      $0.form = Account.SignInForm()
    }
    await clock.advance(by: .seconds(1))
    #expect(server.recordedCalls == ["signOut"])
    await store.finish()
  }

  @Test func signingOutDuringSignInCancelsIt() async {
    let server = AccountTestClient(clock: clock)
    var state = Account.State()
    state.form.username = "ada"
    let store = makeStore(server, state: state)
    await store.send(.signInTapped) {
      $0.isSigningIn = true
      $0.signInsStarted = 1
    }
    await store.send(.settings(.signOutTapped)) {
      $0.isSigningIn = false
      $0.form.username = ""
    }
    await clock.advance(by: .seconds(5))
    #expect(server.recordedCalls == ["signIn(ada)", "signOut"])
    await store.finish()
  }

  @Test func oneSignInUpdatesTheHeaderTheBadgeAndTheSettings() async {
    // A live store: the three readers are scopes of the one account state, not copies.
    let server = AccountTestClient(clock: ImmediateClock())
    let store = Store(initialState: Account.State()) { Account(client: server.client) }
    let header = store.scope(state: \.header, action: .settings)
    let badge = store.scope(state: \.badge, action: .settings)
    let settings = store.scope(state: \.settings, action: .settings)
    #expect(header.greeting == "Welcome")
    #expect(!settings.canSignOut)
    store.send(.usernameChanged("ada"))
    // The request is the feature's own (`outlivingSendersTask()`), which the handle `send`
    // returns does not wait for: wait for the header to change instead.
    await withCheckedContinuation { changed in
      withObservationTracking {
        _ = header.greeting
      } onChange: {
        changed.resume()
      }
      store.send(.signInTapped)
    }
    #expect(header.greeting == "Hello, Ada")
    #expect(badge.initial == "A")
    #expect(settings.profile == ada)
    await settings.send(.signOutTapped).finish()
    #expect(header.displayName == nil)
    #expect(badge.initial == nil)
    #expect(!settings.canSignOut)
  }

  /// The password is redacted wherever state and actions are written. (Tokens have no place
  /// in either type; `AppActionLogTests` checks a sign-in's log holds neither.)
  @Test func thePasswordIsRedactedInEncodedStateAndActions() throws {
    var state = Account.State()
    state.form.password = "hunter2"
    let encoded = try JSONEncoder().encode(state)
    let text = String(decoding: encoded, as: UTF8.self)
    #expect(!text.contains("hunter2"))
    #expect(text.contains("<redacted>"))
    let action = try JSONEncoder().encode(Account.Action.passwordChanged("hunter2"))
    #expect(!String(decoding: action, as: UTF8.self).contains("hunter2"))
    #expect(!"\(Account.Action.passwordChanged("hunter2"))".contains("hunter2"))
  }

  @Test func stateAndActionsRoundTripThroughJSON() throws {
    var state = signedIn()
    state.errorMessage = "x"
    let decoded = try JSONDecoder().decode(
      Account.State.self, from: JSONEncoder().encode(state))
    #expect(decoded == state)
    for action: Account.Action in [
      .usernameChanged("a"), .signInTapped, .signInSucceeded(ada), .signInFailed("e"),
      .signOutTapped, .sessionRestored(nil), .profileChanged(ada), .settings(.signOutTapped),
      .lifecycle(.scenePhaseChanged(.background)),
    ] {
      #expect(
        try JSONDecoder().decode(Account.Action.self, from: JSONEncoder().encode(action)) == action)
    }
  }
}
