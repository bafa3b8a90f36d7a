import Effects
import Store
import Testing

@testable import StoreTesting

/// `finish()`, a task's `finish()` and `receive` do not wait out their timeout for effects
/// asleep on a test clock, which only the test can wake; and a throttle window that holds
/// nothing back is not work left over.
///
/// Each store's timeout is an hour: a call that waited it out would hit the suite's time limit
/// and fail, so these pass only if the store stops waiting on its own. The limit is half an
/// hour, not one minute: a test's time includes its waits for the main actor, which other
/// suites keep busy for minutes at a time in a full run under ThreadSanitizer (these waited
/// past ten minutes in one on a 2-core machine also building two other checkouts).
@MainActor
@Suite(.timeLimit(.minutes(30))) struct TestClockWaitTests {
  let clock = TestClock()
  let messages = Messages()

  /// A feature with a nap on the test clock, a throttled log, and work held by a gate.
  struct Napper: Reducer {
    struct State: Equatable {
      var logged: [Int] = []
      var isAwake = false
    }
    enum Action: Equatable, Sendable {
      case nap, woke, scrolled(Int), logged(Int), waitForGate, gateOpened
    }
    enum CancelID { case nap }
    let clock: TestClock
    let gate: Gate

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .nap:
        return .run { send in
          try await clock.sleep(for: .seconds(2))
          send(.woke)
        }
        .cancellable(id: CancelID.nap)
      case .woke:
        state.isAwake = true
        return .none
      case .scrolled(let offset):
        return .run { send in send(.logged(offset)) }
          .throttle(id: "scroll", for: .seconds(1), clock: clock, latest: true)
      case .logged(let offset):
        state.logged.append(offset)
        return .none
      case .waitForGate:
        return .run { send in
          await gate.wait()
          send(.gateOpened)
        }
      case .gateOpened:
        return .cancel(id: CancelID.nap)
      }
    }
  }

  func makeStore() -> TestStore<Napper.State, Napper.Action> {
    let store = TestStore(initialState: Napper.State()) { Napper(clock: clock, gate: Gate()) }
    store.timeout = .seconds(3600)
    return store
  }

  @Test func aThrottleWindowThatHoldsNothingBackIsNotLeftOverAtTheEnd() async {
    let store = makeStore()
    await store.send(.scrolled(1))
    await store.receive(.logged(1)) { $0.logged = [1] }
    // The window is still open on the test clock, with nothing waiting in it.
    await store.finish()
  }

  @Test func aThrottleWindowThatHoldsAnEffectBackIsLeftOverAndSaysHowFarToAdvance() async {
    let store = makeStore()
    await store.send(.scrolled(1))
    await store.receive(.logged(1)) { $0.logged = [1] }
    await store.send(.scrolled(2))
    await withKnownIssue {
      await store.finish()
    } matching: {
      messages.capture($0)
    }
    #expect(messages.last.contains("1 effect still running at the end of the test"))
    #expect(
      messages.last.contains(
        """
        a throttle window opened by TestClockWaitTests.Napper.Action.scrolled(1), holding back \
        the effect of TestClockWaitTests.Napper.Action.scrolled(2), closing when a test clock \
        advances 1.0 seconds
        """))
  }

  @Test func receivingWhileOnlyAnIdleThrottleWindowIsOpenFailsAtOnce() async {
    let store = makeStore()
    await store.send(.scrolled(1))
    await store.receive(.logged(1)) { $0.logged = [1] }
    await withKnownIssue {
      await store.receive(.woke)
    } matching: {
      messages.capture($0)
    }
    #expect(messages.last.contains("no effect is running, so none can arrive"))
    await store.finish()
  }

  @Test func finishFailsAtOnceWhenEveryEffectLeftSleepsOnATestClock() async {
    let store = makeStore()
    await store.send(.nap)
    await withKnownIssue {
      await store.finish()
    } matching: {
      messages.capture($0)
    }
    #expect(
      messages.last.contains(
        "an effect started by TestClockWaitTests.Napper.Action.nap (created at StoreTestingTests/TestClockWaitTests"
      ))
    #expect(messages.last.contains("asleep until a test clock advances 2.0 seconds"))
  }

  /// `receive` does not wait out its timeout either, as the Testing Features article now
  /// says (it said that `receive` still waited): it fails, naming the sleeper and how far to
  /// advance, within the suite's time limit (the store's timeout is an hour). The time it
  /// takes is not measured: under load, a full run's wall clock said 72 s, and 420 s under
  /// ThreadSanitizer, for a call that does not wait.
  @Test func receiveFailsAtOnceWhenEveryEffectLeftSleepsOnATestClock() async {
    let store = makeStore()
    await store.send(.nap)
    await withKnownIssue {
      await store.receive(.woke) { $0.isAwake = true }
    } matching: {
      messages.capture($0)
    }
    #expect(messages.last.contains("every effect still running is asleep on a test clock"))
    #expect(messages.last.contains("asleep until a test clock advances 2.0 seconds"))
    await store.skipInFlightEffects()
  }

  /// In a cancelled test, effects asleep on a test clock stop the wait as they do in any
  /// test: the failure says how far to advance, not that the cancellation stopped it.
  @Test func aCancelledFinishOverEffectsAsleepOnATestClockSaysHowFarToAdvance() async {
    let store = makeStore()
    await store.send(.nap)
    let messages = self.messages
    let finishing = Task {
      withUnsafeCurrentTask { $0?.cancel() }
      await withKnownIssue {
        await store.finish()
      } matching: {
        messages.capture($0)
      }
    }
    await finishing.value
    #expect(messages.last.contains("asleep until a test clock advances 2.0 seconds"))
    #expect(!messages.last.contains("task was cancelled"), "\(messages.all)")
  }

  @Test func aNonExhaustiveFinishDoesNotWaitForEffectsAsleepOnATestClock() async {
    let store = makeStore()
    store.exhaustivity = .off
    await store.send(.nap)
    await store.finish()
    // Cancelled by `finish()`: advancing the clock wakes nothing.
    await clock.advance(by: .seconds(5))
    #expect(store.state.isAwake == false)
  }

  @Test func aTasksFinishFailsAtOnceNamingItsEffectAsleepOnATestClock() async {
    let store = makeStore()
    let nap = await store.send(.nap)
    await withKnownIssue {
      await nap.finish()
    } matching: {
      messages.capture($0)
    }
    #expect(
      messages.last.hasPrefix(
        """
        The effects started by TestClockWaitTests.Napper.Action.nap have not finished, and every effect still running is \
        asleep on a test clock, which only the test can advance. Still running:
        """))
    #expect(messages.last.contains("asleep until a test clock advances 2.0 seconds"))
    await clock.advance(by: .seconds(2))
    await store.receive(.woke) { $0.isAwake = true }
    await nap.finish()
    await store.finish()
  }

  @Test func anEffectATasksFinishReportedIsNotReportedAgainAtTheEnd() async {
    let store = makeStore()
    let nap = await store.send(.nap)
    await withKnownIssue {
      await nap.finish()
      await store.finish()
    } matching: {
      messages.capture($0)
    }
    #expect(messages.all.count == 1)
    #expect(
      messages.last.hasPrefix(
        "The effects started by TestClockWaitTests.Napper.Action.nap have not finished"))
  }

  @Test func anEffectWorkingElsewhereKeepsTheStoreWaitingThoughAnotherSleepsOnATestClock() async {
    let gate = Gate()
    let store = TestStore(initialState: Napper.State()) { Napper(clock: clock, gate: gate) }
    await store.send(.nap)
    #expect(store.isWaitingOnlyForTestClocks)
    await store.send(.waitForGate)
    // The gate's waiter is not asleep on a test clock: what it sends may end the nap.
    #expect(!store.isWaitingOnlyForTestClocks)
    gate.open()
    await store.receive(.gateOpened)
    #expect(!store.isWaitingOnlyForTestClocks)
    await store.finish()
  }
}

