import Effects
import Testing

@testable import Store

/// Rows whose save throws, turned into an action by `catch:`.
struct SavingRows: Reducer {
  struct Row: Equatable, Identifiable, Sendable {
    let id: Int
    var failure: String?
  }
  struct State: Equatable { var rows: IdentifiedArrayOf<Row> }
  enum Action: Sendable, Equatable {
    case rows(IdentifiedAction<Int, RowAction>)
    case remove(Int)
  }
  enum RowAction: Sendable, Equatable { case save, failed(String) }
  struct DiskFull: Error, CustomStringConvertible { var description: String { "disk full" } }
  /// What the save throws.
  let error: @Sendable () -> any Error

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      if case .remove(let id) = action { state.rows[id: id] = nil }
      return .none
    }
    .forEach(\.rows, action: .savingRows) {
      Reduce<Row, RowAction> { [error] row, action in
        switch action {
        case .save:
          return .run { _ in
            throw error()
          } catch: {
            .failed("\($0)")
          }
        case .failed(let message):
          row.failure = message
          return .none
        }
      }
    }
  }
}

extension CaseKey<SavingRows.Action, IdentifiedAction<Int, SavingRows.RowAction>> {
  fileprivate static var savingRows: Self {
    Self(SavingRows.Action.rows) { if case .rows(let a) = $0 { a } else { nil } }
  }
}

/// An error a row's effect threw, and `catch:` turned into an action, is not lost when the
/// row goes between the throw and the drain that would deliver the action: the action is
/// dropped, as every action of a cancelled effect is, and a runtime warning names the error,
/// as it would have had the error been thrown a moment later, after the cancellation.
@MainActor
@Suite struct CaughtActionDroppedTests {
  /// A live store whose drains the test runs, with row 1's save thrown and reported to the
  /// inbox, not yet drained.
  func storeWithACaughtErrorWaiting(
    _ error: @escaping @Sendable () -> any Error, warnings: WarningLog, jobs: HandRunJobs
  ) async -> Store<SavingRows.State, SavingRows.Action> {
    let core = RootCore(
      initialState: SavingRows.State(rows: [SavingRows.Row(id: 1)]),
      reducer: SavingRows(error: error), warnings: warnings.handler,
      drainScheduler: jobs.scheduler)
    let store = Store(core: core)
    store.send(.rows(.element(id: 1, action: .save)))
    // The catch action and the effect's end, reported, for a drain to take.
    var reports: [EffectInbox<SavingRows.Action>.Event] = []
    while !reports.contains(where: { if case .finished = $0 { true } else { false } }) {
      reports += core.runtime.inbox.take().events
      await Task.yield()
    }
    for report in reports { core.runtime.inbox.push(report) }
    return store
  }

  @Test func aCatchActionDroppedAsItsRowWasRemovedIsAWarningNamingTheError() async {
    let warnings = WarningLog()
    let jobs = HandRunJobs()
    let store = await storeWithACaughtErrorWaiting(
      { SavingRows.DiskFull() }, warnings: warnings, jobs: jobs)
    store.send(.remove(1))
    while jobs.count > 0 { jobs.runNext() }
    #expect(store.rows.isEmpty)
    #expect(warnings.messages.count == 1, "\(warnings.messages)")
    let message = warnings.messages.first ?? ""
    #expect(message.contains("threw an error: disk full"), "\(message)")
    #expect(message.contains("Its catch action"), "\(message)")
    #expect(message.contains("was dropped"), "\(message)")
    #expect(message.contains(".failed(\"disk full\")"), "\(message)")
  }

  @Test func aCatchActionOfARowStillThereIsReducedWithNoWarning() async {
    let warnings = WarningLog()
    let jobs = HandRunJobs()
    let store = await storeWithACaughtErrorWaiting(
      { SavingRows.DiskFull() }, warnings: warnings, jobs: jobs)
    while jobs.count > 0 { jobs.runNext() }
    #expect(store.rows[id: 1]?.failure == "disk full")
    #expect(warnings.messages.isEmpty, "\(warnings.messages)")
  }

  /// A cancellation error, caught and then dropped with its row, ends the effect quietly, as
  /// one thrown after the cancellation does.
  @Test func aCaughtCancellationErrorDroppedWithItsRowIsQuiet() async {
    let warnings = WarningLog()
    let jobs = HandRunJobs()
    let store = await storeWithACaughtErrorWaiting(
      { CancellationError() }, warnings: warnings, jobs: jobs)
    store.send(.remove(1))
    while jobs.count > 0 { jobs.runNext() }
    #expect(store.rows.isEmpty)
    #expect(warnings.messages.isEmpty, "\(warnings.messages)")
  }

  /// The store released with the catch action waiting: the error is a warning, as an
  /// uncaught one left in the inbox is.
  @Test func aCatchActionLeftWhenItsStoreWentIsAWarningNamingTheError() async {
    let warnings = WarningLog()
    let jobs = HandRunJobs()
    weak var released: Store<SavingRows.State, SavingRows.Action>?
    do {
      released = await storeWithACaughtErrorWaiting(
        { SavingRows.DiskFull() }, warnings: warnings, jobs: jobs)
    }
    while jobs.count > 0 { jobs.runNext() }
    #expect(released == nil)
    #expect(warnings.messages.count == 1, "\(warnings.messages)")
    #expect(warnings.messages.first?.contains("disk full") == true, "\(warnings.messages)")
  }
}
