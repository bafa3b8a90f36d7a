import AccountFeature
import AppFeature
import CartFeature
import Effects
import Foundation
import Store
import StoreTesting
import Testing

/// Saved states of the sample features checked against their reducers: a combination no
/// action reaches is refused, every state a random walk over every action reaches decodes as
/// it was, and a log whose checkpoints were taken mid-request verifies.
@MainActor
@Suite struct SavedStateHuntTests {
  static let ada = AccountProfile(username: "ada", displayName: "Ada")
  static let bob = AccountProfile(username: "bob", displayName: "Bob")
  static let key = UUID(counting: 50)
  static let receipt = Receipt(id: UUID(counting: 7), items: [.tea])

  /// The `dataCorrupted` error decoding `value` as `T` throws, its message and where, or
  /// `nil` when it decodes.
  func refusal<T: Codable>(decoding value: T) throws -> (message: String, at: [String])? {
    let data = try JSONEncoder().encode(value)
    do {
      _ = try JSONDecoder().decode(T.self, from: data)
      return nil
    } catch DecodingError.dataCorrupted(let context) {
      return (context.debugDescription, context.codingPath.map(\.stringValue))
    }
  }

  // MARK: - Refusals

  /// A checkout clears the alert as it starts, and only its answer, which ends it, shows a
  /// checkout's alert: no cart shows one while checking out. A refused quantity's alert can
  /// show meanwhile, and decodes.
  @Test func aCartShowingACheckoutsAnswerWhileCheckingOutDoesNotDecode() throws {
    for alert: CartAlert in [
      .checkoutSucceeded(Self.receipt), .checkoutFailed(.paymentDeclined),
      .checkoutFailed(.itemUnavailable(name: "Tea")), .checkoutFailed(.serviceUnavailable),
    ] {
      var cart = Cart.State(items: [.tea])
      cart.isCheckingOut = true
      cart.pendingOrderKey = Self.key
      cart.alert = alert
      let refused = try refusal(decoding: cart)
      #expect(refused?.at == ["alert"], "\(alert): \(refused?.message ?? "decoded")")
      #expect(refused?.message.contains("isCheckingOut") == true)
    }
    var refusedQuantity = Cart.State(items: [.tea])
    refusedQuantity.isCheckingOut = true
    refusedQuantity.pendingOrderKey = Self.key
    refusedQuantity.alert = .quantityOutOfRange(itemName: "Tea")
    #expect(try refusal(decoding: refusedQuantity) == nil)
  }

  /// A receipt and a refusal forget the order's key as they show their alert, and only a
  /// checkout's start sets a key, clearing the alert: no cart shows them with a key left. An
  /// unavailable service keeps the key (it may have the order), and decodes with it.
  @Test func aCartShowingADefiniteAnswerWithAnOrderKeyLeftDoesNotDecode() throws {
    for alert: CartAlert in [
      .checkoutSucceeded(Self.receipt), .checkoutFailed(.paymentDeclined),
      .checkoutFailed(.itemUnavailable(name: "Tea")),
    ] {
      var cart = Cart.State(items: [.tea])
      cart.pendingOrderKey = Self.key
      cart.alert = alert
      let refused = try refusal(decoding: cart)
      #expect(refused?.at == ["alert"], "\(alert): \(refused?.message ?? "decoded")")
      #expect(refused?.message.contains("pendingOrderKey") == true)
      cart.pendingOrderKey = nil
      #expect(try refusal(decoding: cart) == nil, "\(alert) with no key left")
    }
    var unavailable = Cart.State(items: [.tea])
    unavailable.pendingOrderKey = Self.key
    unavailable.alert = .checkoutFailed(.serviceUnavailable)
    #expect(try refusal(decoding: unavailable) == nil)
  }

