import Effects
import Testing

@testable import Store

/// A sheet with a one-second load.
private struct ReopenedSheet: Reducer {
  struct State: Equatable, Identifiable, Sendable {
    var id: Int
    var title = ""
    var loads = 0
  }
  enum Action: Sendable, Equatable { case load, loaded }
  let clock: TestClock

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .load:
      return .run { [clock] send in
        try await clock.sleep(for: .seconds(1))
        send(.loaded)
      }
    case .loaded:
      state.loads += 1
      return .none
    }
  }
}

/// Presents `ReopenedSheet`, and dismisses and presents it again two ways.
private struct ReopenedSheetHost: Reducer {
  struct State: Equatable { var sheet: ReopenedSheet.State? }
  enum Action: Sendable, Equatable {
    case sheet(PresentationAction<ReopenedSheet.Action>)
    case open(title: String)
    /// Dismisses the sheet, then presents it again (same id) by a second action.
    case closeThenReopen
    /// Dismisses the sheet and presents it again (same id) in this one action.
    case reopenInOneAction
  }
  let clock: TestClock

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .open(let title):
        state.sheet = ReopenedSheet.State(id: 1, title: title)
      case .closeThenReopen:
        state.sheet = nil
        return .send(.open(title: "again"))
      case .reopenInOneAction:
        state.sheet = nil
        state.sheet = ReopenedSheet.State(id: 1, title: "again")
      case .sheet:
        break
      }
      return .none
    }
    .presents(\.sheet, action: .sheet) { ReopenedSheet(clock: clock) }
  }
}

extension CaseKey<ReopenedSheetHost.Action, PresentationAction<ReopenedSheet.Action>> {
  fileprivate static var sheet: Self {
    Self(ReopenedSheetHost.Action.sheet) { if case .sheet(let a) = $0 { a } else { nil } }
  }
}

/// A sheet dismissed and presented again within one `send` keeps its store either way; its
/// effects end only when one action dismissed it and a later one presented it again. Set to
/// `nil` and back within one action, the reducers saw no dismissal: its effects go on, as a
/// row's do when it is removed and added back within one action. (The optional `scope`'s doc
/// said the effects ended in both cases; a probe of the docs found the second.)
@MainActor
@Suite struct SheetReopenedTests {
  let clock = TestClock()

  private func reopened(by action: ReopenedSheetHost.Action) async throws -> (
    loads: Int?, sameStore: Bool
  ) {
    let warnings = WarningLog()
    let host = Harness(
      initialState: ReopenedSheetHost.State(sheet: ReopenedSheet.State(id: 1, title: "first")),
      warnings: warnings.handler, reducer: ReopenedSheetHost(clock: clock))
    let store = try #require(host.store.scope(state: \.sheet, action: .sheet))
    _ = store.title
    host.send(.sheet(.presented(.load)))
    #expect(clock.sleeperCount == 1)
    host.send(action)
    let sameStore = host.store.scope(state: \.sheet, action: .sheet) === store
    #expect(store.title == "again")
    await clock.advance(by: .seconds(1))
    host.settle()
    #expect(warnings.messages.isEmpty, "\(warnings.messages)")
    return (host.state.sheet?.loads, sameStore)
  }

  @Test func reopenedByALaterActionItKeepsItsStoreAndItsEffectsEnded() async throws {
    let result = try await reopened(by: .closeThenReopen)
    #expect(result.sameStore)
    #expect(result.loads == 0)
  }

  @Test func reopenedInTheSameActionItKeepsItsStoreAndItsEffects() async throws {
    let result = try await reopened(by: .reopenInOneAction)
    #expect(result.sameStore)
    #expect(result.loads == 1)
  }

  /// The store of a sheet with an id, held while a later send presents a sheet with the same
  /// id again, ignores its sends with a warning that names the id (the design's contract for
  /// a child whose state is gone). It said "a child that has since been dismissed", with no id.
  @Test func aDismissedSheetsStoreNamesItsIdOnceTheSheetIsPresentedAgain() throws {
    let warnings = WarningLog()
    let host = Harness(
      initialState: ReopenedSheetHost.State(sheet: ReopenedSheet.State(id: 1, title: "first")),
      warnings: warnings.handler, reducer: ReopenedSheetHost(clock: clock))
    let old = try #require(host.store.scope(state: \.sheet, action: .sheet))
    host.send(.sheet(.dismiss))
    host.send(.open(title: "again"))
    old.send(.loaded)
    #expect(host.state.sheet?.loads == 0)
    #expect(
      warnings.messages
        == [
          """
          ReopenedSheet.Action.loaded was sent to the store of the child with id 1, which has \
          since been dismissed; the child there now is another presentation. The action was \
          ignored.
          """
        ],
      "\(warnings.messages)")
  }
}
