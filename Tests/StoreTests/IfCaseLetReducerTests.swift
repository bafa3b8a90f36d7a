import Effects
import Testing

@testable import Store

@MainActor
@Suite struct IfCaseLetReducerTests {
  struct Screen: Reducer {
    enum State: Equatable {
      case list(Row.State)
      case empty
    }
    enum Action: Sendable, Equatable {
      case list(Row.Action)
      case showEmpty
      case showRow(Int)
    }
    let clock: TestClock
    var body: some Reducer<State, Action> {
      Reduce { state, action in
        if action == .showEmpty { state = .empty }
        if case .showRow(let id) = action { state = .list(Row.State(id: id)) }
        return .none
      }
      .ifCaseLet(.list, action: .list) { Row(clock: clock) }
    }
  }

  let clock = TestClock()

  @Test func theChildRunsWhileTheStateIsItsCase() {
    let harness = Harness(initialState: .list(Row.State(id: 1)), reducer: Screen(clock: clock))
    harness.send(.list(.renamed("a")))
    #expect(harness.state == .list(Row.State(id: 1, title: "a")))
  }

  @Test func switchingCaseCancelsTheChildsEffects() {
    let harness = Harness(initialState: .list(Row.State(id: 1)), reducer: Screen(clock: clock))
    harness.send(.list(.loadTapped))
    #expect(clock.sleeperCount == 1)
    harness.send(.showEmpty)
    #expect(clock.sleeperCount == 0)
  }

  @Test func theCaseReplacedByOneWithAnotherIDEndsTheOldOnesEffects() {
    let harness = Harness(initialState: .list(Row.State(id: 1)), reducer: Screen(clock: clock))
    let first = harness.store.scope(state: .list, action: .list)
    harness.send(.list(.loadTapped))
    harness.send(.showRow(1))  // the same id: the same child, title reset aside
    #expect(clock.sleeperCount == 1)
    #expect(harness.store.scope(state: .list, action: .list) === first)
    harness.send(.showRow(2))
    #expect(clock.sleeperCount == 0)
    #expect(harness.store.scope(state: .list, action: .list) !== first)
  }

  @Test func anActionForAnotherCaseChangesNothingAndWarns() {
    let warnings = WarningLog()
    let harness = Harness(
      initialState: .empty, warnings: warnings.handler, reducer: Screen(clock: clock))
    harness.send(.list(.renamed("a")))
    #expect(harness.state == .empty)
    #expect(warnings.messages.count == 1)
    #expect(warnings.messages.first?.contains(#"renamed("a")"#) == true)
    #expect(warnings.messages.first?.contains(".empty") == true)
    // The case is named by the enum and the type it holds, with the types they are nested in
    // (such types are mostly called `State`) and without their module.
    #expect(
      warnings.messages.first?.contains(
        "was sent to the case of IfCaseLetReducerTests.Screen.State holding Row.State, "
          + "but the state is another case: .empty.") == true, "\(warnings.messages)")
  }
}

/// A case that holds a list: its rows must change in place, not be copied per action.
struct FeedScreen: Reducer {
  struct Feed: Equatable {
    var rows: IdentifiedArrayOf<Row.State>
  }
  enum State: Equatable {
    case feed(Feed)
    case empty
  }
  enum Action: Sendable, Equatable {
    case feed(IdentifiedAction<Int, Row.Action>)
  }
  let clock: TestClock
  var body: some Reducer<State, Action> {
    EmptyReducer()
      .ifCaseLet(.feed, action: .feed) {
        EmptyReducer().forEach(\.rows, action: CaseKey({ $0 }, extract: { $0 })) {
          Row(clock: clock)
        }
      }
  }

  static func rowsAddress(_ state: State) -> UnsafeRawPointer? {
    guard case .feed(let feed) = state else { return nil }
    return feed.rows.storage.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
  }
}

extension CaseKey<FeedScreen.State, FeedScreen.Feed> {
  static var feed: Self {
    Self(FeedScreen.State.feed) { if case .feed(let s) = $0 { s } else { nil } }
  }
}

extension CaseKey<FeedScreen.Action, IdentifiedAction<Int, Row.Action>> {
  static var feed: Self {
    Self(FeedScreen.Action.feed) { if case .feed(let a) = $0 { a } else { nil } }
  }
}

extension IfCaseLetReducerTests {
  @Test func aCasesListChangesInPlaceNotCopiedPerAction() {
    // Built inline, so that nothing but the store holds the rows.
    let harness = Harness(
      initialState: .feed(
        FeedScreen.Feed(
          rows: IdentifiedArrayOf((0..<10_000).map { Row.State(id: $0) }) { a, _ in a })
      ),
      reducer: FeedScreen(clock: clock))
    let before = FeedScreen.rowsAddress(harness.state)
    harness.send(.feed(.element(id: 9_999, action: .renamed("last"))))
    guard case .feed(let feed) = harness.state else {
      Issue.record("the state left its case")
      return
    }
    #expect(feed.rows[id: 9_999]?.title == "last")
    #expect(FeedScreen.rowsAddress(harness.state) == before, "the rows' buffer was copied")
  }
}

extension CaseKey<IfCaseLetReducerTests.Screen.State, Row.State> {
  static var list: Self {
    Self(IfCaseLetReducerTests.Screen.State.list) { if case .list(let s) = $0 { s } else { nil } }
  }
}

extension CaseKey<IfCaseLetReducerTests.Screen.Action, Row.Action> {
  static var list: Self {
    Self(IfCaseLetReducerTests.Screen.Action.list) { if case .list(let a) = $0 { a } else { nil } }
  }
}
