import Effects
import Store
import Testing

@testable import StoreTesting

/// The effects runtime against time, from an adversarial trial: debounce and throttle at
/// their boundaries and in many small steps against one big one, test clock deadlines, child
/// tasks and streams, cancellation in flight, concatenation, released stores.
@MainActor
@Suite(.timeLimit(.minutes(30))) struct EffectTimingScenarioTests {
  struct Probe: Reducer {
    struct State: Equatable {
      var fired: [Int] = []
    }
    enum Action: Equatable, Sendable {
      case debounced(Int, Duration)
      case throttled(Int, Duration, latest: Bool)
      case fired(Int)
      case cancel
      case sleepThenFire(Int, Duration)
      case tick
      case timer(Duration, count: Int)
      case restart(Int)
      case chain(Int)
      case sendAfterCancel
      case throwing(Bool)
      case caught(String)
    }
    enum ID { case d, t, s, r }
    let clock: any Clock<Duration>

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .debounced(let n, let d):
        return .run { send in send(.fired(n)) }
          .debounce(id: ID.d, for: d, clock: clock)
      case .throttled(let n, let i, let latest):
        return .run { send in send(.fired(n)) }
          .throttle(id: ID.t, for: i, clock: clock, latest: latest)
      case .fired(let n):
        state.fired.append(n)
        return .none
      case .cancel:
        return .merge(.cancel(id: ID.d), .cancel(id: ID.t), .cancel(id: ID.s), .cancel(id: ID.r))
      case .sleepThenFire(let n, let d):
        return .run { [clock] send in
          try await clock.sleep(for: d)
          send(.fired(n))
        }
        .cancellable(id: ID.s)
      case .tick:
        return .none
      case .timer(let i, let count):
        return .run { [clock] send in
          var k = 0
          for await _ in clock.timer(interval: i) {
            send(.tick)
            k += 1
            if k == count { break }
          }
        }
      case .restart(let n):
        // An effect whose action restarts the same id.
        return .run { send in
          send(.fired(n))
          if n < 3 { send(.restart(n + 1)) }
          send(.fired(100 + n))
        }
        .cancellable(id: ID.r, cancelInFlight: true)
      case .chain:
        return .none
      case .sendAfterCancel:
        return .none
      case .throwing(let cancelFirst):
        return .run { _ in
          if cancelFirst { throw CancellationError() }
          struct Boom: Error {}
          throw Boom()
        } catch: { error in
          .caught("\(type(of: error))")
        }
      case .caught:
        return .none
      }
    }
  }

  // MARK: - Debounce, throttle and clock boundaries

  @Test func debounceManySmallStepsEqualsOneBigStep() async {
    let clock = TestClock()
    let store = TestStore(initialState: Probe.State()) { Probe(clock: clock) }
    await store.send(.debounced(1, .milliseconds(300)))
    for _ in 0..<299 { await clock.advance(by: .milliseconds(1)) }
    #expect(store.unreceivedActions.isEmpty)
    await clock.advance(by: .milliseconds(1))
    await store.receive(.fired(1)) { $0.fired = [1] }
    await store.finish()
  }

  @Test func debounceZeroAndNegativeDurationFireAtOnce() async {
    let clock = TestClock()
    let store = TestStore(initialState: Probe.State()) { Probe(clock: clock) }
    await store.send(.debounced(1, .zero))
    await store.receive(.fired(1)) { $0.fired = [1] }
    await store.send(.debounced(2, .seconds(-5)))
    await store.receive(.fired(2)) { $0.fired = [1, 2] }
    await store.finish()
  }

  @Test func throttleExactlyAtIntervalRunsAtOnce() async {
    let clock = TestClock()
    let store = TestStore(initialState: Probe.State()) { Probe(clock: clock) }
    await store.send(.throttled(1, .seconds(1), latest: true))
    await store.receive(.fired(1)) { $0.fired = [1] }
    await clock.advance(by: .seconds(1))
    await store.send(.throttled(2, .seconds(1), latest: true))
    await store.receive(.fired(2)) { $0.fired = [1, 2] }
    await store.finish()
  }

  @Test func throttleZeroInterval() async {
    let clock = TestClock()
    let store = TestStore(initialState: Probe.State()) { Probe(clock: clock) }
    await store.send(.throttled(1, .zero, latest: false))
    await store.receive(.fired(1)) { $0.fired = [1] }
    await store.send(.throttled(2, .zero, latest: false))
    await store.receive(.fired(2)) { $0.fired = [1, 2] }
    await store.finish()
  }

  @Test(arguments: [true, false]) func throttleBigStepVsSmallSteps(latest: Bool) async {
    for big in [true, false] {
      let clock = TestClock()
      let store = TestStore(initialState: Probe.State()) { Probe(clock: clock) }
      store.exhaustivity = .off
      await store.send(.throttled(1, .seconds(1), latest: latest))
      await clock.advance(by: .milliseconds(500))
      await store.send(.throttled(2, .seconds(1), latest: latest))
      await store.send(.throttled(3, .seconds(1), latest: latest))
      if big {
        await clock.advance(by: .milliseconds(9500))
      } else {
        for _ in 0..<95 { await clock.advance(by: .milliseconds(100)) }
      }
      await store.send(.throttled(4, .seconds(1), latest: latest))
      await store.skipInFlightEffects()
      #expect(store.state.fired == [1, latest ? 3 : 2, 4], "big: \(big)")
    }
  }

  @Test func timerTicksFiveTimesInOneAdvance() async {
    let clock = TestClock()
    let store = TestStore(initialState: Probe.State()) { Probe(clock: clock) }
    await store.send(.timer(.seconds(1), count: 5))
    await clock.advance(by: .seconds(5))
    for _ in 0..<5 { await store.receive(.tick) }
    await store.finish()
  }

  @Test func restartingTheSameIDFromItsOwnEffectCancelsTheSender() async {
    let clock = TestClock()
    let store = TestStore(initialState: Probe.State()) { Probe(clock: clock) }
    await store.send(.restart(1))
    await store.receive(.fired(1)) { $0.fired = [1] }
    await store.receive(.restart(2))
    await store.receive(.fired(2)) { $0.fired = [1, 2] }
    await store.receive(.restart(3))
    await store.receive(.fired(3)) { $0.fired = [1, 2, 3] }
    await store.receive(.fired(103)) { $0.fired = [1, 2, 3, 103] }
    await store.finish()
  }

  @Test func cancelledSleeperNeverFires() async {
    let clock = TestClock()
    let store = TestStore(initialState: Probe.State()) { Probe(clock: clock) }
    let task = await store.send(.sleepThenFire(1, .seconds(1)))
    await clock.advance(by: .milliseconds(999))
    await store.send(.cancel)
    #expect(!task.isRunning)
    await clock.advance(by: .seconds(10))
    await store.finish()
  }

  @Test func catchGetsCancellationErrorThrownWhileNotCancelled() async {
    let store = TestStore(initialState: Probe.State()) { Probe(clock: ImmediateClock()) }
    await store.send(.throwing(true))
    await store.receive(.caught("CancellationError"))
    await store.send(.throwing(false))
    await store.receive(.caught("Boom"))
    await store.finish()
  }

  @Test func testClockBasics() async throws {
    let clock = TestClock()
    try await clock.sleep(until: .init(offset: .seconds(-1)))
    try await clock.sleep(for: .zero)
    await clock.advance(by: .seconds(-3))
    #expect(clock.now == .init(offset: .zero))
    await clock.advance(to: .init(offset: .seconds(2)))
    await clock.advance(to: .init(offset: .seconds(1)))
    #expect(clock.now == .init(offset: .seconds(2)))
  }

  // MARK: - Windows, child tasks and streams

  struct Group: Reducer {
    struct State: Equatable { var fired: [Int] = [] }
    enum Action: Equatable, Sendable {
      case fanOut, fired(Int), stream, oneAction, a, b, slowTimer, tick(Duration), scrolled(Int)
      case cancelT
    }
    enum ID { case x, t }
    let clock: TestClock
    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .fanOut:
        return .run { [clock] send in
          await withTaskGroup(of: Void.self) { group in
            for i in [3, 1, 2] {
              group.addTask {
                try? await clock.sleep(for: .seconds(i))
                if !Task.isCancelled { send(.fired(i)) }
              }
            }
          }
        }
      case .fired(let n):
        state.fired.append(n)
        return .none
      case .stream:
        return .run { [clock] send in
          let (stream, continuation) = AsyncStream<Int>.makeStream()
          async let producer: Void = {
            for i in 1...3 {
              try? await clock.sleep(for: .seconds(1))
              continuation.yield(i)
            }
            continuation.finish()
          }()
          for await i in stream { send(.fired(i)) }
          await producer
        }
      case .oneAction:
        return .merge(
          .run { send in send(.a) }.cancellable(id: ID.x),
          .cancel(id: ID.x),
          .run { send in send(.b) }.cancellable(id: ID.x)
        )
      case .a, .b:
        return .none
      case .slowTimer:
        return .run { [clock] send in
          var n = 0
          for await t in clock.timer(interval: .seconds(1)) {
            send(.tick(t))
            n += 1
            if n == 3 { break }
            try await clock.sleep(for: .milliseconds(2500))
          }
        }
      case .tick:
        return .none
      case .scrolled(let n):
        return .run { send in send(.fired(n)) }
          .throttle(id: ID.t, for: .seconds(1), clock: clock, latest: true)
      case .cancelT:
        return .cancel(id: ID.t)
      }
    }
  }

  @Test func taskGroupChildrenWakeInDeadlineOrderInOneAdvance() async {
    let clock = TestClock()
    let store = TestStore(initialState: Group.State()) { Group(clock: clock) }
    await store.send(.fanOut)
    await clock.advance(by: .seconds(3))
    await store.receive(.fired(1)) { $0.fired = [1] }
    await store.receive(.fired(2)) { $0.fired = [1, 2] }
    await store.receive(.fired(3)) { $0.fired = [1, 2, 3] }
    await store.finish()
  }

  @Test func cancellingTheTaskStopsTaskGroupChildren() async {
    let clock = TestClock()
    let store = TestStore(initialState: Group.State()) { Group(clock: clock) }
    let task = await store.send(.fanOut)
    await clock.advance(by: .seconds(1))
    await store.receive(.fired(1)) { $0.fired = [1] }
    task.cancel()
    #expect(!task.isRunning)
    #expect(task.isCancelled)
    await clock.advance(by: .seconds(5))
    #expect(store.unreceivedActions.isEmpty)
    await store.finish()
  }

  @Test func asyncStreamFedByChildSleeps() async {
    let clock = TestClock()
    let store = TestStore(initialState: Group.State()) { Group(clock: clock) }
    await store.send(.stream)
    await clock.advance(by: .seconds(3))
    await store.receive(.fired(1)) { $0.fired = [1] }
    await store.receive(.fired(2)) { $0.fired = [1, 2] }
    await store.receive(.fired(3)) { $0.fired = [1, 2, 3] }
    await store.finish()
  }

  @Test func cancelBetweenTwoCancellablesInOneMergeHitsOnlyTheFirst() async {
    let store = TestStore(initialState: Group.State()) { Group(clock: TestClock()) }
    await store.send(.oneAction)
    await store.receive(.b)
    await store.finish()
  }

  @Test func slowTimerConsumerSkipsMissedTicks() async {
    let clock = TestClock()
    let store = TestStore(initialState: Group.State()) { Group(clock: clock) }
    await store.send(.slowTimer)
    await clock.advance(by: .seconds(10))
    await store.receive(.tick(.seconds(1)))
    await store.receive(.tick(.seconds(4)))
    await store.receive(.tick(.seconds(7)))
    await store.finish()
  }

  @Test func throttleCancelClosesWindowThenNextRunsAtOnce() async {
    let clock = TestClock()
    let store = TestStore(initialState: Group.State()) { Group(clock: clock) }
    await store.send(.scrolled(1))
    await store.receive(.fired(1)) { $0.fired = [1] }
    await clock.advance(by: .milliseconds(500))
    let two = await store.send(.scrolled(2))
    #expect(two.isRunning)
    let three = await store.send(.scrolled(3))
    #expect(!two.isRunning)
    #expect(three.isRunning)
    await clock.advance(by: .milliseconds(200))
    await store.send(.cancelT)
    #expect(!three.isRunning)
    await store.send(.scrolled(4))
    await store.receive(.fired(4)) { $0.fired = [1, 4] }
    await clock.advance(by: .milliseconds(100))
    await store.send(.scrolled(5))
    await clock.advance(by: .milliseconds(200))  // t = 1.0: the cancelled window's end
    #expect(store.unreceivedActions.isEmpty)
    await clock.advance(by: .milliseconds(700))  // t = 1.7
    await store.receive(.fired(5)) { $0.fired = [1, 4, 5] }
    await store.finish()
  }

  @Test func throttleLeftoverMessageSaysRemainingTime() async {
    let clock = TestClock()
    let messages = Messages()
    let store = TestStore(initialState: Group.State()) { Group(clock: clock) }
    await store.send(.scrolled(1))
    await store.receive(.fired(1)) { $0.fired = [1] }
    await clock.advance(by: .milliseconds(400))
    await store.send(.scrolled(2))
    await withKnownIssue {
      await store.finish()
    } matching: {
      messages.capture($0)
    }
    #expect(messages.last.contains("0.6 seconds"), "\(messages.all)")
  }

  // MARK: - Cancellation and concatenation

  struct Seq: Reducer {
    struct State: Equatable { var fired: [Int] = [] }
    enum Action: Equatable, Sendable {
      case afterRun, leadingSends, cancelIt, fired(Int), startLong, sendThenLong
      case selfAdvance, ties, firstOnly(Int), fired2(Int)
    }
    enum ID { case x, t }
    let clock: TestClock
    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .afterRun:
        return .concatenate(
          .run { _ in try await clock.sleep(for: .seconds(1)) },
          .send(.cancelIt),
          .send(.fired(9))
        )
        .cancellable(id: ID.x)
      case .leadingSends:
        return .concatenate(.send(.cancelIt), .send(.fired(9)), .run { send in send(.fired(10)) })
          .cancellable(id: ID.x)
      case .cancelIt:
        return .cancel(id: ID.x)
      case .fired(let n):
        state.fired.append(n)
        return .none
      case .fired2:
        return .none
      case .startLong:
        return .run { send in
          try await clock.sleep(for: .seconds(1))
          send(.fired(1))
        }
      case .sendThenLong:
        return .concatenate(.run { _ in }, .send(.startLong), .send(.fired(2)))
      case .selfAdvance:
        return .run { send in
          await clock.advance(by: .seconds(1))
          send(.fired(1))
        }
      case .ties:
        return .run { send in
          await withTaskGroup(of: Void.self) { group in
            for i in 1...4 {
              group.addTask {
                try? await clock.sleep(for: .seconds(1))
                send(.fired(i))
              }
            }
          }
        }
      case .firstOnly(let n):
        return .run { send in send(.fired2(n)) }
          .throttle(id: ID.t, for: .seconds(1), clock: clock, latest: false)
      }
    }
  }

  @Test func aSentActionAfterAsyncPartCancelsTheRestOfTheConcatenation() async {
    let clock = TestClock()
    let store = TestStore(initialState: Seq.State()) { Seq(clock: clock) }
    await store.send(.afterRun)
    await clock.advance(by: .seconds(1))
    await store.receive(.cancelIt)
    await store.finish()
  }

  @Test func leadingSendsAllQueueEvenIfOneCancels() async {
    let clock = TestClock()
    let store = TestStore(initialState: Seq.State()) { Seq(clock: clock) }
    await store.send(.leadingSends)
    await store.receive(.cancelIt)
    await store.receive(.fired(9)) { $0.fired = [9] }
    await store.finish()
  }

  @Test func concatenationDoesNotWaitForEffectsOfItsSendPart() async {
    let clock = TestClock()
    let store = TestStore(initialState: Seq.State()) { Seq(clock: clock) }
    let task = await store.send(.sendThenLong)
    await store.receive(.startLong)
    await store.receive(.fired(2)) { $0.fired = [2] }
    #expect(task.isRunning)
    await clock.advance(by: .seconds(1))
    await store.receive(.fired(1)) { $0.fired = [2, 1] }
    #expect(!task.isRunning)
    await store.finish()
  }

  @Test func tiesWakeInTheOrderTheyWentToSleep() async {
    let clock = TestClock()
    let store = TestStore(initialState: Seq.State()) { Seq(clock: clock) }
    await store.send(.ties)
    await clock.advance(by: .seconds(1))
    await store.receive(.fired(1)) { $0.fired = [1] }
    await store.receive(.fired(2)) { $0.fired = [1, 2] }
    await store.receive(.fired(3)) { $0.fired = [1, 2, 3] }
    await store.receive(.fired(4)) { $0.fired = [1, 2, 3, 4] }
    await store.finish()
  }

  @Test func throttleFirstReplacesACancelledWaiter() async {
    let clock = TestClock()
    let store = TestStore(initialState: Seq.State()) { Seq(clock: clock) }
    await store.send(.firstOnly(1))
    await store.receive(.fired2(1))
    let two = await store.send(.firstOnly(2))
    two.cancel()
    #expect(!two.isRunning)
    await store.send(.firstOnly(3))
    await store.send(.firstOnly(4))
    await clock.advance(by: .seconds(1))
    await store.receive(.fired2(3))
    await store.finish()
  }

  @Test func anEffectThatAdvancesTheClockItself() async {
    let clock = TestClock()
    let store = TestStore(initialState: Seq.State()) { Seq(clock: clock) }
    await store.send(.selfAdvance)
    await store.receive(.fired(1)) { $0.fired = [1] }
    #expect(clock.now == .init(offset: .seconds(1)))
    await store.finish()
  }

}
