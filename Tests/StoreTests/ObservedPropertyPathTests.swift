import Effects
import Testing

@testable import Store

/// Wraps a value as it is: a property wrapper whose key path goes through its accessors.
@propertyWrapper
struct PassThrough<Value: Equatable & Sendable>: Equatable, Sendable {
  var wrappedValue: Value
}

/// A row whose effect runs until it ticks.
private typealias TickingRow = AncestorRemovalTests.Ticker

/// A list of ticking rows, run by `forEach`.
private struct TickingShelf: Reducer {
  struct State: Equatable, Sendable {
    var rows: IdentifiedArrayOf<TickingRow.State> = [TickingRow.State(id: 1)]
  }
  enum Action: Sendable { case rows(IdentifiedAction<Int, TickingRow.Action>) }
  let clock: TestClock
  var body: some Reducer<State, Action> {
    EmptyReducer().forEach(\.rows, action: .rows) { TickingRow(clock: clock) }
  }
}

extension CaseKey<TickingShelf.Action, IdentifiedAction<Int, TickingRow.Action>> {
  fileprivate static var rows: Self {
    Self(TickingShelf.Action.rows) { if case .rows(let a) = $0 { a } else { nil } }
  }
}

/// Shelves behind stored properties with an observer and behind property wrappers, each run by
/// a `Scope`; the scopes of the `…Safe` ones say they are safe to read (a mark every scope
/// through an equal key path shares, so the others are never marked). The root removes their
/// rows, above the scopes.
private struct ObservedShelves: Reducer {
  struct State: Equatable, Sendable {
    var observed = TickingShelf.State() { didSet { edits += 1 } }
    var observedSafe = TickingShelf.State() { willSet { edits += 1 } }
    @PassThrough var wrapped = TickingShelf.State()
    @PassThrough var wrappedSafe = TickingShelf.State()
    var edits = 0
  }
  enum Action: Sendable {
    case observed(TickingShelf.Action), observedSafe(TickingShelf.Action)
    case wrapped(TickingShelf.Action), wrappedSafe(TickingShelf.Action)
    case dropRows
  }
  let clock: TestClock
  var body: some Reducer<State, Action> {
    Reduce { state, action in
      if case .dropRows = action {
        state.observed.rows.removeAll()
        state.observedSafe.rows.removeAll()
        state.wrapped.rows.removeAll()
        state.wrappedSafe.rows.removeAll()
      }
      return .none
    }
    Scope(state: \.observed, action: .observed) { TickingShelf(clock: clock) }
    Scope(state: \.observedSafe, action: .observedSafe, computedStateIsSafeToRead: true) {
      TickingShelf(clock: clock)
    }
    Scope(state: \.wrapped, action: .wrapped) { TickingShelf(clock: clock) }
    Scope(state: \.wrappedSafe, action: .wrappedSafe, computedStateIsSafeToRead: true) {
      TickingShelf(clock: clock)
    }
  }
}

extension CaseKey<ObservedShelves.Action, TickingShelf.Action> {
  fileprivate static var observed: Self {
    Self(ObservedShelves.Action.observed) { if case .observed(let a) = $0 { a } else { nil } }
  }
  fileprivate static var observedSafe: Self {
    Self(ObservedShelves.Action.observedSafe) {
      if case .observedSafe(let a) = $0 { a } else { nil }
    }
  }
  fileprivate static var wrapped: Self {
    Self(ObservedShelves.Action.wrapped) { if case .wrapped(let a) = $0 { a } else { nil } }
  }
  fileprivate static var wrappedSafe: Self {
    Self(ObservedShelves.Action.wrappedSafe) {
      if case .wrappedSafe(let a) = $0 { a } else { nil }
    }
  }
}

/// Rows stored behind an observer, each bumped by its own reducer; the root removes them.
private struct ObservedRows: Reducer {
  struct State: Equatable, Sendable {
    var rows: IdentifiedArrayOf<TickingRow.State> = [TickingRow.State(id: 1)] {
      didSet { edits += 1 }
    }
    var edits = 0
  }
  enum Action: Sendable {
    case rows(IdentifiedAction<Int, TickingRow.Action>), remove(Int), add(Int)
  }
  let clock: TestClock
  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .remove(let id): state.rows.remove(id: id)
      case .add(let id): state.rows.append(TickingRow.State(id: id))
      case .rows: break
      }
      return .none
    }
    .forEach(\.rows, action: .rows) { TickingRow(clock: clock) }
  }
}

