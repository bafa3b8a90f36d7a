import Effects
import Store
import Testing

@testable import StoreTesting

/// A task that an effect or a dependency starts itself (`Task {}`, `Task.detached`) runs on the
/// global executor, not the test store's: an advance can come before it sleeps, and wake
/// nothing. A `receive` that then waits in vain, and `finish()`, say so.
@MainActor
@Suite(.timeLimit(.minutes(30))) struct SleepOffTestExecutorTests {
  let clock = TestClock()
  let messages = Messages()

  /// A feature that subscribes to updates a dependency polls for on its own task.
  struct Poller: Reducer {
    struct State: Equatable {
      var updates: [Int] = []
    }
    enum Action: Equatable, Sendable {
      case onAppear, onDisappear, updated(Int), nap, spawnNap
    }
    enum CancelID { case updates }
    let updates: @Sendable () -> AsyncStream<Int>
    let clock: TestClock?

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .onAppear:
        return .run { send in
          for await update in updates() { send(.updated(update)) }
        }
        .cancellable(id: CancelID.updates)
      case .onDisappear:
        return .cancel(id: CancelID.updates)
      case .updated(let update):
        state.updates.append(update)
        return .none
      case .nap:
        return .run { [clock] _ in try await clock?.sleep(for: .seconds(1)) }
      case .spawnNap:
        return .run { [clock] _ in Task { try? await clock?.sleep(for: .seconds(1)) } }
      }
    }
  }

  /// Updates each second, polled for on a detached task: the test store does not run it.
  nonisolated static func polling(on clock: TestClock) -> @Sendable () -> AsyncStream<Int> {
    {
      AsyncStream { continuation in
        let task = Task.detached {
          var count = 0
          while (try? await clock.sleep(for: .seconds(1))) != nil {
            count += 1
            continuation.yield(count)
          }
          continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
      }
    }
  }

  func makeStore(holdsClock: Bool = true) -> TestStore<Poller.State, Poller.Action> {
    let store = TestStore(initialState: Poller.State()) {
      Poller(updates: Self.polling(on: clock), clock: holdsClock ? clock : nil)
    }
    store.timeout = .milliseconds(50)
    return store
  }

  @Test func onlySleepsOfTasksTheStoreDoesNotRunAreOffItsExecutor() async {
    let store = makeStore()
    await store.send(.nap)
    #expect(clock.sleeperCount == 1)
    #expect(clock.sleepsOffTestExecutors.isEmpty)
    // A `Task {}` inherits the effect's task locals, not its executor.
    await store.send(.spawnNap)
    await clock.waitForSleepers(2)
    #expect(clock.sleepsOffTestExecutors == [TestClock.Instant(offset: .seconds(1))])
    await clock.advance(by: .seconds(1))
    await store.finish()
  }

  @Test func waitingForTheSleepBeforeEachAdvanceReceivesEveryUpdate() async {
    let store = makeStore()
    await store.send(.onAppear)
    for update in 1...5 {
      await clock.waitForSleepers()
      await clock.advance(by: .seconds(1))
      await store.receive(.updated(update)) { $0.updates.append(update) }
    }
    await store.send(.onDisappear)
    await store.finish()
  }

  @Test func aReceiveThatWaitsInVainNamesASleepNoEffectOwns() async {
    let store = makeStore()
    // The advance comes before the poll's first sleep, as it can when the machine is loaded.
    await clock.advance(by: .seconds(1))
    await store.send(.onAppear)
    await clock.waitForSleepers()
    await withKnownIssue {
      await store.receive(.updated(1)) { $0.updates = [1] }
    } matching: {
      messages.capture($0)
    }
    #expect(
      messages.last.contains(
        """
        1 sleep on a TestClock of the feature is in a task the test store does not run (a \
        `Task {}` or `Task.detached` in an effect or a dependency), asleep
          • until 2.0 seconds (the clock is at 1.0 seconds)
        """))
    #expect(messages.last.contains("`await clock.waitForSleepers()`, then `await clock.advance"))
    await store.send(.onDisappear)
    await store.finish()
  }

  @Test func finishNamesASleepNoEffectOwns() async {
    let store = makeStore()
    await store.send(.onAppear)
    await clock.waitForSleepers()
    await withKnownIssue {
      await store.finish()
    } matching: {
      messages.capture($0)
    }
    #expect(
      messages.last.hasPrefix(
        """
        1 effect still running at the end of the test:
          • an effect started by SleepOffTestExecutorTests.Poller.Action.onAppear
        """))
    #expect(messages.last.contains("• until 1.0 seconds (the clock is at 0.0 seconds)"))
  }

  @Test func aStoreThatDoesNotSeeTheClockSaysWhatToLookFor() async {
    let store = makeStore(holdsClock: false)
    await clock.advance(by: .seconds(1))
    await store.send(.onAppear)
    await clock.waitForSleepers()
    await withKnownIssue {
      await store.receive(.updated(1)) { $0.updates = [1] }
    } matching: {
      messages.capture($0)
    }
    #expect(
      messages.last.contains(
        """
        If it waits for a task the test store does not run (a `Task {}` or \
        `Task.detached` in an effect or a dependency) that sleeps on a TestClock, that task can \
        reach its sleep after the test advanced the clock
        """))
    #expect(
      messages.last.contains(
        "If an effect waits on a stream or a continuation that the test drives (an "))
    await store.send(.onDisappear)
    await store.finish()
  }
}

