import Effects

/// The texts of test store failures, kept together so they read alike.
enum Messages {
  static func bulleted(_ lines: [String]) -> String {
    lines.map { "  • \($0)" }.joined(separator: "\n")
  }

  static func describe(_ record: EffectRecord) -> String {
    let site = record.site.map { " (created at \($0))" } ?? ""
    switch record.kind {
    case .task, .sequence:
      return "an effect started by \(Effects.describe(record.origin))\(site)"
    case .timer:
      return "a throttle window opened by \(Effects.describe(record.origin))"
    }
  }

  static func stillRunning(_ records: [EffectRecord]) -> String {
    """
    \(records.count) effect(s) still running at the end of the test:
    \(bulleted(records.map(describe)))
    Effects must finish or be cancelled before a test ends. Cancel it from the feature (for \
    example when its screen goes away), advance the test clock past it, or call \
    `await store.skipInFlightEffects()` if it does not matter to this test.
    """
  }

  static func unreceived(_ actions: [String], context: String) -> String {
    """
    \(context) \(actions.count) received action(s) not yet asserted:
    \(bulleted(actions))
    Assert each with `await store.receive(...)`, or call `store.skipReceivedActions()`.
    """
  }
}
