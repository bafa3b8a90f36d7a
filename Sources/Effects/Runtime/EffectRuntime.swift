import Synchronization

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Starts effects for one store, tracks every running effect by lifetime and cancellation id,
/// and cancels them.
///
/// The runtime's bookkeeping happens on the main actor (where stores run); a lock guards it
/// only so that teardown, which can happen on any thread, can cancel everything. Effect tasks
/// never touch the store directly: they push actions and completions into the ``inbox``, which
/// the store drains on the main actor. That keeps reductions serial and lets a test store
/// decide exactly when effect work runs.
@usableFromInline
package final class EffectRuntime<Action: Sendable>: Sendable {
  /// Where running effects report. The store drains it with ``drain()``.
  package let inbox = EffectInbox<Action>()
  /// The executor effect tasks prefer, when running under a test store.
  package let executor: ManualTaskExecutor?
  /// Where warnings about effects go.
  package let warnings: RuntimeWarningHandler
  /// Whether an error an effect threw was reported by its thrower already (see
  /// ``ReportedByItsThrower``), so that no warning asks for a `catch:` for it.
  let isReportedByItsThrower: @Sendable (any Error) -> Bool

  let state = Locked(State())
  /// Whether the action being reduced was sent knowing that the child it is for may be gone,
  /// so that a missing child's warning for it is not reported (the end of the task of a row
  /// that left a filtered list, which may also have been removed: see `Store.runScreen`).
  /// Asked when such a warning is about to be reported, and by a recorder as it writes each
  /// action.
  @MainActor package var quietsMissingChild: (@MainActor () -> Bool)?
  /// The running effects by lifetime (only record ids: the records are in `state`). Changed
  /// and read only on the main actor, where stores run, so no lock is held while the walk
  /// after an action reads the state (key path getters, case keys, ids are feature code).
  @MainActor private let places = LifetimeTree()
  /// The running effects inside a place that can be gone (see ``LifetimePlace``), and those
  /// of them inside a place that can be gone without a stamp changing, counted outside the
  /// lock: the store asks after every action whether to look for gone places.
  private let removableRecords = Atomic<Int>(0)
  private let unstampedRecords = Atomic<Int>(0)
  /// The stamp counter of identified arrays when the store last asked whether to walk.
  private let structureSeen = Atomic<UInt64>(0)
  /// Whether the store looks for gone places after every action while effects run inside
  /// elements, not only when the stamp counter moved: a test store's does (see
  /// ``needsPlaceWalk(structure:)``).
  private let walksAfterEveryAction: Bool
  // Wrapped in a struct: a bare closure read through `withLock` is re-abstracted on every
  // write-back, growing a chain of thunks with each call.
  private let connection = Locked<Connection?>(nil)
  private struct Connection: Sendable {
    var deliver: Deliver
    var batch: Batch?
  }

  /// Where a `.dismiss` that reached the root goes, when someone takes it (a test store);
  /// otherwise it is a runtime warning. Wrapped in a struct for the reason above.
  private let dismissal = Locked<Dismissal?>(nil)
  private struct Dismissal: Sendable {
    var handle: @Sendable (_ origin: String) -> Void
  }

  /// Feeds an action from an effect into the store, as part of a group.
  ///
  /// The placement, when there is one, is where the effect that sent the action was started:
  /// places the store checks are still there before the action reaches a reducer.
  package typealias Deliver = @MainActor @Sendable (Action, EffectGroup, EffectPlacement?) -> Void

  /// Runs a body that starts effects after their action was reduced, holding back the
  /// actions their `.send`s deliver until the body is done, then reducing them in order.
  package typealias Batch = @MainActor @Sendable (_ body: () -> Void) -> Void

  /// Creates a runtime.
  ///
  /// - Parameters:
  ///   - executor: When set, effect tasks run on this executor (see ``ManualTaskExecutor``).
  ///   - warnings: Receives warnings about effects, such as unhandled errors.
  ///   - walksAfterEveryAction: Whether the store looks for gone places after every action
  ///     while effects run inside elements (see ``needsPlaceWalk(structure:)``).
  ///   - isReportedByItsThrower: Whether an error an effect threw failed the test already,
  ///     where its thrower reported it (a test store passes its own check, which knows the
  ///     test frameworks' errors, `#require`'s and `XCTUnwrap`'s); by default, whether it is
  ///     a ``ReportedByItsThrower`` (when `nil`).
  package init(
    executor: ManualTaskExecutor?,
    warnings: RuntimeWarningHandler,
    walksAfterEveryAction: Bool = false,
    isReportedByItsThrower: (@Sendable (any Error) -> Bool)? = nil
  ) {
    self.executor = executor
    self.warnings = warnings
    self.walksAfterEveryAction = walksAfterEveryAction
    self.isReportedByItsThrower = isReportedByItsThrower ?? { $0 is any ReportedByItsThrower }
  }

  deinit {
    // Once the store is gone nobody drains the inbox, so no record will be reported finished:
    // the groups waiting for them end here, or a `StoreTask`'s `finish()` would wait for good
    // (and each group and its records, which point at each other, would never be freed).
    let records = state.withLock { $0.records.values.map(\.record).sorted { $0.id < $1.id } }
    // What the effects report from now on, and what they reported that no drain took, has no
    // store to reach. An error is still a runtime warning, as it would have been: a save that
    // fails once its store is gone, and throws something other than a cancellation, says so.
    let warnings = self.warnings
    let isReportedByItsThrower = self.isReportedByItsThrower
    inbox.close { event in
      for warning in Self.warnings(forDropped: event, isReportedByItsThrower) {
        warnings(warning)
      }
    }
    for record in records {
      record.cancel()
      record.owner?.abandon()
    }
  }

  /// Takes the `.dismiss` effects that the root feature returns, from its own reducer or from
  /// one of its parts (a `Scope` child, an enum case, a lifecycle hook: see
  /// `PartOfItsFeature`), which a presenter would resolve as the feature's own; they are
  /// otherwise reported as runtime warnings. A test store records them, for a feature tested
  /// without its presenter. (A child that is not presented, a `forEach` row or an `ifLet`
  /// child, never gets this far: the reducer running it turns its `.dismiss` into a warning.
  /// A child run by hand in a namespace of its own gets the warning.)
  ///
  /// - Parameter handle: Called with the action that returned `.dismiss`, described.
  package func onDismiss(_ handle: @escaping @Sendable (_ origin: String) -> Void) {
    dismissal.withLock { $0 = Dismissal(handle: handle) }
  }

  /// Connects the runtime to its store.
  ///
  /// - Parameters:
  ///   - deliver: Reduces an action an effect sent. It should capture the store weakly.
  ///   - batch: Runs the start of effects that begin after their action was reduced (a
  ///     concatenation's next part, the effect a throttle window kept), reducing the actions
  ///     they send only once all have started, as happens for effects started right after
  ///     their action. Without it, such actions are reduced as they are sent.
  package func connect(_ deliver: @escaping Deliver, batch: Batch? = nil) {
    connection.withLock { $0 = Connection(deliver: deliver, batch: batch) }
  }

  /// Runs `body`, which starts effects after their action was reduced, as one batch: the
  /// actions their `.send`s deliver are reduced, in order, once all have started and before
  /// this returns (unless the store is reducing already, which then reduces them next).
  @MainActor
  func startingLate(_ body: () -> Void) {
    guard let batch = connection.withLock({ $0 })?.batch else { return body() }
    batch(body)
  }

  /// The number of effects running now.
  package var runningCount: Int {
    state.withLock { $0.records.count }
  }

  /// Whether every running effect is known to wait for the test (see
  /// ``EffectRecord/isAsleepOnTestClock``): true when none runs.
  package var allRunningAreAsleepOnTestClocks: Bool {
    state.withLock { $0.records.values.allSatisfy { $0.record.isAsleepOnTestClock } }
  }

  /// The effects running now, oldest first.
  package var running: [EffectRecord] {
    state.withLock { $0.records.values.map(\.record).sorted { $0.id < $1.id } }
  }

  /// The running effects that are work still to do, oldest first: all of ``running`` but the
  /// timers of throttle windows that hold no effect back. Such a window only delays the next
  /// effect with its id, if one comes; when it closes, nothing runs and nothing is sent. A
  /// window whose waiting effect was cancelled (with its sender's task, say) holds none back:
  /// it is dropped when the window closes.
  package var runningWork: [EffectRecord] {
    state.withLock { state in
      let idleTimers = Set(state.throttles.values.compactMap { $0.holdsBack ? nil : $0.timer?.id })
      return state.records(state.records.keys.filter { !idleTimers.contains($0) })
    }
  }

  /// Cancels every running effect. Safe from any thread.
  package func cancelAll() {
    let records = state.withLock { $0.records.values.map(\.record).sorted { $0.id < $1.id } }
    for record in records { record.cancel() }
  }

  /// How many places the store looked up the last time it looked for gone ones (see
  /// ``endLifetimesOfGonePlaces(in:)``): for tests of what that costs.
  @MainActor
  package var placesLookedUpByLastWalk: Int {
    places.placesLookedUpByLastWalk
  }

  /// How many entries the runtime's tables hold now (see ``EffectTableSizes``): for tests
  /// that nothing in them grows for good while effects start and end.
  @MainActor
  package var tableSizes: EffectTableSizes {
    var sizes = state.withLock { state in
      EffectTableSizes(
        records: state.records.count, cancelKeys: state.byCancelKey.count,
        throttleWindows: state.throttles.count)
    }
    sizes.lifetimeNodes = places.nodeCount
    sizes.scopedRecordTokens = places.scopedRecordCount
    return sizes
  }

  /// Whether some running effect is inside a place that can be gone: an element, an optional
  /// child, an enum case.
  @usableFromInline
  package var hasRemovablePlaces: Bool {
    removableRecords.load(ordering: .relaxed) > 0
  }

  /// A number that moves whenever ``storedContainers()`` may find other containers.
  @MainActor
  package var placesShape: Int {
    places.shape
  }

  /// The stamped containers (identified arrays) with running effects among their elements
  /// that the root reaches through stored properties alone, as key paths from the root's
  /// state, with the structure stamp the last walk saw in each (see
  /// ``LifetimeTree/storedContainers()``).
  @MainActor
  package func storedContainers() -> [(path: AnyKeyPath, seen: UInt64?)] {
    places.storedContainers()
  }

  /// Whether the places of running effects need looking for after an action: when some are
  /// inside an optional child or a case (which can go without a trace), or when a stamped
  /// container changed (`structureChanged`) and some are inside its elements. Cheap enough to
  /// ask after every action.
  ///
  /// A test store's runtime looks whenever some are inside elements: the stamp counter is
  /// shared by the whole process, so whether it moved can depend on tests running in
  /// parallel, and an array set back to an older copy of itself takes no new stamp. Looking
  /// every time makes what a test sees not depend on other tests.
  ///
  /// A live store also reads, after every action, the stamps of the containers with effects
  /// among their elements that its root reaches through stored properties (see
  /// ``storedContainers()``), where its state keeps them: an ancestor that set one back to an
  /// older copy of itself took no new stamp, yet removed the elements the copy lacks.
  ///
  /// - Parameter structure: The stamp counter of stamped containers (identified arrays) now:
  ///   it moved since the last action when one changed its ids, or a new one was made.
  @usableFromInline
  package func needsPlaceWalk(structure: UInt64) -> Bool {
    let structureChanged = structureSeen.exchange(structure, ordering: .relaxed) != structure
    if unstampedRecords.load(ordering: .relaxed) > 0 { return true }
    return (structureChanged || walksAfterEveryAction)
      && removableRecords.load(ordering: .relaxed) > 0
  }

  private func count(_ removability: LifetimeTree.Removability, by delta: Int) {
    if removability.any { removableRecords.add(delta, ordering: .relaxed) }
    if removability.unstamped { unstampedRecords.add(delta, ordering: .relaxed) }
  }

  /// Ends the lifetimes whose place is gone from `state`, the root's state after an action:
  /// an element, child or case that an ancestor removed out of the sight of the reducer that
  /// runs it. Their effects are cancelled, and nothing they send afterwards reaches a reducer.
  ///
  /// - Parameter state: The root's state.
  /// - Complexity: O(*v*) for the *v* places visited; see ``LifetimeTree/collectGone(from:)``.
  @MainActor
  @usableFromInline
  package func endLifetimesOfGonePlaces(in state: Any) {
    let gone = places.collectGone(from: state)
    if gone.isEmpty { return }
    let records = self.state.withLock { $0.records(gone) }
    for record in records { record.cancel() }
  }

  /// Whether the places an effect was started in are all still in `state` (the root's state)
  /// with the occupants it was started for. When not, its record is cancelled: `action`, which
  /// it sent, must not reach a reducer; an action a `catch:` handler sent is then a runtime
  /// warning, as when the drain drops it, and so is an action a child returned as `.send`
  /// whose place another occupant has taken since (a placement checked only for a takeover:
  /// it never reaches the newcomer, and the parent never hears it). Places the store cannot
  /// read count as there.
  ///
  /// - Complexity: O(*d*) for a namespace of *d* identities.
  @MainActor
  @usableFromInline
  package func isStillPlaced(_ placement: EffectPlacement, in state: Any, sending action: Action)
    -> Bool
  {
    guard
      LifetimeTree.isPlaced(
        placement.namespace, tokens: placement.tokens, in: state,
        goneCounts: !placement.onlyTakeover)
    else {
      placement.record?.cancel()
      if let error = placement.caught, let record = placement.record,
        let warning = Self.warning(
          forDropped: action, caught: error, of: record, isReportedByItsThrower)
      {
        warnings(warning)
      }
      if placement.onlyTakeover,
        let (place, level) = LifetimeTree.takenOverPlace(
          placement.namespace, tokens: placement.tokens, in: state)
      {
        warnings(Self.warning(forSent: action, takenOver: place.takeover(inLevel: level)))
      }
      return false
    }
    return true
  }

  /// The warning for `action`, which a child returned as `.send`, dropped because another
  /// occupant has taken the child's place since (a child replaced by one with another id, a
  /// stack's screen by another push): a `.sendWhileThere` (a dismissal, a lifecycle hook's
  /// report) and a deferred `.send` (a concatenation's part after one with asynchronous work)
  /// are dropped quietly, as
  /// their effects' other actions are once their place went. Attributed to where the reducer
  /// that runs the place was declared, when the place knows it, where the default printer
  /// counts it apart from that reducer's warnings about a missing child (a flood of one
  /// would hide the other past its limit). Out of line: off the hot path.
  @inline(never)
  static func warning(forSent action: Action, takenOver: PlaceTakeover) -> RuntimeWarning {
    let message = """
      \(describe(action)), returned as `.send` by a reducer in \(takenOver.place), was dropped: \
      \(takenOver.newcomer) has taken that place since (the child was replaced, or changed \
      its own id). No reducer ran for it, neither the newcomer's nor the parent's. An action \
      for the child, or its report to its parent (a delegate action), must come before the \
      action that replaces the child or changes its id: return it before that action, not \
      after.
      """
    let group = "a child's send for a place taken over"
    guard let site = takenOver.site else {
      return RuntimeWarning(message: message, fileID: "Store", group: group)
    }
    var warning = RuntimeWarning(message: message, fileID: site.fileID, line: site.line)
    warning.group = group
    return warning
  }

  /// Starts an effect returned for `origin`, as a member of `group`.
  ///
  /// `.send` actions are delivered to the store at once (the store queues them while it is
  /// reducing); asynchronous work starts in tasks that belong to `group`, to the identity
  /// namespaces the effect is scoped to, and to this runtime.
  @MainActor
  @usableFromInline
  package func start(_ effect: Effect<Action>, origin: any Sendable, group: EffectGroup) {
    start(
      effect,
      Context(
        group: group, cancelKeys: [], namespace: [], cancelNamespace: [], tokens: [],
        origin: origin))
  }

  /// Reduces what effects reported since the last drain: their actions, in order, and their
  /// completions.
  ///
  /// One batch: what is queued when it starts, up to `limit` events. What is left, or
  /// arrives meanwhile, a live store drains in a job of its own, after what else the main
  /// actor has to do. (Draining until the inbox stayed empty, effects that sent without
  /// pause from other threads kept the main actor in one drain for seconds, or for good:
  /// nothing else on it ran, not even the code that would cancel them.)
  ///
  /// - Parameters:
  ///   - limit: The most events to reduce.
  ///   - isAlive: Whether the store is still there, asked before each event: once it is not,
  ///     the events left are dropped (the runtime, going with it, cancels their effects).
  /// - Returns: Whether there was anything to drain, and whether events are left (the
  ///   caller is then to drain again: the inbox does not wake for them).
  @MainActor
  @discardableResult
  package func drain(upTo limit: Int = .max, while isAlive: @MainActor () -> Bool = { true })
    -> (drained: Bool, more: Bool)
  {
    let (events, more) = inbox.take(upTo: limit)
    for (position, event) in events.enumerated() {
      guard isAlive() else {
        // The store went meanwhile: what is left reaches no reducer. An error is still a
        // runtime warning, as for the reports no drain took (see `deinit`).
        for event in events[position...] {
          for warning in Self.warnings(forDropped: event, isReportedByItsThrower) {
            warnings(warning)
          }
        }
        return (true, false)
      }
      switch event {
      case .action(let action, let record):
        deliver(action, from: record)
      case .caught(let action, let error, let record):
        // Cancelled before the drain, or as it delivers (from another thread): dropped. (Found
        // gone by the store, when its walk has not seen the place go: dropped there, with the
        // same warning, see `isStillPlaced(_:in:sending:)`.)
        if !deliver(action, from: record, caught: error),
          let warning = Self.warning(
            forDropped: action, caught: error, of: record, isReportedByItsThrower)
        {
          warnings(warning)
        }
      case .finished(let record, let error):
        finish(record, error: error)
        if let warning = Self.warning(forUnreportedCatchActionsOf: record) { warnings(warning) }
      }
    }
    return (!events.isEmpty, more)
  }

  /// A live store's drain job: reduces up to 1,024 of the actions and completions effects
  /// reported, then, if more are queued, leaves the rest to a later job that `schedule` runs
  /// on the main actor: between the two, the main actor does what else it has to (drawing,
  /// the user's events, code that would cancel the effects), however fast effects send from
  /// other threads. What arrives while it reduces waits for a later job too.
  ///
  /// The store is looked for before each report (`isAlive`), not held: one released while
  /// the batch is reduced (a view that lets it go on a change it observes) goes at once, and
  /// nothing more is reduced or started for it; this runtime, which the drain still holds,
  /// cancels its effects when the drain returns.
  ///
  /// - Parameters:
  ///   - schedule: Runs a job later on the main actor, in a job of its own.
  ///   - isAlive: Whether the store is still there.
  @MainActor
  package func drainBatches(
    schedule: @escaping @Sendable (_ job: @escaping @Sendable @MainActor () -> Void) -> Void,
    isAlive: @escaping @Sendable @MainActor () -> Bool
  ) {
    guard drain(upTo: 1_024, while: isAlive).more, isAlive() else { return }
    schedule { [weak self] in self?.drainBatches(schedule: schedule, isAlive: isAlive) }
  }

  // MARK: - Interpreting effects

  @MainActor
  func start(_ effect: Effect<Action>, _ context: Context) {
    switch effect.operation {
    case .none:
      return
    case .send(let action):
      // A `.send` started after its action was reduced (a later part of a concatenation, the
      // effect a throttle window kept) is checked like an action from a task. One sent at
      // once was sent while its element or child was there, and reaches the reducers even if
      // an action queued before it removed that element (a row's delegate, sent as its parent
      // removes it); but not an occupant that took the place since (a child replaced by one
      // with another id, a stack's screen by another push), which it was never meant for: it
      // is dropped then, with a warning (see `isStillPlaced(_:in:sending:)`).
      deliverSent(action, context, droppedIf: context.isDeferred ? .goneOrTakenOver : .takenOver)
    case .sendWhileThere(let action):
      // Queued like a `.send`, it may be reduced after actions that replaced the child (the
      // parent answering the child's report by presenting another): its place is checked
      // first, so a dismissal closes the child that asked, never the one presented since, and
      // a hook's `hookFinished` after its hook dismissed the screen reaches nothing, quietly.
      deliverSent(action, context, droppedIf: .goneOrTakenOver)
    case .run(let run):
      let record = register(.task, site: run.site, context, owner: context.group)
      spawn(record, priority: run.priority, body: run.body, catchAction: run.catchAction)
    case .merge(let effects):
      for effect in effects { start(effect, context) }
    case .concatenate(let effects):
      startSequence(effects[...], context, driver: nil)
    case .cancellable(let id, let cancelInFlight, let effect):
      let key = CancelKey(namespace: context.cancelNamespace, id: id)
      // Not the sequences this effect is a part of, which may run under the same id (a
      // debounce of an effect cancellable in flight): they are not in flight beside it, and
      // cancelling them would cancel it before it ran.
      if cancelInFlight { cancel(key, sparing: context.enclosingSequences) }
      var context = context
      context.cancelKeys.append(key)
      start(effect, context)
    case .cancel(let id):
      cancel(CancelKey(namespace: context.cancelNamespace, id: id))
    case .scoped(let identity, let token, let effect):
      var context = context
      context.namespace.append(identity)
      context.tokens.append(token)
      if !(identity.base is any SharesCancellationIDs) { context.cancelNamespace.append(identity) }
      start(effect, context)
    case .endLifetime(let identity, let occupant):
      var ids: [Int] = []
      for path in places.paths(of: identity, at: Self.placeNamespace(context.namespace)) {
        ids += occupant.map { places.end(at: path, otherThan: $0) } ?? places.end(at: path)
      }
      let records = state.withLock { $0.records(ids) }
      for record in records { record.cancel() }
    case .throttle(let throttle, let effect):
      startThrottled(effect, throttle, context)
    case .retainLifetimes(let isAlive):
      let path = Self.placeNamespace(context.namespace)
      let ids = places.end(below: path, exceptChildren: isAlive)
      let records = state.withLock { $0.records(ids) }
      for record in records { record.cancel() }
    case .dismiss:
      // A presenting parent (`presents`, `navigationStack`) resolves its child's `.dismiss`,
      // and a child that is not presented (a `forEach` row, an `ifLet` child) has its
      // `.dismiss` turned into a warning by the reducer that runs it. One still here inside
      // only parts of the root feature (a `Scope` child, an enum case, a lifecycle hook) is
      // the feature's own, which its presenter would resolve as such; one inside a namespace
      // of the feature's own making (a child run by hand) is a wiring mistake, which no
      // presenter resolves either: the innermost such namespace is named (a presented
      // feature's own is further out).
      let foreign = context.namespace.last { !($0.base is any PartOfItsFeature) }
      if foreign == nil, let dismissal = dismissal.withLock({ $0 }) {
        dismissal.handle(describe(context.origin))
        return
      }
      let message =
        if let foreign {
          """
          \(describe(context.origin)) returned `.dismiss` inside the namespace \(foreign.base) \
          given with `scoped(to:)` (a child run by hand): such a child is not presented, and \
          its `.dismiss` closes nothing, neither the child nor the feature that runs it. \
          Report to the parent with a delegate action instead.
          """
        } else {
          """
          \(describe(context.origin)) returned `.dismiss`, but no presenting parent \
          handled it: the reducer is not presented through `presents`, nor run on a \
          stack's screens through `navigationStack`. Nothing was dismissed.
          """
        }
      warnings(
        RuntimeWarning(
          message: message,
          fileID: "Effects",
          group: "a .dismiss no parent handled"
        )
      )
    case .warning(let message, let site, let kind):
      // A stale child's mark reports nothing: it only told the reducers around not to run.
      guard kind != .staleChild else { return }
      // Nor a missing child's, for an action sent knowing its child may be gone: its mark
      // alone, as a stale child's.
      if kind == .missingChild, quietsMissingChild?() == true { return }
      warnings(
        RuntimeWarning(
          message: kind == .plain || kind == .refusedChild
            ? message : Self.placed(message, in: context.origin),
          fileID: site.fileID, line: site.line))
    case .outlivingSendersTask(let effect):
      // A group of its own, which nobody's task awaits or cancels; what the effect feeds back
      // joins it too.
      var context = context
      context.group = EffectGroup()
      start(effect, context)
    }
  }

  /// `namespace` without its spans of time (``PlacelessLifetime``): the places where the
  /// children of a reducer that returns a lifetime operation run their effects. A hook's
  /// reducer closing a child ends the child's effects, which its own actions started outside
  /// the screen's task.
  ///
  /// - Complexity: O(*d*) for a namespace of *d* identities; no copy when it has no span.
  private static func placeNamespace(_ namespace: [EffectID]) -> [EffectID] {
    guard namespace.contains(where: { $0.base is any PlacelessLifetime }) else { return namespace }
    return namespace.filter { !($0.base is any PlacelessLifetime) }
  }

  /// A missing child's warning, or another that names the store's action (see
  /// `WarningKind`), with the action the store reduced when it names only the child's: a
  /// child's warning cannot say which screen or element of its ancestors it was (the second
  /// of two screens of one type, say), and the store's action can.
  static func placed(_ message: String, in origin: any Sendable) -> String {
    let action = describe(origin)
    guard !message.contains(action) else { return message }
    return message + " The store's action was \(action)."
  }

  /// Delivers an action a `.send` (or a `.sendWhileThere`: a resolved dismissal) sends.
  ///
  /// The action joins the root group, as actions fed back by tasks do: a part of a
  /// concatenation has its own group, and an action queued while the store reduces would
  /// otherwise start its effects there, after the part was taken as done, where neither
  /// waiting for nor cancelling the sender's task reaches them. Before it is reduced, the
  /// store checks the places the effect was started in, as `check` says; the check is made
  /// only where it can fail, so a row's `.send` checked for a takeover costs nothing more (a
  /// row's place has no occupant token).
  @MainActor
  private func deliverSent(_ action: Action, _ context: Context, droppedIf check: PlaceCheck) {
    let canFail =
      switch check {
      case .goneOrTakenOver: LifetimeTree.Removability(context.namespace).any
      case .takenOver: context.tokens.contains { $0 != nil }
      }
    let placement =
      canFail
      ? EffectPlacement(
        namespace: context.namespace, tokens: context.tokens, record: nil,
        onlyTakeover: check == .takenOver)
      : nil
    connection.withLock { $0 }?.deliver(action, context.group.root, placement)
  }

  typealias PlaceCheck = EffectPlaceCheck

  /// Runs the parts of a concatenation one after another. Parts with no asynchronous work run
  /// at once; the first part that leaves work running creates a driver record that stands for
  /// the rest of the sequence, so cancelling it (by id, lifetime or group) stops the sequence.
  @MainActor
  private func startSequence(
    _ parts: ArraySlice<Effect<Action>>,
    _ context: Context,
    driver: EffectRecord?
  ) {
    var parts = parts
    while let part = parts.popFirst() {
      if let driver, driver.isCancelled { break }
      let partGroup = EffectGroup(parent: context.group)
      var partContext = context
      partContext.group = partGroup
      // Each part in a batch of its own: its effects all start before what its `.send`s
      // deliver is reduced, and that is reduced before the next part starts (which a sent
      // action may cancel), and before the sequence, when this was its last part, finishes.
      // Except while the store is reducing already (a reducer returned the concatenation):
      // then what it sends is queued behind the queued actions, and the next part starts.
      startingLate { start(part, partContext) }
      if partGroup.isEmpty { continue }
      let driver = driver ?? register(.sequence, site: nil, context, owner: context.group)
      driver.setPart(partGroup)
      let rest = parts
      var later = context
      later.isDeferred = true
      // Once: the later parts start from this context, which may hold the driver already.
      if later.enclosingSequences.last != driver.id { later.enclosingSequences.append(driver.id) }
      partGroup.whenEmpty { [weak self, weak partGroup] in
        // A part that ended the sequence (see `EndsSequenceReported`) leaves the rest unrun.
        guard partGroup?.endsSequence != true else {
          self?.finish(driver, error: nil)
          return
        }
        self?.startSequence(rest, later, driver: driver)
      }
      return
    }
    if let driver { finish(driver, error: nil) }
  }

  // MARK: - Tracking

  @MainActor
  func register(
    _ kind: EffectRecord.Kind,
    site: SourceSite?,
    _ context: Context,
    owner: EffectGroup?
  ) -> EffectRecord {
    let removability = LifetimeTree.Removability(context.namespace)
    let record = state.withLock { state in
      state.nextID += 1
      let record = EffectRecord(
        id: state.nextID,
        kind: kind,
        origin: context.origin,
        site: site,
        owner: owner,
        feedbackGroup: context.group.root
      )
      state.records[record.id] = Entry(
        record: record, context: context, removability: removability)
      for key in context.cancelKeys {
        state.byCancelKey[key, default: []].insert(record.id)
      }
      return record
    }
    places.insert(record.id, at: context.namespace, tokens: context.tokens, removability)
    count(removability, by: 1)
    owner?.add(record)
    return record
  }

  @MainActor
  func finish(_ record: EffectRecord, error: (any Error)?) {
    let entry = state.withLock { state -> Entry? in
      guard let entry = state.records.removeValue(forKey: record.id) else { return nil }
      for key in entry.context.cancelKeys {
        state.byCancelKey[key]?.remove(record.id)
        if state.byCancelKey[key]?.isEmpty == true { state.byCancelKey[key] = nil }
      }
      return entry
    }
    guard let entry else { return }
    let removability = entry.removability
    let path = entry.context.namespace
    if places.remove(record.id, at: path, removability) {
      count(removability, by: -1)
    }
    if error is EndsSequenceReported {
      // Before it leaves its group, which may start the sequence's next part.
      record.owner?.endSequence()
    } else if let error {
      warnings(Self.warning(for: error, of: record))
    }
    record.owner?.remove(record)
    entry.onFinish?()
  }

  /// The runtime warning for an error that `record`'s effect threw and no `catch` handled:
  /// after it was cancelled (a ``ThrownAfterCancellation``), or with no `catch:` to turn it
  /// into an action.
  nonisolated static func warning(for error: any Error, of record: EffectRecord)
    -> RuntimeWarning
  {
    let origin = describe(record.origin)
    let message =
      if let late = error as? ThrownAfterCancellation {
        """
        An effect started by action \(origin) threw an error after it was cancelled: \
        \(describeError(late.error)). No action of a cancelled effect reaches a reducer, so no `catch` turned \
        it into one. Only `CancellationError` (and `URLError.cancelled`) end a cancelled \
        effect quietly: catch an error that means the work was stopped inside the operation, \
        or throw `CancellationError` for it.
        """
      } else {
        """
        An effect started by action \(origin) threw an error that no catch action handles: \
        \(describeError(error)). Pass `catch:` to `.run` to turn it into an action.
        """
      }
    return RuntimeWarning(
      message: message, fileID: record.site?.fileID ?? "Effects", line: record.site?.line ?? 0)
  }

  /// The runtime warnings for what an effect reported that no reducer will see, as its store
  /// is gone: an error it threw, unless it reported the error itself (a debounce's clock
  /// error, see `EndsSequenceReported`), and the actions `catch:` made of errors (see
  /// ``warning(forDropped:caught:of:_:)``). None for the rest. `isReportedByItsThrower` is
  /// the runtime's own (see ``isReportedByItsThrower``).
  nonisolated static func warnings(
    forDropped event: EffectInbox<Action>.Event,
    _ isReportedByItsThrower: @Sendable (any Error) -> Bool
  ) -> [RuntimeWarning] {
    switch event {
    case .finished(let record, let error):
      let thrown: RuntimeWarning? =
        switch error {
        case nil, is EndsSequenceReported: nil
        case let error?: warning(for: error, of: record)
        }
      return [thrown, warning(forUnreportedCatchActionsOf: record)].compactMap { $0 }
    case .caught(let action, let error, let record):
      return [warning(forDropped: action, caught: error, of: record, isReportedByItsThrower)]
        .compactMap { $0 }
    case .action:
      return []
    }
  }

  /// The runtime warning for an action `catch:` made of `error`, dropped as `record`'s effect
  /// was cancelled, if it is to be warned of now: the first of the effect's, and one sent
  /// after its end was reported. The others are counted on the record and told of in one
  /// warning at its end (``warning(forUnreportedCatchActionsOf:)``): a handler that keeps
  /// sending once cancelled is two warnings, not one per action. `nil` too for an error that
  /// means cancellation, which ends an effect quietly, and for one its thrower reported
  /// already (`isReportedByItsThrower`, the runtime's own): thrown a moment later, once the
  /// effect was cancelled, it would have ended the effect quietly too.
  nonisolated static func warning(
    forDropped action: Action, caught error: any Error, of record: EffectRecord,
    _ isReportedByItsThrower: @Sendable (any Error) -> Bool
  ) -> RuntimeWarning? {
    guard !meansCancellation(error), !isReportedByItsThrower(error),
      record.noteDroppedCatchAction(action, error: error)
    else {
      return nil
    }
    return warning(forCaught: error, action: action, of: record)
  }

  /// The runtime warning telling of the actions a `catch:` handler sent once `record`'s
  /// effect was cancelled, after the first (which had a warning of its own), when the
  /// effect's end is reported; `nil` if there were none.
  nonisolated static func warning(forUnreportedCatchActionsOf record: EffectRecord)
    -> RuntimeWarning?
  {
    guard let dropped = record.takeUnreportedCatchActions() else { return nil }
    let more =
      dropped.count == 1
      ? "1 more action after the first that was dropped, \(describe(dropped.last)); it was"
      : """
      \(dropped.count) more actions after the first that was dropped, the last \
      \(describe(dropped.last)); they were
      """
    return RuntimeWarning(
      message: """
        An effect started by action \(describe(record.origin)) threw an error: \
        \(describeError(dropped.error)). Its `catch:` handler sent \(more) dropped too, as \
        the effect was cancelled (its element removed, its id cancelled, or its store \
        released).
        """,
      fileID: record.site?.fileID ?? "Effects", line: record.site?.line ?? 0)
  }

  /// The runtime warning for an error that `record`'s effect threw, and `catch:` turned into
  /// `action`, which no reducer will see: the effect was cancelled (its element removed, its
  /// id cancelled, its store released) between the throw and the drain that would have
  /// delivered it. Thrown a moment later, the error would have been reported as thrown after
  /// the cancellation; it is reported here rather than lost.
  nonisolated static func warning(
    forCaught error: any Error, action: Action, of record: EffectRecord
  ) -> RuntimeWarning {
    RuntimeWarning(
      message: """
        An effect started by action \(describe(record.origin)) threw an error: \
        \(describeError(error)). The action `catch:` made of it, \(describe(action)), was dropped, as the \
        effect was cancelled (its element removed, its id cancelled, or its store released) \
        before the action reached a reducer. An error that must be seen even then belongs \
        to an effect that outlives the cancelled one: the parent's own.
        """,
      fileID: record.site?.fileID ?? "Effects", line: record.site?.line ?? 0)
  }

  /// Hands an action an effect sent to the store, unless the effect was cancelled.
  ///
  /// - Parameters:
  ///   - action: The action.
  ///   - record: The effect that sent it.
  ///   - caught: For an action a `catch:` handler sent, the error it was made of.
  /// - Returns: `false` if it was dropped as the effect was cancelled; `true` if it was
  ///   handed on, or dropped with a warning as the effect had finished.
  @MainActor
  @discardableResult
  private func deliver(_ action: Action, from record: EffectRecord, caught: (any Error)? = nil)
    -> Bool
  {
    guard !record.isCancelled else { return false }
    let entry = state.withLock { $0.records[record.id] }
    guard let entry else {
      warnings(
        RuntimeWarning(
          message: """
            An effect started by action \(describe(record.origin)) sent \(describe(action)) \
            after it had finished; the action was dropped. Do not let `send` escape the \
            effect's operation.
            """,
          fileID: record.site?.fileID ?? "Effects",
          line: record.site?.line ?? 0
        )
      )
      return true
    }
    let placement =
      entry.removability.any
      ? EffectPlacement(
        namespace: entry.context.namespace, tokens: entry.context.tokens, record: record,
        caught: caught)
      : nil
    connection.withLock { $0 }?.deliver(action, record.feedbackGroup, placement)
    return true
  }

  private func cancel(_ key: CancelKey, sparing spared: [Int] = []) {
    let records = state.withLock { state in
      (state.byCancelKey[key] ?? []).sorted().compactMap { id in
        spared.contains(id) ? nil : state.records[id]?.record
      }
    }
    for record in records { record.cancel() }
  }

  /// Starts the task for a record. The task reports each action and its completion through
  /// the inbox, and never touches the store.
  func spawn(
    _ record: EffectRecord,
    priority: TaskPriority?,
    body: @escaping @Sendable (Send<Action>) async throws -> Void,
    catchAction: (@Sendable (any Error) -> Action)?
  ) {
    let inbox = self.inbox
    let warnings = self.warnings
    let isReportedByItsThrower = self.isReportedByItsThrower
    let isUnderTest = executor != nil
    let operation: @Sendable () async -> Void = {
      // Cancelled before its task first ran (its row removed by the next action, or by the
      // action its first part sent): the operation does nothing, rather than run up to its
      // first check for cancellation. Nothing is reported to `catch`.
      if record.isCancelled {
        inbox.push(.finished(record, nil))
        return
      }
      if isUnderTest { record.beginOwnTask() }
      let send = Send<Action>(reporting: { action, caughtError in
        if let caughtError {
          // Sent by a `catch:` handler: queued even once the effect was cancelled, so that the
          // drain (or a closed inbox) drops it with a warning naming the error.
          inbox.push(.caught(action, caughtError, record))
        } else if !record.isCancelled {
          inbox.push(.action(action, record))
        }
      })
      do {
        // Warnings raised inside the effect (a test clock's, say) go where the store's go.
        // Under a test store, a test clock also notes on the record what the effect sleeps on,
        // for its failure messages; a live store, which shows none, skips the binding.
        try await RuntimeWarningHandler.$current.withValue(warnings) {
          if isUnderTest {
            try await EffectRecord.$current.withValue(record) { try await body(send) }
          } else {
            try await body(send)
          }
        }
        inbox.push(.finished(record, nil))
      } catch {
        if record.isCancelled || Task.isCancelled {
          // No action of a cancelled effect reaches a reducer, so `catch` is not asked for
          // one; an error that says the work was cancelled ends it quietly, and any other is
          // still reported (a save that failed after its row went away), unless the effect
          // reported it itself.
          let quiet =
            Self.meansCancellation(error) || error is EndsSequenceReported
            || isReportedByItsThrower(error)
          let late = quiet ? nil : ThrownAfterCancellation(error: error)
          inbox.push(.finished(record, late))
        } else if let catchAction {
          inbox.push(.caught(catchAction(error), error, record))
          inbox.push(.finished(record, nil))
        } else if isReportedByItsThrower(error) {
          // Its thrower failed the test for it: asking for a `catch:` would report the one
          // mistake twice, with advice that does not fit.
          inbox.push(.finished(record, nil))
        } else {
          inbox.push(.finished(record, error))
        }
      }
    }
    let task: Task<Void, Never>
    if let executor {
      task = Task(executorPreference: executor, priority: priority) {
        await ManualTaskExecutor.$current.withValue(executor) { await operation() }
      }
    } else {
      task = Task(priority: priority) { await operation() }
    }
    record.attach(task)
  }
}

