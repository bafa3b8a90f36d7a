import AccountFeature
import Effects
import Foundation
import Store
import StoreTesting
import Testing

/// The sample features read as a demanding user reads them: counts that must not trap, races
/// between requests, and saved states restored.
@MainActor
@Suite struct SampleFeaturesHuntTests {
  let clock = TestClock()
  let ada = AccountProfile(username: "ada", displayName: "Ada")

  /// An account signed out, with `count` sign-ins started, and Ada's name and password typed.
  func signedOut(signInsStarted count: Int) -> Account.State {
    var state = Account.State()
    state.signInsStarted = count
    state.form.username = "ada"
    state.form.password = "secret"
    return state
  }

  /// A count of sign-ins at `Int.max` decodes (only a negative one is refused), and the next
  /// sign-in trapped counting it (`+= 1`). It starts again from 1: never 0, which means no
  /// sign-in started.
  @Test func aSignInCountedPastIntMaxStartsAgainFromOne() async throws {
    var counted = Account.State()
    counted.signInsStarted = .max
    let data = try JSONEncoder().encode(counted)
    let saved = try JSONDecoder().decode(Account.State.self, from: data)
    let server = AccountTestClient(clock: clock)
    let store = TestStore(initialState: saved) { Account(client: server.client) }
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
    await store.finish()
  }

  /// The count still tells a sign-in since: a revoke's failure reported with the count at
  /// `Int.max`, once a sign-in started (and failed) after it, is not shown.
  @Test func aFailedRevokeFromBeforeTheCountStartedAgainIsNotShown() async {
    let server = AccountTestClient(clock: clock) { _, _ in
      throw AuthenticationError.invalidCredentials
    }
    let store = TestStore(initialState: signedOut(signInsStarted: .max)) {
      Account(client: server.client)
    }
    await store.send(.signInTapped) {
      $0.isSigningIn = true
      $0.signInsStarted = 1
      $0.form.password = ""
    }
    await clock.advance(by: .seconds(1))
    let refused = AuthenticationError.invalidCredentials.description
    await store.receive(.signInFailed(refused)) {
      $0.isSigningIn = false
      $0.errorMessage = refused
    }
    await store.send(.signOutFailed("You are not signed in.", signInsStarted: .max))
    await store.finish()
  }
}
