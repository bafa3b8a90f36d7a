/// The benchmark's report: one row per scenario, with its baseline, ratio and target.
struct Table {
  struct Row {
    /// The scenario's number, which `bench --only N` takes.
    var number: Int
    var scenario: String
    var nanoseconds: Double
    var baseline: String
    var baselineNanoseconds: Double
    var target: Double
    var ratio: Double { nanoseconds / baselineNanoseconds }
    var isMet: Bool { ratio <= target }
  }

  private(set) var rows: [Row] = []
  /// The number of the scenario running: its rows carry it.
  var scenarioNumber = 0
  private(set) var notes: [(name: String, value: String)] = []
  /// Notes whose figure has a limit it missed (`note(_:_:meets:)`): `--check` fails for
  /// them as for a row.
  private(set) var missedLimits: [String] = []

  mutating func add(
    _ scenario: String, _ nanoseconds: Double, _ baseline: String, _ baselineNanoseconds: Double,
    _ target: Double
  ) {
    rows.append(
      Row(
        number: scenarioNumber, scenario: scenario, nanoseconds: nanoseconds, baseline: baseline,
        baselineNanoseconds: baselineNanoseconds, target: target))
  }

  mutating func note(_ name: String, _ value: String) {
    notes.append((name, value))
  }

  /// A note whose figure has a limit: one that misses it says so, and fails `--check`.
  mutating func note(_ name: String, _ value: String, meets: Bool) {
    notes.append((name, meets ? value : value + ": NO, over its limit"))
    if !meets { missedLimits.append(name) }
  }

  var allMet: Bool { rows.allSatisfy(\.isMet) && missedLimits.isEmpty }

  func render() -> String {
    var lines = [
      "| # | scenario | library ns/op | baseline | baseline ns/op | ratio | target | met |",
      "| ---: | --- | ---: | --- | ---: | ---: | ---: | --- |",
    ]
    for row in rows {
      lines.append(
        "| \(row.number) | \(row.scenario) | \(format(row.nanoseconds)) | \(row.baseline) | "
          + "\(format(row.baselineNanoseconds)) | \(format(row.ratio)) | ≤ \(format(row.target)) | "
          + "\(row.isMet ? "yes" : "NO") |")
    }
    if !notes.isEmpty {
      lines.append("")
      lines.append(
        "Without a ratio target (timings are medians of 11 repetitions unless the note says "
          + "otherwise):")
      for (name, value) in notes { lines.append("- \(name): \(value)") }
    }
    return lines.joined(separator: "\n")
  }
}

extension Table {
  /// Whether scenario `scenario` runs (every scenario when `only` is `nil`); if it does, the
  /// rows added next are numbered so.
  mutating func begins(_ scenario: Int, only: Int?) -> Bool {
    guard only == nil || only == scenario else { return false }
    scenarioNumber = scenario
    return true
  }
}
