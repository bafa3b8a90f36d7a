import Effects
import Store
import StoreTesting
import Testing

/// A screen that loads after a delay on a test clock, and answers a ping, throttled.
private struct Loader: Reducer {
  struct State: Equatable, Sendable, Identifiable {
    var id: Int
    var loads = 0
    var pongs = 0
  }
  enum Action: Equatable, Sendable { case load, loaded, ping, pong }
  enum CancelID { case load, ping }
  let clock: TestClock
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .load:
      return .run { [clock] send in
        try await clock.sleep(for: .seconds(1))
        send(.loaded)
      }
      .cancellable(id: CancelID.load)
    case .loaded:
      state.loads += 1
      return .none
    case .ping:
      return .send(.pong).throttle(
        id: CancelID.ping, for: .seconds(10), clock: clock, latest: false)
    case .pong:
      state.pongs += 1
      return .none
    }
  }
}

/// The screens of a stack (or the rows of a list, or a mode) as one enum, each case run with
/// `ifCaseLet`: the usual `Path` of an app with several kinds of screen.
private struct Route: Reducer {
  enum State: Equatable, Sendable, Identifiable {
    case loader(Loader.State)
    case blank(id: Int)
    var id: Int {
      switch self {
      case .loader(let loader): loader.id
      case .blank(let id): id
      }
    }
  }
  enum Action: Equatable, Sendable {
    case loader(Loader.Action)
    case stopLoading
    case showBlank
    case showLoader
  }
  let clock: TestClock
  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .stopLoading:
        // The enum's own reducer shares its cases' cancellation ids.
        return .cancel(id: Loader.CancelID.load)
      case .showBlank:
        state = .blank(id: state.id)
        return .none
      case .showLoader:
        state = .loader(Loader.State(id: state.id))
        return .none
      case .loader:
        return .none
      }
    }
    .ifCaseLet(.loader, action: .loader) { Loader(clock: clock) }
  }
}

extension CaseKey<Route.State, Loader.State> {
  fileprivate static var loader: Self {
    Self(Route.State.loader) { if case .loader(let state) = $0 { state } else { nil } }
  }
}

extension CaseKey<Route.Action, Loader.Action> {
  fileprivate static var loader: Self {
    Self(Route.Action.loader) { if case .loader(let action) = $0 { action } else { nil } }
  }
}

private struct Routes: Reducer {
  struct State: Equatable, Sendable {
    var path = StackState<Route.State>()
    var rows: IdentifiedArrayOf<Route.State> = []
    var mode = Route.State.loader(Loader.State(id: 0))
  }
  enum Action: Equatable, Sendable {
    case path(StackActionOf<Route>)
    case rows(IdentifiedAction<Int, Route.Action>)
    case mode(Route.Action)
    case stopScreen(StackElementID)
    case stopRow(Int)
    case stopMode
  }
  let clock: TestClock
  var body: some Reducer<State, Action> {
    Scope(state: \.mode, action: .mode) { Route(clock: clock) }
    Reduce { state, action in
      switch action {
      case .stopScreen(let id):
        return .cancel(id: Loader.CancelID.load, inScreen: id, of: \State.path)
      case .stopRow(let id):
        return .cancel(id: Loader.CancelID.load, inElement: id, of: \State.rows)
      case .stopMode:
        return .cancel(id: Loader.CancelID.load, inScope: \State.mode, action: .mode)
      case .path, .rows, .mode:
        return .none
      }
    }
    .navigationStack(\.path, action: .path) { Route(clock: clock) }
    .forEach(\.rows, action: .rows) { Route(clock: clock) }
  }
}

extension CaseKey<Routes.Action, StackActionOf<Route>> {
  fileprivate static var path: Self {
    Self(Routes.Action.path) { if case .path(let action) = $0 { action } else { nil } }
  }
}

extension CaseKey<Routes.Action, IdentifiedAction<Int, Route.Action>> {
  fileprivate static var rows: Self {
    Self(Routes.Action.rows) { if case .rows(let action) = $0 { action } else { nil } }
  }
}

extension CaseKey<Routes.Action, Route.Action> {
  fileprivate static var mode: Self {
    Self(Routes.Action.mode) { if case .mode(let action) = $0 { action } else { nil } }
  }
}

/// A case's feature that throttles its pings.
private struct Pinger: Reducer {
  struct State: Equatable, Sendable {}
  enum Action: Equatable, Sendable { case ping, pong }
  enum CancelID { case ping }
  let clock: TestClock
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .ping:
      return .send(.pong).throttle(
        id: CancelID.ping, for: .seconds(10), clock: clock, latest: false)
    case .pong:
      return .none
    }
  }
}

/// An enum whose own reducer throttles under the id its case's feature uses.
private struct Pinging: Reducer {
  enum State: Equatable, Sendable {
    case pinger(Pinger.State)
    case blank
  }
  enum Action: Equatable, Sendable {
    case pinger(Pinger.Action)
    case ping, pong, showBlank
  }
  let clock: TestClock
  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .ping:
        return .send(.pong).throttle(
          id: Pinger.CancelID.ping, for: .seconds(10), clock: clock, latest: false)
      case .showBlank:
        state = .blank
        return .none
      case .pong, .pinger:
        return .none
      }
    }
    .ifCaseLet(.pinger, action: .pinger) { Pinger(clock: clock) }
  }
}

