import Effects
import Observation
import Testing

@testable import Store

/// A feature whose effect hands its `Send` to the test, and which notes every action its
/// reducer runs for.
struct DrainRelay: Reducer {
  struct State: Equatable { var log: [String] = [] }
  enum Action: Sendable, Equatable { case start, startFailing, first, second }
  struct Failure: Error, CustomStringConvertible { var description: String { "disk full" } }
  /// The effect's `Send`, and the actions the reducer ran for.
  final class Outlet: Sendable {
    let effect = EffectOutlet<Action>()
    let reduced = Locked<[Action]>([])
  }
  let outlet: Outlet

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    outlet.reduced.withLock { $0.append(action) }
    state.log.append("\(action)")
    switch action {
    case .start:
      return outlet.effect.effect()
    case .startFailing:
      return .run { send in
        send(.first)
        throw Failure()
      }
    case .first, .second:
      return .none
    }
  }
}

/// A live store released while it reduces what its effects sent (a view that lets it go on a
/// change it observes) reduces nothing more: the drain held the store for its whole batch,
/// so the actions after the release reached the reducer, and their effects started, with no
/// store left.
@MainActor
@Suite struct ReleasedDuringDrainTests {
  @MainActor final class Owner {
    var store: Store<DrainRelay.State, DrainRelay.Action>?
  }

  @Test func aStoreReleasedWhileItsEffectsActionsAreReducedReducesNoMore() async {
    let outlet = DrainRelay.Outlet()
    let jobs = HandRunJobs()
    let owner = Owner()
    weak var released: Store<DrainRelay.State, DrainRelay.Action>?
    do {
      let core = RootCore(
        initialState: DrainRelay.State(), reducer: DrainRelay(outlet: outlet),
        drainScheduler: jobs.scheduler)
      let store = Store(core: core)
      owner.store = store
      released = store
      store.send(.start)
      withObservationTracking {
        _ = store.log
      } onChange: {
        MainActor.assumeIsolated { owner.store = nil }
      }
    }
    for await _ in outlet.effect.started { break }
    let send = outlet.effect.send.withLock { $0 }
    send?(.first)
    send?(.second)
    #expect(jobs.count == 1)
    jobs.runNext()
    #expect(released == nil, "the store went when the view let it go")
    #expect(outlet.reduced.withLock { $0 } == [.start, .first])
    // Its effect was cancelled: it reports its end, which no drain takes.
    #expect(jobs.count == 0)
  }

  /// An error an effect threw is still a runtime warning when its report comes after the
  /// store went in the same batch, as for the reports no drain took.
  @Test func anErrorReportedAfterTheStoreWentInTheSameBatchIsStillAWarning() async {
    let jobs = HandRunJobs()
    let owner = Owner()
    let warnings = WarningLog()
    var runtime: EffectRuntime<DrainRelay.Action>?
    do {
      let core = RootCore(
        initialState: DrainRelay.State(), reducer: DrainRelay(outlet: DrainRelay.Outlet()),
        warnings: warnings.handler, drainScheduler: jobs.scheduler)
      runtime = core.runtime
      let store = Store(core: core)
      owner.store = store
      store.send(.startFailing)
      withObservationTracking {
        _ = store.log
      } onChange: {
        MainActor.assumeIsolated { owner.store = nil }
      }
    }
    // Both reports (the action, then the error) in the inbox, for one drain to take.
    var reports: [EffectInbox<DrainRelay.Action>.Event] = []
    while !reports.contains(where: { if case .finished(_, _?) = $0 { true } else { false } }) {
      reports += runtime?.inbox.take().events ?? []
      await Task.yield()
    }
    for report in reports { runtime?.inbox.push(report) }
    runtime = nil
    while jobs.count > 0 { jobs.runNext() }
    #expect(owner.store == nil)
    #expect(warnings.messages.count == 1)
    #expect(warnings.messages.first?.contains("disk full") == true, "\(warnings.messages)")
  }
}
