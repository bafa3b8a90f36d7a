import Effects
import Testing

@testable import Store

/// Checks rows inside an enum case run by `ifCaseLet`, changed by the root above the
/// `ifCaseLet`: rows the root removes, or undoes away by setting an older copy back, have their
/// effects ended by that action while rows with the same ids elsewhere go on; and a case store
/// kept past its case drives nothing once the case is set again.
@MainActor
@Suite struct EnumCaseRowRemovalTests {
  typealias List = NestedRowList.List

  enum Mode: Equatable, Sendable {
    case list(List.State)
    case empty
  }

  struct ModeFeature: Reducer {
    typealias State = Mode
    enum Action: Sendable, Equatable { case list(List.Action) }
    let clock: TestClock
    var body: some ReducerOf<Self> {
      EmptyReducer<Mode, Action>()
        .ifCaseLet(.list, action: .list) { List(clock: clock) }
    }
  }

  /// Holds the case next to an optional list with the same row ids, and changes the case's
  /// rows itself.
  struct Root: Reducer {
    struct State: Equatable {
      var detail: List.State?
      var mode: Mode = .empty
      var savedRows: IdentifiedArrayOf<NestedRowList.Row.State>?
    }
    enum Action: Sendable, Equatable {
      case detail(List.Action)
      case mode(ModeFeature.Action)
      case removeFromMode(Int)
      case saveModeRows
      case restoreModeRows
      case addToMode(Int)
      case setModeEmpty
      case setModeList([Int])
    }
    let clock: TestClock
    var body: some ReducerOf<Self> {
      Scope(state: \.mode, action: .mode) { ModeFeature(clock: clock) }
      Reduce { state, action in
        switch action {
        case .removeFromMode(let id):
          if case .list(var list) = state.mode {
            list.rows.remove(id: id)
            state.mode = .list(list)
          }
        case .saveModeRows:
          if case .list(let list) = state.mode { state.savedRows = list.rows }
        case .restoreModeRows:
          if case .list(var list) = state.mode, let saved = state.savedRows {
            list.rows = saved
            state.mode = .list(list)
          }
        case .addToMode(let id):
          if case .list(var list) = state.mode {
            list.rows.append(.init(id: id))
            state.mode = .list(list)
          }
        case .setModeEmpty: state.mode = .empty
        case .setModeList(let ids): state.mode = .list(EnumCaseRowRemovalTests.makeList(ids))
        case .detail, .mode: break
        }
        return .none
      }
      .ifLet(\.detail, action: .detail) { List(clock: clock) }
    }
  }

  let clock = TestClock()

  nonisolated static func makeList(_ ids: [Int]) -> List.State {
    var list = List.State()
    for id in ids { list.rows.append(.init(id: id)) }
    return list
  }

  /// Rows 1 and 2 in the case and in the optional list, all loading.
  func makeHarness(_ warnings: WarningLog) -> Harness<Root> {
    var state = Root.State()
    state.detail = Self.makeList([1, 2])
    state.mode = .list(Self.makeList([1, 2]))
    let harness = Harness(
      initialState: state, warnings: warnings.handler, reducer: Root(clock: clock))
    for id in [1, 2] {
      harness.send(.detail(.rows(.element(id: id, action: .load))))
      harness.send(.mode(.list(.rows(.element(id: id, action: .load)))))
    }
    return harness
  }

  func caseLoads(_ harness: Harness<Root>) -> [Int]? {
    guard case .list(let list) = harness.state.mode else { return nil }
    return list.rows.map(\.loads)
  }

  @Test func aRowTheRootRemovesFromTheCaseHasItsEffectEnded() async {
    let warnings = WarningLog()
    let harness = makeHarness(warnings)
    #expect(clock.sleeperCount == 4)
    harness.send(.removeFromMode(2))
    #expect(clock.sleeperCount == 3)
    await clock.advance(by: .seconds(1))
    #expect(caseLoads(harness) == [1])
    #expect(harness.state.detail?.rows.map(\.loads) == [1, 1])
    #expect(warnings.messages.isEmpty)
  }

  @Test func aRowTheRootUndoesAwayFromTheCaseHasItsEffectEnded() async {
    let warnings = WarningLog()
    let harness = makeHarness(warnings)
    harness.send(.saveModeRows)
    harness.send(.addToMode(7))
    harness.send(.mode(.list(.rows(.element(id: 7, action: .load)))))
    #expect(clock.sleeperCount == 5)
    harness.send(.restoreModeRows)
    #expect(clock.sleeperCount == 4)
    harness.send(.addToMode(7))  // a new row 7
    await clock.advance(by: .seconds(1))
    #expect(caseLoads(harness) == [1, 1, 0])
    #expect(warnings.messages.isEmpty)
  }

  @Test func aCaseStoreKeptPastItsCaseDrivesNothingOnceTheCaseIsSetAgain() async {
    let warnings = WarningLog()
    let harness = makeHarness(warnings)
    let mode = harness.store.scope(state: \.mode, action: .mode)
    let old = mode.scope(state: .list, action: .list)!
    #expect(old.rows.ids == [1, 2])
    harness.send(.setModeEmpty)
    #expect(mode.scope(state: .list, action: .list) == nil)
    harness.send(.setModeList([1, 2]))
    let new = mode.scope(state: .list, action: .list)
    #expect(new != nil && new !== old)
    old.send(.removeOffsets([0]))
    harness.settle()
    guard case .list(let list) = harness.state.mode else {
      Issue.record("the case changed: \(harness.state.mode)")
      return
    }
    #expect(list.rows.ids == [1, 2])
    #expect(warnings.messages.count == 1, "\(warnings.messages)")
    // The old case's loads ended with it.
    await clock.advance(by: .seconds(1))
    #expect(caseLoads(harness) == [0, 0])
  }
}

extension CaseKey<EnumCaseRowRemovalTests.Root.Action, NestedRowList.List.Action> {
  static var detail: Self {
    Self(EnumCaseRowRemovalTests.Root.Action.detail) {
      if case .detail(let a) = $0 { a } else { nil }
    }
  }
}

extension CaseKey<EnumCaseRowRemovalTests.Root.Action, EnumCaseRowRemovalTests.ModeFeature.Action> {
  static var mode: Self {
    Self(EnumCaseRowRemovalTests.Root.Action.mode) { if case .mode(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<EnumCaseRowRemovalTests.ModeFeature.Action, NestedRowList.List.Action> {
  static var list: Self {
    Self(EnumCaseRowRemovalTests.ModeFeature.Action.list) {
      if case .list(let a) = $0 { a } else { nil }
    }
  }
}

extension CaseKey<EnumCaseRowRemovalTests.Mode, NestedRowList.List.State> {
  static var list: Self {
    Self(EnumCaseRowRemovalTests.Mode.list) { if case .list(let a) = $0 { a } else { nil } }
  }
}
