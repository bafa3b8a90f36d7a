import Effects
import Testing

@testable import Store

/// A test clock whose sleep, cut short by its task's cancellation, returns rather than throw
/// (a clock of one's own written with `try?`), and, called once its task is cancelled, returns
/// at once: a loop over its sleeps must check for cancellation itself. It counts those calls,
/// and throws at the hundredth, so that a loop that never checks still ends.
private final class CancellationSwallowingClock: Clock, Sendable {
  let base: TestClock
  let sleepsOnceCancelled = Locked(0)

  init(base: TestClock) { self.base = base }

  var now: TestClock.Instant { base.now }
  var minimumResolution: Duration { .zero }

  func sleep(until deadline: TestClock.Instant, tolerance: Duration?) async throws {
    if Task.isCancelled {
      let count = sleepsOnceCancelled.withLock {
        $0 += 1
        return $0
      }
      if count >= 100 { throw CancellationError() }
      return
    }
    try? await base.sleep(until: deadline, tolerance: tolerance)
  }
}

@MainActor
@Suite struct EffectsHuntTests {
  let clock = TestClock()

  /// A log whose `.start` runs a timer of one second on `timerClock`, recording each tick,
  /// cancellable as "timer"; its warnings go to `warnings`, or as any store's without one.
  fileprivate func ticking(
    on timerClock: some Clock<Duration> & Sendable, warnings: WarningLog? = nil
  ) -> Harness<LogFeature> {
    Harness(
      initialState: LogFeature.State(), warnings: warnings?.handler ?? .current,
      reducer: LogFeature { _ in
        .run { send in
          for await tick in timerClock.timer(interval: .seconds(1)) {
            send(.record("tick \(tick)"))
          }
        }
        .cancellable(id: "timer")
      })
  }

  /// A timer ends when its task is cancelled, as its documentation says, also on a clock
  /// whose sleep does not throw for the cancellation: it ticks no more, and sleeps no more.
  /// (It went on ticking, each sleep returning at once, for as long as the clock let it: for
  /// good, with the effect never ending, on a clock that never throws.)
  @Test func aTimerEndsWithItsTaskOnAClockThatDoesNotThrowForCancellation() async {
    let timerClock = CancellationSwallowingClock(base: clock)
    let harness = ticking(on: timerClock)
    harness.send(.start("t"))
    await clock.advance(by: .seconds(2))
    #expect(harness.state.log == ["start t", "tick 1.0 seconds", "tick 2.0 seconds"])
    harness.send(.stop("timer"))
    harness.settle()
    #expect(harness.core.runtime.runningCount == 0)
    #expect(timerClock.sleepsOnceCancelled.withLock { $0 } == 0)
  }

  /// A timer whose clock throws another error than cancellation once its task is cancelled:
  /// the error is reported, as a `.run`'s, a debounce's or a throttle's would be. (The timer
  /// ended in silence, the error lost.)
  @Test func aTimersClockErrorAfterCancellationIsReported() async {
    let warnings = WarningLog()
    let timerClock = InterruptedClock(base: clock)
    let harness = ticking(on: timerClock, warnings: warnings)
    harness.send(.start("t"))
    await clock.advance(by: .seconds(1))
    harness.send(.stop("timer"))
    harness.settle()
    #expect(harness.state.log == ["start t", "tick 1.0 seconds", "stop timer"])
    #expect(harness.core.runtime.runningCount == 0)
    #expect(warnings.messages.count == 1)
    #expect(warnings.messages.first?.contains("SleepInterrupted()") == true)
  }

  /// A random walk of sends, clock moves, cancellations of the id and of senders' tasks,
  /// against a model of the throttle and the debounce.
  @Test(arguments: [false, true])
  func throttleAndDebounceFollowTheirModel(latest: Bool) async {
    var rng = SeededGenerator(state: latest ? 7 : 11)
    for run in 0..<150 {
      let clock = TestClock()
      let interval = Duration.milliseconds(1000)
      let useDebounce = run % 3 == 0
      let harness = Harness(
        initialState: LogFeature.State(),
        reducer: LogFeature { name in
          let effect = Effect<LogFeature.Action>.send(.record("emit \(name)"))
          return useDebounce
            ? effect.debounce(id: "x", for: interval, clock: clock)
            : effect.throttle(id: "x", for: interval, clock: clock, latest: latest)
        })
      var now = Duration.zero
      var windowEnd: Duration?
      var pending: (name: String, task: StoreTask)?
      var expected: [String] = []
      var ops: [String] = []
      func closeWindows(upTo t: Duration) {
        if useDebounce {
          if let end = windowEnd, end <= t, let p = pending {
            expected.append("emit \(p.name)")
            pending = nil
            windowEnd = nil
          }
          return
        }
        while let end = windowEnd, end <= t {
          if let p = pending {
            expected.append("emit \(p.name)")
            pending = nil
            windowEnd = end + interval
          } else {
            windowEnd = nil
          }
        }
      }
      for step in 0..<25 {
        switch rng.next() % 6 {
        case 0, 1, 2:
          let name = "\(step)"
          ops.append("send \(name) at \(now)")
          expected.append("start \(name)")
          let task = harness.send(.start(name))
          if useDebounce {
            pending = (name, task)
            windowEnd = now + interval
          } else if windowEnd == nil {
            expected.append("emit \(name)")
            windowEnd = now + interval
          } else if latest || pending == nil {
            pending = (name, task)
          }
        case 3:
          let by = Duration.milliseconds(Int(rng.next() % 5) * 250)
          ops.append("advance \(by)")
          now += by
          closeWindows(upTo: now)
          await clock.advance(by: by)
        case 4:
          ops.append("stop")
          expected.append("stop x")
          harness.send(.stop("x"))
          windowEnd = nil
          pending = nil
        default:
          if let p = pending {
            ops.append("cancel task of \(p.name)")
            p.task.cancel()
            harness.settle()
            pending = nil
            if useDebounce { windowEnd = nil }
          }
        }
        if harness.state.log != expected {
          Issue.record(
            "run \(run) debounce \(useDebounce): \(ops)\n got \(harness.state.log)\n want \(expected)"
          )
          return
        }
      }
    }
  }