extension CaseKey<ObservedRows.Action, IdentifiedAction<Int, TickingRow.Action>> {
  fileprivate static var rows: Self {
    Self(ObservedRows.Action.rows) { if case .rows(let a) = $0 { a } else { nil } }
  }
}

/// A stored property with a `didSet` or `willSet` observer, or one a property wrapper holds, is
/// reached through its accessors, as a computed property is: a key path cannot tell them
/// apart (`MemoryLayout.offset(of:)` is `nil` for all three). The store follows such a path
/// between actions only when its `Scope` says it is safe to read, as it does for a computed
/// property (see `Scope.init(state:action:computedStateIsSafeToRead:child:)`).
@MainActor
@Suite struct ObservedPropertyPathTests {
  let clock = TestClock()

  private func harness() -> Harness<ObservedShelves> {
    Harness(
      initialState: ObservedShelves.State(), warnings: WarningLog().handler,
      reducer: ObservedShelves(clock: clock))
  }

  @Test func thePathsOfObservedAndWrappedPropertiesHaveNoOffset() {
    #expect(MemoryLayout<ObservedShelves.State>.offset(of: \.edits) != nil)
    #expect(MemoryLayout<ObservedShelves.State>.offset(of: \.observed) == nil)
    #expect(MemoryLayout<ObservedShelves.State>.offset(of: \.observedSafe) == nil)
    #expect(MemoryLayout<ObservedShelves.State>.offset(of: \.wrapped) == nil)
  }

  @Test func aRowRemovedAboveAScopeThroughAnObservedPropertyRunsOnUnlessMarkedSafe() {
    let harness = harness()
    harness.send(.observed(.rows(.element(id: 1, action: .start))))
    harness.send(.observedSafe(.rows(.element(id: 1, action: .start))))
    #expect(clock.sleeperCount == 2)
    harness.send(.dropRows)
    #expect(clock.sleeperCount == 1, "only the marked scope's row had its effect ended")
    #expect(harness.state.edits == 4, "each observer ran at each write, as in a plain reduce")
  }

  @Test func aRowRemovedAboveAScopeThroughAWrappedPropertyRunsOnUnlessMarkedSafe() {
    let harness = harness()
    harness.send(.wrapped(.rows(.element(id: 1, action: .start))))
    harness.send(.wrappedSafe(.rows(.element(id: 1, action: .start))))
    #expect(clock.sleeperCount == 2)
    harness.send(.dropRows)
    #expect(clock.sleeperCount == 1, "only the marked scope's row had its effect ended")
  }

  /// A list of rows behind an observer, and the store of its row 1, read once.
  private func observedRowOne(
    warnings: WarningLog
  ) throws -> (Harness<ObservedRows>, Store<TickingRow.State, TickingRow.Action>) {
    let harness = Harness(
      initialState: ObservedRows.State(), warnings: warnings.handler,
      reducer: ObservedRows(clock: clock))
    let row = try #require(harness.store.scope(state: \.rows, action: .rows)[id: 1])
    #expect(row.ticks == 0)
    return (harness, row)
  }

  /// The store of a row of a collection behind an observer takes it, as a computed view, for
  /// a collection it cannot read in place: once the row is removed, its sends are ignored,
  /// with a warning that says which kinds of property those are, the observed one included
  /// (it named only a computed property and an optional chain, which the path has neither of).
  @Test func aRemovedRowOfAnObservedCollectionIsNamedAsSuch() throws {
    let warnings = WarningLog()
    let (harness, row) = try observedRowOne(warnings: warnings)
    harness.send(.remove(1))
    row.send(.tick)
    #expect(warnings.messages.count == 1)
    #expect(
      warnings.messages.first?.contains(
        "the element with id 1, which is no longer in the view of the collection the store was"
      ) == true, "\(warnings.messages)")
    #expect(
      warnings.messages.first?.contains("a property with an observer or a wrapper") == true,
      "\(warnings.messages)")
  }

  /// The same row added back: the removed row's store says the row left or was removed, and
  /// names the observed property among the kinds of path it cannot read in place.
  @Test func aRowOfAnObservedCollectionAddedBackIsNamedAsSuch() throws {
    let warnings = WarningLog()
    let (harness, row) = try observedRowOne(warnings: warnings)
    harness.send(.remove(1))
    harness.send(.add(1))
    row.send(.tick)
    #expect(harness.state.rows[id: 1]?.ticks == 0)
    #expect(warnings.messages.count == 1)
    #expect(
      warnings.messages.first?.contains("a property with an observer or a wrapper") == true,
      "\(warnings.messages)")
  }
}