extension EffectRuntime {
  /// Whether an error a cancelled effect threw says only that its work was stopped: a
  /// `CancellationError`, or Foundation's `URLError.cancelled` (what a `URLSession` task
  /// throws when cancelled), told by its domain and code, as this module does not import
  /// Foundation.
  static func meansCancellation(_ error: any Error) -> Bool {
    error is CancellationError || (error._domain == "NSURLErrorDomain" && error._code == -999)
  }

  /// An error a cancelled effect threw that does not mean cancellation, for its warning.
  struct ThrownAfterCancellation: Error {
    let error: any Error
  }

  // The runtime's bookkeeping types do not depend on `Action` and are declared outside the
  // generic class: nested in it, each use asked the runtime for its metadata with `Action`
  // filled in, a cache look-up each (about a third of the 1.1 us an action that returned
  // `.send` cost).
  package typealias CancelKey = EffectCancelKey
  package typealias Context = EffectContext
  typealias Entry = EffectEntry
  typealias Pending = PendingEffect
  typealias ThrottleWindow = EffectThrottleWindow
  typealias State = EffectRuntimeState
}

/// What a part of a concatenation throws when it failed and said so itself (a debounce's wait
/// whose clock threw): the parts after it do not run, and no other warning is made. Declared
/// outside the generic runtime, so that a runtime of another action type (the effect mapped to
/// a parent's actions) tells it too.
struct EndsSequenceReported: Error {}