@MainActor
@Suite(.timeLimit(.minutes(30))) struct CancelledWaitTests {
  let messages = Messages()

  @Test func aCancelledTestStopsWaitingForWorkElsewhere() async {
    let gate = Gate()
    let store = TestStore(initialState: Stubborn.State()) { Stubborn(gate: gate) }
    store.timeout = .seconds(3600)
    await store.send(.start)
    let messages = self.messages
    let finishing = Task {
      await withKnownIssue {
        await store.finish()
      } matching: {
        messages.capture($0)
      }
    }
    finishing.cancel()
    await finishing.value
    #expect(messages.last.contains("1 effect still running at the end of the test"))
    #expect(
      messages.last.contains(
        "The test's task was cancelled, so the store stopped waiting for them."))
    gate.open()
  }

  /// A receive cut short by the test's cancellation says so, not that it waited its timeout.
  @Test func aReceiveCutShortByCancellationSaysSo() async {
    let gate = Gate()
    let store = TestStore(initialState: Stubborn.State()) { Stubborn(gate: gate) }
    store.timeout = .seconds(3600)
    await store.send(.start)
    let messages = self.messages
    let receiving = Task {
      await withKnownIssue {
        await store.receive({ _ in true })
      } matching: {
        messages.capture($0)
      }
    }
    receiving.cancel()
    await receiving.value
    #expect(messages.last.contains("but the test's task was cancelled"), "\(messages.all)")
    #expect(!messages.last.contains("within"))
    await store.skipInFlightEffects()
    gate.open()
  }

  /// A task's `finish()` cut short by the test's cancellation says so.
  @Test func aTasksFinishCutShortByCancellationSaysSo() async {
    let gate = Gate()
    let store = TestStore(initialState: Stubborn.State()) { Stubborn(gate: gate) }
    store.timeout = .seconds(3600)
    let started = await store.send(.start)
    let messages = self.messages
    let finishing = Task {
      await withKnownIssue {
        await started.finish()
      } matching: {
        messages.capture($0)
      }
    }
    finishing.cancel()
    await finishing.value
    #expect(
      messages.last.contains("had not finished when the test's task was cancelled"),
      "\(messages.all)")
    await store.skipInFlightEffects()
    gate.open()
  }

  /// A test that cancels itself (`Test.cancel()`) with effects still running is reported as
  /// cancelled: its store, released in the cancelled task, makes no checks. (Without that,
  /// this test fails: the release reports the running effect.)
  @Test func aStoreReleasedInACancelledTaskMakesNoChecks() async {
    let gate = Gate()
    let released = Task { @MainActor in
      let store = TestStore(initialState: Stubborn.State()) { Stubborn(gate: gate) }
      await store.send(.start)
      withUnsafeCurrentTask { $0?.cancel() }
    }
    await released.value
    gate.open()
  }
}

