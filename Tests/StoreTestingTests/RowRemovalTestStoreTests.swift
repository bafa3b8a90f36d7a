import Effects
import Store
import StoreTesting
import Testing

/// A row that loads once per second when asked.
private struct LoadingRow: Reducer {
  struct State: Equatable, Identifiable, Sendable {
    let id: Int
    var loads = 0
  }
  enum Action: Sendable, Equatable {
    case load
    case loaded
  }
  let clock: TestClock
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .load:
      return .run { [clock] send in
        try await clock.sleep(for: .seconds(1))
        send(.loaded)
      }
      .cancellable(id: "load", cancelInFlight: true)
    case .loaded:
      state.loads += 1
      return .none
    }
  }
}

/// A list of loading rows that it removes or refreshes itself.
private struct LoadingList: Reducer {
  struct State: Equatable {
    var rows: IdentifiedArrayOf<LoadingRow.State> = []
  }
  enum Action: Sendable, Equatable {
    case rows(IdentifiedActionOf<LoadingRow>)
    case refresh([Int])
    case removeBelow(Int)
  }
  let clock: TestClock
  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .refresh(let ids):
        state.rows.removeAll()
        for id in ids { state.rows.append(LoadingRow.State(id: id)) }
      case .removeBelow(let below): state.rows.removeAll { $0.id < below }
      case .rows: break
      }
      return .none
    }
    .forEach(\.rows, action: .rows) { LoadingRow(clock: clock) }
  }
}

extension CaseKey<LoadingList.Action, IdentifiedActionOf<LoadingRow>> {
  fileprivate static var rows: Self {
    Self(LoadingList.Action.rows) { if case .rows(let a) = $0 { a } else { nil } }
  }
}

/// Checks that a test store ends the effects of rows as a live store does: a removed row's load
/// needs no `receive`, however many rows go at once, and a row a refresh brings back keeps its
/// load, which must be received.
@MainActor
@Suite struct RowRemovalTestStoreTests {
  let clock = TestClock()

  @Test func aRowRefreshedBackKeepsItsLoad() async {
    let store = TestStore(initialState: LoadingList.State(rows: [.init(id: 1), .init(id: 2)])) {
      LoadingList(clock: clock)
    }
    await store.send(.rows(.element(id: 1, action: .load)))
    await store.send(.rows(.element(id: 2, action: .load)))
    await store.send(.refresh([2, 3])) {
      $0.rows = [.init(id: 2), .init(id: 3)]
    }
    await clock.advance(by: .seconds(1))
    await store.receive(.rows(.element(id: 2, action: .loaded))) { $0.rows[id: 2]?.loads = 1 }
    await store.finish()
  }

  @Test func manyRowsRemovedAtOnceNeedNoReceive() async {
    let store = TestStore(
      initialState: LoadingList.State(
        rows: IdentifiedArray((0..<100).map { LoadingRow.State(id: $0) }))
    ) {
      LoadingList(clock: clock)
    }
    for id in 0..<100 { await store.send(.rows(.element(id: id, action: .load))) }
    await store.send(.removeBelow(99)) { $0.rows.removeAll { $0.id < 99 } }
    await clock.advance(by: .seconds(1))
    await store.receive(.rows(.element(id: 99, action: .loaded))) { $0.rows[id: 99]?.loads = 1 }
    await store.finish()
  }
}
