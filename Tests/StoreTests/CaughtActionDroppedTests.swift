import Effects
import Testing

@testable import Store

/// Rows whose save throws, turned into an action by `catch:`, or sent by a `catch:` handler.
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
  /// The `catch: { error, send in ... }` handler the save uses, if any; otherwise its
  /// `catch:` returns `.failed`.
  var handler: (@Sendable (any Error, Send<RowAction>) async -> Void)? = nil

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      if case .remove(let id) = action { state.rows[id: id] = nil }
      return .none
    }
    .forEach(\.rows, action: .savingRows) {
      Reduce<Row, RowAction> { [error, handler] row, action in
        switch action {
        case .save:
          if let handler {
            return .run { _ in
              throw error()
            } catch: {
              await handler($0, $1)
            }
          }
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

/// The two forms of `catch:`: one returns the action, the other's handler sends it.
enum CatchForm: CaseIterable, Sendable {
  case returningAnAction
  case handlerSending

  /// The handler `SavingRows` uses in this form: it sends what the other form returns.
  var handler: (@Sendable (any Error, Send<SavingRows.RowAction>) async -> Void)? {
    switch self {
    case .returningAnAction: nil
    case .handlerSending: { error, send in send(.failed("\(error)")) }
    }
  }
}

/// An error a row's effect threw, and `catch:` turned into an action, is not lost when the
/// row goes between the throw and the drain that would deliver the action: the action is
/// dropped, as every action of a cancelled effect is, and a runtime warning names the error,
/// as it would have had the error been thrown a moment later, after the cancellation.
///
/// The tests that wait in loops have half an hour, not a minute: a test's time includes its
/// waits for the main actor, which a plain `swift test` (every test started at once) keeps
/// busy for over a minute; four of these went over a minute there, and failed.
@MainActor
@Suite struct CaughtActionDroppedTests {
  /// A live store whose drains the test runs, with row 1's save thrown and reported to the
  /// inbox, not yet drained.
  func storeWithACaughtErrorWaiting(
    _ error: @escaping @Sendable () -> any Error, warnings: WarningLog, jobs: HandRunJobs,
    form: CatchForm = .returningAnAction
  ) async -> Store<SavingRows.State, SavingRows.Action> {
    let core = RootCore(
      initialState: SavingRows.State(rows: [SavingRows.Row(id: 1)]),
      reducer: SavingRows(error: error, handler: form.handler), warnings: warnings.handler,
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

  @Test(arguments: CatchForm.allCases)
  func aCatchActionDroppedAsItsRowWasRemovedIsAWarningNamingTheError(form: CatchForm) async {
    let warnings = WarningLog()
    let jobs = HandRunJobs()
    let store = await storeWithACaughtErrorWaiting(
      { SavingRows.DiskFull() }, warnings: warnings, jobs: jobs, form: form)
    store.send(.remove(1))
    while jobs.count > 0 { jobs.runNext() }
    #expect(store.rows.isEmpty)
    #expect(warnings.messages.count == 1, "\(warnings.messages)")
    let message = warnings.messages.first ?? ""
    #expect(message.contains("threw an error: disk full"), "\(message)")
    #expect(message.contains("The action `catch:` made of it, "), "\(message)")
    #expect(message.contains("was dropped"), "\(message)")
    #expect(message.contains(".failed(\"disk full\")"), "\(message)")
  }

  @Test(arguments: CatchForm.allCases)
  func aCatchActionOfARowStillThereIsReducedWithNoWarning(form: CatchForm) async {
    let warnings = WarningLog()
    let jobs = HandRunJobs()
    let store = await storeWithACaughtErrorWaiting(
      { SavingRows.DiskFull() }, warnings: warnings, jobs: jobs, form: form)
    while jobs.count > 0 { jobs.runNext() }
    #expect(store.rows[id: 1]?.failure == "disk full")
    #expect(warnings.messages.isEmpty, "\(warnings.messages)")
  }

  /// A cancellation error, caught and then dropped with its row, ends the effect quietly, as
  /// one thrown after the cancellation does.
  @Test(arguments: CatchForm.allCases)
  func aCaughtCancellationErrorDroppedWithItsRowIsQuiet(form: CatchForm) async {
    let warnings = WarningLog()
    let jobs = HandRunJobs()
    let store = await storeWithACaughtErrorWaiting(
      { CancellationError() }, warnings: warnings, jobs: jobs, form: form)
    store.send(.remove(1))
    while jobs.count > 0 { jobs.runNext() }
    #expect(store.rows.isEmpty)
    #expect(warnings.messages.isEmpty, "\(warnings.messages)")
  }

  /// The store released with the catch action waiting: the error is a warning, as an
  /// uncaught one left in the inbox is.
  @Test(arguments: CatchForm.allCases)
  func aCatchActionLeftWhenItsStoreWentIsAWarningNamingTheError(form: CatchForm) async {
    let warnings = WarningLog()
    let jobs = HandRunJobs()
    weak var released: Store<SavingRows.State, SavingRows.Action>?
    do {
      released = await storeWithACaughtErrorWaiting(
        { SavingRows.DiskFull() }, warnings: warnings, jobs: jobs, form: form)
    }
    while jobs.count > 0 { jobs.runNext() }
    #expect(released == nil)
    #expect(warnings.messages.count == 1, "\(warnings.messages)")
    #expect(warnings.messages.first?.contains("disk full") == true, "\(warnings.messages)")
  }

  /// A live store whose drains the test runs, with row 1, whose save throws `DiskFull`,
  /// handled by `handler`.
  func storeOfARowWhoseSaveFails(
    warnings: WarningLog, jobs: HandRunJobs,
    handler: @escaping @Sendable (any Error, Send<SavingRows.RowAction>) async -> Void
  ) -> (RootCore<SavingRows>, Store<SavingRows.State, SavingRows.Action>) {
    let core = RootCore(
      initialState: SavingRows.State(rows: [SavingRows.Row(id: 1)]),
      reducer: SavingRows(error: { SavingRows.DiskFull() }, handler: handler),
      warnings: warnings.handler, drainScheduler: jobs.scheduler)
    let store = Store(core: core)
    store.send(.rows(.element(id: 1, action: .save)))
    return (core, store)
  }

  /// Runs drain jobs until `core` runs no effect and no job is left.
  func drainUntilNoEffectRuns(_ core: RootCore<SavingRows>, _ jobs: HandRunJobs) async {
    while core.runtime.runningCount > 0 {
      if jobs.count > 0 { jobs.runNext() } else { await Task.yield() }
    }
    while jobs.count > 0 { jobs.runNext() }
  }

  /// Removes row 1 once its save's handler is at work (`handling` set), lets the handler go
  /// on, and drains until no effect runs.
  func removeTheRow(
    of store: Store<SavingRows.State, SavingRows.Action>, _ core: RootCore<SavingRows>,
    _ jobs: HandRunJobs, onceItsHandler handling: Flag,
    goesOn opener: AsyncStream<Void>.Continuation
  ) async {
    while !handling.isSet { await Task.yield() }
    store.send(.remove(1))
    opener.yield()
    await drainUntilNoEffectRuns(core, jobs)
  }

  /// A `catch:` handler that sends once its row went (it was still working on the error when
  /// the row was removed): the action is dropped, and the warning names the error and it.
  @Test(.timeLimit(.minutes(30)))
  func anActionACatchHandlerSendsAfterItsRowWentIsAWarningNamingTheError() async {
    let warnings = WarningLog()
    let jobs = HandRunJobs()
    let handling = Flag()
    let (gate, opener) = AsyncStream<Void>.makeStream()
    let (core, store) = storeOfARowWhoseSaveFails(warnings: warnings, jobs: jobs) { error, send in
      handling.set()
      for await _ in gate { break }
      send(.failed("\(error)"))
      send(.failed("again"))
    }
    await removeTheRow(of: store, core, jobs, onceItsHandler: handling, goesOn: opener)
    #expect(store.rows.isEmpty)
    let messages = warnings.messages
    #expect(messages.count == 2, "\(messages)")
    #expect(messages.allSatisfy { $0.contains("threw an error: disk full") }, "\(messages)")
    let first = messages.first ?? ""
    #expect(first.contains("The action `catch:` made of it, "), "\(first)")
    #expect(first.contains(".failed(\"disk full\")"), "\(first)")
    let rest = messages.last ?? ""
    let again = "SavingRows.Action.rows(.element(id: 1, action: .failed(\"again\")))"
    let one = "Its `catch:` handler sent 1 more action after the first that was dropped, \(again)"
    #expect(rest.contains(one), "\(rest)")
    #expect(rest.contains("; it was dropped too"), "\(rest)")
  }

  /// A handler that keeps sending once its row went (a retry loop that does not look at
  /// cancellation) is two warnings: the first action's, and one with the count of the rest
  /// and the last of them, when the effect ends; not one warning per action.
  @Test(.timeLimit(.minutes(30)))
  func aHandlerThatKeepsSendingAfterItsRowWentIsTwoWarningsWithACount() async {
    let warnings = WarningLog()
    let jobs = HandRunJobs()
    let handling = Flag()
    let (gate, opener) = AsyncStream<Void>.makeStream()
    let (core, store) = storeOfARowWhoseSaveFails(warnings: warnings, jobs: jobs) { _, send in
      handling.set()
      for await _ in gate { break }
      for attempt in 1...500 { send(.failed("attempt \(attempt)")) }
    }
    await removeTheRow(of: store, core, jobs, onceItsHandler: handling, goesOn: opener)
    let messages = warnings.messages
    #expect(messages.count == 2, "\(messages.count) warnings, the first: \(messages.first ?? "")")
    #expect(messages.first?.contains(".failed(\"attempt 1\")") == true, "\(messages)")
    let rest = messages.count == 2 ? messages[1] : ""
    #expect(rest.contains("threw an error: disk full"), "\(rest)")
    #expect(rest.contains("sent 499 more actions after the first that was dropped"), "\(rest)")
    #expect(rest.contains(".failed(\"attempt 500\")"), "\(rest)")
  }

  /// The same once the store is gone: the inbox, closed, warns of the first action and of
  /// the count of the rest when the effect ends.
  @Test(.timeLimit(.minutes(30)))
  func aHandlerThatKeepsSendingAfterItsStoreWentIsTwoWarningsWithACount() async {
    let warnings = WarningLog()
    let jobs = HandRunJobs()
    let handling = Flag()
    let ended = Flag()
    let (gate, opener) = AsyncStream<Void>.makeStream()
    weak var released: Store<SavingRows.State, SavingRows.Action>?
    do {
      let (_, store) = storeOfARowWhoseSaveFails(warnings: warnings, jobs: jobs) { _, send in
        handling.set()
        for await _ in gate { break }
        for attempt in 1...300 { send(.failed("attempt \(attempt)")) }
        ended.set()
      }
      released = store
      while !handling.isSet { await Task.yield() }
    }
    while jobs.count > 0 { jobs.runNext() }
    #expect(released == nil)
    opener.yield()
    // The closed inbox warns as each event comes, on the effect's thread: the first action's
    // before the flag is set, the count when the effect's end is reported, just after.
    while !ended.isSet || warnings.messages.count < 2 { await Task.yield() }
    let messages = warnings.messages
    #expect(messages.count == 2, "\(messages.count) warnings, the first: \(messages.first ?? "")")
    #expect(messages.first?.contains(".failed(\"attempt 1\")") == true, "\(messages)")
    #expect(
      messages.last?.contains("sent 299 more actions after the first that was dropped") == true,
      "\(messages)")
  }

  /// A `send` that escaped its handler (a task the handler started), used once the effect
  /// ended and its store went: each action is a warning of its own, as no later end of the
  /// effect would tell of them in a count.
  @Test(.timeLimit(.minutes(30)))
  func sendsThatEscapedTheHandlerAfterTheEffectEndedAreEachAWarning() async {
    let warnings = WarningLog()
    let jobs = HandRunJobs()
    let (gate, opener) = AsyncStream<Void>.makeStream()
    let escaped = Flag()
    let sent = Flag()
    weak var released: Store<SavingRows.State, SavingRows.Action>?
    do {
      let (core, store) = storeOfARowWhoseSaveFails(warnings: warnings, jobs: jobs) { _, send in
        Task {
          for await _ in gate { break }
          for attempt in 1...3 { send(.failed("late \(attempt)")) }
          sent.set()
        }
        escaped.set()
      }
      released = store
      while !escaped.isSet { await Task.yield() }
      await drainUntilNoEffectRuns(core, jobs)
      #expect(warnings.messages.isEmpty, "\(warnings.messages)")
    }
    #expect(released == nil)
    opener.yield()
    // The closed inbox warns on the sending thread, before the flag is set.
    while !sent.isSet { await Task.yield() }
    let messages = warnings.messages
    #expect(messages.count == 3, "\(messages)")
    #expect(messages.last?.contains(".failed(\"late 3\")") == true, "\(messages)")
  }
}

/// A save, cancellable under `"save"`, whose `catch:` turns its error into `.failed`, and
/// `.stop`, which cancels it; `.start` runs an effect that hands its `Send` to the test.
private struct CancellableSaver: Reducer {
  struct State: Equatable { var log: [String] = [] }
  enum Action: Sendable, Equatable { case start, save, stop, failed(String) }
  let outlet: EffectOutlet<Action>

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .start:
      return outlet.effect()
    case .save:
      return .run { _ in
        throw SavingRows.DiskFull()
      } catch: {
        .failed("\($0)")
      }
      .cancellable(id: "save")
    case .stop:
      state.log.append("stop")
      return .cancel(id: "save")
    case .failed(let message):
      state.log.append(message)
      return .none
    }
  }
}

/// An action `catch:` made, waiting to be reduced when its effect is cancelled by id, its
/// store's state unchanged (no row removed): it is dropped with the warning, whether the
/// cancellation comes from a send of the test's or from an action queued just before it, in
/// the same drain. (A theory of an earlier session: a queued action is checked for its place
/// in the state, so one whose place is still there might reach the reducer once cancelled.)
@MainActor
@Suite struct CaughtActionCancelledByIDTests {
  @Test(.timeLimit(.minutes(30)), arguments: [false, true])
  func aCatchActionWaitingWhenItsEffectIsCancelledByIDIsDroppedWithAWarning(
    cancelledByAQueuedAction: Bool
  ) async {
    let warnings = WarningLog()
    let jobs = HandRunJobs()
    let outlet = EffectOutlet<CancellableSaver.Action>()
    let core = RootCore(
      initialState: CancellableSaver.State(), reducer: CancellableSaver(outlet: outlet),
      warnings: warnings.handler, drainScheduler: jobs.scheduler)
    let store = Store(core: core)
    let sender = store.send(.start)
    for await _ in outlet.started { break }
    store.send(.save)
    // The catch action and the save's end, taken out of the inbox to be put back behind the
    // queued `.stop`.
    var reports: [EffectInbox<CancellableSaver.Action>.Event] = []
    while !reports.contains(where: { if case .finished = $0 { true } else { false } }) {
      reports += core.runtime.inbox.take().events
      await Task.yield()
    }
    if cancelledByAQueuedAction { outlet.send.withLock { $0 }?(.stop) }
    for report in reports { core.runtime.inbox.push(report) }
    if !cancelledByAQueuedAction { store.send(.stop) }
    while jobs.count > 0 { jobs.runNext() }
    #expect(store.log == ["stop"])
    #expect(warnings.messages.count == 1, "\(warnings.messages)")
    let message = warnings.messages.first ?? ""
    #expect(message.contains("threw an error: disk full"), "\(message)")
    #expect(message.contains(".failed(\"disk full\"), was dropped"), "\(message)")
    sender.cancel()
    while sender.isRunning {
      if jobs.count > 0 { jobs.runNext() } else { await Task.yield() }
    }
  }
}
