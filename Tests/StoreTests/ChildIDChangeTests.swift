import Effects
import Testing

@testable import Store

/// Checks an optional `Identifiable` child that changes its own id, as a draft given its
/// server id does: the effects it started under the old id end, those it starts with the
/// change go on, and its old store is let go; a stack screen, known by its push rather than its
/// state's id, keeps its effects.
@MainActor
@Suite struct ChildIDChangeTests {
  struct Draft: Reducer {
    struct State: Equatable, Identifiable, Sendable {
      var id: Int
      var saves = 0
    }
    enum Action: Sendable, Equatable {
      case save
      case saved
      case assignID(Int)
      case assignIDAndSave(Int)
    }
    let clock: TestClock
    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .save:
        return .run { [clock] send in
          try await clock.sleep(for: .seconds(1))
          send(.saved)
        }
      case .saved:
        state.saves += 1
        return .none
      case .assignID(let id):
        state.id = id
        return .none
      case .assignIDAndSave(let id):
        state.id = id
        return .run { [clock] send in
          try await clock.sleep(for: .seconds(1))
          send(.saved)
        }
      }
    }
  }

  struct Parent: Reducer {
    struct State: Equatable {
      var draft: Draft.State?
      var path = StackState<Draft.State>()
    }
    enum Action: Sendable, Equatable {
      case draft(Draft.Action)
      case path(StackActionOf<Draft>)
      case present(Int)
      case push(Int)
    }
    let clock: TestClock
    var body: some ReducerOf<Self> {
      Reduce { state, action in
        switch action {
        case .present(let id): state.draft = Draft.State(id: id)
        case .push(let id): state.path.append(Draft.State(id: id))
        case .draft, .path: break
        }
        return .none
      }
      .ifLet(\.draft, action: .draft) { Draft(clock: clock) }
      .navigationStack(\.path, action: .path) { Draft(clock: clock) }
    }
  }

  let clock = TestClock()

  func makeHarness(_ warnings: WarningLog) -> Harness<Parent> {
    let harness = Harness(
      initialState: Parent.State(), warnings: warnings.handler, reducer: Parent(clock: clock))
    harness.send(.present(5))
    return harness
  }

  @Test func aChildChangingItsOwnIDEndsItsEarlierEffects() async {
    let warnings = WarningLog()
    let harness = makeHarness(warnings)
    harness.send(.draft(.save))
    harness.send(.draft(.assignID(6)))
    #expect(clock.sleeperCount == 0)
    await clock.advance(by: .seconds(1))
    #expect(harness.state.draft?.saves == 0)
  }

  @Test func aChildChangingItsOwnIDKeepsTheEffectItStartsThen() async {
    let warnings = WarningLog()
    let harness = makeHarness(warnings)
    harness.send(.draft(.save))
    harness.send(.draft(.assignIDAndSave(6)))
    #expect(clock.sleeperCount == 1)
    await clock.advance(by: .seconds(1))
    #expect(harness.state.draft == Draft.State(id: 6, saves: 1))
    #expect(warnings.messages.isEmpty)
  }

  @Test func theStoreOfAChildThatChangedItsIDIsLetGoAndANewOneMade() async {
    let warnings = WarningLog()
    let harness = makeHarness(warnings)
    let old = harness.store.scope(state: \.draft, action: .draft)!
    _ = old.saves
    harness.send(.draft(.assignIDAndSave(6)))
    let new = harness.store.scope(state: \.draft, action: .draft)
    #expect(new != nil && new !== old)
    #expect(new?.id == 6)
    // The old store keeps the id it was made for (`Store.id`'s documentation).
    #expect(old.id == 5)
    old.send(.save)
    harness.settle()
    #expect(clock.sleeperCount == 1)
    #expect(warnings.messages.count == 1)
  }

  @Test func aScreenChangingItsOwnStateIDKeepsItsEffects() async {
    let warnings = WarningLog()
    let harness = makeHarness(warnings)
    harness.send(.push(1))
    let screen = harness.store.scope(state: \.path, action: .path)[id: 0]
    #expect(screen?.id == 1)
    harness.send(.path(.element(id: 0, action: .save)))
    harness.send(.path(.element(id: 0, action: .assignID(2))))
    // The same store, known by its push, now has its state's new id.
    #expect(harness.store.scope(state: \.path, action: .path)[id: 0] === screen)
    #expect(screen?.id == 2)
    #expect(clock.sleeperCount == 1)
    await clock.advance(by: .seconds(1))
    #expect(harness.state.path[id: 0] == Draft.State(id: 2, saves: 1))
    #expect(warnings.messages.isEmpty)
  }
}

extension CaseKey<ChildIDChangeTests.Parent.Action, ChildIDChangeTests.Draft.Action> {
  static var draft: Self {
    Self(ChildIDChangeTests.Parent.Action.draft) { if case .draft(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<ChildIDChangeTests.Parent.Action, StackActionOf<ChildIDChangeTests.Draft>> {
  static var path: Self {
    Self(ChildIDChangeTests.Parent.Action.path) { if case .path(let a) = $0 { a } else { nil } }
  }
}
