import Effects
import Testing

@testable import Store

/// A tab given the app's shared rows through a computed property, and the app, which can
/// remove rows above the tab's `forEach` (signing out).
struct Shelf: Reducer {
  struct State: Equatable {
    var rows: IdentifiedArrayOf<Row.State> = []
    var isCompact = false
  }
  enum Action: Sendable, Equatable { case rows(IdentifiedActionOf<Row>) }
  let clock: TestClock
  var body: some Reducer<State, Action> {
    EmptyReducer().forEach(\.rows, action: Action.rowsKey) { Row(clock: clock) }
  }
}

extension Shelf.Action {
  static var rowsKey: CaseKey<Self, IdentifiedActionOf<Row>> {
    CaseKey(Self.rows) { if case .rows(let a) = $0 { a } else { nil } }
  }
}

struct ShelfApp: Reducer {
  struct State: Equatable {
    var rows: IdentifiedArrayOf<Row.State> = [Row.State(id: 1), Row.State(id: 2)]
    var shelfIsCompact = false
    /// The rows without row 1, made in an earlier action than the one that sets them.
    var staged: IdentifiedArrayOf<Row.State>?
    var shelf: Shelf.State {
      get { Shelf.State(rows: rows, isCompact: shelfIsCompact) }
      set { (rows, shelfIsCompact) = (newValue.rows, newValue.isCompact) }
    }
    /// The same, for the scope that does not mark it: a key path marked safe to read is
    /// followed wherever a scope uses it.
    var unmarkedShelf: Shelf.State {
      get { shelf }
      set { shelf = newValue }
    }
  }
  enum Action: Sendable, Equatable {
    case shelf(Shelf.Action)
    case signOut
    case stageSignOut
    case applyStagedSignOut
  }
  let clock: TestClock
  let computedStateIsSafeToRead: Bool
  var body: some Reducer<State, Action> {
    if computedStateIsSafeToRead {
      Scope(state: \.shelf, action: Action.shelfKey, computedStateIsSafeToRead: true) {
        Shelf(clock: clock)
      }
    } else {
      Scope(state: \.unmarkedShelf, action: Action.shelfKey) { Shelf(clock: clock) }
    }
    Reduce { state, action in
      switch action {
      case .signOut: state.rows.removeAll(where: { $0.id == 1 })
      case .stageSignOut: state.staged = state.rows.filter { $0.id != 1 }
      case .applyStagedSignOut: if let staged = state.staged { state.rows = staged }
      case .shelf: break
      }
      return .none
    }
  }
}

extension ShelfApp.Action {
  static var shelfKey: CaseKey<Self, Shelf.Action> {
    CaseKey(Self.shelf) { if case .shelf(let a) = $0 { a } else { nil } }
  }
}

@MainActor
@Suite struct ComputedScopeTests {
  let clock = TestClock()

  /// A scope through a computed property that says it is safe to read is followed after each
  /// action: a row the app removes above the tab's `forEach` has its effect ended then, and
  /// the other row's goes on.
  @Test func aRowRemovedAboveAComputedScopeThatIsSafeToReadHasItsEffectsEnded() async {
    let warnings = WarningLog()
    let harness = Harness(
      initialState: ShelfApp.State(), warnings: warnings.handler,
      reducer: ShelfApp(clock: clock, computedStateIsSafeToRead: true))
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

  /// A row set back to an older copy without it, above a computed scope that is safe to
  /// read: no stamp moves, so no walk looks (it reads stored properties), and the action
  /// `catch:` makes of its load's error is dropped when it arrives, as its place is gone:
  /// with a warning naming the error and the action, as when the walk ends the effect. It
  /// was dropped without a word.
  @Test func aCaughtActionOfARowSetBackAboveAComputedScopeIsDroppedWithAWarning() async {
    let warnings = WarningLog()
    let harness = Harness(
      initialState: ShelfApp.State(), warnings: warnings.handler,
      reducer: ShelfApp(clock: clock, computedStateIsSafeToRead: true))
    harness.send(.stageSignOut)
    harness.send(.shelf(.rows(.element(id: 1, action: .failingLoadTapped))))
    harness.send(.applyStagedSignOut)
    await clock.advance(by: .seconds(1))
    harness.settle()
    #expect(harness.state.rows.ids == [2])
    #expect(harness.core.runtime.runningCount == 0)
    #expect(warnings.messages.count == 1, "\(warnings.messages)")
    let warning = warnings.messages.first ?? ""
    #expect(warning.contains("threw an error: the load failed"), "\(warning)")
    #expect(
      warning.contains(
        #"ShelfApp.Action.shelf(.rows(.element(id: 1, action: .loadFailed("the load failed")))), was dropped"#
      ), "\(warning)")
  }

  /// Without it, the store does not read the computed property out of turn: the removed
  /// row's effect runs on, and what it sends is refused with a warning naming the row.
  @Test func withoutItTheEffectRunsOnAndItsActionIsRefusedWithAWarning() async {
    let warnings = WarningLog()
    let harness = Harness(
      initialState: ShelfApp.State(), warnings: warnings.handler,
      reducer: ShelfApp(clock: clock, computedStateIsSafeToRead: false))
    harness.send(.shelf(.rows(.element(id: 1, action: .loadTapped))))
    harness.send(.signOut)
    #expect(clock.sleeperCount == 1)
    await clock.advance(by: .seconds(1))
    harness.settle()
    #expect(harness.state.rows.map(\.loads) == [0])
    #expect(warnings.messages.count == 1)
    #expect(warnings.messages.first?.contains("no element has that id") == true)
  }
}