/// A test clock shared between tests that run at the same time (a global, a `static let`):
/// one test's advance woke another's effect, whose action then failed that test with no hint
/// that the clock was shared (flakiness trial: 20 of 20 runs).
@MainActor
@Suite struct SharedClockTests {
  let messages = Messages()

  @Test func aFailureCausedByAClockHeldByAnotherStoreSaysTheClockIsShared() async {
    let shared = TestClock()
    let store = TestStore(initialState: TestClockWaitTests.Napper.State()) {
      TestClockWaitTests.Napper(clock: shared, gate: Gate())
    }
    // Another test's store, holding the same clock, and its advance.
    let other = TestStore(initialState: TestClockWaitTests.Napper.State()) {
      TestClockWaitTests.Napper(clock: shared, gate: Gate())
    }
    await store.send(.nap)
    await shared.advance(by: .seconds(2))
    await withKnownIssue {
      await store.send(.scrolled(1))
    } matching: {
      messages.capture($0)
    }
    #expect(messages.all.count == 1, "\(messages.all)")
    #expect(
      messages.last.hasSuffix(
        "The feature's TestClock is held by 1 other live test store too, and a clock moves "
          + "for every store that holds it: each store's advances wake the others' effects. If "
          + "the clock is shared between tests that run at the same time (a global, or a "
          + "`static let`), give each test a clock of its own; if the other store is an "
          + "earlier one of this test, release it first (a store holds its clock until it is "
          + "released)."),
      "\(messages.all)")
    store.skipReceivedActions()
    await store.finish()
    await other.finish()
  }

  /// A clock no other store holds adds nothing to a failure.
  @Test func aFailureWithAClockOfItsOwnSaysNothingOfSharing() async {
    let clock = TestClock()
    let store = TestStore(initialState: TestClockWaitTests.Napper.State()) {
      TestClockWaitTests.Napper(clock: clock, gate: Gate())
    }
    await store.send(.nap)
    await clock.advance(by: .seconds(2))
    await withKnownIssue {
      await store.send(.scrolled(1))
    } matching: {
      messages.capture($0)
    }
    #expect(messages.all.count == 1, "\(messages.all)")
    #expect(!messages.last.contains("TestClock is held by"), "\(messages.all)")
    store.skipReceivedActions()
    await store.finish()
  }
}
