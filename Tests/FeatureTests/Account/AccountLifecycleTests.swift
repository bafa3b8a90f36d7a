import AccountFeature
import Effects
import Store
import StoreTesting
import Testing

@MainActor
@Suite struct AccountLifecycleTests {
  let clock = TestClock()
  let ada = AccountProfile(username: "ada", displayName: "Ada")

  @Test func startupOnceFocusHooksInOrderSubscriptionsStopAtTeardownAndRestartOnReturn() async {
    let server = AccountTestClient(clock: clock, savedSession: ada)
    let store = TestStore(initialState: Account.State()) { Account(client: server.client) }

    // First start: startup, then first focus, then subscriptions, one after another.
    await store.send(.lifecycle(.taskStarted)) {
      $0.lifecycle.isTaskRunning = true
      $0.lifecycle.hasStarted = true
      $0.lifecycle.isFocused = true
      $0.lifecycle.hasGainedFocus = true
      $0.lifecycle.runningHook = .startup
      $0.lifecycle.pendingHooks = [.firstFocus, .subscribe]
    }
    await store.receive(.lifecycle(.startup))
    await clock.advance(by: .seconds(1))
    await store.receive(.sessionRestored(ada)) { $0.profile = self.ada }
    await store.receive(.lifecycle(.hookFinished)) {
      $0.lifecycle.runningHook = .firstFocus
      $0.lifecycle.pendingHooks = [.subscribe]
    }
    await store.receive(.lifecycle(.firstFocus))
    await store.receive(.lifecycle(.hookFinished)) {
      $0.lifecycle.runningHook = nil
      $0.lifecycle.pendingHooks = []
    }
    await store.receive(.lifecycle(.subscribe))
    #expect(server.listenerCount == 1)

    // A change made elsewhere arrives through the subscription.
    server.push(AccountProfile(username: "ada", displayName: "Countess"))
    await store.receive(.profileChanged(AccountProfile(username: "ada", displayName: "Countess"))) {
      $0.profile?.displayName = "Countess"
    }

    // The screen's task ends: subscriptions stop, then teardown.
    await store.send(.lifecycle(.taskEnded)) {
      $0.lifecycle.isTaskRunning = false
      $0.lifecycle.isFocused = false
    }
    await store.receive(.lifecycle(.teardown))
    #expect(server.listenerCount == 0)

    // The retained screen returns: no second startup; focus is regained (refreshing the
    // profile), then return, then subscriptions again.
    await store.send(.lifecycle(.taskStarted)) {
      $0.lifecycle.isTaskRunning = true
      $0.lifecycle.isFocused = true
      $0.lifecycle.runningHook = .regainedFocus
      $0.lifecycle.pendingHooks = [.returned, .subscribe]
    }
    await store.receive(.lifecycle(.regainedFocus))
    await clock.advance(by: .seconds(1))
    await store.receive(.profileRefreshed(AccountProfile(username: "ada", displayName: "Ada L."))) {
      $0.profile?.displayName = "Ada L."
    }
    await store.receive(.lifecycle(.hookFinished)) {
      $0.lifecycle.runningHook = .returned
      $0.lifecycle.pendingHooks = [.subscribe]
    }
    await store.receive(.lifecycle(.returned))
    await store.receive(.lifecycle(.hookFinished)) {
      $0.lifecycle.runningHook = nil
      $0.lifecycle.pendingHooks = []
    }
    await store.receive(.lifecycle(.subscribe))
    #expect(server.listenerCount == 1)
    #expect(server.recordedCalls == ["restoreSession", "refreshProfile"])

    await store.send(.lifecycle(.taskEnded)) {
      $0.lifecycle.isTaskRunning = false
      $0.lifecycle.isFocused = false
    }
    await store.receive(.lifecycle(.teardown))
    await store.finish()
  }

