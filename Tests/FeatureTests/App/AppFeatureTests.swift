import AccountFeature
import AppFeature
import CartFeature
import Effects
import Foundation
import Store
import StoreTesting
import Testing

@MainActor
@Suite struct AppFeatureTests {
  let clock = TestClock()
  let ada = AccountProfile(username: "ada", displayName: "Ada")
  let tea = CartItem(id: UUID(counting: 100), name: "Tea", quantity: 2)

  func makeStore(_ state: AppFeature.State, checkout: CheckoutClient) -> TestStoreOf<AppFeature> {
    let server = AccountTestClient(clock: clock)
    return TestStore(initialState: state) {
      AppFeature(
        checkout: checkout,
        authentication: server.client,
        makeID: .incrementing(),
        clock: clock
      )
    }
  }

  @Test func theCartHeaderReadsTheOneAccountState() async {
    var state = AppFeature.State(cart: Cart.State(title: "Groceries", items: [tea]))
    state.account.form.username = "ada"
    let store = makeStore(state, checkout: .failing(with: CheckoutError.serviceUnavailable))
    #expect(store.state.cartHeader == CartHeader(title: "Groceries", itemCount: 2, signedInAs: nil))
    await store.send(.account(.signInTapped)) {
      $0.account.isSigningIn = true
      $0.account.signInsStarted = 1
    }
    await clock.advance(by: .seconds(1))
    await store.receive(.account(.signInSucceeded(ada))) {
      $0.account.isSigningIn = false
      $0.account.profile = self.ada
      $0.account.form = Account.SignInForm()
    }
    #expect(store.state.cartHeader.signedInAs == "Ada")
    await store.finish()
  }

  @Test func signingOutEmptiesTheCartAndCancelsACheckoutInFlight() async {
    var state = AppFeature.State(cart: Cart.State(title: "Groceries", items: [tea]))
    state.account.profile = ada
    let store = makeStore(
      state, checkout: .live(clock: clock, delay: .seconds(5), makeID: .incrementing()))
    let key = UUID(counting: 0)
    await store.send(.cart(.checkoutTapped))
    await store.receive(.cart(.checkoutStarted(orderKey: key))) {
      $0.cart.isCheckingOut = true
      $0.cart.pendingOrderKey = key
    }
    await store.send(.account(.signOutTapped)) { $0.account.profile = nil }
    // The title is the last user's words too: it goes back to the default. The order in
    // flight is the last user's: the next user's first checkout is a new order.
    await store.receive(.cart(.reset)) {
      $0.cart.isCheckingOut = false
      $0.cart.pendingOrderKey = nil
      $0.cart.items = []
      $0.cart.title = "Cart"
    }
    #expect(store.state.cartHeader == CartHeader(title: "Cart", itemCount: 0, signedInAs: nil))
    await clock.advance(by: .seconds(5))
    await store.finish()
  }

  @Test func appStateAndActionsRoundTripThroughJSON() throws {
    var state = AppFeature.State(cart: Cart.State(title: "Groceries", items: [tea]))
    state.account.profile = ada
    let data = try JSONEncoder().encode(state)
    #expect(try JSONDecoder().decode(AppFeature.State.self, from: data) == state)
    let action = AppFeature.Action.cart(.items(.element(id: tea.id, action: .noteChanged("x"))))
    #expect(
      try JSONDecoder().decode(AppFeature.Action.self, from: JSONEncoder().encode(action)) == action
    )
  }
}

/// The cart's header names the user as the account's own views do.
@Suite struct CartHeaderNameTests {
  @Test func aBlankDisplayNameShowsTheUsernameInTheCartHeader() {
    var state = AppFeature.State()
    state.account.profile = AccountProfile(username: "ada", displayName: "  ")
    #expect(state.cartHeader.signedInAs == "ada")
    #expect(state.cartHeader.signedInAs == state.account.header.displayName)
    state.account.profile = nil
    #expect(state.cartHeader.signedInAs == nil)
  }
}
