import Effects
import Store
import Synchronization
import Testing

@testable import StoreTesting

/// Counts the live instances of `Held`, which an effect captures.
final class LiveCount: Sendable {
  private let count = Atomic<Int>(0)
  var value: Int { count.load(ordering: .relaxed) }

  func make() -> Held { Held(self) }

  final class Held: Sendable {
    let owner: LiveCount
    init(_ owner: LiveCount) {
      self.owner = owner
      owner.count.add(1, ordering: .relaxed)
    }
    deinit { owner.count.subtract(1, ordering: .relaxed) }
  }
}

/// Effects that wait for good: on a test clock, on a stream nobody feeds, and in a real sleep.
struct Waiter: Reducer {
  struct State: Equatable { var received = 0 }
  enum Action: Sendable, Equatable {
    case waitOnClock
    case waitOnStream
    case sleepForReal
    case received
  }
  let live: LiveCount
  let clock: TestClock

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    let held = live.make()
    switch action {
    case .waitOnClock:
      return .run { [clock] _ in
        try await clock.sleep(for: .seconds(3_600))
        withExtendedLifetime(held) {}
      }
    case .waitOnStream:
      return .run { send in
        let (stream, continuation) = AsyncStream<Int>.makeStream()
        for await _ in stream { send(.received) }
        withExtendedLifetime((held, continuation)) {}
      }
    case .sleepForReal:
      return .run { _ in
        try await Task.sleep(for: .seconds(3_600))
        withExtendedLifetime(held) {}
      }
    case .received:
      state.received += 1
      return .none
    }
  }
}

/// A test store released before its effects finished cancels them, and their tasks run to
/// their end: they, and what they hold, do not stay in memory for the rest of the run. (The
/// cancelled tasks went on to the test executor, which nobody ran once the store was gone:
/// leak adversary trial, 100 of 100 effects kept.)
@MainActor
@Suite struct ReleasedStoreEffectsTests {
  @Test(arguments: [Waiter.Action.waitOnClock, .waitOnStream, .sleepForReal])
  func aNonExhaustiveStoreReleasedWithEffectsRunningEndsThem(action: Waiter.Action) async {
    let live = LiveCount()
    let clock = TestClock()
    weak var executor: ManualTaskExecutor?
    do {
      let store = TestStore(initialState: Waiter.State()) { Waiter(live: live, clock: clock) }
      store.exhaustivity = .off
      executor = store.executor
      for _ in 0..<10 { await store.send(action) }
      #expect(live.value == 10)
    }
    #expect(live.value == 0, "effects of \(action) still holding what they captured")
    #expect(executor == nil)
  }

  @Test func anExhaustiveStoreReleasedWithAnEffectRunningReportsItAndEndsIt() async {
    let live = LiveCount()
    let clock = TestClock()
    await withKnownIssue {
      let store = TestStore(initialState: Waiter.State()) { Waiter(live: live, clock: clock) }
      await store.send(.waitOnStream)
    }
    #expect(live.value == 0)
    #expect(clock.sleeperCount == 0)
  }

  /// Jobs enqueued after the executor was let go run on the global queues.
  @Test func aRelinquishedExecutorRunsLaterJobsOnTheGlobalQueues() async {
    let executor = ManualTaskExecutor()
    executor.relinquish()
    let ran = await Task(executorPreference: executor) { 42 }.value
    #expect(ran == 42)
    #expect(!executor.hasWork)
  }
}

/// An effect that ignores cancellation, left running when its test store was released, is
/// reported once its executor stops handing its jobs on: its task never finishes.
@Suite struct RelinquishedExecutorLimitTests {
  @Test func anEffectThatIgnoresCancellationIsReportedWhenItsJobsAreDropped() async {
    let executor = ManualTaskExecutor(handOverLimit: 10)
    let (messages, reports) = AsyncStream.makeStream(of: String.self)
    RuntimeWarningHandler.$current.withValue(RuntimeWarningHandler { reports.yield($0.message) }) {
      executor.relinquish()
    }
    let spinner = Task(executorPreference: executor) {
      while true { await Task.yield() }
    }
    spinner.cancel()
    var iterator = messages.makeAsyncIterator()
    let message = await iterator.next()
    #expect(message?.contains("ran 10 jobs after it was gone without ending") == true)
  }
}