/// An error whose thrower failed the test for it before throwing it (StoreTesting's
/// `UnimplementedError`, thrown by a dependency the test did not expect to be called). An
/// effect that throws it with no `catch:`, or once cancelled, ends without a runtime warning:
/// the one asking for a `catch:` would report the mistake a second time, with advice that does
/// not fit it. A `catch:` still turns it into an action.
///
/// A test store tells more such errors than those of this protocol: the test frameworks' own,
/// a failed `#require`'s or `XCTUnwrap`'s, which this module, importing neither framework,
/// cannot name (see the runtime's `isReportedByItsThrower`).
package protocol ReportedByItsThrower: Error {}

/// When a delivered action is dropped before it reaches a reducer.
enum EffectPlaceCheck {
  /// When one of its effect's places is gone, or another occupant took it.
  case goneOrTakenOver
  /// Only when another occupant took one of its effect's places (a child replaced by one
  /// with another id, a stack's screen by another push).
  case takenOver
}

/// A cancellation id in the namespace it was used in.
package struct EffectCancelKey: Hashable, Sendable {
  var namespace: [EffectID]
  var id: EffectID
}

/// Where an effect starts: its group, cancellation ids, lifetimes and origin.
package struct EffectContext: Sendable {
  var group: EffectGroup
  var cancelKeys: [EffectCancelKey]
  var namespace: [EffectID]
  /// The namespace cancellation ids live in: `namespace` without the identities that
  /// share their cancellation ids with the namespace around them.
  var cancelNamespace: [EffectID]
  /// For each identity of the namespace, the occupant of its place the effect belongs to.
  var tokens: [UInt64?]
  var origin: any Sendable
  /// Whether the effect starts after the action that returned it was reduced.
  var isDeferred = false
  /// The records of the sequences (concatenations) the effect is a later part of, outermost
  /// first: a cancellation in flight under their id leaves them running.
  var enclosingSequences: [Int] = []
}