  /// A timer whose consumer dawdles after some ticks, its clock moved in random steps: the
  /// ticks fall at whole intervals from the first `next()`, those missed while the consumer was
  /// busy skipped, however far each step moves the clock.
  @Test func aTimerFollowsItsModelWhateverStepsTheClockTakes() async {
    var rng = SeededGenerator(state: 3)
    for run in 0..<60 {
      let clock = TestClock()
      let interval = Duration.milliseconds(300 + 100 * (run % 4))
      let dawdles: [Duration] = (0..<40).map { _ in .milliseconds(Int(rng.next() % 8) * 200) }
      let harness = Harness(
        initialState: LogFeature.State(),
        reducer: LogFeature { _ in
          .run { send in
            var index = 0
            for await tick in clock.timer(interval: interval) {
              send(.record("\(tick)"))
              let dawdle = dawdles[index % dawdles.count]
              index += 1
              if dawdle > .zero { try await clock.sleep(for: dawdle) }
            }
          }
          .cancellable(id: "t")
        })
      harness.send(.start("t"))
      // The model.
      var ticks: [Duration] = []
      var due = interval
      var index = 0
      for _ in 0..<200 {
        ticks.append(due)
        let busyUntil = due + dawdles[index % dawdles.count]
        index += 1
        var next = due + interval
        while next < busyUntil { next += interval }
        due = next
      }
      var now = Duration.zero
      for _ in 0..<15 {
        let by = Duration.milliseconds(Int(rng.next() % 12) * 150)
        now += by
        await clock.advance(by: by)
        let want = ["start t"] + ticks.filter { $0 <= now }.map { "\($0)" }
        if harness.state.log != want {
          Issue.record("run \(run) at \(now): got \(harness.state.log) want \(want)")
          return
        }
      }
      harness.send(.stop("t"))
    }
  }

  /// A concatenation that cancels itself from a later part's action stops; one whose part is
  /// cancelled by its own id goes on to the next part; cancelling a store task cancels the
  /// effects the actions it fed back started.
  @Test func concatenationsAndStoreTasksEndAsDocumented() async {
    let clock = self.clock
    let harness = Harness(
      initialState: LogFeature.State(),
      reducer: LogFeature { name in
        switch name {
        case "a":
          return .concatenate(
            .run { _ in try await clock.sleep(for: .seconds(1)) },
            .send(.stop("a")),
            .send(.record("after a"))
          ).cancellable(id: "a")
        case "b":
          return .concatenate(
            Effect.run { _ in try await clock.sleep(for: .seconds(10)) }.cancellable(id: "p"),
            .send(.record("next b")),
            .run { send in
              try await clock.sleep(for: .seconds(1))
              send(.record("late b"))
            }
          )
        case "c":
          return Effect.run { send in
            try await clock.sleep(for: .seconds(1))
            send(.start("d"))
          }
        case "d":
          return .run { send in
            try await clock.sleep(for: .seconds(5))
            send(.record("d done"))
          }
        default: return .none
        }
      })
    let a = harness.send(.start("a"))
    await clock.advance(by: .seconds(1))
    #expect(harness.state.log == ["start a", "stop a"])
    #expect(!a.isRunning)
    let b = harness.send(.start("b"))
    harness.send(.stop("p"))
    #expect(harness.state.log.suffix(2) == ["stop p", "next b"])
    #expect(b.isRunning)
    await clock.advance(by: .seconds(1))
    #expect(harness.state.log.suffix(1) == ["late b"])
    #expect(!b.isRunning)
    let c = harness.send(.start("c"))
    await clock.advance(by: .seconds(1))
    #expect(c.isRunning)
    c.cancel()
    harness.settle()
    #expect(!c.isRunning)
    await clock.advance(by: .seconds(10))
    #expect(!harness.state.log.contains("d done"))
    #expect(harness.core.runtime.runningCount == 0)
  }
}
