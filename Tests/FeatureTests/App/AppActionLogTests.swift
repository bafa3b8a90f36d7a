import AccountFeature
import AppFeature
import CartFeature
import Effects
import Foundation
import Store
import Testing

/// Records sessions of the whole app, live against simulated services, and replays them.
@MainActor
@Suite final class AppActionLogTests {
  let directory: URL = {
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("app-log-tests-\(UUID().uuidString)")
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }()

  /// Each test runs on a fresh instance of the suite, so each removes its own directory.
  deinit { try? FileManager.default.removeItem(at: directory) }

  /// A live app store whose effects run when `settle` is called, against simulated services
  /// that keep their token in `credentials`.
  func makeApp(credentials: CredentialStore) -> (StoreOf<AppFeature>, () -> Void) {
    let clock = ImmediateClock()
    let core = RootCore(
      initialState: AppFeature.State(),
      reducer: AppFeature(
        checkout: .live(clock: clock, delay: .seconds(1), makeID: .incrementing()),
        authentication: .simulated(credentials: credentials, clock: clock),
        makeID: .incrementing(),
        clock: clock
      ),
      executor: ManualTaskExecutor()
    )
    return (Store(core: core), core.runEffectsUntilIdle)
  }

  var replayer: ActionLogReplayer<AppFeature> {
    ActionLogReplayer(feature: "AppFeature") {
      AppFeature(
        checkout: .failing(with: CheckoutError.serviceUnavailable),
        authentication: .unconfigured,
        makeID: .incrementing(),
        clock: ImmediateClock()
      )
    }
  }

  @Test func aSignInLogHoldsNeitherThePasswordNorTheToken() throws {
    let credentials = CredentialStore()
    let (store, settle) = makeApp(credentials: credentials)
    let path = directory.appendingPathComponent("sign-in.jsonl").path
    let recorder = try store.recordActions(to: path, feature: "AppFeature", checkpointInterval: 2)
    for action: AppFeature.Action in [
      .account(.usernameChanged("ada")), .account(.passwordChanged("secret")),
      .account(.signInTapped),
    ] {
      store.send(action)
      settle()
    }
    try recorder.finish()
    let token = try #require(credentials.session?.token.value, "the client holds the token")
    #expect(token.hasPrefix("token-ada-"))
    #expect(store.account.profile?.displayName == "Ada")
    let log = try String(contentsOfFile: path, encoding: .utf8)
    #expect(!log.contains("secret"), "the simulated server accepts the password \"secret\"")
    #expect(!log.contains(token) && !log.contains("token-ada"))
    #expect(log.contains("<redacted>"))
    #expect(try replayer.replay(path: path).isComplete)
  }

  @Test(arguments: 1...12)
  func randomSessionsOfTheAppReplayToTheSameState(seed: UInt64) throws {
    var random = SeededRandom(state: seed)
    let (store, settle) = makeApp(credentials: CredentialStore())
    let path = directory.appendingPathComponent("random-\(seed).jsonl").path
    let recorder = try store.recordActions(to: path, feature: "AppFeature", checkpointInterval: 5)
    for _ in 0..<150 {
      store.send(randomAction(for: store.state, using: &random))
      settle()
    }
    try recorder.finish()
    let report = try replayer.replay(path: path)
    #expect(report.isComplete)
    #expect(report.warnings.isEmpty)
    // Equal but for secrets, which a log never holds: compare what the states encode.
    #expect(stateChanges(from: report.finalState, to: store.state).isEmpty)
    #expect(report.checkpointsVerified == report.actionCount / 5 + 1)
  }

  /// An action a user could send in `state`: mostly valid, sometimes stale.
  func randomAction(for state: AppFeature.State, using random: inout SeededRandom)
    -> AppFeature.Action
  {
    let items = state.cart.items.ids
    let item = items.randomElement(using: &random)
    switch Int.random(in: 0..<14, using: &random) {
    case 0:
      return .cart(
        .addItemTapped(name: ["Tea", "Milk", "Bread", " "].randomElement(using: &random)!))
    case 1: return item.map { .cart(.rowTapped($0)) } ?? .cart(.editTitleTapped)
    case 2:
      return item.map {
        .cart(
          .items(
            .element(id: $0, action: .quantityStepped(by: Int.random(in: -3...3, using: &random)))))
      } ?? .cart(.alertDismissed)
    case 3:
      return item.map {
        .cart(
          .items(
            .element(id: $0, action: .noteChanged("n\(Int.random(in: 0..<9, using: &random))"))))
      } ?? .cart(.checkoutTapped)
    case 4:
      return item.map { .cart(.items(.element(id: $0, action: .removeTapped))) }
        ?? .cart(.alertDismissed)
    case 5:
      return state.cart.path.ids.first.map { .cart(.path(.popFrom(id: $0))) }
        ?? .cart(.editTitleTapped)
    case 6:
      return state.cart.titleEditor == nil
        ? .cart(.editTitleTapped)
        : .cart(
          .titleEditor(.presented(.draftChanged("T\(Int.random(in: 0..<9, using: &random))"))))
    case 7:
      return state.cart.titleEditor == nil
        ? .cart(.checkoutTapped)
        : .cart(.titleEditor(.presented(Bool.random(using: &random) ? .saveTapped : .cancelTapped)))
    case 8: return .cart(.checkoutTapped)
    case 9: return .cart(.alertDismissed)
    case 10: return .account(.usernameChanged(["ada", "bob", ""].randomElement(using: &random)!))
    case 11:
      return .account(.passwordChanged(Secret(Bool.random(using: &random) ? "secret" : "wrong")))
    case 12: return .account(.signInTapped)
    default: return .account(.signOutTapped)
    }
  }
}

/// A deterministic random source, so each seed's session is the same every run.
struct SeededRandom: RandomNumberGenerator {
  var state: UInt64
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