/// A feature given a real clock in a test: its sleep ends in real time, which the test store
/// cannot hurry. A new-user trial's `receive` named tasks and TestClocks instead, neither of
/// which was involved.
@MainActor
@Suite(.timeLimit(.minutes(30))) struct RealClockTests {
  struct Saver: Reducer {
    struct State: Equatable { var saved = 0 }
    enum Action: Equatable, Sendable { case edited, saved, closed }
    enum CancelID { case save }
    struct Timing { var clock: any Clock<Duration> }
    let timing: Timing

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .edited:
        return .run { [clock = timing.clock] send in
          try await clock.sleep(for: .seconds(3_600))
          send(.saved)
        }
        .cancellable(id: CancelID.save)
      case .saved:
        state.saved += 1
        return .none
      case .closed:
        return .cancel(id: CancelID.save)
      }
    }
  }

  @Test func aReceiveWaitingOnARealClockSaysWhereTheFeatureHoldsIt() async {
    let messages = Messages()
    let store = TestStore(initialState: Saver.State()) {
      Saver(timing: Saver.Timing(clock: ContinuousClock()))
    }
    await store.send(.edited)
    await withKnownIssue {
      await store.receive(.saved, timeout: .milliseconds(50)) { $0.saved = 1 }
    } matching: {
      messages.capture($0)
    }
    #expect(
      messages.last.contains(
        """
        The feature holds a real clock, which the test cannot advance:
          • RealClockTests.Saver.timing.clock (a ContinuousClock)
        An effect asleep on one wakes in real time
        """), "\(messages.last)")
    #expect(!messages.last.contains("Task.detached"), "\(messages.last)")
    await store.send(.closed)
  }

  @Test func findsRealClocksWithWhereTheyAre() {
    struct Pair {
      var fast: SuspendingClock
      var test: TestClock
      var clocks: [any Clock<Duration>]
    }
    let test = TestClock()
    let found = TestClockFinder.search(
      Pair(fast: SuspendingClock(), test: test, clocks: [ContinuousClock(), test]))
    #expect(found.testClocks.count == 1)
    #expect(
      found.realClocks == [
        "RealClockTests.Pair.fast (a SuspendingClock)",
        "RealClockTests.Pair.clocks.0 (a ContinuousClock)",
      ])
  }
}

/// The test store finds the clocks a feature holds, without reading all of a large value.
@Suite struct TestClockFinderTests {
  struct Holder {
    var rows = Array(0..<100_000)
    var clock: any Clock<Duration>
  }

  @Test func findsAClockBehindAnExistentialOnce() {
    let clock = TestClock()
    let found = TestClockFinder.search((Holder(clock: clock), clock)).testClocks
    #expect(found.count == 1)
    #expect(found.first === clock)
  }

  @Test func stopsAtItsLimitInALargeValue() {
    struct Nested {
      var rows = Array(0..<100_000)
      var holder: Holder
    }
    let clock = TestClock()
    // The rows fill the limit before the holder's clock is queued.
    #expect(
      TestClockFinder.search(Nested(holder: Holder(clock: clock)), limit: 64).testClocks.isEmpty)
    #expect(TestClockFinder.search(Nested(holder: Holder(clock: clock))).testClocks.isEmpty)
    #expect(TestClockFinder.search(Holder(clock: clock), limit: 64).testClocks.count == 1)
  }
}
