import Effects
import Testing

/// A duration counted in whole ticks: a clock's own duration type, not `Swift.Duration`.
private struct Ticks: DurationProtocol, Hashable, CustomStringConvertible {
  var count: Int

  init(_ count: Int) { self.count = count }

  static var zero: Ticks { Ticks(0) }
  static func + (lhs: Ticks, rhs: Ticks) -> Ticks { Ticks(lhs.count + rhs.count) }
  static func - (lhs: Ticks, rhs: Ticks) -> Ticks { Ticks(lhs.count - rhs.count) }
  static func < (lhs: Ticks, rhs: Ticks) -> Bool { lhs.count < rhs.count }
  static func / (lhs: Ticks, rhs: Int) -> Ticks { Ticks(lhs.count / rhs) }
  static func * (lhs: Ticks, rhs: Int) -> Ticks { Ticks(lhs.count * rhs) }
  static func / (lhs: Ticks, rhs: Ticks) -> Double { Double(lhs.count) / Double(rhs.count) }

  var description: String { "\(count) ticks" }
}

/// A clock measured in ``Ticks`` whose sleeps end at once, time jumping to their deadline (as
/// `ImmediateClock` does), and which notes each deadline it was asked to sleep until.
private final class TickClock: Clock, Sendable {
  struct Instant: InstantProtocol {
    var tick: Int

    func advanced(by duration: Ticks) -> Instant { Instant(tick: tick + duration.count) }
    func duration(to other: Instant) -> Ticks { Ticks(other.tick - tick) }
    static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.tick < rhs.tick }
  }

  private let state: Locked<(now: Instant, deadlines: [Int])>

  init(at tick: Int = 0) {
    state = Locked((Instant(tick: tick), []))
  }

  var now: Instant { state.withLock { $0.now } }
  var minimumResolution: Ticks { Ticks(1) }
  /// The deadlines of the sleeps so far, in ticks.
  var deadlines: [Int] { state.withLock { $0.deadlines } }

  func sleep(until deadline: Instant, tolerance: Ticks?) async throws {
    try Task.checkCancellation()
    state.withLock {
      $0.deadlines.append(deadline.tick)
      $0.now = max($0.now, deadline)
    }
  }
}

/// `Clock.timer(interval:tolerance:fileID:line:)` on a clock whose `Duration` is its own type: the ticks
/// are counted with that type's arithmetic (its division, as a `Double`), not in attoseconds.
@Suite struct CustomDurationTimerTests {
  /// The ticks are offsets from the first `next()`, in the clock's own duration, and each
  /// sleep is until the clock's instant that far from then (the clock starts at tick 10).
  @Test func aTimerOnAClockWithItsOwnDurationTicksOncePerInterval() async {
    let clock = TickClock(at: 10)
    var ticks: [Ticks] = []
    for await tick in clock.timer(interval: Ticks(3)) {
      ticks.append(tick)
      if ticks.count == 3 { break }
    }
    #expect(ticks == [Ticks(3), Ticks(6), Ticks(9)])
    #expect(clock.deadlines == [13, 16, 19])
    #expect(clock.now.tick == 19)
  }

  /// A consumer busy from tick 3 to tick 10 skips the ticks due at 6 and 9, and gets the one
  /// at 12, then 15: counted in whole intervals of the clock's own duration, with no drift.
  @Test func aSlowConsumerOnSuchAClockSkipsTheMissedTicksWithoutDrift() async throws {
    let clock = TickClock()
    var iterator = clock.timer(interval: Ticks(3)).makeAsyncIterator()
    #expect(await iterator.next() == Ticks(3))
    try await clock.sleep(for: Ticks(7))
    #expect(await iterator.next() == Ticks(12))
    #expect(await iterator.next() == Ticks(15))
    #expect(clock.deadlines == [3, 10, 12, 15])
  }

  /// A consumer busy for exactly k intervals asks again when a tick is due, and gets that
  /// tick at once: the quotient of two whole tick counts is exact.
  @Test func aConsumerBackExactlyOnATickOfSuchAClockGetsThatTick() async throws {
    var wrong: [String] = []
    for k in 2...40 {
      let clock = TickClock()
      var iterator = clock.timer(interval: Ticks(7)).makeAsyncIterator()
      let first = await iterator.next()
      try await clock.sleep(for: Ticks(7) * k)
      let second = await iterator.next()
      if first != Ticks(7) || second != Ticks(7) * (k + 1) || clock.now.tick != 7 * (k + 1) {
        wrong.append("k=\(k): \(String(describing: first)), \(String(describing: second))")
      }
    }
    #expect(wrong.isEmpty, "\(wrong)")
  }

  /// The same with an interval of 333,333,333,333,333,333 ticks (a third of a second in
  /// attoseconds), where a `Double` quotient rounds: the count is made exact with the
  /// duration's own multiplication, and the tick due on the consumer's return is that tick.
  @Test func aConsumerBackExactlyOnATickOfAVeryFineClockGetsThatTick() async throws {
    let interval = Ticks(333_333_333_333_333_333)
    var wrong: [String] = []
    for k in 2...26 {
      let clock = TickClock()
      var iterator = clock.timer(interval: interval).makeAsyncIterator()
      _ = await iterator.next()
      try await clock.sleep(for: interval * k)
      let second = await iterator.next()
      if second != interval * (k + 1) {
        wrong.append("k=\(k): \(String(describing: second))")
      }
    }
    #expect(wrong.isEmpty, "\(wrong)")
  }
}
