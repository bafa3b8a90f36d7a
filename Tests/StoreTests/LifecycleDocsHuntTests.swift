import Effects
import Testing

@testable import Store

/// An item of a row's own list, with a lifecycle.
private struct MarkedItem: Reducer {
  struct State: Equatable, Codable, Identifiable {
    var id: Int
    var lifecycle = ScreenLifecycleState()
  }
  enum Action: Equatable, Codable, Sendable {
    case lifecycle(ScreenLifecycleAction)

    static var lifecycleKey: CaseKey<Self, ScreenLifecycleAction> {
      CaseKey(Self.lifecycle) { if case .lifecycle(let action) = $0 { action } else { nil } }
    }
  }

  var body: some Reducer<State, Action> {
    EmptyReducer().screenLifecycle(\.lifecycle, action: Action.lifecycleKey)
  }
}

/// A row holding a list of items; it uses no clock.
private struct MarkedRow: ClockedRow {
  struct State: FilterableRowState, Codable {
    var id: Int
    var isShown = true
    var items: IdentifiedArrayOf<MarkedItem.State> = [MarkedItem.State(id: 7)]

    init(id: Int) { self.id = id }
  }
  enum Action: Equatable, Codable, Sendable {
    case items(IdentifiedAction<Int, MarkedItem.Action>)

    static var itemsKey: CaseKey<Self, IdentifiedAction<Int, MarkedItem.Action>> {
      CaseKey(Self.items) { if case .items(let action) = $0 { action } else { nil } }
    }
  }

  init(clock _: TestClock = TestClock()) {}

  var body: some Reducer<State, Action> {
    EmptyReducer().forEach(\.items, action: Action.itemsKey) { MarkedItem() }
  }
}

/// Rows shown through a filtered view.
private typealias MarkedRows = FilteredRows<MarkedRow>

/// Claims of the ScreenLifecycle and ActionLogFileFormat articles checked in a documentation
/// review.
@MainActor
@Suite final class LifecycleDocsHuntTests {
  let directory = TemporaryDirectory("lifecycle-docs-hunt-tests")

  /// Records an item of row 1's list, shown through the filtered view, whose row `leave`
  /// takes out of the view while the item's task runs. Returns the log and the warnings.
  private func recordItemLeaving(
    with leave: MarkedRows.Action, named name: String
  ) async throws -> (String, [String]) {
    let warnings = WarningLog()
    let harness = Harness<MarkedRows>(filteredRowsOn: TestClock(), warnings: warnings)
    let file = directory.path(name)
    let recorder = try harness.store.recordActions(
      to: file, feature: "MarkedRows", checkpointInterval: 1, time: { 0 })
    let item = harness.shownRow()?.scope(state: \.items, action: MarkedRow.Action.itemsKey)[id: 7]
    #expect(item != nil)
    await harness.runTask(of: item, MarkedItem.Action.lifecycleKey) {
      harness.send(leave)
    }
    try recorder.finish()
    return (file, warnings.messages)
  }

  private var replayer: ActionLogReplayer<MarkedRows> {
    ActionLogReplayer(feature: "MarkedRows") { MarkedRows(clock: TestClock()) }
  }

  /// ActionLogFileFormat: `elementMayBeGone` marks the end of a screen a row of a filtered
  /// view shows (here an item of the row's list), sent on through the row's store, as it does
  /// the row's own: the row deleted, the store and the replay say nothing.
  @Test func aDeletedRowsItemEndIsMarkedAndReplaysQuietly() async throws {
    let (file, warnings) = try await recordItemLeaving(with: .delete(1), named: "deleted.jsonl")
    #expect(warnings.isEmpty, "\(warnings)")
    let ended = try directory.lines(file).filter { $0.contains(#""taskEnded""#) }
    #expect(ended.count == 1)
    #expect(ended.first?.contains(#""elementMayBeGone":true"#) == true, "\(ended)")
    let report = try replayer.replay(path: file)
    #expect(report.isComplete)
    #expect(report.finalState.rows.ids == [2])
    #expect(report.warnings.isEmpty, "\(report.warnings)")
  }

  /// The row hidden, still in the collection: the item's end reaches it in the replay as it
  /// did in the session.
  @Test func aHiddenRowsItemEndReachesItInTheReplay() async throws {
    let (file, warnings) = try await recordItemLeaving(with: .hide(1), named: "hidden.jsonl")
    #expect(warnings.isEmpty, "\(warnings)")
    let report = try replayer.replay(path: file)
    #expect(report.isComplete)
    #expect(report.finalState.rows[id: 1]?.items[id: 7]?.lifecycle.isTaskRunning == false)
    #expect(report.warnings.isEmpty, "\(report.warnings)")
  }
}