/// A running effect's record, with where it was started.
struct EffectEntry {
  var record: EffectRecord
  var context: EffectContext
  /// How the places of the record's namespace can be gone, worked out once.
  var removability: LifetimeTree.Removability
  var onFinish: (@MainActor @Sendable () -> Void)?
}

/// An effect a throttle window holds back, to run when it closes.
struct PendingEffect: Sendable {
  /// The `Effect` of the runtime's action type, kept as a value of any type so that the
  /// runtime's state does not depend on the action type.
  var effect: any Sendable
  /// The effect's `Effect.Throttle`, kept as a value of any type for the same reason: the
  /// window that opens when the effect runs is measured with its interval, on its clock.
  var throttle: any Sendable
  var context: EffectContext
  var record: EffectRecord
}

/// A throttle window that is open.
struct EffectThrottleWindow {
  /// The record whose sleep keeps the window open, once started.
  var timer: EffectRecord?
  var pending: PendingEffect?

  /// Whether an effect waits in the window to run when it closes: one cancelled meanwhile
  /// (with its sender's task, say) is dropped then, and holds nothing back.
  var holdsBack: Bool { pending.map { !$0.record.isCancelled } ?? false }
}

/// How many entries an effect runtime's tables hold (see ``EffectRuntime/tableSizes``).
package struct EffectTableSizes: Equatable, Sendable, CustomStringConvertible {
  /// The records of running effects.
  package var records = 0
  /// The cancellation ids (in their namespaces) that running effects run under.
  package var cancelKeys = 0
  /// The throttle windows open.
  package var throttleWindows = 0
  /// The nodes of the lifetime tree, its root included: 1 when no effect runs.
  package var lifetimeNodes = 0
  /// The running effects whose occupant tokens the lifetime tree keeps.
  package var scopedRecordTokens = 0

  /// The sizes of a runtime with no effect running.
  package static var idle: Self {
    Self(lifetimeNodes: 1)
  }

  package var description: String {
    """
    records: \(records), cancelKeys: \(cancelKeys), throttleWindows: \(throttleWindows), \
    lifetimeNodes: \(lifetimeNodes), scopedRecordTokens: \(scopedRecordTokens)
    """
  }
}

