import AccountFeature
import AppFeature
import CartFeature
import Effects
import Foundation
import Store
import StoreTesting
import Testing

/// A state saved mid-request decodes as it was saved, as a replay needs; restored in a new
/// launch through `relaunched`, nothing is left waiting for an answer that will not come.
@MainActor
@Suite struct RelaunchHuntTests {
  static let ada = SavedStateHuntTests.ada
  static let key = SavedStateHuntTests.key

  /// An account saved while a sign-in was in flight, and while its screen showed, decodes as
  /// it was saved (a replay needs it so); relaunched, it is no longer signing in, and its
  /// screen's first start looks for the session that sign-in saved before the app quit.
  @Test func anAccountSavedWhileSigningInRestoresItsSessionOnceRelaunched() async throws {
    var saved = Account.State()
    saved.form.username = "ada"
    saved.signInsStarted = 1
    saved.isSigningIn = true
    saved.lifecycle.isTaskRunning = true
    saved.lifecycle.hasStarted = true
    saved.lifecycle.isFocused = true
    saved.lifecycle.hasGainedFocus = true
    let decoded = try JSONDecoder().decode(Account.State.self, from: JSONEncoder().encode(saved))
    #expect(decoded == saved)

    var relaunched = saved
    relaunched.isSigningIn = false
    relaunched.lifecycle = ScreenLifecycleState()
    #expect(decoded.relaunched == relaunched, "the count, the form and the rest are kept")

    let clock = TestClock()
    let server = AccountTestClient(clock: clock, savedSession: Self.ada)
    let store = TestStore(initialState: decoded.relaunched) { Account(client: server.client) }
    store.exhaustivity = .off
    await store.send(.lifecycle(.taskStarted))
    await store.receive(.lifecycle(.startup))
    await clock.advance(by: .seconds(1))
    await store.receive(.sessionRestored(Self.ada)) {
      $0.profile = Self.ada
      $0.form = Account.SignInForm()
    }
    #expect(!store.state.isSigningIn)
    await store.send(.lifecycle(.taskEnded))
    await store.finish()
    #expect(server.recordedCalls == ["restoreSession"])
  }

  /// A sign-in the saved state says is in flight has no answer in a new store: as it was
  /// saved, every sign-in is ignored; relaunched, one starts.
  @Test func aRelaunchedAccountSignsInWhereTheSavedOneIgnoresIt() async throws {
    var saved = Account.State()
    saved.form.username = "ada"
    saved.signInsStarted = 1
    saved.isSigningIn = true
    let clock = TestClock()
    let server = AccountTestClient(clock: clock)
    let stuck = TestStore(initialState: saved) { Account(client: server.client) }
    await stuck.send(.signInTapped)
    await stuck.finish()

    let store = TestStore(initialState: saved.relaunched) { Account(client: server.client) }
    await store.send(.signInTapped) {
      $0.isSigningIn = true
      $0.signInsStarted = 2
    }
    await clock.advance(by: .seconds(1))
    await store.receive(.signInSucceeded(Self.ada)) {
      $0.isSigningIn = false
      $0.profile = Self.ada
      $0.form = Account.SignInForm()
    }
    #expect(server.recordedCalls == ["signIn(ada)"])
  }

  /// A cart saved mid-checkout decodes as it was saved; relaunched, it is no longer checking
  /// out and keeps the order's key, so checking out again submits under that key, and a
  /// service that had the order answers with its receipt rather than placing a second.
  @Test func aCartSavedWhileCheckingOutChecksOutUnderTheSameKeyOnceRelaunched() async throws {
    var saved = Cart.State.teaAndMilk
    saved.isCheckingOut = true
    saved.pendingOrderKey = Self.key
    let decoded = try JSONDecoder().decode(Cart.State.self, from: JSONEncoder().encode(saved))
    #expect(decoded == saved)
    var relaunched = saved
    relaunched.isCheckingOut = false
    #expect(decoded.relaunched == relaunched)

    let clock = TestClock()
    let orders = SubmittedOrders()
    let store = makeCartStore(
      decoded.relaunched,
      checkout: orders.recording(.succeeding(receiptID: UUID(counting: 7))), clock: clock)
    await store.tapCheckout(startingOrder: Self.key)
    await store.receive(
      .checkoutSucceeded(
        Receipt(id: UUID(counting: 7), items: Cart.State.teaAndMilk.items.elements))
    ) {
      $0.isCheckingOut = false
      $0.pendingOrderKey = nil
      $0.items = []
      $0.alert = .checkoutSucceeded(
        Receipt(id: UUID(counting: 7), items: Cart.State.teaAndMilk.items.elements))
    }
    #expect(orders.keys == [Self.key])
  }

  /// The app's state relaunched is its cart's and its account's, each relaunched.
  @Test func theAppRelaunchesBothFeatures() {
    var cart = Cart.State.teaAndMilk
    cart.isCheckingOut = true
    cart.pendingOrderKey = Self.key
    var account = Account.State()
    account.signInsStarted = 1
    account.isSigningIn = true
    account.lifecycle.isTaskRunning = true
    let app = AppFeature.State(cart: cart, account: account)
    #expect(app.relaunched == AppFeature.State(cart: cart.relaunched, account: account.relaunched))
    #expect(!app.relaunched.cart.isCheckingOut && !app.relaunched.account.isSigningIn)
  }

}
