/// One running effect: a task, or the driver of a concatenation, that the runtime tracks.
///
/// Cancellation is thread-safe so that ``EffectGroup`` and store teardown can cancel from any
/// thread; all other bookkeeping happens on the main actor in ``EffectRuntime``.
package final class EffectRecord: Sendable {
  package enum Kind: Sendable {
    /// A task running a `run` operation.
    case task
    /// A throttle window that closes when its sleep ends.
    case timer
    /// A concatenation waiting for its current part to finish.
    case sequence
  }

  package let id: Int
  package let kind: Kind
  /// The action whose reduction started this effect, kept for failure messages.
  package let origin: any Sendable
  /// Where the effect was created, when known.
  package let site: SourceSite?
  /// The group that waits for this record to finish, if any.
  package let owner: EffectGroup?
  /// The group that actions sent by this effect, and their effects, join.
  package let feedbackGroup: EffectGroup

  private struct State {
    var isCancelled = false
    var task: Task<Void, Never>?
    var part: EffectGroup?
    var sleeps: [Int: Sleep] = [:]
    var nextSleep = 0
    /// The identity of the task that runs the effect's operation (not its child tasks, nor
    /// the tasks it spawns, which inherit ``EffectRecord/current``), once it started.
    var ownTask: Int?
    var onCancel: (@Sendable () -> Void)?
    var droppedCatchActions = DroppedCatchActions()
    /// For a throttle window's timer: the action that started the effect the window holds
    /// back now, if any.
    var heldBack: (any Sendable)?
  }
  private let state = Locked(State())
  /// What a `catch:` handler sent that no reducer sees, as the effect was cancelled before
  /// the action reached one (sent after the cancellation, or still queued at it): the first is
  /// a runtime warning at once, the rest one warning when the effect's end is reported, so a
  /// handler that keeps sending (a retry loop) is two warnings, not one per action.
  private struct DroppedCatchActions {
    var hasWarned = false
    /// Whether the effect's end was reported (``takeUnreportedCatchActions()``): a drop after
    /// it is warned of at once, as no later end will tell of it.
    var hasEnded = false
    var unreported = 0
    var last: (action: any Sendable, error: any Error)?
  }

  /// A sleep on a test clock that one of the effect's tasks is in.
  private struct Sleep {
    var clock: TestClock
    var deadline: TestClock.Instant
    /// Whether the effect's own task sleeps, rather than a child task or a task it spawned.
    var isOwnTask: Bool
  }

  /// The identity of the task running now, comparable while that task runs.
  private static var currentTaskIdentity: Int? {
    withUnsafeCurrentTask { $0?.hashValue }
  }

  /// Notes that the task running now is the one that runs the effect's operation. Call it
  /// first thing in that task.
  package func beginOwnTask() {
    let identity = Self.currentTaskIdentity
    state.withLock { $0.ownTask = identity }
  }

  /// The record of the effect whose task runs the current code, if any: a test clock notes
  /// on it what the effect sleeps on, for failure messages.
  @TaskLocal package static var current: EffectRecord?

  package init(
    id: Int,
    kind: Kind,
    origin: any Sendable,
    site: SourceSite?,
    owner: EffectGroup?,
    feedbackGroup: EffectGroup
  ) {
    self.id = id
    self.kind = kind
    self.origin = origin
    self.site = site
    self.owner = owner
    self.feedbackGroup = feedbackGroup
  }

  /// Whether the record's lifetime has ended.
  package var isCancelled: Bool {
    state.withLock { $0.isCancelled }
  }

  /// Attaches the task that runs this record, cancelling it at once if the record already was.
  package func attach(_ task: Task<Void, Never>) {
    let cancelled = state.withLock { state in
      state.task = task
      return state.isCancelled
    }
    if cancelled { task.cancel() }
  }

  /// Calls `action` when the record is cancelled (at once, if it already is): for a record
  /// with no task or part to end, which must report its own end.
  package func whenCancelled(_ action: @escaping @Sendable () -> Void) {
    let cancelled = state.withLock { state in
      if !state.isCancelled { state.onCancel = action }
      return state.isCancelled
    }
    if cancelled { action() }
  }

  /// For a throttle window's timer: the action that started the effect the window last held
  /// back, named by a test store's list of the effects still running, which lists only a
  /// window holding one (`nil` when it never held one, or is no window).
  package var heldBackOrigin: (any Sendable)? {
    state.withLock { $0.heldBack }
  }

  /// Notes, on a throttle window's timer, the action that started the effect the window now
  /// holds back (see ``heldBackOrigin``).
  func holdBack(_ origin: any Sendable) {
    state.withLock { $0.heldBack = origin }
  }

  /// Sets the part of a concatenation that is running now.
  package func setPart(_ part: EffectGroup?) {
    let cancelled = state.withLock { state in
      state.part = part
      return state.isCancelled
    }
    if cancelled { part?.cancel() }
  }

  /// Notes that one of the effect's tasks sleeps on `clock` until `deadline`.
  ///
  /// - Returns: The sleep's token, for ``endSleep(_:)``.
  package func beginSleep(on clock: TestClock, until deadline: TestClock.Instant) -> Int {
    let identity = Self.currentTaskIdentity
    return state.withLock { state in
      state.nextSleep += 1
      let isOwnTask = identity != nil && identity == state.ownTask
      state.sleeps[state.nextSleep] = Sleep(
        clock: clock, deadline: deadline, isOwnTask: isOwnTask)
      return state.nextSleep
    }
  }

  /// Notes that a sleep ``beginSleep(on:until:)`` noted is over.
  package func endSleep(_ token: Int) {
    _ = state.withLock { $0.sleeps.removeValue(forKey: token) }
  }

  /// How far each test clock the effect sleeps on must advance to wake it, soonest first:
  /// empty when it sleeps on none.
  package var testClockWaits: [Duration] { waits(ownTaskOnly: false) }

  /// ``testClockWaits`` of the effect's own task alone: empty when that task does not sleep
  /// on a test clock, though a child task of it may (a timeout raced against real work).
  package var ownTaskTestClockWaits: [Duration] { waits(ownTaskOnly: true) }

  /// Whether the effect is known to wait for the test: its own task sleeps on a test clock,
  /// or it has no task (a throttle window, a concatenation between parts). A task that waits
  /// on anything else (a stream, a continuation) cannot be told from one queued to run.
  package var isAsleepOnTestClock: Bool {
    guard kind == .task else { return true }
    return state.withLock { $0.sleeps.values.contains { $0.isOwnTask } }
  }

  private func waits(ownTaskOnly: Bool) -> [Duration] {
    let sleeps = state.withLock { $0.sleeps.values.filter { !ownTaskOnly || $0.isOwnTask } }
    return sleeps.map { $0.clock.now.duration(to: $0.deadline) }.sorted()
  }

  /// Notes an action a `catch:` handler sent, which is dropped as the effect was cancelled.
  ///
  /// - Returns: Whether to warn of it now: for the first such action, and for one noted
  ///   after the effect's end was reported (a `send` that escaped the handler). The others
  ///   are counted, for ``takeUnreportedCatchActions()``.
  package func noteDroppedCatchAction(_ action: any Sendable, error: any Error) -> Bool {
    state.withLock { state in
      if !state.droppedCatchActions.hasWarned || state.droppedCatchActions.hasEnded {
        state.droppedCatchActions.hasWarned = true
        return true
      }
      state.droppedCatchActions.unreported += 1
      state.droppedCatchActions.last = (action, error)
      return false
    }
  }

  /// Marks the effect's end as reported, and takes the dropped actions
  /// ``noteDroppedCatchAction(_:error:)`` counted and did not warn of, with the last of them
  /// and the error its handler was handling, for the one warning that tells of them; `nil` if
  /// there are none. Drops noted later are warned of one by one.
  package func takeUnreportedCatchActions() -> (
    count: Int, last: any Sendable, error: any Error
  )? {
    state.withLock { state in
      state.droppedCatchActions.hasEnded = true
      defer {
        state.droppedCatchActions.unreported = 0
        state.droppedCatchActions.last = nil
      }
      guard let last = state.droppedCatchActions.last else { return nil }
      return (state.droppedCatchActions.unreported, last.action, last.error)
    }
  }

  /// Ends this record's lifetime: cancels its task or its running part.
  ///
  /// Safe to call from any thread, more than once.
  package func cancel() {
    let (task, part, onCancel) = state.withLock {
      state -> (Task<Void, Never>?, EffectGroup?, (@Sendable () -> Void)?) in
      if state.isCancelled { return (nil, nil, nil) }
      state.isCancelled = true
      defer { state.onCancel = nil }
      return (state.task, state.part, state.onCancel)
    }
    task?.cancel()
    part?.cancel()
    onCancel?()
  }
}

extension EffectRecord: Hashable {
  package static func == (lhs: EffectRecord, rhs: EffectRecord) -> Bool { lhs === rhs }
  package func hash(into hasher: inout Hasher) { hasher.combine(id) }
}