  /// A refused quantity's alert names an item of the cart, and no item has a blank name.
  @Test func aCartShowingARefusedQuantityOfABlankNameDoesNotDecode() throws {
    var cart = Cart.State(items: [.tea])
    cart.alert = .quantityOutOfRange(itemName: " ")
    let refused = try refusal(decoding: cart)
    #expect(refused?.at == ["alert"], "\(refused?.message ?? "decoded")")
    #expect(refused?.message.contains("blank") == true)
    // An item removed since: the alert names it still.
    cart.alert = .quantityOutOfRange(itemName: "Milk")
    #expect(try refusal(decoding: cart) == nil)
  }

  // MARK: - A random walk over every action

  /// Sessions of the app's reducer, its effects not run but every action they send sent
  /// directly in any order (answers late, twice, or never asked for), as a hand-written log
  /// can: every state reached decodes, and encodes again as it was. The walk reaches the
  /// combinations the decoders keep because an action reaches them.
  @Test func everyStateAWalkOverEveryActionReachesDecodes() throws {
    let app = AppFeature(
      checkout: .failing(with: CheckoutError.serviceUnavailable),
      authentication: .unconfigured, makeID: .incrementing(), clock: ImmediateClock())
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    var reached: Set<String> = []
    for seed in UInt64(1)...6 {
      var random = SeededRandom(state: seed)
      var state = AppFeature.State()
      for step in 0..<1000 {
        let action = Self.randomAction(for: state, using: &random)
        _ = app.reduce(into: &state, action: action)
        let data = try encoder.encode(state)
        let decoded: AppFeature.State
        do {
          decoded = try JSONDecoder().decode(AppFeature.State.self, from: data)
        } catch {
          Issue.record("seed \(seed), step \(step), after \(action): \(error)")
          break
        }
        #expect(try encoder.encode(decoded) == data, "seed \(seed), step \(step)")
        reached.formUnion(Self.combinations(in: state))
      }
    }
    #expect(
      reached == [
        "an error while signing in", "a refused quantity's alert while checking out",
        "an unavailable service's alert with the key kept", "checking out an empty cart",
      ])
  }

  /// The combinations a decoder keeps, though a live app reaches them only through actions
  /// sent out of turn, that `state` holds.
  static func combinations(in state: AppFeature.State) -> Set<String> {
    var found: Set<String> = []
    if state.account.isSigningIn, state.account.errorMessage != nil {
      found.insert("an error while signing in")
    }
    if state.cart.isCheckingOut, case .quantityOutOfRange? = state.cart.alert {
      found.insert("a refused quantity's alert while checking out")
    }
    if state.cart.pendingOrderKey != nil, state.cart.alert == .checkoutFailed(.serviceUnavailable) {
      found.insert("an unavailable service's alert with the key kept")
    }
    if state.cart.isCheckingOut, state.cart.items.isEmpty {
      found.insert("checking out an empty cart")
    }
    return found
  }

  /// Any action of the app, with values drawn from small pools so that ids and keys meet.
  static func randomAction(
    for state: AppFeature.State, using random: inout SeededRandom
  ) -> AppFeature.Action {
    let ids = (1...4).map { UUID(counting: $0) }
    // Mostly an item of the cart, so that its rows' actions and the screens meet it.
    let held = state.cart.items.ids.randomElement(using: &random)
    let item =
      Int.random(in: 0..<4, using: &random) == 0
      ? ids.randomElement(using: &random)! : held ?? ids[0]
    let name = ["Tea", "Milk", " ", " Jam "].randomElement(using: &random)!
    let quantity = [0, 1, 2, 5, 99, 100].randomElement(using: &random)!
    let key =
      state.cart.pendingOrderKey ?? UUID(counting: 50 + Int.random(in: 0...2, using: &random))
    let profile = [ada, bob].randomElement(using: &random)!
    let bought = state.cart.items.elements.filter { _ in Bool.random(using: &random) }
      .map { CartItem(id: $0.id, name: $0.name, quantity: min($0.quantity, 1)) }
    let cart: [Cart.Action] = [
      .itemAdded(CartItem(id: ids.randomElement(using: &random)!, name: name, quantity: quantity)),
      .rowTapped(item), .editTitleTapped, .checkoutStarted(orderKey: key),
      .checkoutSucceeded(Receipt(id: key, items: bought)),
      .checkoutFailed(
        [.paymentDeclined, .serviceUnavailable, .itemUnavailable(name: name)]
          .randomElement(using: &random)!),
      .screenDisappeared, .alertDismissed, .reset,
      .items(
        .element(
          id: item,
          action: [
            .quantityStepped(by: [-1, 1, 50].randomElement(using: &random)!),
            .quantityEntered(quantity), .noteChanged("n"), .delegate(.removeRequested),
            .delegate(.quantityRefused),
          ].randomElement(using: &random)!)),
      .path(
        .push(
          id: StackElementID(
            rawValue: state.cart.path.nextElementID.rawValue
              + [-1, 0, 0, 1].randomElement(using: &random)!),
          state: .itemEditor(item))),
      .path(
        .popFrom(
          id: state.cart.path.ids.randomElement(using: &random) ?? StackElementID(rawValue: 0))),
      .titleEditor(.presented(.draftChanged(name))),
      .titleEditor(.presented(.delegate(.saved(name)))),
      .titleEditor(.presented(.delegate(.cancelled))), .titleEditor(.dismiss),
    ]
    let account: [Account.Action] = [
      .usernameChanged(["ada", " ", "bob"].randomElement(using: &random)!),
      .passwordChanged(Bool.random(using: &random) ? "secret" : ""), .signInTapped,
      .signInSucceeded(profile), .signInFailed("no"), .signOutTapped,
      .signOutFailed(
        "down", signInsStarted: state.account.signInsStarted - Int.random(in: 0...1, using: &random)
      ),
      .sessionRestored(Bool.random(using: &random) ? profile : nil), .profileRefreshed(profile),
      .profileRefreshFailed("offline"), .profileChanged(profile), .settings(.signOutTapped),
      .lifecycle(
        [.taskStarted, .scenePhaseChanged(.background), .scenePhaseChanged(.active), .taskEnded]
          .randomElement(using: &random)!),
    ]
    return Bool.random(using: &random)
      ? .cart(cart.randomElement(using: &random)!)
      : .account(account.randomElement(using: &random)!)
  }

  /// A log recorded with requests in flight, and ended there, replays and verifies: its
  /// checkpoints, taken mid-request, compare equal to the replayed states.
  @Test func aLogEndingMidRequestReplaysAndVerifies() throws {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("saved-state-hunt-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("mid-request.jsonl").path
    let clock = ImmediateClock()
    let core = RootCore(
      initialState: AppFeature.State(),
      reducer: AppFeature(
        checkout: .live(clock: clock, delay: .seconds(1), makeID: .incrementing()),
        authentication: .simulated(credentials: CredentialStore(), clock: clock),
        makeID: .incrementing(), clock: clock),
      executor: ManualTaskExecutor())
    let store = Store(core: core)
    let recorder = try store.recordActions(
      to: path, feature: "AppFeature", checkpointInterval: 1)
    store.send(.cart(.itemAdded(.tea)))
    store.send(.account(.usernameChanged("ada")))
    store.send(.account(.signInTapped))
    store.send(.cart(.checkoutStarted(orderKey: Self.key)))
    // Neither request has run: the last checkpoint is taken with both in flight.
    #expect(store.state.account.isSigningIn && store.state.cart.isCheckingOut)
    try recorder.finish()
    core.runEffectsUntilIdle()
    let report = try ActionLogReplayer<AppFeature>(feature: "AppFeature") {
      AppFeature(
        checkout: .failing(with: CheckoutError.serviceUnavailable),
        authentication: .unconfigured, makeID: .incrementing(), clock: ImmediateClock())
    }
    .replay(path: path)
    #expect(report.isComplete)
    #expect(report.warnings.isEmpty)
    #expect(report.checkpointsVerified == report.actionCount + 1)
  }
}