/// What an effect runtime keeps behind its lock.
struct EffectRuntimeState {
  var nextID = 0
  var records: [Int: EffectEntry] = [:]
  var byCancelKey: [EffectCancelKey: Set<Int>] = [:]
  var throttles: [EffectCancelKey: EffectThrottleWindow] = [:]

  /// The records with these ids that are still running, oldest first: effects cancelled
  /// together are cancelled in that order, so the order their tasks wake in does not depend
  /// on a hash seed.
  func records(_ ids: [Int]) -> [EffectRecord] {
    ids.sorted().compactMap { records[$0]?.record }
  }
}

/// Where an effect that sent an action was started: the namespace of lifetimes it runs in,
/// with the occupants of their places it was started for, and its record (none for a `.send`).
@usableFromInline
package struct EffectPlacement: Sendable {
  let namespace: [EffectID]
  let tokens: [UInt64?]
  let record: EffectRecord?
  /// Whether only another occupant in one of the places counts, not a place that is gone.
  let onlyTakeover: Bool
  /// The error `catch:` made the action of, for an action a `catch:` handler sent: dropped,
  /// it is a runtime warning, as when the drain drops it (see
  /// ``EffectRuntime/warning(forDropped:caught:of:_:)``).
  let caught: (any Error)?

  init(
    namespace: [EffectID], tokens: [UInt64?], record: EffectRecord?, onlyTakeover: Bool = false,
    caught: (any Error)? = nil
  ) {
    self.namespace = namespace
    self.tokens = tokens
    self.record = record
    self.onlyTakeover = onlyTakeover
    self.caught = caught
  }
}

