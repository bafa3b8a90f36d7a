import Effects
import Synchronization

/// The root of a store tree: owns the state, the reducer and the effect runtime, and
/// dispatches actions one at a time.
@MainActor
@usableFromInline
package final class RootCore<R: Reducer>: RootStoreCore {
  @usableFromInline package typealias State = R.State
  @usableFromInline package typealias Action = R.Action

  // The dispatch path is inlinable so that a store's `send` is specialized for its feature in
  // the feature's module, with no generic metadata looked up per action.
  /// Where the state lies: on the heap, at an address that never changes, so that reads take
  /// it by address (see ``withState(_:)``). (`nonisolated(unsafe)` for `deinit` alone, which
  /// frees it once nothing else can read it.)
  @usableFromInline nonisolated(unsafe) let stateAddress: UnsafeMutablePointer<State>
  /// The state, read and written where it lies.
  @inlinable var currentState: State {
    unsafeAddress { UnsafePointer(stateAddress) }
    unsafeMutableAddress { stateAddress }
  }
  @usableFromInline let reducer: R
  @usableFromInline package let runtime: EffectRuntime<Action>
  /// Where a live store's drains of effect reports run (see
  /// `EffectRuntime.drainBatches(schedule:isAlive:)`).
  let drainScheduler: DrainScheduler

  // The dispatch loop's bookkeeping is read and written on every action. It is confined to
  // the main actor and never held across a call (an action sent while a reducer runs reads
  // and appends to it between the loop's own short accesses), so the runtime's exclusivity
  // checks, which cost a thread-local lookup each, are left out for it. The state has none
  // either: it lies at its own address (reads through a stored property would copy it), and
  // a read while the reducer changes it is stopped by `checkNotReducing()`.
  @exclusivity(unchecked) @usableFromInline var queue: [Queued] = []
  @exclusivity(unchecked) @usableFromInline var queueHead = 0
  /// Whether an action is being dispatched (see ``StateReads/rootIsDispatching``).
  @inlinable var isDispatching: Bool {
    get { reads.rootIsDispatching }
    set { reads.rootIsDispatching = newValue }
  }
  @exclusivity(unchecked) @usableFromInline var dispatchHooks: [@MainActor () -> Bool] = []
  /// Whether the reducer is running: the state is being changed in place, and must not be
  /// read (see ``withState(_:)``; kept in ``StateReads/rootIsReducing``).
  @inlinable var isReducing: Bool {
    get { reads.rootIsReducing }
    set { reads.rootIsReducing = newValue }
  }
  /// The reads of the state in progress (see `StateReads`).
  @usableFromInline package let reads = StateReads()
  /// Counts the times the reducer ran: the state changes nowhere else, so a value computed
  /// from it (a filtered view of a collection) holds while the count does.
  @exclusivity(unchecked) @usableFromInline package var stateVersion = 0
  /// `send`, specialized for `R` by the module that created the store; scoped stores send
  /// through it.
  @usableFromInline var specializedSend: (@MainActor (Action) -> StoreTask)?

  /// Called after each action is reduced, with where it came from. Test stores and recorders
  /// observe processing through it.
  @usableFromInline package var didReduce: ((Action, ActionOrigin) -> Void)? {
    didSet { hasReduceObservers = didReduce != nil || recordAction != nil }
  }
  /// Called before each action is reduced, for an action log (so that the log holds an action
  /// that crashes the reducer); returns whether ``recordCheckpoint`` is due once the action is
  /// reduced.
  @usableFromInline package var recordAction: ((Action, ActionOrigin) -> Bool)? {
    didSet { hasReduceObservers = didReduce != nil || recordAction != nil }
  }
  /// Called after an action is reduced when ``recordAction`` said a checkpoint is due.
  @usableFromInline package var recordCheckpoint: (() -> Void)?
  /// The action log this store records to, if any (a `RecordingLink`).
  package var recording: AnyObject?
  /// Whether either hook above is set: one check per action instead of two.
  @exclusivity(unchecked) @usableFromInline var hasReduceObservers = false
  /// The containers with effects among their elements that the state reaches through stored
  /// properties: where their structure stamps lie, and the stamp last seen (see
  /// ``storedContainersMoved()``); and the ``EffectRuntime/placesShape`` they were found at.
  var watchedContainers: [WatchedContainer] = []
  var watchedShape = -1

  @usableFromInline
  struct Queued {
    @usableFromInline var action: Action
    @usableFromInline var origin: ActionOrigin
    @usableFromInline var group: EffectGroup?
    /// Where the effect that sent the action was started, when the store checks it.
    @usableFromInline var placement: EffectPlacement?
    /// For an action a derived store sent: whether that store's state is still its own,
    /// asked just before the action is reduced (see `DerivedCore.send`).
    @usableFromInline var check: (@MainActor () -> Bool)?

    @inlinable
    init(
      action: Action, origin: ActionOrigin, group: EffectGroup?, placement: EffectPlacement?,
      check: (@MainActor () -> Bool)?
    ) {
      self.action = action
      self.origin = origin
      self.group = group
      self.placement = placement
      self.check = check
    }
  }

  @usableFromInline
  package init(
    initialState: State,
    reducer: R,
    executor: ManualTaskExecutor? = nil,
    warnings: RuntimeWarningHandler = .current,
    walksAfterEveryAction: Bool = false,
    isReportedByItsThrower: (@Sendable (any Error) -> Bool)? = nil,
    drainScheduler: DrainScheduler = .mainQueue
  ) {
    self.drainScheduler = drainScheduler
    self.stateAddress = .allocate(capacity: 1)
    stateAddress.initialize(to: consume initialState)
    self.reducer = reducer
    self.runtime = EffectRuntime(
      executor: executor, warnings: warnings, walksAfterEveryAction: walksAfterEveryAction,
      isReportedByItsThrower: isReportedByItsThrower)
    runtime.quietsMissingChild = { [weak self] in
      guard let self else { return false }
      return reads.quietMissingChildVersion == stateVersion
    }
    runtime.connect { [weak self] action, group, placement in
      _ = self?.dispatch(action, origin: .effect, group: group, from: placement)
    } batch: { [weak self] body in
      guard let self else { return body() }
      self.dispatchBatch(body)
    }
    if executor == nil {
      // Live stores drain effect reports on the main actor as soon as they arrive; one drain
      // task per burst, since the inbox wakes only when it goes from empty to non-empty.
      // The core is not held across a drain, only looked for (see `drainBatches`).
      let isAlive: @Sendable @MainActor () -> Bool = { [weak self] in self != nil }
      runtime.inbox.onWake { [weak runtime] in
        drainScheduler.schedule { [weak runtime] in
          runtime?.drainBatches(schedule: drainScheduler.schedule, isAlive: isAlive)
        }
      }
    }
  }

  /// Runs effect work on the test executor and reduces what it reports, until neither is
  /// left. Only meaningful for a core created with an executor.
  package func runEffectsUntilIdle() {
    _ = runEffects(jobLimit: .max)
  }

  /// Runs effect work on the test executor and reduces what it reports, until neither is
  /// left, or until `jobLimit` jobs ran without a pause (the executor running out of jobs):
  /// an effect that loops on `Task.yield()` (or polls) always has a job ready, and would keep
  /// the caller forever.
  ///
  /// - Returns: Whether the work came to a pause (`false`: it was stopped at the limit).
  package func runEffects(jobLimit: Int) -> Bool {
    guard let executor = runtime.executor else { return true }
    // Jobs run since the executor last ran out of them.
    var sincePause = 0
    while true {
      // A job that sent something is followed by the reduction of what it sent, before the
      // next job: as a live store's main actor reduces an effect's action while the effect
      // goes on, so that a loop that sends and then yields (a timer on an immediate clock)
      // sees the cancellation its action caused. Run until the executor was idle, the loop
      // never reduced its actions, and never saw it.
      let ran = executor.runUntilIdle(limit: jobLimit - sincePause) { !runtime.inbox.isEmpty }
      sincePause = executor.hasWork ? sincePause + ran : 0
      // What the jobs sent is reduced either way.
      let hadEvents = runtime.drain().drained
      if sincePause >= jobLimit { return false }
      if ran == 0 && !hadEvents { return true }
    }
  }

  deinit {
    stateAddress.deinitialize(count: 1)
    stateAddress.deallocate()
  }

  package var stateLiesInPlace: Bool { true }

  package func withState<Result>(_ body: (UnsafePointer<State>) -> Result) -> Result {
    checkNotReducing()
    // An action sent meanwhile waits for the read to end (see `StateReads`).
    return reads.during { body(UnsafePointer(stateAddress)) }
  }

  /// Stops the program when the reducer is running: a store read then (by a reducer that
  /// holds a store, or by a value whose `deinit` reads one as the reducer lets it go) would
  /// see the state halfway through a change (an element taken out of its array while it
  /// changes). The runtime's exclusivity check stopped it when the state was a stored
  /// property; it lies at an address of its own now. (A send meanwhile, to any store of this
  /// root, reads nothing: it is queued, see `DerivedCore.send`.)
  func checkNotReducing() {
    precondition(
      !isReducing,
      """
      A store of \(R.self) was read while its reducer was changing the state (a reducer, or \
      the deinit of a value it let go, read a store). Reducers get the state as their inout \
      argument; send follow-up actions with an effect.
      """)
  }

  /// The state, without registering an observation access.
  package var untrackedState: State {
    checkNotReducing()
    return currentState
  }

  @inlinable
  package func send(_ action: Action) -> StoreTask {
    StoreTask(group: dispatch(action, origin: .user, group: nil))
  }

  package func afterDispatch(_ hook: @escaping @MainActor () -> Bool) {
    dispatchHooks.append(hook)
  }

  package func inPlaceReader(_ keyPath: KeyPath<State, CollectionStamps>)
    -> (@MainActor () -> CollectionStamps)?
  {
    guard let offset = MemoryLayout<State>.offset(of: keyPath) else { return nil }
    // Held strongly, as the stores of this root hold it: the root holds no reader. (Unowned,
    // each read took the slow path of reference counting: the root is weakly referenced.)
    return { self.loadStored(CollectionStamps.self, at: offset) }
  }

  /// The plain value stored `offset` bytes into the state. (A key path read of a stamp, in
  /// code not specialized for the state's type, looked up the metadata of each type on the
  /// path at every read: about 0.4 us.) Called with a type known where it is called, so that
  /// it is compiled for that type.
  func loadStored<Value: BitwiseCopyable>(_: Value.Type, at offset: Int) -> Value {
    checkNotReducing()
    return UnsafeRawPointer(stateAddress).load(fromByteOffset: offset, as: Value.self)
  }

  package func warn(_ warning: RuntimeWarning) {
    runtime.warnings(warning)
  }

  /// Runs the after-dispatch hooks. A hook may send an action (an observer reacting to a
  /// change) or register another hook; both are safe, since the list is taken out first.
  ///
  /// An action sent meanwhile is queued, and reduced once every hook has run: each store
  /// checks an action's changes before the next action makes more. (Reduced at once, an
  /// action an observer sent when told of a dismissal could present the child again before
  /// the dismissed child's store checked whether its child was gone: it would find it there,
  /// and read and drive the new one.) The queued actions are reduced one at a time, each with
  /// the actions it feeds back, in the order the same sends give outside a check. Then every
  /// hook runs again, to see what they changed: up to ``hookRoundLimit`` rounds, since hooks
  /// that send at every round are a loop, reported as a runtime warning.
  ///
  /// Inlinable, so that `dispatch`, which is specialized for the client's reducer, asks
  /// whether the hooks sent anything in code that knows the queue's type: in unspecialized
  /// code, the queue's count looked up the type's metadata after every action of every store
  /// with hooks (6% of an action beside 1,000 scoped rows, bench 24).
  ///
  /// With `reducingQueuedFirst`, the actions queued already (sent while a read was in
  /// progress, see `reduceAfterReads()`) are reduced first, as if a round had sent them.
  @inlinable
  func runDispatchHooks(reducingQueuedFirst: Bool = false) {
    beginHooks()
    defer { endHooks() }
    // Rounds that sent something; a loop found between the actions they sent sets it to the
    // limit (see `reduceSentDuringHooks(rounds:)`).
    var rounds = 0
    if reducingQueuedFirst { reduceSentDuringHooks(rounds: &rounds) }
    while rounds < Self.hookRoundLimit {
      runHookRound()
      rounds += 1
      guard queueHead < queue.count else { return }
      reduceSentDuringHooks(rounds: &rounds)
    }
    reportHookLoop()
  }

  /// Marks the hooks as running: what they send is queued, and reads know to defer it.
  @usableFromInline
  func beginHooks() {
    reads.hooksAreRunning = true
    isDispatching = true
  }

  /// Marks the hooks as done.
  @usableFromInline
  func endHooks() {
    isDispatching = false
    reads.hooksAreRunning = false
  }

  /// Runs every hook once, keeping those that ask to run again, and the hooks they registered.
  @usableFromInline
  func runHookRound() {
    var hooks = dispatchHooks
    dispatchHooks = []
    // The kept hooks move down in place, in the buffer the list had: no array is made at
    // each action.
    var kept = 0
    for index in hooks.indices where hooks[index]() {
      if kept != index { hooks.swapAt(kept, index) }
      kept += 1
    }
    hooks.removeSubrange(kept...)
    hooks.append(contentsOf: dispatchHooks)
    dispatchHooks = hooks
  }

  /// Reports hooks that sent an action at each of ``hookRoundLimit`` rounds, and reduces what
  /// the `deinit` of one let go at the end of the last round sent.
  @usableFromInline
  func reportHookLoop() {
    runtime.warnings(
      RuntimeWarning(
        message: """
          Observers sent an action each time they saw the store change, \(Self.hookRoundLimit) \
          times in a row: a feedback loop. What the last of those actions changed was not \
          checked: an observer may show a value the state no longer holds.
          """,
        fileID: "Store",
        line: 0
      )
    )
    // No more rounds between them: the loop was reported. Until none is left: the `deinit`
    // of an action let go by the last of them may send (the review found one left queued
    // after `send` returned, to be reduced after the next action).
    var rounds = Self.hookRoundLimit
    while queueHead < queue.count { reduceSentDuringHooks(rounds: &rounds) }
  }

  /// How many rounds of hooks one dispatch runs at most while observers keep sending: far
  /// more than a chain of observers that each react to the one before (a chain of 20 was cut
  /// at 16, with a false report of a loop and an observer showing a stale value), and, for a
  /// loop, a few milliseconds of rounds before it is reported.
  @inlinable static var hookRoundLimit: Int { 1_000 }

  /// Reduces the actions observers sent while the hooks ran, one at a time, each with what it
  /// feeds back (its `.send` effects) before the next: `send(.a); send(.b)` in `onChange`
  /// reduces `a`, then what `a` sends, then `b`, as the two sends do outside a check.
  ///
  /// When a derived store's send is among them (it carries a check, see `DerivedCore.send`),
  /// the hooks run again before each action after the first, as they run after each send
  /// outside a check: a store can only tell that its child was dismissed once its hook saw
  /// the child gone, so an observer that dismissed the child, presented another and sent to
  /// the first child's store, all in one `onChange`, had that send drive the newcomer (the
  /// review). What such a round sends is reduced before the next action, as one batch of its
  /// own treated the same way (rounds between its actions only if one of them is a derived
  /// store's), then a round runs again before that next action: the nesting the same sends
  /// have outside a check, where each send's hooks run before the next send is made.
  ///
  /// `rounds` is how many rounds the dispatch ran so far, the one that sent these last. A
  /// batch a round sent is one round deeper than the batch that round ran before; a batch
  /// ``hookRoundLimit`` deep is a loop: no round runs again, `rounds` is set to the limit,
  /// and the actions left are reduced one after the other. (Counting every round that sent
  /// something instead took an observer that answers each of 1,500 sends once for a loop.)
  @usableFromInline
  func reduceSentDuringHooks(rounds: inout Int) {
    var batches = [SentBatch(queue[queueHead...])]
    queue.removeAll(keepingCapacity: true)
    queueHead = 0
    let base = rounds
    while let depth = batches.indices.last {
      guard batches[depth].next < batches[depth].actions.count else {
        batches.removeLast()
        continue
      }
      if batches[depth].storesCheck, batches[depth].next > 0, rounds < Self.hookRoundLimit {
        if base + depth < Self.hookRoundLimit {
          runHookRound()
          if queueHead < queue.count {
            batches.append(SentBatch(queue[queueHead...]))
            queue.removeAll(keepingCapacity: true)
            queueHead = 0
            continue
          }
        } else {
          rounds = Self.hookRoundLimit
        }
      }
      queue.append(batches[depth].actions[batches[depth].next])
      batches[depth].next += 1
      reduceQueued()
      clearQueue()
    }
  }

  /// Actions a round of hooks sent, reduced in order (see `reduceSentDuringHooks(rounds:)`).
  @usableFromInline
  struct SentBatch {
    let actions: [Queued]
    /// The next action to reduce.
    var next = 0
    /// Whether a derived store's send is among them: rounds then run between them.
    let storesCheck: Bool

    init(_ actions: ArraySlice<Queued>) {
      self.actions = Array(actions)
      self.storesCheck = actions.contains { $0.check != nil }
    }
  }

  package func scope<ChildState, ChildAction: Sendable>(
    state: KeyPath<State, ChildState>,
    action: CaseKey<Action, ChildAction>
  ) -> any StoreCore<ChildState, ChildAction> {
    ScopedCore(root: self, state: state, embed: action.embed, send: specializedSend)
  }

  /// Reduces `action` and every action queued while doing so, in order.
  ///
  /// An action sent while a reducer runs (by a `.send` effect, or by a re-entrant `send`) is
  /// queued and processed by the loop that is already running, so the stack stays flat however
  /// long the chain.
  ///
  /// - Returns: The group of effects the action started, or `nil` if it started none.
  @inlinable
  package func dispatch(
    _ action: Action,
    origin: ActionOrigin,
    group: EffectGroup?,
    from placement: EffectPlacement? = nil
  ) -> EffectGroup? {
    if isDispatching {
      let group = group ?? EffectGroup()
      queue.append(
        Queued(
          action: action, origin: origin, group: group, placement: placement,
          check: reads.takeSendCheck()))
      return group
    }
    if reads.areInProgress {
      return dispatchAfterReads(action, origin: origin, group: group, from: placement)
    }
    isDispatching = true
    defer {
      // Emptied while still dispatching: what a `deinit` there sends is queued (see
      // `clearQueueOfDispatch()`).
      if !queue.isEmpty { clearQueueOfDispatch() }
      isDispatching = false
      if !dispatchHooks.isEmpty { runDispatchHooks() }
    }
    var group = group
    reduce(action, origin: origin, group: &group, from: placement)
    reduceQueued()
    return group
  }

  /// Queues an action sent while a store's state is being read, to be reduced once the
  /// outermost read has ended (see `StateReads`): reduced now, it would change or free what the
  /// read is still using. Its effects start then too.
  @usableFromInline
  func dispatchAfterReads(
    _ action: Action, origin: ActionOrigin, group: EffectGroup?, from placement: EffectPlacement?
  ) -> EffectGroup? {
    let group = group ?? EffectGroup()
    queue.append(
      Queued(
        action: action, origin: origin, group: group, placement: placement,
        check: reads.takeSendCheck()))
    reads.afterReads { [self] in reduceAfterReads() }
    return group
  }

  /// Reduces the actions sent while a read was in progress, once it has ended, as the actions
  /// observers send are (see `reduceSentDuringHooks(rounds:)`): each with what it feeds back
  /// before the next, as outside a read, and, when a derived store's send is among them (it
  /// carries a check), with the hooks run between them. A store only learns that its child
  /// was dismissed once its hook has seen the child gone, so a dismissal, a new presentation
  /// and a send to the dismissed child's store, all made in one getter, had that send drive
  /// the newcomer.
  func reduceAfterReads() {
    // The loop that is running reduces them (reads do not set this; an effect drain run in
    // a getter would).
    guard !isDispatching else { return }
    runDispatchHooks(reducingQueuedFirst: true)
  }

  /// Reduces the queued actions, in order, including those queued meanwhile.
  @inlinable
  func reduceQueued() {
    while queueHead < queue.count {
      let next = queue[queueHead]
      queueHead += 1
      if queueHead >= 1024 && queueHead * 2 >= queue.count { dropReducedFromQueue() }
      // A derived store's action whose state was taken over since it was sent (an observer
      // presented the child again, then sent to the dismissed child's store) is dropped, and
      // the quiet a row's end leaving a filtered view may have asked for with it, whose check
      // runs before its ancestors' (see `DerivedCore.sendLeavingView(_:)`), is withdrawn: it
      // would fall on the next action reduced.
      if let check = next.check, !check() {
        withdrawQuietMark()
        continue
      }
      var nextGroup = next.group
      reduce(next.action, origin: next.origin, group: &nextGroup, from: next.placement)
    }
  }

  /// Withdraws the quiet of a missing child's warning asked for with a queued action that a
  /// check dropped (see `StateReads.quietMissingChildVersion`). Out of line: off the hot path.
  @usableFromInline
  @inline(never)
  func withdrawQuietMark() {
    reads.quietMissingChildVersion = nil
  }

  /// Runs `body`, which starts effects after their action was reduced (the next part of a
  /// concatenation, the effect a throttle window kept), queuing the actions their `.send`s
  /// deliver, then reduces them in order: as for effects started right after their action,
  /// every effect of the batch has started before the first of those actions is reduced.
  func dispatchBatch(_ body: () -> Void) {
    if isDispatching { return body() }
    isDispatching = true
    body()
    let dispatched = queueHead < queue.count
    reduceQueued()
    // As at the end of `dispatch`: hooks run once the loop is done, and may send.
    if !queue.isEmpty { clearQueueOfDispatch() }
    isDispatching = false
    if dispatched, !dispatchHooks.isEmpty { runDispatchHooks() }
  }

  @inlinable
  func reduce(
    _ action: Action, origin: ActionOrigin, group: inout EffectGroup?,
    from placement: EffectPlacement?
  ) {
    // An action from an effect whose child is gone, or was replaced, from where the reducer
    // that runs it could not see (the walk after each action has not run for it yet): it
    // never reaches a reducer, and its effect is cancelled (one a `catch:` handler sent is a
    // runtime warning).
    if let placement, isGone(placement, sending: action) { return }
    stateVersion &+= 1
    let checkpointIsDue = hasReduceObservers && recordAction?(action, origin) == true
    isReducing = true
    let effect = reducer.reduce(into: &currentState, action: action)
    isReducing = false
    if hasReduceObservers {
      if checkpointIsDue { recordCheckpoint?() }
      didReduce?(action, origin)
    }
    if !effect.isNone {
      let owner = group ?? EffectGroup()
      group = owner
      runtime.start(effect, origin: action, group: owner)
    }
    // An ancestor may have removed an element, child or case whose reducer did not run for
    // this action (it sits below a `Scope` for another case): its effects end now. Elements
    // can only have gone if some identified array changed its ids or was made since the last
    // action (every such change takes a stamp from one counter; an array made before `send`,
    // or in an effect, counts), or was set back to an older copy of itself (no stamp is
    // taken: the arrays the state reaches through stored properties are read in place);
    // optional children and cases are looked for after every action while effects run inside
    // them.
    let stampsMoved = runtime.needsPlaceWalk(structure: structureStamps.load(ordering: .relaxed))
    // Both asked at every action: each notes what it saw.
    if (runtime.hasRemovablePlaces && storedContainersMoved()) || stampsMoved {
      endLifetimesOfGonePlaces()
    }
  }

  // The queue's reduced actions are let go only once the queue is in order again: an action
  // can hold an object whose `deinit` sends to this store, and the queue skips the runtime's
  // exclusivity checks, which would otherwise catch that send changing it mid-change.

  /// Empties the queue at the end of a dispatch, which has not ended yet (`isDispatching`):
  /// a reduced action let go here can hold an object whose `deinit` sends to this store, and
  /// that send is queued rather than reduced at once, ahead of the hooks that check what the
  /// dispatch changed (reduced at once, a send to a dismissed child's store drove the child
  /// presented in its place). With hooks to run, their first round runs before it (see
  /// `runDispatchHooks()`); without, it is reduced here, with what it feeds back.
  @usableFromInline
  @inline(never)
  func clearQueueOfDispatch() {
    clearQueue()
    guard dispatchHooks.isEmpty else { return }
    while queueHead < queue.count {
      reduceQueued()
      clearQueue()
    }
  }

  /// Empties the queue after a dispatch, keeping its buffer unless it grew large.
  @usableFromInline
  func clearQueue() {
    let reduced = queue
    queue.removeAll(keepingCapacity: queue.capacity <= 1024)
    queueHead = 0
    withExtendedLifetime(reduced) {}
  }

  /// Drops the reduced actions from the front of a long queue.
  @usableFromInline
  func dropReducedFromQueue() {
    let reduced = queue[..<queueHead]
    queue.removeFirst(queueHead)
    queueHead = 0
    withExtendedLifetime(reduced) {}
  }

  // Out of line, as they are rare: `reduce` runs for every action and must stay small.

  /// Whether the places an effect started in are gone from the state (it is then cancelled,
  /// and `action`, which it sent, dropped).
  @usableFromInline
  @inline(never)
  func isGone(_ placement: EffectPlacement, sending action: Action) -> Bool {
    !runtime.isStillPlaced(placement, in: currentState, sending: action)
  }

  /// Ends the lifetimes of running effects whose places are gone from the state.
  @usableFromInline
  @inline(never)
  func endLifetimesOfGonePlaces() {
    runtime.endLifetimesOfGonePlaces(in: currentState)
  }

  /// Whether the structure stamp of a container with effects among its elements, reached from
  /// the state through stored properties, moved since the last action: read where the state
  /// keeps it. An ancestor that set such a container back to an older copy of itself took no
  /// new stamp, so the stamp counter did not move, yet the elements the copy lacks are gone.
  ///
  /// - Complexity: O(*c*) for the *c* such containers; O(*p*) to find them again after the
  ///   places with running effects changed.
  @usableFromInline
  @inline(never)
  func storedContainersMoved() -> Bool {
    if watchedShape != runtime.placesShape { watchStoredContainers() }
    var moved = false
    var index = 0
    while index < watchedContainers.count {
      let stamp = loadStored(UInt64.self, at: watchedContainers[index].offset)
      if stamp != watchedContainers[index].last {
        watchedContainers[index].last = stamp
        moved = true
      }
      index += 1
    }
    return moved
  }

  /// Finds the containers ``storedContainersMoved()`` reads, and where the state keeps their
  /// stamps.
  func watchStoredContainers() {
    watchedShape = runtime.placesShape
    var previous: [Int: UInt64] = [:]
    for watched in watchedContainers { previous[watched.offset] = watched.last }
    watchedContainers = runtime.storedContainers().compactMap { path, seen in
      guard let typed = path as? PartialKeyPath<State>,
        let offset = MemoryLayout<State>.offset(of: typed),
        let container = type(of: path).valueType as? any StampedContainer.Type
      else { return nil }
      let at = offset + container.structureStampOffset
      // The stamp seen before this action: as watched, or as the last walk saw it. Never the
      // stamp now, which may be one this action set back: an array no walk has seen yet is
      // taken as moved, for one walk.
      return WatchedContainer(
        offset: at, last: previous[at] ?? seen ?? ~loadStored(UInt64.self, at: at))
    }
  }

}

/// A container `RootCore.storedContainersMoved()` reads: where its structure stamp lies in
/// the state, and the stamp last seen. (Outside `RootCore`: nested in the generic class, it
/// would be generic too, and its array's type looked up at run time at every action.)
struct WatchedContainer {
  var offset: Int
  var last: UInt64
}