extension CaseKey<Pinging.State, Pinger.State> {
  fileprivate static var pinger: Self {
    Self(Pinging.State.pinger) { if case .pinger(let state) = $0 { state } else { nil } }
  }
}

extension CaseKey<Pinging.Action, Pinger.Action> {
  fileprivate static var pinger: Self {
    Self(Pinging.Action.pinger) { if case .pinger(let action) = $0 { action } else { nil } }
  }
}

/// A parent cancels a child's effect with `.cancel(id:inScreen:of:)`, `inElement` or
/// `inScope`. When the child is an enum whose cases `ifCaseLet` runs (the usual `Path`), the
/// cases kept their ids to themselves, so these cancelled nothing: the load went on and its
/// action arrived (an adversary trial). A case now shares the enum reducer's ids; its
/// effects still end with the case.
@MainActor
@Suite struct EnumCaseCancellationTests {
  @Test func cancelInScreenReachesAScreenThatIsACaseOfAnEnum() async {
    let clock = TestClock()
    var initial = Routes.State()
    initial.path.append(.loader(Loader.State(id: 0)))
    initial.path.append(.loader(Loader.State(id: 1)))
    let store = TestStore(initialState: initial) { Routes(clock: clock) }
    await store.send(.path(.element(id: 0, action: .loader(.load))))
    await store.send(.path(.element(id: 1, action: .loader(.load))))
    await store.send(.stopScreen(0))
    await clock.advance(by: .seconds(1))
    // The other screen's load, under the same id, goes on.
    await store.receive(.path(.element(id: 1, action: .loader(.loaded)))) {
      $0.path[id: 1] = .loader(Loader.State(id: 1, loads: 1))
    }
    await store.finish()
  }

  @Test func cancelInElementReachesARowThatIsACaseOfAnEnum() async {
    let clock = TestClock()
    var initial = Routes.State()
    initial.rows = [.loader(Loader.State(id: 7)), .loader(Loader.State(id: 8))]
    let store = TestStore(initialState: initial) { Routes(clock: clock) }
    await store.send(.rows(.element(id: 7, action: .loader(.load))))
    await store.send(.rows(.element(id: 8, action: .loader(.load))))
    await store.send(.stopRow(7))
    await clock.advance(by: .seconds(1))
    await store.receive(.rows(.element(id: 8, action: .loader(.loaded)))) {
      $0.rows[id: 8] = .loader(Loader.State(id: 8, loads: 1))
    }
    await store.finish()
  }

  @Test func cancelInScopeReachesTheCaseOfAScopedEnum() async {
    let clock = TestClock()
    let store = TestStore(initialState: Routes.State()) { Routes(clock: clock) }
    await store.send(.mode(.loader(.load)))
    await store.send(.stopMode)
    await clock.advance(by: .seconds(1))
    await store.finish()
  }

  /// The enum's own reducer and its cases share cancellation ids, as one feature's do.
  @Test func theEnumsOwnCancelReachesItsCase() async {
    let clock = TestClock()
    let store = TestStore(initialState: Routes.State()) { Routes(clock: clock) }
    await store.send(.mode(.loader(.load)))
    await store.send(.mode(.stopLoading))
    await clock.advance(by: .seconds(1))
    await store.finish()
  }

  /// What a case started ends with the case; a throttle window, keyed by an id the case
  /// shares with the enum, is the enum's, and stays open for its interval.
  @Test func aCasesEffectsEndWithItAndItsThrottleWindowIsTheEnums() async {
    let clock = TestClock()
    let store = TestStore(initialState: Routes.State()) { Routes(clock: clock) }
    await store.send(.mode(.loader(.load)))
    await store.send(.mode(.loader(.ping)))
    await store.receive(.mode(.loader(.pong))) { $0.mode = .loader(Loader.State(id: 0, pongs: 1)) }
    // Waits in the window, and ends with its case, as the load does.
    await store.send(.mode(.loader(.ping)))
    await store.send(.mode(.showBlank)) { $0.mode = .blank(id: 0) }
    await store.send(.mode(.showLoader)) { $0.mode = .loader(Loader.State(id: 0)) }
    // The window is still open: this ping waits for it to close.
    await store.send(.mode(.loader(.ping)))
    await clock.advance(by: .seconds(10))
    await store.receive(.mode(.loader(.pong))) { $0.mode = .loader(Loader.State(id: 0, pongs: 1)) }
    await store.finish()
  }

  /// The enum's own throttled effect, waiting in a window its case's effect opened, is not
  /// dropped when the case ends (a review of the change that made cases share ids: with the
  /// window closed with the case, it never ran).
  @Test func theEnumsOwnThrottledEffectOutlivesTheCaseThatOpenedTheWindow() async {
    let clock = TestClock()
    let store = TestStore(initialState: Pinging.State.pinger(Pinger.State())) {
      Pinging(clock: clock)
    }
    await store.send(.pinger(.ping))
    await store.receive(.pinger(.pong))
    await store.send(.ping)
    await store.send(.showBlank) { $0 = .blank }
    await clock.advance(by: .seconds(10))
    await store.receive(.pong)
    await store.finish()
  }

}