/// A readable name for an action in a message: its type, with the types it is nested in,
/// and its value, with the cases of enums inside it written short, as in
/// `List.Action.rows(.element(id: 3, action: .toggled))`, and structs inside it by name, as
/// in `Shop.Action.add(Item(id: 3, name: "Tea"))` (the default description would spell out
/// every nested case's and struct's module, and drop the feature the action belongs to,
/// leaving every feature's actions reading `Action.…`). A string in it prints as a Swift
/// literal writes it, with the characters that show as nothing, or as a space without being
/// one, escaped too (see ``EscapedText``): `Namer.Action.rename("ab\u{200B}")`, which would
/// otherwise print as `Namer.Action.rename("ab")`, the same as another action; in a
/// dictionary, a set or a tuple too. An action that is not an enum (a plain `String` or `Int`, in a
/// small feature) is written as its type's initializer would take it: `String("ab\u{200B}")`,
/// not `String.ab`.
@usableFromInline
package func describe(_ action: any Sendable) -> String {
  // Written as a value, even if it is an error: its type's name is added here, once.
  let short = shortDescription(action, asError: true)
  let style = Mirror(reflecting: action).displayStyle
  if style == .struct, let short { return short }
  let type = TypeName.name(of: type(of: action))
  if style == nil { return "\(type)(\(describePayload(action)))" }
  return type + (short ?? ".\(action)")
}

