import Effects

/// What a test store must still report when it is released, kept where its `deinit` (which
/// cannot run on the main actor) can read it.
final class Ledger: Sendable {
  private struct State {
    var unreceived: [any Sendable] = []
    var exhaustivity = Exhaustivity.on
    var excused = RecordMarks()
    var cancelledByTest = RecordMarks()
    var warnings: [RuntimeWarning] = []
    var isFinished = false
    /// Whether a `.dismiss` reached the root.
    var isDismissed = false
    /// The action that returned the first `.dismiss` of an exhaustive step, described, until
    /// the test reads `isDismissed` or a check reports it.
    var uncheckedDismissalBy: String?
    /// Whether the test read `isDismissed` after a dismissal of an exhaustive step; set too
    /// once a check reported that it did not, so that it is reported once.
    var isDismissalChecked = false
  }
  private let state = Locked(State())

  /// Records a warning the store raised; the test store reports it at its next step.
  func record(_ warning: RuntimeWarning) {
    state.withLock { $0.warnings.append(warning) }
  }

  /// Whether warnings were raised since they were last taken.
  var hasWarnings: Bool {
    state.withLock { !$0.warnings.isEmpty }
  }

  /// Removes and returns the warnings raised since the last call.
  func takeWarnings() -> [RuntimeWarning] {
    state.withLock { state in
      defer { state.warnings = [] }
      return state.warnings
    }
  }

  /// The received actions not yet asserted, oldest first, described only when reported.
  var unreceived: [any Sendable] {
    state.withLock { $0.unreceived }
  }

  /// Notes an action an effect fed back.
  func received(_ action: any Sendable) {
    state.withLock { $0.unreceived.append(action) }
  }

  /// Notes that the received action at `position` was asserted or dropped.
  func removeUnreceived(at position: Int) {
    state.withLock { _ = $0.unreceived.remove(at: position) }
  }

  /// Notes that every received action was asserted or dropped.
  func removeAllUnreceived() {
    state.withLock { $0.unreceived.removeAll() }
  }

  /// Notes effects the test no longer asks to end: those a failure already named (a task's
  /// `finish()` that timed out, the store's `finish()`), which are not named again.
  func excuse(_ records: [EffectRecord]) {
    state.withLock { $0.excused.insert(records) }
  }

  /// Whether the test cancelled the effect with this record id.
  func isExcused(_ id: Int) -> Bool {
    state.withLock { $0.excused.contains(id) }
  }

  /// Notes effects the test cancelled with a task's `cancel()` or `skipInFlightEffects()`, as
  /// the screen that started them going away would: the store's `finish()` waits for them to
  /// end and reports those that do not (they would keep running in the app), while its
  /// release, which cannot wait, does not count code of theirs still winding down.
  func noteCancelledByTest(_ records: [EffectRecord]) {
    state.withLock { $0.cancelledByTest.insert(records) }
  }

  /// Whether the test cancelled the effect with this record id (a task's `cancel()`,
  /// `skipInFlightEffects()`).
  func isCancelledByTest(_ id: Int) -> Bool {
    state.withLock { $0.cancelledByTest.contains(id) }
  }

  /// The test store's exhaustivity, for the checks made when it is released.
  var exhaustivity: Exhaustivity {
    get { state.withLock { $0.exhaustivity } }
    set { state.withLock { $0.exhaustivity = newValue } }
  }

  /// Records that `origin` (an action, described) returned a `.dismiss` that reached the
  /// root: the first of an exhaustive step is kept, to be checked. One in a non-exhaustive
  /// step needs no check, but does not excuse a later one of an exhaustive step from it.
  func recordDismissal(by origin: String) {
    state.withLock { state in
      state.isDismissed = true
      guard state.exhaustivity == .on, !state.isDismissalChecked,
        state.uncheckedDismissalBy == nil
      else { return }
      state.uncheckedDismissalBy = origin
    }
  }

  /// Whether the feature asked to be dismissed, for the test reading `isDismissed`: a read
  /// after a dismissal of an exhaustive step checks it, and every later one; a read before
  /// any (after a non-exhaustive step's) checks none.
  func readDismissal() -> Bool {
    state.withLock { state in
      guard state.isDismissed else { return false }
      if state.uncheckedDismissalBy != nil {
        state.uncheckedDismissalBy = nil
        state.isDismissalChecked = true
      }
      return true
    }
  }

  /// The action that returned a `.dismiss` of an exhaustive step that the test has not
  /// checked with `isDismissed`, described, or `nil`; marks it reported.
  func takeUncheckedDismissal() -> String? {
    state.withLock { state in
      guard let origin = state.uncheckedDismissalBy else { return nil }
      state.uncheckedDismissalBy = nil
      state.isDismissalChecked = true
      return origin
    }
  }

  /// How many effects are kept marked as excused and as cancelled by the test (for tests).
  var markCounts: (excused: Int, cancelledByTest: Int) {
    state.withLock { ($0.excused.count, $0.cancelledByTest.count) }
  }

  /// Whether `finish()` has run its end-of-test checks.
  var isFinished: Bool {
    get { state.withLock { $0.isFinished } }
    set { state.withLock { $0.isFinished = newValue } }
  }
}

/// Effects a ledger marks, by record id, each mark kept only while its record is alive: the
/// runtime lets a record go once its effect has finished, and the marks are only asked of
/// effects still running. Kept by id alone, every effect a test excused or cancelled stayed
/// marked for the store's whole life: a long test that cancelled its tasks again and again
/// grew them by one id an effect, for good.
private struct RecordMarks: Sendable {
  private struct Mark: Sendable {
    weak var record: EffectRecord?
  }
  private var marks: [Int: Mark] = [:]
  /// How many marks there may be before those of records let go are dropped: twice as many
  /// as were left after the last sweep (at least 64), so a sweep's cost is shared by as many
  /// marks.
  private var sweepAt = 64

  /// Marks `records`.
  mutating func insert(_ records: [EffectRecord]) {
    for record in records { marks[record.id] = Mark(record: record) }
    guard marks.count >= sweepAt else { return }
    marks = marks.filter { $0.value.record != nil }
    sweepAt = max(64, 2 * marks.count)
  }

  /// Whether the record with `id` was marked (asked only of a record still running).
  func contains(_ id: Int) -> Bool {
    marks[id] != nil
  }

  /// How many marks are kept (for tests).
  var count: Int { marks.count }
}
