import Effects
import Store
import StoreTesting
import Testing

/// Review of the routing hint: cases where it names the wrong operator, or says "nothing
/// warns" next to a warning, and what it costs a send.

/// A row with a flag.
private struct Tile: Reducer {
  struct State: Equatable, Identifiable, Sendable {
    let id: Int
    var isOn = false
  }
  enum Action: Equatable, Sendable { case toggled }
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    state.isOn.toggle()
    return .none
  }
}

/// A board that runs its tiles.
private struct Board: Reducer {
  struct State: Equatable, Sendable {
    var tiles: IdentifiedArrayOf<Tile.State> = [Tile.State(id: 1)]
  }
  enum Action: Equatable, Sendable { case tiles(IdentifiedActionOf<Tile>) }
  var body: some Reducer<State, Action> {
    EmptyReducer().forEach(\.tiles, action: .tiles) { Tile() }
  }
}

/// A game whose optional board is run by `ifLet`, or (the mistake) not at all.
private struct Game: Reducer {
  struct State: Equatable { var board: Board.State? = Board.State() }
  enum Action: Equatable, Sendable { case board(Board.Action) }
  let runsBoard: Bool
  var body: some Reducer<State, Action> {
    if runsBoard {
      EmptyReducer().ifLet(\.board, action: .board) { Board() }
    }
  }
}

extension CaseKey<Board.Action, IdentifiedActionOf<Tile>> {
  fileprivate static var tiles: Self {
    Self(Board.Action.tiles) { if case .tiles(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<Game.Action, Board.Action> {
  fileprivate static var board: Self {
    Self(Game.Action.board) { if case .board(let a) = $0 { a } else { nil } }
  }
}

/// A state whose `==` counts its calls, for the cost of a send.
private struct CountedState: Equatable {
  nonisolated(unsafe) static var comparisons = 0
  var value = 0
  static func == (lhs: Self, rhs: Self) -> Bool {
    comparisons += 1
    return lhs.value == rhs.value
  }
}

private struct Counted: Reducer {
  enum Action: Equatable, Sendable { case noop }
  func reduce(into state: inout CountedState, action: Action) -> Effect<Action> { .none }
}

@MainActor
@Suite struct RoutingHintReviewTests {
  let messages = Messages()

  /// The game forgets `ifLet(\.board, action: .board)`; the board's `forEach` is in place.
  /// The hint blames only the `forEach` (which is there), and never names the `.board` step
  /// that is missing.
  @Test func aMissingIfLetAboveAForEachIsNotBlamedOnTheForEach() async {
    let store = TestStore(initialState: Game.State()) { Game(runsBoard: false) }
    await withKnownIssue {
      await store.send(.board(.tiles(.element(id: 1, action: .toggled)))) {
        $0.board?.tiles[id: 1]?.isOn = true
      }
    } matching: {
      messages.capture($0)
    }
    let message = messages.last
    let hint = message.components(separatedBy: "it is for a child.").last ?? ""
    #expect(message.contains("it is for a child."), "\(message)")
    // The operator that is missing hands on the `.board` case: the hint should lead there
    // (or at least not name only the `forEach`, which the board's body has).
    #expect(hint.contains(".board"), "\(message)")
  }

  /// A row action for a row that is not there: the `forEach` is in place and warns. The hint
  /// still says the operator may be missing "and nothing warns", beside that warning.
  @Test func anActionForAMissingRowIsNotTakenForAMissingOperator() async {
    let store = TestStore(initialState: Board.State()) { Board() }
    await withKnownIssue {
      await store.send(.tiles(.element(id: 99, action: .toggled))) {
        $0.tiles[id: 1]?.isOn = true
      }
    } matching: {
      messages.capture($0)
    }
    let all = messages.all
    // The forEach warned about the missing row.
    #expect(all.contains { $0.contains("99") && !$0.contains("(- expected, + actual)") }, "\(all)")
    #expect(!all.contains { $0.contains("nothing warns") }, "\(all)")
  }

  /// A send that started no effect compares the whole state once more than before the
  /// routing hint (`before == after` in `send`, on top of `checkState`'s comparison), for
  /// every action, child or not: a large state pays for it on every such send.
  @Test func aSendComparesTheStateOnce() async {
    let store = TestStore(initialState: CountedState()) { Counted() }
    CountedState.comparisons = 0
    await store.send(.noop)
    #expect(CountedState.comparisons == 1)
  }
}