/// A value inside an action, written as ``describe(_:)`` writes it there: a UUID that a
/// counting generator could have made as `UUID(counting: 3)`, a string as an escaped literal,
/// an enum or a struct without a description of its own by its short name. For a message that
/// spells out part of an action itself (the id of a row a `CaseKey` names), so that it reads as
/// the action it is compared with does.
///
/// - Parameter value: The value.
/// - Returns: Its text.
package func describePayload(_ value: Any) -> String {
  payloadDescription(value, depth: 0)
}

/// How a test writes `wrapped`, the value an optional holds, when it is an optional that
/// holds `nil` at some depth: `.some(nil)`, `.some(.some(nil))`. `nil` for any other value,
/// which prints as itself (a `.some(.some(3))` is written `3`).
///
/// Unwrapped, a nil inside would print as the outer optional's own `nil`.
package func wrappedNilDescription(_ wrapped: Any) -> String? {
  let mirror = Mirror(reflecting: wrapped)
  guard mirror.displayStyle == .optional else { return nil }
  guard let inner = mirror.children.first?.value else { return ".some(nil)" }
  return wrappedNilDescription(inner).map { ".some(\($0))" }
}

/// `.case(payload)` for a value of an enum that neither describes nor reflects itself, with
/// payload enums written the same way, `Name(field: value)` for such a struct (its type's
/// name with the types it is nested in but not its module, as a test writes it:
/// `Gauge.Reading(value: 1)`) and `[…]` for an array of any of them; `nil` for any other
/// value. An optional prints as `nil` or as what it wraps, as a test writes it (`.select(1)`,
/// not `.select(Optional(1))`), and as `.some(nil)` where a `nil` inside it would otherwise
/// read as the outer `nil`. An error that does not describe itself is named as
/// ``describeError(_:)`` names it, with its type (a payload typed `any Error` says nothing of
/// the type): `LoadError.offline`, `Failed(reason: .timeout)`, `NetworkFailure`. A
/// ``DescribedAsArray`` collection is written as an array is, inside its type's name if
/// `String(reflecting:)` puts one there (`ContiguousArray([.hot])`). Other payload
/// values print as `String(reflecting:)` prints them, so a value that redacts itself stays
/// redacted. A dictionary, a set and a tuple print as Swift writes them, their elements
/// written the same way. Past 16 nested enums, optionals, structs, arrays, dictionaries, sets
/// and tuples (a long chain of an indirect enum, say), the rest prints as `…`; a deep chain
/// through other collections is printed whole by `String(reflecting:)`. A string among them prints as
/// ``payloadDescription(_:depth:)`` writes it. With `asError`, `value` is written as a value
/// even if it is an error (for ``describeError(_:)``, and for an action, whose type's name
/// ``describe(_:)`` adds); the values inside it are not.
private func shortDescription(_ value: Any, depth: Int = 0, asError: Bool = false) -> String? {
  // An optional describes itself (`Optional(…)`): looked through before that check.
  let mirror = Mirror(reflecting: value)
  if mirror.displayStyle == .optional {
    guard let wrapped = mirror.children.first?.value else { return "nil" }
    guard depth < 16 else { return "…" }
    if let written = wrappedNilDescription(wrapped) { return written }
    return payloadDescription(wrapped, depth: depth + 1)
  }
  // An array describes itself too, with its elements' modules: looked through as well, as
  // are the other collections that print as one (`IdentifiedArray`, `ContiguousArray`).
  if mirror.displayStyle == .collection, value is [Any] || value is any DescribedAsArray {
    guard depth < 16 else { return "…" }
    let texts = mirror.children.map { payloadDescription($0.value, depth: depth + 1) }
    let list = "[\(texts.joined(separator: ", "))]"
    let name = (type(of: value) as? any DescribedAsArray.Type)?.describedTypeName
    return name.map { "\($0)(\(list))" } ?? list
  }
  // A UUID describes itself too, as hex digits that hide the number a test counted it from.
  if let uuid = value as? UUID { return uuid.testDescription }
  // So do a dictionary, a set and a tuple, through `String(reflecting:)`, which follows a
  // value inside them all the way down: a list 20,000 links deep in a dictionary overflowed
  // the stack. Written here as Swift writes them, with the depth cut of the other shapes.
  if let written = containerDescription(value, mirror: mirror, depth: depth) { return written }
  guard
    !(value is CustomStringConvertible), !(value is CustomDebugStringConvertible),
    !(value is CustomReflectable)
  else { return nil }
  // An error among the values (a payload typed `any Error` says nothing of its type) is
  // named as `describeError(_:)` names it: an enum's case and a class instance with their
  // type, not as `.offline` or with their module (and a private class's address).
  if !asError, value is any Error {
    switch mirror.displayStyle {
    case .enum:
      guard depth < 16 else { return "…" }
      let short = shortDescription(value, depth: depth, asError: true) ?? ".\(value)"
      return TypeName.name(of: type(of: value)) + short
    case .class: return TypeName.name(of: type(of: value))
    default: break
    }
  }
  func text(_ value: Any) -> String {
    payloadDescription(value, depth: depth + 1)
  }
  if mirror.displayStyle == .struct {
    guard depth < 16 else { return "…" }
    let fields = mirror.children.map { field in
      field.label.map { "\($0): \(text(field.value))" } ?? text(field.value)
    }
    return "\(TypeName.name(of: type(of: value)))(\(fields.joined(separator: ", ")))"
  }
  guard mirror.displayStyle == .enum else { return nil }
  guard depth < 16 else { return "…" }
  guard let payload = mirror.children.first, let name = payload.label else {
    return ".\(value)"
  }
  let fields = Mirror(reflecting: payload.value)
  guard fields.displayStyle == .tuple else {
    return ".\(name)(\(text(payload.value)))"
  }
  let arguments = fields.children.map { field in
    guard let label = field.label, !label.hasPrefix(".") else { return text(field.value) }
    return "\(label): \(text(field.value))"
  }
  return ".\(name)(\(arguments.joined(separator: ", ")))"
}

