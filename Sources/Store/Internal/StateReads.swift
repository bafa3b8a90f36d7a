/// The reads of a root store's state in progress, and the dispatch that waits for them to end.
///
/// A store's state is read where it lies: a computed property's getter, an `==` of an
/// observation check, a case key's `extract` run on a child store's state all run on the
/// state itself (or on a derived store's copy, which the root's hooks bring up to date), not
/// on a copy of their own. An action reduced during such a read would change, or free, what
/// the read is still using (the buffer of an array a getter walks): a getter that sent an
/// action read freed memory. So an action sent to a root while one of its reads is in
/// progress (by a getter, or by the `deinit` of a value the read lets go) waits in the root's
/// queue, and is reduced, in order, once the root's outermost read has ended, before that
/// read returns. Sends to other roots go on at once. One per root, shared by every store
/// scoped from it.
@MainActor @usableFromInline
package final class StateReads {
  // Both are read and written around every read of the state (several times for each
  // element store checked after an action), confined to the main actor, and never held
  // across a call (`waiting` is emptied before its dispatch runs): the runtime's exclusivity
  // checks, a thread-local lookup each, are left out for them, as for `RootCore`'s dispatch
  // loop.
  /// How many reads are in progress, nested.
  @exclusivity(unchecked) @usableFromInline private(set) var depth = 0
  /// What runs once the outermost read ends: the root's dispatch of the actions that waited.
  @exclusivity(unchecked) private var waiting: (@MainActor () -> Void)?

  /// Whether the root's after-dispatch hooks are running (an action sent meanwhile waits
  /// for them to end, so they do not nest). While they are, a store of this root whose check
  /// of the last action has not run yet may be read (by an observer that draws in
  /// `onChange`), and compares what is read first (see `Store.register`); between actions,
  /// every store has checked what changed. Here, as every store of the root shares this
  /// object: another root's hooks are not this root's.
  @exclusivity(unchecked) var hooksAreRunning = false
  /// Whether the root is dispatching: reducing an action and those it feeds back, or running
  /// its hooks. An action sent meanwhile is queued (see `RootCore.dispatch`). Here rather
  /// than in the root, so that a derived store knows it (see ``queuesSends``).
  @exclusivity(unchecked) @usableFromInline var rootIsDispatching = false
  /// Whether the root's reducer is running: its state is being changed where it lies, and
  /// must not be read (see `RootCore.withState(_:)`). Here rather than in the root, so that a
  /// derived store sent an action meanwhile (by the `deinit` of a value the reducer lets go)
  /// leaves its look at the state for later (see `DerivedCore.send`).
  @exclusivity(unchecked) @usableFromInline var rootIsReducing = false
  /// What a derived store's send leaves for the root while the root queues the action: a
  /// check asked again just before the action is reduced, which drops it (with a warning)
  /// when the store's state was taken over meanwhile (see `DerivedCore.send`). Taken by the
  /// first action queued.
  @exclusivity(unchecked) @usableFromInline var sendCheck: (@MainActor () -> Bool)?
  /// The ``RootCore/stateVersion`` at which the root reduces an action sent knowing that its
  /// element may be gone, whose missing element is then not reported (see
  /// `DerivedCore.sendLeavingView(_:)`): set as such an action is about to be reduced, and
  /// withdrawn if a check drops it instead; a mark left after its action was reduced names a
  /// version past. Read when a missing child's warning is about to be reported, and by a
  /// recorder, as it writes each action (to mark the line); not otherwise on the way of an
  /// action.
  var quietMissingChildVersion: Int?

  init() {}

  /// Whether an action sent to the root now waits in its queue rather than being reduced at
  /// once: the root is dispatching, or a read is in progress.
  var queuesSends: Bool { rootIsDispatching || areInProgress }

  /// The check a derived store's send left for the action being queued, if any; the next
  /// action queued gets none unless another send leaves one.
  @inlinable
  func takeSendCheck() -> (@MainActor () -> Bool)? {
    defer { sendCheck = nil }
    return sendCheck
  }

  /// Whether a read is in progress.
  @inlinable var areInProgress: Bool { depth > 0 }

  /// Runs `body`, a read of the state, then the dispatch that waited for it to end, when it
  /// is the outermost read.
  @inline(__always)
  func during<Result>(_ body: () -> Result) -> Result {
    depth += 1
    defer {
      depth -= 1
      if depth == 0, let dispatch = waiting {
        waiting = nil
        dispatchesAfterReads &+= 1
        dispatch()
      }
    }
    return body()
  }

  /// How many times actions that waited for a read were reduced as it ended: a store that
  /// reads a value for an observer reads it again when this moved during the read, so that
  /// it shows and compares what those actions left (see `Store.subscript(dynamicMember:)`).
  @exclusivity(unchecked) private(set) var dispatchesAfterReads = 0

  /// Runs `dispatch` once no read is in progress; a dispatch already waiting is kept instead
  /// (it reduces every action queued by then).
  func afterReads(_ dispatch: @escaping @MainActor () -> Void) {
    if waiting == nil { waiting = dispatch }
  }

  /// How many observation notices of this root's stores are being sent, nested: while one
  /// is, an observer may be drawing in its `onChange`, its tracking still installed until
  /// `onChange` returns.
  @exclusivity(unchecked) private var noticeDepth = 0
  /// Notices raised while another was being sent, to send once it has been.
  @exclusivity(unchecked) private var deferredNotices: [@MainActor () -> Void] = []

  /// Sends a notice (`body` calls the registrar's `withMutation`), then, once no notice is
  /// being sent, the notices deferred meanwhile.
  func notifying(_ body: () -> Void) {
    noticeDepth += 1
    body()
    noticeDepth -= 1
    guard noticeDepth == 0 else { return }
    while !deferredNotices.isEmpty {
      let notices = deferredNotices
      deferredNotices = []
      for notice in notices { notifying(notice) }
    }
  }

  /// Sends `notice` now, or, while another notice is being sent, once it has been: a notice
  /// sent from an observer's `onChange` would reach that observer's own tracking again (it
  /// is cancelled only when `onChange` returns), which then draws twice and stays
  /// registered twice.
  func notice(_ notice: @escaping @MainActor () -> Void) {
    if noticeDepth > 0 {
      deferredNotices.append(notice)
    } else {
      notifying(notice)
    }
  }
}
