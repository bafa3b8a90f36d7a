import Effects
import Testing

@testable import Store

/// An optional or case child whose id is not equal to itself (an id holding a `Double` that is
/// NaN): while its id keeps the same bits, it is, to the store and its reducers, the child that
/// was there. Its store is kept, its sends reach it, its effects run until it goes, and its
/// presence does not wake observers at each action; a child whose id differs from it in
/// another part (the reviewer's probe), or whose NaN has other bits, is another child.
@MainActor
@Suite struct SelfUnequalChildIDTests {
  /// An id with a NaN in it: not equal to itself.
  struct Tag: Hashable, Sendable {
    var list: Int
    var score: Double
  }

  struct Reading: Reducer {
    struct State: Equatable, Identifiable, Sendable {
      var id: Tag
      var samples = 0
    }
    enum Action: Sendable, Equatable {
      case sample
      case sampled
      case relabel(Tag)
    }
    let clock: TestClock
    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .sample:
        return .run { [clock] send in
          try await clock.sleep(for: .seconds(1))
          send(.sampled)
        }
      case .sampled:
        state.samples += 1
        return .none
      case .relabel(let id):
        state.id = id
        return .none
      }
    }
  }

  struct Slot: Reducer {
    enum State: Equatable {
      case reading(Reading.State)
      case empty
    }
    enum Action: Sendable, Equatable {
      case reading(Reading.Action)
    }
    let clock: TestClock
    var body: some ReducerOf<Self> {
      EmptyReducer()
        .ifCaseLet(.reading, action: .reading) { Reading(clock: clock) }
    }
  }

  struct Parent: Reducer {
    struct State: Equatable {
      var reading: Reading.State?
      var slot = Slot.State.empty
      var ticks = 0
    }
    enum Action: Sendable, Equatable {
      case reading(Reading.Action)
      case slot(Slot.Action)
      case present(Tag)
      case fill(Tag)
      case close
      case tick
    }
    let clock: TestClock
    var body: some ReducerOf<Self> {
      Scope(state: \.slot, action: .slot) { Slot(clock: clock) }
      Reduce { state, action in
        switch action {
        case .present(let id): state.reading = Reading.State(id: id)
        case .fill(let id): state.slot = .reading(Reading.State(id: id))
        case .close:
          state.reading = nil
          state.slot = .empty
        case .tick: state.ticks += 1
        case .reading, .slot: break
        }
        return .none
      }
      .ifLet(\.reading, action: .reading) { Reading(clock: clock) }
    }
  }

  let clock = TestClock()
  let first = Tag(list: 1, score: .nan)

  func makeHarness(_ warnings: WarningLog) -> Harness<Parent> {
    let harness = Harness(
      initialState: Parent.State(), warnings: warnings.handler, reducer: Parent(clock: clock))
    harness.send(.present(first))
    harness.send(.fill(first))
    return harness
  }

  @Test func anOptionalChildKeepsItsStoreAndItsSendsReachIt() {
    let warnings = WarningLog()
    let harness = makeHarness(warnings)
    let first = harness.store.scope(state: \.reading, action: .reading)
    harness.send(.tick)
    let second = harness.store.scope(state: \.reading, action: .reading)
    #expect(first != nil && first === second)
    first?.send(.sampled)
    harness.settle()
    #expect(harness.state.reading?.samples == 1)
    #expect(warnings.messages.isEmpty)
  }

  @Test func aCaseChildKeepsItsStoreAndItsSendsReachIt() {
    let warnings = WarningLog()
    let harness = makeHarness(warnings)
    let first = harness.store.scope(state: \.slot, action: .slot).scope(
      state: .reading, action: .reading)
    harness.send(.tick)
    let second = harness.store.scope(state: \.slot, action: .slot).scope(
      state: .reading, action: .reading)
    #expect(first != nil && first === second)
    first?.send(.sampled)
    harness.settle()
    guard case .reading(let reading) = harness.state.slot else {
      Issue.record("the case child is gone")
      return
    }
    #expect(reading.samples == 1)
    #expect(warnings.messages.isEmpty)
  }

  @Test func theChildrensEffectsRunWhileTheyAreThere() async {
    let warnings = WarningLog()
    let harness = makeHarness(warnings)
    harness.send(.reading(.sample))
    harness.send(.slot(.reading(.sample)))
    harness.send(.tick)
    #expect(clock.sleeperCount == 2)
    await clock.advance(by: .seconds(1))
    harness.settle()
    #expect(harness.state.reading?.samples == 1)
    guard case .reading(let reading) = harness.state.slot else {
      Issue.record("the case child is gone")
      return
    }
    #expect(reading.samples == 1)
    #expect(warnings.messages.isEmpty)
  }

  @Test func theChildrensEffectsEndWhenTheyGo() async {
    let warnings = WarningLog()
    let harness = makeHarness(warnings)
    harness.send(.reading(.sample))
    harness.send(.slot(.reading(.sample)))
    #expect(clock.sleeperCount == 2)
    harness.send(.close)
    #expect(clock.sleeperCount == 0)
    await clock.advance(by: .seconds(1))
    #expect(harness.state.reading == nil)
    #expect(warnings.messages.isEmpty)
  }

  @Test func aChildRelabelledWithTheSameBitsIsTheSameChild() async {
    let warnings = WarningLog()
    let harness = makeHarness(warnings)
    let before = harness.store.scope(state: \.reading, action: .reading)
    harness.send(.reading(.sample))
    harness.send(.reading(.relabel(Tag(list: 1, score: .nan))))
    #expect(clock.sleeperCount == 1)
    await clock.advance(by: .seconds(1))
    harness.settle()
    #expect(harness.state.reading?.samples == 1)
    #expect(harness.store.scope(state: \.reading, action: .reading) === before)
  }

  @Test(arguments: [
    Tag(list: 2, score: .nan), Tag(list: 1, score: -.nan), Tag(list: 1, score: 4),
  ])
  func aChildWhoseIDChangesOtherwiseIsANewChild(_ id: Tag) async {
    let warnings = WarningLog()
    let harness = makeHarness(warnings)
    let before = harness.store.scope(state: \.reading, action: .reading)
    harness.send(.reading(.sample))
    harness.send(.reading(.relabel(id)))
    #expect(clock.sleeperCount == 0)
    let after = harness.store.scope(state: \.reading, action: .reading)
    #expect(after != nil && after !== before)
  }

  /// Row 1's save does not land in row 2, which has a NaN in its id too.
  @Test func aChildReplacedByOneWhoseIDDiffersInAnotherPartIsANewChild() async {
    let warnings = WarningLog()
    let harness = makeHarness(warnings)
    let before = harness.store.scope(state: \.reading, action: .reading)
    harness.send(.reading(.sample))
    harness.send(.present(Tag(list: 2, score: .nan)))
    #expect(clock.sleeperCount == 0)
    await clock.advance(by: .seconds(1))
    harness.settle()
    #expect(harness.state.reading?.samples == 0)
    let after = harness.store.scope(state: \.reading, action: .reading)
    #expect(after != nil && after !== before)
    before?.send(.sampled)
    harness.settle()
    #expect(harness.state.reading?.samples == 0)
    #expect(warnings.messages.count == 1)
  }

  @Test func thePresenceOfAChildDoesNotWakeObserversAtEachAction() {
    let harness = makeHarness(WarningLog())
    let optional = ProbeView { _ = harness.store.scope(state: \.reading, action: .reading) }
    let enumCase = ProbeView {
      _ = harness.store.scope(state: \.slot, action: .slot).scope(state: .reading, action: .reading)
    }
    harness.send(.tick)
    #expect(optional.firings == 0)
    #expect(enumCase.firings == 0)
  }
}

extension CaseKey<SelfUnequalChildIDTests.Parent.Action, SelfUnequalChildIDTests.Reading.Action> {
  static var reading: Self {
    Self(SelfUnequalChildIDTests.Parent.Action.reading) {
      if case .reading(let a) = $0 { a } else { nil }
    }
  }
}

extension CaseKey<SelfUnequalChildIDTests.Parent.Action, SelfUnequalChildIDTests.Slot.Action> {
  static var slot: Self {
    Self(SelfUnequalChildIDTests.Parent.Action.slot) {
      if case .slot(let a) = $0 { a } else { nil }
    }
  }
}

extension CaseKey<SelfUnequalChildIDTests.Slot.Action, SelfUnequalChildIDTests.Reading.Action> {
  static var reading: Self {
    Self(SelfUnequalChildIDTests.Slot.Action.reading) {
      if case .reading(let a) = $0 { a } else { nil }
    }
  }
}

extension CaseKey<SelfUnequalChildIDTests.Slot.State, SelfUnequalChildIDTests.Reading.State> {
  static var reading: Self {
    Self(SelfUnequalChildIDTests.Slot.State.reading) {
      if case .reading(let s) = $0 { s } else { nil }
    }
  }
}