/// A collection that prints as an array does, which ``describe(_:)`` writes as it writes an
/// array inside an action: its elements without their modules, with the depth cut
/// (`String(reflecting:)` would spell out every element's module and follow a deep value all
/// the way down).
package protocol DescribedAsArray {
  /// The name `String(reflecting:)` puts before the elements' brackets, as in
  /// `ContiguousArray([1, 2])`; `nil` for a collection that prints as a bare array literal.
  static var describedTypeName: String? { get }
}

extension ContiguousArray: DescribedAsArray {
  package static var describedTypeName: String? { "ContiguousArray" }
}

extension ArraySlice: DescribedAsArray {
  package static var describedTypeName: String? { "ArraySlice" }
}

/// A dictionary (`["a": 1]`, `[:]`), a set (`Set([1, 2])`) or a tuple (`(1, label: 2)`)
/// written as Swift writes it, in the order it holds its elements, each element as
/// ``payloadDescription(_:depth:)`` writes it; `…` past 16 levels, as for the other shapes
/// ``shortDescription(_:depth:asError:)`` looks into; `nil` for any other value.
private func containerDescription(_ value: Any, mirror: Mirror, depth: Int) -> String? {
  let style = mirror.displayStyle
  guard style == .dictionary || style == .set || style == .tuple else { return nil }
  guard depth < 16 else { return "…" }
  func text(_ value: Any) -> String { payloadDescription(value, depth: depth + 1) }
  switch style {
  case .dictionary:
    let entries = mirror.children.map { entry in
      let pair = Mirror(reflecting: entry.value).children.map(\.value)
      return pair.count == 2 ? "\(text(pair[0])): \(text(pair[1]))" : text(entry.value)
    }
    return entries.isEmpty ? "[:]" : "[\(entries.joined(separator: ", "))]"
  case .set:
    return "Set([\(mirror.children.map { text($0.value) }.joined(separator: ", "))])"
  default:
    let fields = mirror.children.map { field in
      guard let label = field.label, !label.hasPrefix(".") else { return text(field.value) }
      return "\(label): \(text(field.value))"
    }
    return "(\(fields.joined(separator: ", ")))"
  }
}

/// An error that is a struct or an enum and neither describes nor reflects itself, as
/// ``describe(_:)`` writes such a value inside an action: `Failed(reason: .timeout)`, or for
/// an enum's case `.wrapped(.timeout)`, the values inside written without their modules.
/// `nil` for any other error.
///
/// - Parameter error: The error.
/// - Returns: Its text, or `nil`.
package func shortErrorDescription(_ error: any Error) -> String? {
  shortDescription(error, asError: true)
}

/// `value`, a value inside an action, as ``shortDescription(_:depth:asError:)`` writes it, or
/// else as `String(reflecting:)` does, with a string's characters that show as nothing or as a
/// space without being one (a zero-width space, a right-to-left override, a no-break space) escaped
/// too, as the test store's dumps escape them: `"ab\u{200B}"`. `String(reflecting:)` escapes
/// quotes, backslashes, an apostrophe (`\'`) and the C0 control characters, but writes the
/// others as they are, so that two different strings could print the same.
private func payloadDescription(_ value: Any, depth: Int) -> String {
  if let short = shortDescription(value, depth: depth) { return short }
  let reflected = String(reflecting: value)
  guard value is String || value is Substring || value is Character else { return reflected }
  // Escaped on top of the literal `String(reflecting:)` wrote, whose own escapes stay as they
  // are: ordinary text prints exactly as it did.
  return EscapedText.escaped(reflected, escapingSpaces: true)
}
