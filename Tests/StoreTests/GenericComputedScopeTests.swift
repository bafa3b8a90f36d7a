import Effects
import Testing

@testable import Store

/// `ShelfApp`'s state, in a generic feature: `\GenericShelfState<Tag>.shelf` is a new key
/// path object each time the expression runs.
struct GenericShelfState<Tag>: Equatable {
  var rows: IdentifiedArrayOf<Row.State> = [Row.State(id: 1), Row.State(id: 2)]
  var shelfIsCompact = false
  var shelf: Shelf.State {
    get { Shelf.State(rows: rows, isCompact: shelfIsCompact) }
    set { (rows, shelfIsCompact) = (newValue.rows, newValue.isCompact) }
  }
}

/// `ShelfApp`, generic over a tag it does not use, with the shelf marked safe to read.
struct GenericShelfApp<Tag>: Reducer {
  typealias State = GenericShelfState<Tag>
  typealias Action = ShelfApp.Action
  let clock: TestClock
  var body: some Reducer<State, Action> {
    Scope(state: \.shelf, action: Action.shelfKey, computedStateIsSafeToRead: true) {
      Shelf(clock: clock)
    }
    Reduce { state, action in
      if case .signOut = action { state.rows.removeAll(where: { $0.id == 1 }) }
      return .none
    }
  }
}

/// In a generic feature, `computedStateIsSafeToRead: true` did nothing: the mark was kept by
/// the key path object's identity, and a key path literal into a generic type is another
/// object each time its expression runs, so the effects' lifetimes held one the mark never
/// named. A removed row's effect ran on, and each action added an entry to the shared key
/// path cache (observation and lifecycle hunts).
@MainActor
@Suite struct GenericComputedScopeTests {
  let clock = TestClock()

  @Test func aRowRemovedAboveAGenericFeaturesMarkedScopeHasItsEffectsEnded() async {
    let warnings = WarningLog()
    let harness = Harness(
      initialState: GenericShelfState<Int>(), warnings: warnings.handler,
      reducer: GenericShelfApp<Int>(clock: clock))
    harness.send(.shelf(.rows(.element(id: 1, action: .loadTapped))))
    harness.send(.shelf(.rows(.element(id: 2, action: .loadTapped))))
    harness.send(.signOut)
    #expect(clock.sleeperCount == 1)
    #expect(harness.core.runtime.runningCount == 1)
    await clock.advance(by: .seconds(1))
    harness.settle()
    #expect(harness.state.rows.map(\.loads) == [1])
    #expect(warnings.messages.isEmpty, "\(warnings.messages)")
  }

  @Test func aGenericKeyPathMadeAgainIsMarkedOnceAndNotKeptByIdentity() {
    func shelf<Tag>(_: Tag.Type) -> KeyPath<GenericShelfState<Tag>, Shelf.State> { \.shelf }
    let cache = KeyPathCache(limit: 4)
    let first = shelf(Double.self)
    let again = shelf(Double.self)
    // The premise: two objects, equal.
    #expect(first !== again)
    #expect(first == again)
    #expect(cache.markSafeToRead(first))
    #expect(!cache.markSafeToRead(again))
    #expect(cache.isMarkedSafeToRead(shelf(Double.self)))
    #expect(!cache.isMarkedSafeToRead(shelf(Float.self)))
  }
}
