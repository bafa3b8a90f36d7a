import AccountFeature
import CartFeature
import Effects
import Store

/// The app's root: the cart and the account, composed, with one owner for each.
///
/// The cart's header shows the signed-in user's name, read from the one account state
/// (``State/cartHeader``): shared data with a single owner, no copy to keep in sync.
///
/// Signing out resets the cart (it empties, its title goes back to the default, its screens
/// close, a checkout in flight is cancelled and an unanswered order's key forgotten): on a
/// shared device, the next person must neither see nor pay for the previous user's cart.
/// Nobody else signs in before that: `Account` ignores a sign-in while a user is signed in.
public struct AppFeature: Reducer {
  /// The whole app's state.
  public struct State: Equatable, Sendable, Codable {
    /// The cart.
    public var cart: Cart.State
    /// The account: the one state every account view reads.
    public var account: Account.State

    /// Creates the state of a fresh launch.
    ///
    /// - Parameters:
    ///   - cart: The cart.
    ///   - account: The account.
    public init(cart: Cart.State = Cart.State(), account: Account.State = Account.State()) {
      self.cart = cart
      self.account = account
    }

    /// This state as a new launch of the app starts from it, restored from a copy saved in an
    /// earlier one: the cart's and the account's, each relaunched
    /// (`Cart.State.relaunched`, `Account.State.relaunched`), so that no checkout or sign-in
    /// that was in flight when the copy was saved waits for an answer that will not come.
    ///
    /// A copy saved mid-request decodes as it was saved, as the checkpoints of an action log
    /// need: a replay compares them with the states it reaches. Only a new launch relaunches.
    public var relaunched: Self {
      var relaunched = self
      relaunched.cart = cart.relaunched
      relaunched.account = account.relaunched
      return relaunched
    }

    /// What the cart's header shows: the cart's title and size, and who is signed in.
    public var cartHeader: CartHeader {
      CartHeader(
        title: cart.title,
        itemCount: cart.totalQuantity,
        signedInAs: account.profile?.shownName
      )
    }
  }

  /// Everything that can happen in the app.
  public enum Action: Equatable, Sendable, Codable {
    /// Something happened in the cart.
    case cart(Cart.Action)
    /// Something happened in the account.
    case account(Account.Action)
  }

  let checkout: CheckoutClient
  let authentication: AuthenticationClient
  let makeID: UUIDGenerator
  let clock: any Clock<Duration>

  /// Creates the app's reducer with every dependency its features need.
  ///
  /// - Parameters:
  ///   - checkout: Submits orders.
  ///   - authentication: Signs users in and out.
  ///   - makeID: Makes ids for new items and keys for new orders.
  ///   - clock: The clock for timed work.
  public init(
    checkout: CheckoutClient,
    authentication: AuthenticationClient,
    makeID: UUIDGenerator,
    clock: any Clock<Duration>
  ) {
    self.checkout = checkout
    self.authentication = authentication
    self.makeID = makeID
    self.clock = clock
  }

  /// The cart and the account, then what crosses between them.
  public var body: some Reducer<State, Action> {
    Scope(state: \.cart, action: .cart) {
      Cart(checkout: checkout, makeID: makeID, clock: clock)
    }
    Scope(state: \.account, action: .account) {
      Account(client: authentication)
    }
    Reduce { _, action in
      switch action {
      case .account(.signOutTapped), .account(.settings(.signOutTapped)):
        return .send(.cart(.reset))
      case .cart, .account:
        return .none
      }
    }
  }
}

extension CaseKey<AppFeature.Action, Cart.Action> {
  /// The case that carries the cart's actions.
  public static var cart: Self {
    Self(AppFeature.Action.cart) { if case .cart(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<AppFeature.Action, Account.Action> {
  /// The case that carries the account's actions.
  public static var account: Self {
    Self(AppFeature.Action.account) { if case .account(let a) = $0 { a } else { nil } }
  }
}

/// What the cart's header shows.
public struct CartHeader: Equatable, Sendable {
  /// The cart's title.
  public var title: String
  /// How many units the cart holds.
  public var itemCount: Int
  /// The signed-in user's name as shown (`AccountProfile.shownName`: the display name, or the
  /// username when that is blank), or `nil` when signed out.
  public var signedInAs: String?

  /// Creates a header.
  ///
  /// - Parameters:
  ///   - title: The cart's title.
  ///   - itemCount: How many units the cart holds.
  ///   - signedInAs: The signed-in user's name as shown.
  public init(title: String, itemCount: Int, signedInAs: String?) {
    self.title = title
    self.itemCount = itemCount
    self.signedInAs = signedInAs
  }
}
