import Effects

@testable import Store

/// The board's visible cards, reached through an optional, an enum case or a stored part of
/// a child state that a computed property builds anew at each read.
extension FilteredBoard.State {
  /// The visible cards in an optional child a computed property builds.
  var filteredIfAny: FilteredBoard.Filtered? { filtered }

  /// The visible cards in a case of an enum a computed property builds.
  var shown: FilteredBoard.Shown { .filtered(filtered) }

  /// The same enum, in an optional a computed property builds.
  var shownIfAny: FilteredBoard.Shown? { shown }

  /// The visible cards stored in an optional child a computed property builds.
  var panelIfAny: FilteredBoard.Panel? { FilteredBoard.Panel(filtered: filtered) }

  /// The visible cards in a stored optional of a child a computed property builds.
  var drawer: FilteredBoard.Drawer { FilteredBoard.Drawer(filtered: filtered) }
}

extension FilteredBoard {
  /// What the board shows: an enum a computed property builds.
  enum Shown: Equatable {
    case filtered(Filtered)
    case nothing
  }

  /// A child holding the visible cards in a stored property, beside a title.
  struct Panel: Equatable {
    var title = "Visible"
    var filtered: Filtered
  }

  /// A child holding the visible cards in a stored optional.
  struct Drawer: Equatable {
    var filtered: Filtered?
  }
}

extension CaseKey<FilteredBoard.Shown, FilteredBoard.Filtered> {
  static var filtered: Self {
    Self(FilteredBoard.Shown.filtered) { if case .filtered(let f) = $0 { f } else { nil } }
  }
}

/// A board whose cards lie in a stored optional child: its row stores follow a stored
/// collection, as before.
struct StoredFilteredBoard: Reducer {
  struct Cards: Reducer {
    var body: some Reducer<FilteredBoard.Filtered, FilteredBoard.Action> {
      EmptyReducer().forEach(\.cards, action: .cards) { FilteredBoard.Card() }
    }
  }

  struct State: Equatable {
    var child: FilteredBoard.Filtered? = FilteredBoard.Filtered(
      cards: FilteredBoard.State().cards)
    var ticks = 0
  }

  enum Action: Sendable, Equatable {
    case child(FilteredBoard.Action)
    case removeCard(Int)
    case tick
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .removeCard(let id): _ = state.child?.cards.remove(id: id)
      case .tick: state.ticks += 1
      case .child: break
      }
      return .none
    }
    .ifLet(\.child, action: .child) { Cards() }
  }
}

extension CaseKey<StoredFilteredBoard.Action, FilteredBoard.Action> {
  static var child: Self {
    Self(StoredFilteredBoard.Action.child) { if case .child(let a) = $0 { a } else { nil } }
  }
}
