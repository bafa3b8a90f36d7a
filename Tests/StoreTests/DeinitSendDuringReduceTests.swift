import Effects
import Testing

@testable import Store

/// An object in the state whose `deinit` runs code: here, a send to a store.
private final class Token: Sendable, Equatable {
  let onDeinit: @Sendable () -> Void

  init(_ onDeinit: @escaping @Sendable () -> Void) {
    self.onDeinit = onDeinit
  }

  deinit { onDeinit() }

  static func == (lhs: Token, rhs: Token) -> Bool { lhs === rhs }
}

/// A state that holds a token, an optional child, an enum child and a list of cards with a
/// filtered view, and actions that let the token go, alone or with a change to a child.
private struct Holder: Reducer {
  struct Child: Reducer {
    struct State: Equatable {
      var bumps = 0
    }
    enum Action: Sendable, Equatable { case bump }
    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      state.bumps += 1
      return .none
    }
  }

  /// An enum child, whose `editing` case runs a child.
  struct Mode: Reducer {
    enum State: Equatable {
      case editing(Child.State)
      case idle
    }
    enum Action: Sendable, Equatable { case editing(Child.Action) }
    static var editingCase: CaseKey<State, Child.State> {
      CaseKey(State.editing) { if case .editing(let s) = $0 { s } else { nil } }
    }
    static var editingKey: CaseKey<Action, Child.Action> {
      CaseKey(Action.editing) { if case .editing(let a) = $0 { a } else { nil } }
    }
    var body: some ReducerOf<Self> {
      EmptyReducer().ifCaseLet(Self.editingCase, action: Self.editingKey) { Child() }
    }
  }

  struct State: Equatable {
    var token: Token?
    var child: Child.State? = Child.State()
    var mode = Mode.State.editing(Child.State())
    var cards = FilteredBoard.State().cards
    var visibleCards: IdentifiedArrayOf<FilteredBoard.Card.State> { cards.filter(\.isVisible) }
  }

  enum Action: Sendable {
    case hold(Token)
    case letGo
    case letGoAndDismiss
    case letGoAndLeaveCase
    case letGoAndRemove(Int)
    case letGoAndHide(Int)
    case child(Child.Action)
    case mode(Mode.Action)
    case cards(IdentifiedActionOf<FilteredBoard.Card>)
  }

  static var childKey: CaseKey<Action, Child.Action> {
    CaseKey(Action.child) { if case .child(let a) = $0 { a } else { nil } }
  }
  static var modeKey: CaseKey<Action, Mode.Action> {
    CaseKey(Action.mode) { if case .mode(let a) = $0 { a } else { nil } }
  }
  static var cardsKey: CaseKey<Action, IdentifiedActionOf<FilteredBoard.Card>> {
    CaseKey(Action.cards) { if case .cards(let a) = $0 { a } else { nil } }
  }

  var body: some ReducerOf<Self> {
    Scope(state: \.mode, action: Self.modeKey) { Mode() }
    Reduce { state, action in
      switch action {
      case .hold(let token): state.token = token
      case .letGo: state.token = nil
      case .letGoAndDismiss:
        state.child = nil
        state.token = nil
      case .letGoAndLeaveCase:
        state.mode = .idle
        state.token = nil
      case .letGoAndRemove(let id):
        state.cards.remove(id: id)
        state.token = nil
      case .letGoAndHide(let id):
        state.cards[id: id]?.isVisible = false
        state.token = nil
      case .child, .mode, .cards: break
      }
      return .none
    }
    .ifLet(\.child, action: Self.childKey) { Child() }
    .forEach(\.cards, action: Self.cardsKey) { FilteredBoard.Card() }
  }
}

/// A value the reducer lets go (a token set to `nil`) whose `deinit` sends an action to a
/// derived store (an optional child's, an enum case's, a row's): the store looked at its
/// state to tell whether it was still its own, which reads the root's state while the
/// reducer changes it, and the program stopped ("A store of ... was read while its reducer
/// was changing the state"). A send to the root store, or to a store scoped by key path,
/// from the same `deinit` was queued and reduced after the reducer, as every action sent while
/// a reducer runs is. Now a derived store's is too, and whether its state is still its own is
/// asked just before it is reduced.
@MainActor
@Suite struct DeinitSendDuringReduceTests {
  fileprivate func holder(_ warnings: WarningLog) -> Harness<Holder> {
    let harness = Harness(
      initialState: Holder.State(), warnings: warnings.handler, reducer: Holder())
    // The harness's record of the actions it reduced would hold the token, which then never
    // goes.
    harness.core.didReduce = nil
    return harness
  }

