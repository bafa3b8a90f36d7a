import Effects
import Testing

@testable import Store

/// An effect that keeps sending: each `.ping` it delivers makes the reducer send the next one
/// through the effect's `Send` at once, as a stream that never pauses would, until `limit`.
/// The effect hands its `Send` to the test, which sends the first ping.
struct Pinger: Reducer {
  struct State: Equatable { var pings = 0 }
  enum Action: Sendable, Equatable { case start, ping }
  /// The running effect's `Send`, kept to send from the reducer.
  let outlet: EffectOutlet<Action>
  let limit: Int

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .start:
      return outlet.effect()
    case .ping:
      state.pings += 1
      if state.pings < limit { outlet.send.withLock { $0 }?(.ping) }
      return .none
    }
  }
}

/// Many tasks of one effect, each sending a burst of actions at once.
struct Burst: Reducer {
  struct State: Equatable { var received = 0 }
  enum Action: Sendable, Equatable { case start(tasks: Int, each: Int), received }
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .start(let tasks, let each):
      return .run { send in
        await withTaskGroup(of: Void.self) { group in
          for _ in 0..<tasks {
            group.addTask { for _ in 0..<each { send(.received) } }
          }
        }
      }
    case .received:
      state.received += 1
      return .none
    }
  }
}

/// An effect cancellable under `"x"` whose `.a` cancels it.
private struct SelfCanceller: Reducer {
  struct State: Equatable { var log: [String] = [] }
  enum Action: Sendable, Equatable { case start, a, b }
  let outlet: EffectOutlet<Action>

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .start:
      return outlet.effect().cancellable(id: "x")
    case .a:
      state.log.append("a")
      return .cancel(id: "x")
    case .b:
      state.log.append("b")
      return .none
    }
  }
}

@MainActor
@Suite struct EffectFloodTests {
  /// A backlog far larger than one turn's batch (1,024) is reduced in full, over several
  /// turns: none of the actions is lost.
  @Test func aBacklogLargerThanOneBatchIsReducedInFull() async {
    let store = Store(initialState: Burst.State()) { Burst() }
    await store.send(.start(tasks: 16, each: 2_000)).finish()
    #expect(store.received == 32_000)
  }

  /// Actions that arrive while a live store reduces what an effect sent are reduced in a
  /// later job of the main actor, after what else it has to do, not in the same one: an
  /// effect that never pauses cannot keep the main actor to itself. (The store drained until
  /// its inbox stayed empty: a stream sending from other threads without pause froze the
  /// main actor for seconds, or for good, and the code that would cancel it never ran.)
  ///
  /// The store's drain jobs go to a queue the test runs one job at a time. (The test ran them
  /// on the main queue and counted its `Task.yield()`s in between, but each of those resumes
  /// through the global pool: on a loaded machine thousands of drain jobs ran before the test
  /// was back on the main actor, and it failed in CI though the store was right.)
  @Test func anEffectThatNeverPausesLeavesTheMainActorTurnsForOthers() async {
    let limit = 100_000
    let outlet = EffectOutlet<Pinger.Action>()
    let jobs = HandRunJobs()
    let core = RootCore(
      initialState: Pinger.State(), reducer: Pinger(outlet: outlet, limit: limit),
      drainScheduler: jobs.scheduler)
    let store = Store(core: core)
    let task = store.send(.start)
    for await _ in outlet.started { break }
    #expect(jobs.count == 0)
    outlet.send.withLock { $0 }?(.ping)
    #expect(store.pings == 0, "a ping is reduced in a drain job, not where it was sent")
    #expect(jobs.count == 1, "the first ping should wake the store once")
    for expected in 1...5 {
      jobs.runNext()
      #expect(store.pings == expected, "each job reduces what was queued when it began")
      #expect(jobs.count == 1, "the ping sent while reducing waits for the next job")
    }
    task.cancel()
    // The effect reports its end through the inbox too: run the jobs until it has.
    while task.isRunning {
      if jobs.count > 0 { jobs.runNext() } else { await Task.yield() }
    }
    #expect(store.pings == 5, "the ping queued when the effect was cancelled is dropped")
  }

  /// Two actions an effect sends at once, queued together: the first cancels the effect by
  /// its id, and the second, sent before that but reduced after, is dropped as the effect's
  /// later sends are. (A theory of an earlier session: the queue checked only that the
  /// sender's place in the state was still there, not that its effect was still running.)
  @Test(.timeLimit(.minutes(30)))
  func anActionQueuedBehindOneThatCancelsItsEffectByIDIsDropped() async {
    let outlet = EffectOutlet<SelfCanceller.Action>()
    let jobs = HandRunJobs()
    let core = RootCore(
      initialState: SelfCanceller.State(), reducer: SelfCanceller(outlet: outlet),
      drainScheduler: jobs.scheduler)
    let store = Store(core: core)
    let task = store.send(.start)
    for await _ in outlet.started { break }
    outlet.send.withLock { $0 }?(.a)
    outlet.send.withLock { $0 }?(.b)
    #expect(jobs.count == 1, "both are queued for one drain job")
    jobs.runNext()
    while task.isRunning {
      if jobs.count > 0 { jobs.runNext() } else { await Task.yield() }
    }
    #expect(store.log == ["a"])
  }
}

/// Jobs a store schedules, kept for the test to run one at a time on the main actor.
final class HandRunJobs: Sendable {
  private let jobs = Locked<[@Sendable @MainActor () -> Void]>([])

  var scheduler: DrainScheduler {
    DrainScheduler { job in self.jobs.withLock { $0.append(job) } }
  }

  /// The jobs waiting to run.
  var count: Int { jobs.withLock { $0.count } }

  /// Runs the oldest waiting job.
  @MainActor func runNext() {
    let job = jobs.withLock { $0.isEmpty ? nil : $0.removeFirst() }
    job?()
  }
}
