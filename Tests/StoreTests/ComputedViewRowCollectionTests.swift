import Effects
import Testing

@testable import Store

/// A collection inside a row of a computed view, where the view builds each row with a view
/// of its own (a card with only its visible tasks): the row's store keeps a copy of the row
/// as the view built it, and took the tasks in it for the stored ones. A task that left the
/// view had its sends go on, with no warning, to the `forEach` over the card's whole task
/// list, which changed the task while its store showed its last state; and the tasks, and the
/// row's whole state, read through the row's store were reported changed after every action.
@MainActor
@Suite struct ComputedViewRowCollectionTests {
  struct Board: Reducer {
    struct Task: Reducer {
      struct State: Equatable, Identifiable, Sendable {
        let id: Int
        var name = ""
        var isVisible = true
      }
      enum Action: Sendable, Equatable {
        case rename(String)
        case hide
      }
      func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .rename(let name): state.name = name
        case .hide: state.isVisible = false
        }
        return .none
      }
    }

    struct Card: Reducer {
      struct State: Equatable, Identifiable, Sendable {
        let id: Int
        var tasks: IdentifiedArrayOf<Task.State>
      }
      enum Action: Sendable, Equatable {
        case tasks(IdentifiedActionOf<Task>)
      }
      var body: some ReducerOf<Self> {
        EmptyReducer().forEach(\.tasks, action: .tasks) { Task() }
      }
    }

    struct State: Equatable {
      var cards: IdentifiedArrayOf<Card.State> = [
        Card.State(
          id: 1, tasks: [Task.State(id: 1, name: "task 1"), Task.State(id: 2, name: "task 2")])
      ]
      var ticks = 0

      /// Each card with only its visible tasks: built anew at each read.
      var visible: IdentifiedArrayOf<Card.State> {
        IdentifiedArrayOf<Card.State>(
          cards.map { card in
            var card = card
            card.tasks = card.tasks.filter(\.isVisible)
            return card
          })
      }
    }

    enum Action: Sendable, Equatable {
      case cards(IdentifiedActionOf<Card>)
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

  @Test func aTaskThatLeavesTheViewIgnoresItsSendsWithAWarning() throws {
    let warnings = WarningLog()
    let harness = Harness(
      initialState: Board.State(), warnings: warnings.handler, reducer: Board())
    let card = try #require(harness.store.scope(state: \.visible, action: .cards)[id: 1])
    let task = try #require(card.scope(state: \.tasks, action: .tasks)[id: 2])
    harness.send(.cards(.element(id: 1, action: .tasks(.element(id: 2, action: .hide)))))
    #expect(card.scope(state: \.tasks, action: .tasks)[id: 2] == nil)
    task.send(.rename("typed while leaving"))
    #expect(harness.state.cards[id: 1]?.tasks[id: 2]?.name == "task 2")
    #expect(task.name == "task 2")
    #expect(warnings.messages.count == 1, "\(warnings.messages)")
    #expect(
      warnings.messages.first?.contains("which is no longer in the view") == true,
      "\(warnings.messages)")
  }

  @Test func anUnrelatedActionNotifiesNoObserverOfTheRow() throws {
    let harness = Harness(initialState: Board.State(), reducer: Board())
    let card = try #require(harness.store.scope(state: \.visible, action: .cards)[id: 1])
    let tasks = Tracker { _ = card.tasks }
    let whole = Tracker { _ = card.state }
    harness.send(.tick)
    #expect(tasks.firings == 0)
    #expect(whole.firings == 0)
    harness.send(.cards(.element(id: 1, action: .tasks(.element(id: 1, action: .rename("r"))))))
    #expect(tasks.firings == 1)
    #expect(whole.firings == 1)
  }
}

extension CaseKey<
  ComputedViewRowCollectionTests.Board.Action,
  IdentifiedActionOf<ComputedViewRowCollectionTests.Board.Card>
> {
  static var cards: Self {
    Self(ComputedViewRowCollectionTests.Board.Action.cards) {
      if case .cards(let a) = $0 { a } else { nil }
    }
  }
}

extension CaseKey<
  ComputedViewRowCollectionTests.Board.Card.Action,
  IdentifiedActionOf<ComputedViewRowCollectionTests.Board.Task>
> {
  static var tasks: Self {
    Self(ComputedViewRowCollectionTests.Board.Card.Action.tasks) {
      if case .tasks(let a) = $0 { a } else { nil }
    }
  }
}