  /// Has the reducer let go of a token that sends through `send` as it goes, then reduces
  /// `action`, which lets the token go.
  fileprivate func letGo(
    _ harness: Harness<Holder>, with action: Holder.Action,
    sending send: @escaping @MainActor @Sendable () -> Void
  ) {
    harness.send(.hold(Token { MainActor.assumeIsolated { send() } }))
    harness.send(action)
  }

  @Test func aSendToAnOptionalChildsStoreIsQueuedAndReduced() throws {
    let warnings = WarningLog()
    let harness = holder(warnings)
    let child = try #require(harness.store.scope(state: \.child, action: Holder.childKey))
    letGo(harness, with: .letGo) { [weak child] in child?.send(.bump) }
    #expect(harness.state.child?.bumps == 1)
    #expect(child.bumps == 1)
    #expect(warnings.messages.isEmpty, "\(warnings.messages)")
  }

  @Test func aSendToAnEnumCasesStoreIsQueuedAndReduced() throws {
    let warnings = WarningLog()
    let harness = holder(warnings)
    let mode = harness.store.scope(state: \.mode, action: Holder.modeKey)
    let editing = try #require(
      mode.scope(state: Holder.Mode.editingCase, action: Holder.Mode.editingKey))
    letGo(harness, with: .letGo) { [weak editing] in editing?.send(.bump) }
    #expect(harness.state.mode == .editing(Holder.Child.State(bumps: 1)))
    #expect(editing.bumps == 1)
    #expect(warnings.messages.isEmpty, "\(warnings.messages)")
  }

  @Test func aSendToARowsStoreIsQueuedAndReduced() throws {
    let warnings = WarningLog()
    let harness = holder(warnings)
    let card = try #require(harness.store.scope(state: \.cards, action: Holder.cardsKey)[id: 2])
    letGo(harness, with: .letGo) { [weak card] in card?.send(.rename("from deinit")) }
    #expect(harness.state.cards[id: 2]?.name == "from deinit")
    #expect(card.name == "from deinit")
    #expect(warnings.messages.isEmpty, "\(warnings.messages)")
  }

  /// The action that lets the token go also dismisses the child: the send, asked about once
  /// the reducer is done, reaches the `ifLet`, which refuses it with its usual warning.
  @Test func aSendToAChildTheSameActionDismissesIsRefusedWithAWarning() throws {
    let warnings = WarningLog()
    let harness = holder(warnings)
    let child = try #require(harness.store.scope(state: \.child, action: Holder.childKey))
    letGo(harness, with: .letGoAndDismiss) { [weak child] in child?.send(.bump) }
    #expect(harness.state.child == nil)
    #expect(warnings.messages.count == 1)
    #expect(warnings.messages.first?.contains("bump") == true, "\(warnings.messages)")
  }

  @Test func aSendToACaseTheSameActionLeavesIsRefusedWithAWarning() throws {
    let warnings = WarningLog()
    let harness = holder(warnings)
    let mode = harness.store.scope(state: \.mode, action: Holder.modeKey)
    let editing = try #require(
      mode.scope(state: Holder.Mode.editingCase, action: Holder.Mode.editingKey))
    letGo(harness, with: .letGoAndLeaveCase) { [weak editing] in editing?.send(.bump) }
    #expect(harness.state.mode == .idle)
    #expect(warnings.messages.count == 1)
    #expect(warnings.messages.first?.contains("bump") == true, "\(warnings.messages)")
  }

  @Test func aSendToARowTheSameActionRemovesIsRefusedWithAWarning() throws {
    let warnings = WarningLog()
    let harness = holder(warnings)
    let card = try #require(harness.store.scope(state: \.cards, action: Holder.cardsKey)[id: 2])
    letGo(harness, with: .letGoAndRemove(2)) { [weak card] in card?.send(.rename("late")) }
    #expect(harness.state.cards[id: 2] == nil)
    #expect(warnings.messages.count == 1)
    #expect(warnings.messages.first?.contains("id 2") == true, "\(warnings.messages)")
  }

  /// A row that leaves a filtered view in the same action: the `forEach`, over the whole
  /// collection, would find it and change it, while its store shows its last state. The store
  /// ignores the send with a warning, as it does once its check after the action has seen the
  /// row leave.
  @Test func aSendToARowThatLeavesAFilteredViewInTheSameActionIsIgnoredWithAWarning() throws {
    let warnings = WarningLog()
    let harness = holder(warnings)
    let card = try #require(
      harness.store.scope(state: \.visibleCards, action: Holder.cardsKey)[id: 2])
    #expect(card.name == "card 2")
    letGo(harness, with: .letGoAndHide(2)) { [weak card] in card?.send(.rename("late")) }
    #expect(harness.state.cards[id: 2]?.name == "card 2")
    #expect(card.name == "card 2")
    #expect(warnings.messages.count == 1)
    #expect(
      warnings.messages.first?.contains("no longer in the view of the collection") == true,
      "\(warnings.messages)")
  }
}
