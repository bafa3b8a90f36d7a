import Effects
import Foundation
import Store

/// Scenario 7: replaying a 1,000,000-action log against decoding the same lines with
/// `JSONDecoder` alone, and the replay's peak memory.
enum ReplayBench {
  static let actionCount = 1_000_000

  @MainActor
  static func run(into table: inout Table) async throws {
    let path = ScratchFiles.make(prefix: "swift-unidirectional-store-bench-")
    defer { ScratchFiles.remove(path) }
    let store = Store(initialState: Counter.State()) { Counter() }
    let recorder = try store.recordActions(
      to: path, feature: "Counter", checkpointInterval: 1_000, time: { 0 })
    for _ in 0..<actionCount { store.send(.increment) }
    try recorder.finish()

    // The baseline: every line decoded by JSONDecoder, from memory.
    let lines = try String(contentsOfFile: path, encoding: .utf8)
      .split(separator: "\n").dropFirst().map { Data($0.utf8) }
    // The same fields the replayer reads from an action line.
    struct Line: Decodable {
      var kind: String
      var seq: Int
      var time: Double?
      var origin: String?
      var action: Counter.Action?
    }
    let decoder = JSONDecoder()
    let clock = ContinuousClock()
    var decodeTimes: [Duration] = []
    var replayTimes: [Duration] = []
    // nil where the platform gives no peak resident size (only Linux's /proc does here), or
    // where the kernel's peak could not be reset before a run.
    var peak: Int?
    var peakIsMeasured = true
    func decodeAll() throws {
      let start = clock.now
      for line in lines { _ = try decoder.decode(Line.self, from: line) }
      decodeTimes.append(start.duration(to: clock.now))
    }
    func replayAll() throws {
      if !Memory.resetPeak() { peakIsMeasured = false }
      let before = Memory.residentPeakAndCurrent?.current
      let replayStart = clock.now
      let report = try ActionLogReplayer(feature: "Counter") { Counter() }.replay(path: path)
      replayTimes.append(replayStart.duration(to: clock.now))
      precondition(report.finalState.count == actionCount && report.isComplete)
      if let before, let after = Memory.residentPeakAndCurrent?.peak {
        peak = max(peak ?? 0, after - before)
      }
    }
    // The sides take turns going first (decode, replay; replay, decode; decode, replay), as
    // the other rows' sides do, so neither is always the one that warms the caches.
    for round in 0..<3 {
      if round.isMultiple(of: 2) {
        try decodeAll()
        try replayAll()
      } else {
        try replayAll()
        try decodeAll()
      }
    }
    // The fastest of each: a run is long (seconds), so the machine's other work lands in some
    // runs and not others, and the middle run still moved the ratio between 1.0 and 1.45.
    let decode = decodeTimes.min()!
    let replay = replayTimes.min()!
    table.add(
      "replay a 1,000,000-action log", replay.nanoseconds / Double(lines.count),
      "JSONDecoder on the same lines alone", decode.nanoseconds / Double(lines.count), 1.3)
    let seconds = replay.nanoseconds / 1e9
    let throughput = "\(Int(Double(actionCount) / seconds)) actions/s (the fastest of 3 runs)"
    if let peak, peakIsMeasured {
      // A replay keeps one step's state at a time: its memory does not grow with the log.
      let limit = 64 << 20
      table.note(
        "replay throughput",
        "\(throughput); peak resident memory added by the replay \(peak / 1024) KiB (limit 64 MiB)",
        meets: peak <= limit)
    } else {
      table.note(
        "replay throughput",
        "\(throughput); peak resident memory not measured (the kernel's peak could not be "
          + "reset, or this platform gives none)")
    }
  }
}