  @Test func focusHooksNeverOverlap() async {
    let server = AccountTestClient(clock: clock)
    var state = Account.State()
    state.profile = ada
    state.lifecycle.hasStarted = true
    state.lifecycle.hasGainedFocus = true
    state.lifecycle.isTaskRunning = true
    state.lifecycle.scenePhase = .background
    let store = TestStore(initialState: state) { Account(client: server.client) }

    // Regained focus starts a refresh; losing focus meanwhile waits for it.
    await store.send(.lifecycle(.scenePhaseChanged(.active))) {
      $0.lifecycle.scenePhase = .active
      $0.lifecycle.isFocused = true
      $0.lifecycle.runningHook = .regainedFocus
    }
    await store.receive(.lifecycle(.regainedFocus))
    await store.send(.lifecycle(.scenePhaseChanged(.inactive))) {
      $0.lifecycle.scenePhase = .inactive
      $0.lifecycle.isFocused = false
      $0.lifecycle.pendingHooks = [.lostFocus]
    }
    await clock.advance(by: .seconds(1))
    await store.receive(.profileRefreshed(AccountProfile(username: "ada", displayName: "Ada L."))) {
      $0.profile?.displayName = "Ada L."
    }
    await store.receive(.lifecycle(.hookFinished)) {
      $0.lifecycle.runningHook = .lostFocus
      $0.lifecycle.pendingHooks = []
    }
    await store.receive(.lifecycle(.lostFocus))
    await store.receive(.lifecycle(.hookFinished)) { $0.lifecycle.runningHook = nil }
    await store.finish()
  }

  /// A sign-out while the startup's restore is under way (from the settings screen, before
  /// the restore answered) cancels the restore, whose answer would sign the user back in.
  @Test func aSignOutWhileARestoreIsUnderWayCancelsIt() async {
    let ada = AccountProfile(username: "ada", displayName: "Ada")
    let server = AccountTestClient(clock: clock, savedSession: ada)
    let store = TestStore(initialState: Account.State()) { Account(client: server.client) }
    store.exhaustivity = .off
    await store.send(.lifecycle(.taskStarted))
    #expect(server.recordedCalls == ["restoreSession"], "the restore is under way")
    await store.send(.signOutTapped)
    await clock.advance(by: .seconds(2))
    #expect(store.state.profile == nil)
    #expect(server.recordedCalls == ["restoreSession", "signOut"])
    await store.send(.lifecycle(.taskEnded))
    await store.finish()
  }

  /// Signed in when the screen starts (a state restored from disk): no restore is looked for,
  /// so none can sign the user back in after a sign-out.
  @Test func aStartupWhileSignedInLooksForNoSessionSoASignOutStays() async {
    let ada = AccountProfile(username: "ada", displayName: "Ada")
    let server = AccountTestClient(clock: clock, savedSession: ada)
    var signedIn = Account.State()
    signedIn.profile = ada
    let store = TestStore(initialState: signedIn) { Account(client: server.client) }
    store.exhaustivity = .off
    await store.send(.lifecycle(.taskStarted))
    await store.send(.signOutTapped)
    await clock.advance(by: .seconds(2))
    #expect(store.state.profile == nil)
    #expect(server.recordedCalls == ["signOut"])
    await store.send(.lifecycle(.taskEnded))
    await store.finish()
  }

  /// A sign-in that started before the screen's startup wins, as it does over a restore
  /// under way: no restore is looked for, so none fails over the signed-in user ("You are
  /// not signed in.", shown while signed in).
  @Test func aStartupAfterASignInStartedLooksForNoSession() async {
    let ada = AccountProfile(username: "ada", displayName: "Ada")
    let restores = Locked(0)
    let clock = self.clock
    var client = AuthenticationClient.unconfigured
    client.signIn = { username, _ in
      try await clock.sleep(for: .seconds(1))
      return AccountProfile(username: username, displayName: "Ada")
    }
    client.restoreSession = {
      restores.withLock { $0 += 1 }
      try await clock.sleep(for: .seconds(2))
      throw AuthenticationError.notSignedIn
    }
    var state = Account.State()
    state.form.username = "ada"
    let store = TestStore(initialState: state) { Account(client: client) }
    store.exhaustivity = .off
    await store.send(.signInTapped)
    await store.send(.lifecycle(.taskStarted))
    await clock.advance(by: .seconds(1))
    await store.receive(.signInSucceeded(ada))
    await clock.advance(by: .seconds(1))
    #expect(store.state.profile == ada)
    #expect(store.state.errorMessage == nil)
    #expect(restores.withLock { $0 } == 0)
    await store.send(.lifecycle(.taskEnded))
    await store.finish()
  }

  @Test func signedOutStartupFindsNoSession() async {
    let server = AccountTestClient(clock: clock)
    let store = TestStore(initialState: Account.State()) { Account(client: server.client) }
    store.exhaustivity = .off
    await store.send(.lifecycle(.taskStarted))
    await clock.advance(by: .seconds(1))
    await store.receive(.sessionRestored(nil))
    #expect(store.state.profile == nil)
    await store.send(.lifecycle(.taskEnded))
    await store.finish()
  }
}
