import Foundation

/// Times `iterations` runs of an operation, `repetitions` times, and reports the median
/// nanoseconds per operation.
@MainActor
struct Measure {
  var repetitions = 11

  func nanoseconds(iterations: Int, _ body: () -> Void) -> Double {
    body()  // warm up
    return Self.median((0..<repetitions).map { _ in nanoseconds(once: iterations, body) })
  }

  /// Times two operations in alternation, repetition by repetition, so that a slow spell of
  /// the machine weighs on both alike; returns the median of each. Each runs once first, to
  /// warm up, and they take turns going first, so that neither always runs just after the
  /// other's work (whatever it left in the caches, or for the allocator to clean up).
  func alternating(iterations: Int, _ first: () -> Void, _ second: () -> Void)
    -> (first: Double, second: Double)
  {
    var firsts: [Double] = []
    var seconds: [Double] = []
    first()  // warm up
    second()
    for repetition in 0..<repetitions {
      if repetition.isMultiple(of: 2) {
        firsts.append(nanoseconds(once: iterations, first))
        seconds.append(nanoseconds(once: iterations, second))
      } else {
        seconds.append(nanoseconds(once: iterations, second))
        firsts.append(nanoseconds(once: iterations, first))
      }
    }
    return (Self.median(firsts), Self.median(seconds))
  }

  private func nanoseconds(once iterations: Int, _ body: () -> Void) -> Double {
    let clock = ContinuousClock()
    let start = clock.now
    for _ in 0..<iterations { body() }
    let elapsed = start.duration(to: clock.now)
    return elapsed.nanoseconds / Double(iterations)
  }

  func nanoseconds(iterations: Int, _ body: () async -> Void) async -> Double {
    await body()  // warm up
    var samples: [Double] = []
    for _ in 0..<repetitions { samples.append(await nanoseconds(once: iterations, body)) }
    return Self.median(samples)
  }

  /// Times two asynchronous operations in alternation, as the synchronous
  /// `alternating(iterations:_:_:)` does, so that a slow spell of the machine (or of the
  /// cooperative pool the operations hop through) weighs on both alike.
  func alternating(
    iterations: Int, _ first: () async -> Void, _ second: () async -> Void
  ) async -> (first: Double, second: Double) {
    var firsts: [Double] = []
    var seconds: [Double] = []
    await first()  // warm up
    await second()
    for repetition in 0..<repetitions {
      if repetition.isMultiple(of: 2) {
        firsts.append(await nanoseconds(once: iterations, first))
        seconds.append(await nanoseconds(once: iterations, second))
      } else {
        seconds.append(await nanoseconds(once: iterations, second))
        firsts.append(await nanoseconds(once: iterations, first))
      }
    }
    return (Self.median(firsts), Self.median(seconds))
  }

  private func nanoseconds(once iterations: Int, _ body: () async -> Void) async -> Double {
    let clock = ContinuousClock()
    let start = clock.now
    for _ in 0..<iterations { await body() }
    let elapsed = start.duration(to: clock.now)
    return elapsed.nanoseconds / Double(iterations)
  }

  /// The middle of `samples` once sorted (the upper one of an even count).
  private static func median(_ samples: [Double]) -> Double {
    samples.sorted()[samples.count / 2]
  }
}

/// Memory figures from the C library and the kernel, where available.
enum Memory {
  /// Resets the peak resident size the kernel reports, so the next peak is this phase's.
  ///
  /// - Returns: Whether it was reset: the write to `/proc/self/clear_refs` succeeded and the
  ///   peak then reads no more than 1 MiB above the current size. (A kernel or sandbox that
  ///   refuses the write would leave the process's lifetime peak, and a figure computed from
  ///   it would be wrong.)
  static func resetPeak() -> Bool {
    #if os(Linux)
      do {
        try "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
      } catch {
        return false
      }
      guard let sizes = residentPeakAndCurrent else { return false }
      return sizes.peak <= sizes.current + 1 << 20
    #else
      return false
    #endif
  }

  /// The peak resident size since the last reset, and the current one, in bytes; `nil` where
  /// the platform does not give them (only Linux's `/proc` is read).
  static var residentPeakAndCurrent: (peak: Int, current: Int)? {
    #if os(Linux)
      guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else {
        return nil
      }
      func field(_ name: String) -> Int? {
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix(name) })
        else { return nil }
        return line.split(separator: " ").compactMap { Int($0) }.first.map { $0 * 1024 }
      }
      guard let peak = field("VmHWM:"), let current = field("VmRSS:") else { return nil }
      return (peak, current)
    #else
      return nil
    #endif
  }
}

extension Duration {
  /// The duration in nanoseconds.
  var nanoseconds: Double {
    Double(components.seconds) * 1e9 + Double(components.attoseconds) / 1e9
  }
}
