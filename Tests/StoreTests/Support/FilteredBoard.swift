import Effects
import Store

/// A list of named cards that can be hidden, with a filtered view of the visible ones, both
/// as a computed collection (`visibleCards`) and inside a child state that a computed property
/// builds anew at each read (`filtered`): the fixture of the tests of rows that leave a
/// computed view.
struct FilteredBoard: Reducer {
  /// A card: renamed, hidden and shown by its own actions.
  struct Card: Reducer {
    struct State: Equatable, Identifiable, Sendable {
      let id: Int
      var name = ""
      var isVisible = true
    }
    enum Action: Sendable, Equatable {
      case rename(String)
      case hide
      case show
    }
    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .rename(let name): state.name = name
      case .hide: state.isVisible = false
      case .show: state.isVisible = true
      }
      return .none
    }
  }

  /// The visible cards, in a child state of their own: stored there, but built anew with it
  /// at each read.
  struct Filtered: Equatable {
    var cards: IdentifiedArrayOf<Card.State>
  }

  struct State: Equatable {
    var cards: IdentifiedArrayOf<Card.State> = []
    var ticks = 0

    /// The visible cards: a filtered view, built anew at each read.
    var visibleCards: IdentifiedArrayOf<Card.State> { cards.filter(\.isVisible) }

    /// The visible cards in a child state a computed property builds anew at each read.
    var filtered: Filtered { Filtered(cards: visibleCards) }

    /// Every card, in a child state a computed property builds at each read around the
    /// stored collection itself: its buffers and stamps are the state's.
    var everything: Filtered { Filtered(cards: cards) }

    /// A board with a card named "card \(id)" for each of `ids`.
    init(ids: [Int] = [1, 2, 3]) {
      for id in ids { cards.append(Card.State(id: id, name: "card \(id)")) }
    }
  }

  enum Action: Sendable, Equatable {
    case cards(IdentifiedActionOf<Card>)
    /// Changes nothing that a card, or a view of the cards, shows.
    case tick
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      if case .tick = action { state.ticks += 1 }
      return .none
    }
    .forEach(\.cards, action: .cards) { Card() }
  }
}

extension CaseKey<FilteredBoard.Action, IdentifiedActionOf<FilteredBoard.Card>> {
  static var cards: Self {
    Self(FilteredBoard.Action.cards) { if case .cards(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<FilteredBoard.Action, FilteredBoard.Action> {
  /// The filtered child's actions are the board's own.
  static var filtered: Self { Self({ $0 }) { $0 } }
}
