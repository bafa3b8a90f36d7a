import Effects
import Synchronization

/// A view of state that may disappear: an optional child, or one element of a collection.
///
/// Reads go to the parent; while the state is gone, the core keeps returning the last value it
/// read, so a screen that is being dismissed can still draw. (Or, for a child, a case or a
/// stack's screen that its reducer steps where it lies, the value the last step of its
/// reducer left, if that came later: see `KeptCopies`.) Sends go to the parent, whose
/// reducer reports an action for a child that is gone (but for an element gone from a computed
/// view of a collection, whose store ignores them: the parent's reducer would find the element
/// in the whole collection; the end of its screen's task alone goes on, see
/// ``sendLeavingView(_:)``).
///
/// The state it views can also be taken over by another identity: an `Identifiable` child
/// replaced by one with another id, or a stack's screen once the stack is replaced (its ids
/// start again). Then the core keeps its last value too, and ignores sends with a warning,
/// rather than reading and driving the newcomer.
@MainActor
package final class DerivedCore<State, Action: Sendable>: StoreCore {
  /// Looks at the viewed state, reading the parent once (a read for the state and another for
  /// whether it was taken over would read every ancestor twice, doubling the cost at each level
  /// of nesting): says whether it is there, gone, or taken over by another identity, and, when
  /// it is there and `found` is given, calls `found` with its address, valid during the call
  /// only. The address, not a copy: see ``StoreCore/withState(_:)``.
  package typealias Look = @MainActor (_ found: ((UnsafePointer<State>) -> Void)?) -> LookPresence
  /// Looks at the viewed state, gone with a row that left a computed view, where the view
  /// shows the row again, as ``Look`` does; `nil` while the row is out of the view.
  package typealias LookInView =
    @MainActor (_ found: ((UnsafePointer<State>) -> Void)?) -> LookPresence?

  private let look: Look
  private let embed: @MainActor (Action) -> StoreTask
  private let register: @MainActor (@escaping @MainActor () -> Bool) -> Void
  private let report: @MainActor (RuntimeWarning) -> Void
  private let parentIsPresent: (@MainActor () -> Bool)?
  private let version: @MainActor () -> Int
  /// The reads of the root's state in progress (see `StateReads`).
  package let reads: StateReads
  /// The state last found, at an address of its own that never changes: handed out by
  /// address, never copied onto the stack. (`nonisolated(unsafe)` for `deinit` alone, which
  /// frees it once nothing else can read it.)
  private nonisolated(unsafe) let lastState: UnsafeMutablePointer<State>
  /// What holds `lastState` when the state lies where a reducer steps it in place (see
  /// `KeptCopies`): a reducer about to change the state there lets the copy go for the
  /// change, which would otherwise find the buffers it writes shared, and copy them whole.
  private let keptCopy: KeptCopy<State>?
  /// When `lastState` was last looked for: what a look finds holds until the state version
  /// moves or a gone flag changes (a hook found a child dismissed, a row removed).
  private var stateKey: LookKey?
  /// What the last look found.
  private var presence = LookPresence.absent
  private var presenceKey: LookKey?
  /// For an element's store, whose owner checks it only when the element may have changed:
  /// the hooks of what was scoped from it (its child stores' checks, a nested collection's
  /// cache), run then too, rather than after every action the root dispatches. With a
  /// thousand rows that each had a child store scoped, every action, even one that changed no
  /// row, checked the thousand. `nil` for other cores, whose hooks go to the parent's.
  private var ownedHooks: [@MainActor () -> Bool]?
  /// Whether the state lies behind a computed property (see
  /// ``StoreCore/viewsComputedState``): this core's copy of it is then of a state a read may
  /// build anew, with new collections, which a read of the copy cannot tell.
  package let viewsComputedState: Bool
  /// For an element's store of a computed view of a collection: whether the element left the
  /// view, which it may have done while still in the collection (see ``sendLeavingView(_:)``);
  /// `nil` for other cores.
  private let leftView: (@MainActor () -> Bool)?
  /// For a store scoped from another (a part of a row's state, or its optional child): sends
  /// an action of this store on through that one's ``sendLeavingView(_:)``, once this store's
  /// state went with it (see ``sendLeavingView(_:)``); `nil` for other cores.
  private let leaveThroughParent: (@MainActor (Action) -> Bool)?
  /// For an element's store of a computed view, or a store scoped from one: see
  /// ``lookInView(_:)``; `nil` for other cores.
  private let lookInViewAgain: LookInView?

  /// Creates a core that looks at its state with `look`, starting from the state at `initial`.
  ///
  /// `viewsComputedState`: whether the state is reached through a computed property (see
  /// ``StoreCore/viewsComputedState``). `leftView`: for an element of a computed view, whether
  /// it left the view (see ``sendLeavingView(_:)``). `leaveThroughParent`: for a store scoped
  /// from another, how ``sendLeavingView(_:)`` sends on through that one. `lookInView`: see
  /// ``lookInView(_:)``.
  package init(
    initial: UnsafePointer<State>,
    look: @escaping Look,
    send: @escaping @MainActor (Action) -> StoreTask,
    afterDispatch: @escaping @MainActor (@escaping @MainActor () -> Bool) -> Void,
    warn: @escaping @MainActor (RuntimeWarning) -> Void,
    parentIsPresent: (@MainActor () -> Bool)? = nil,
    version: @escaping @MainActor () -> Int,
    reads: StateReads,
    ownsHooks: Bool = false,
    keptAt place: (anchor: KeptCopyAnchor, offset: Int)? = nil,
    viewsComputedState: Bool = false,
    leftView: (@MainActor () -> Bool)? = nil,
    leaveThroughParent: (@MainActor (Action) -> Bool)? = nil,
    lookInView: LookInView? = nil
  ) {
    // (A copy of plain values, with no buffers, shares none: it need not be let go.)
    if let place, !_isPOD(State.self) {
      let keptCopy = KeptCopy(of: initial, at: place.offset, in: place.anchor)
      KeptCopies.register(keptCopy)
      self.keptCopy = keptCopy
      self.lastState = keptCopy.storage
    } else {
      self.keptCopy = nil
      self.lastState = .allocate(capacity: 1)
      copyValue(initial, to: lastState, replacing: false)
    }
    self.version = version
    self.reads = reads
    self.ownedHooks = ownsHooks ? [] : nil
    self.look = look
    self.embed = send
    self.register = afterDispatch
    self.report = warn
    self.parentIsPresent = parentIsPresent
    self.viewsComputedState = viewsComputedState
    self.leftView = leftView
    self.leaveThroughParent = leaveThroughParent
    self.lookInViewAgain = lookInView
  }

  /// Creates a core that reads its state with `read`, starting from `initial`.
  ///
  /// - Parameters:
  ///   - takenOver: When another identity has taken the viewed state over, what this core's
  ///     store was for and what happened (for the warning: "the store of …"); otherwise `nil`.
  ///     It is asked before `read`, which is not called once it answers.
  ///   - ownsHooks: Whether the hooks of what is scoped from this core run when its owner
  ///     checks it (see ``runOwnedHooks()``), rather than after every action.
  package convenience init(
    initial: UnsafePointer<State>,
    read: @escaping @MainActor () -> State?,
    send: @escaping @MainActor (Action) -> StoreTask,
    afterDispatch: @escaping @MainActor (@escaping @MainActor () -> Bool) -> Void,
    warn: @escaping @MainActor (RuntimeWarning) -> Void,
    takenOver: (@MainActor () -> String?)? = nil,
    parentIsPresent: (@MainActor () -> Bool)? = nil,
    version: @escaping @MainActor () -> Int,
    reads: StateReads,
    ownsHooks: Bool = false
  ) {
    self.init(
      initial: initial,
      look: { found in
        if let takenOver = takenOver?() { return .takenOver(takenOver) }
        var now = read()
        return withUnsafeMutablePointer(to: &now) {
          withWrapped(UnsafePointer($0)) { now in
            guard let now else { return .absent }
            found?(now)
            return .present
          }
        }
      },
      send: send,
      afterDispatch: afterDispatch,
      warn: warn,
      parentIsPresent: parentIsPresent,
      version: version,
      reads: reads,
      ownsHooks: ownsHooks
    )
  }

  deinit {
    // A kept copy's memory is its own: a reducer may be about to take it again.
    if let keptCopy {
      KeptCopies.unregister(keptCopy)
    } else {
      lastState.deinitialize(count: 1)
      lastState.deallocate()
    }
  }

  package func withState<Result>(_ body: (UnsafePointer<State>) -> Result) -> Result {
    // An action sent meanwhile waits for the read to end (see `StateReads`): reduced during
    // `body`, its hooks could refresh the copy `body` reads.
    reads.during { readState(body) }
  }

  /// ``withState(_:)``, once no action can be reduced meanwhile.
  private func readState<Result>(_ body: (UnsafePointer<State>) -> Result) -> Result {
    // A read reaches the root, which stops it while the reducer runs, unless the look answers
    // without it (a store whose collection's cache is gone): the copy is let go then, and
    // would be read uninitialized.
    if let keptCopy, keptCopy.isLetGo {
      preconditionFailure(
        """
        A store of \(State.self) was read while a reducer was changing its state (a reducer, \
        or the deinit of a value it let go, read a store). Reducers get the state as their \
        inout argument; send follow-up actions with an effect.
        """)
    }
    // Once per state version (and change of a gone flag): a look reads the parent's state,
    // which, for a store scoped under other optional children, looks at its parent's, up to
    // the root. Without it, the hooks that each level of nested children runs after an
    // action, and each send, read every level above again.
    let key = LookKey(version: version(), flagChanges: GoneFlag.changes)
    if key != stateKey {
      // Copied from where the parent has it to where this core keeps it: no copy between.
      let lastState = self.lastState
      presence = look { copyValue($0, to: lastState, replacing: true) }
      stateKey = key
      presenceKey = key
    }
    return body(UnsafePointer(lastState))
  }

  /// What a look finds now, from the last look while it holds.
  private func currentPresence() -> LookPresence {
    let key = LookKey(version: version(), flagChanges: GoneFlag.changes)
    guard key != presenceKey else { return presence }
    presence = look(nil)
    presenceKey = key
    return presence
  }

  /// Where this core's kept copy lies (see `KeptCopies`): its anchor, and its offset in the
  /// state the anchor's reducer steps (the child, or a screen's entry in its stack); `nil`
  /// when the core keeps a copy of its own.
  package var keptCopyPlace: (anchor: KeptCopyAnchor, offset: Int)? {
    keptCopy.map { ($0.anchor, $0.offset) }
  }

  /// Ends this core's kept copy (see `KeptCopies`), once its state is gone: its anchor is
  /// marked gone (stores scoped from this one share it), and the copy leaves the register, so
  /// that no reducer steps it for this store again, and a register that kept every store held
  /// does not make each step look through them. The copy stays this core's last state.
  package func endKeptCopy() {
    guard let keptCopy else { return }
    keptCopy.anchor.isGone = true
    KeptCopies.unregister(keptCopy)
  }

  package func send(_ action: Action) -> StoreTask {
    // Sent while the root's reducer runs (by the `deinit` of a value it lets go), when the
    // state cannot be looked at: a look stopped the program. The root queues the action, as
    // any sent meanwhile, and whether this store's state is still its own is asked just
    // before it is reduced, once the reducer is done.
    if reads.rootIsReducing { return embedChecked(action) }
    guard case .takenOver(let takenOver) = currentPresence() else {
      guard reads.queuesSends else { return embed(action) }
      // The root queues the action, behind actions that may take this store's state over:
      // an observer told of a dismissal that presents the child again, then sends to the
      // dismissed child's store, whose child is only absent now. Looked at again just before
      // it is reduced, it would otherwise reach the newcomer.
      return embedChecked(action)
    }
    ignore(action, sentTo: takenOver)
    return StoreTask(group: nil)
  }

  /// Sends `action` on to the root, which queues it, with a check asked just before it is
  /// reduced: whether this store's state is still its own (if not, the action is ignored with
  /// a warning). A store scoped from this one (a row's detail) sends through here: its check
  /// is asked first, then this one's.
  private func embedChecked(_ action: Action) -> StoreTask {
    let outer = reads.sendCheck
    reads.sendCheck = { [self] in (outer?() ?? true) && isStillOwn(whenReducing: action) }
    defer { reads.sendCheck = outer }
    return embed(action)
  }

  /// Whether an action this store sent while the root was queuing may still be reduced:
  /// its state was not taken over since. Reports the action as ignored if it was.
  private func isStillOwn(whenReducing action: Action) -> Bool {
    guard case .takenOver(let takenOver) = currentPresence() else { return true }
    ignore(action, sentTo: takenOver)
    return false
  }

  private func ignore(_ action: Action, sentTo takenOver: String) {
    report(
      RuntimeWarning(
        message: """
          \(describe(action)) was sent to the store of \(takenOver). The action was \
          ignored.
          """,
        fileID: "Store",
        group: "a send to a store whose element is gone"
      )
    )
  }

  /// Sends `action` on to the parent of an element's store whose element left the computed
  /// view it was scoped through, though such a store ignores its sends: the parent's
  /// reducers run over the whole collection, where the element may still be (hidden by a
  /// filter, or back in the view, with a store of its own), or not (removed, which the view
  /// cannot tell): a missing element is then not reported, as no one sent to it by mistake.
  /// `Store.runScreen` ends the task of a row that left a filtered list this way. A store
  /// scoped from such an element's store (a part of the row, its optional child: a screen the
  /// row presents), whose state went with the row, sends on through it, the action embedded,
  /// unless the row, back in the view, holds another child there now (see
  /// ``lookInView(_:)``); so does the store of an element of a collection in such a store (a
  /// stack's screen, an item of the row's own list), unless it was popped before (an item
  /// that left the row's list before, removed or filtered out, sends on: the row's store,
  /// built with the view, cannot tell which).
  ///
  /// - Returns: Whether the action was sent: not by a store of another kind, nor one that is
  ///   still the view's store of its element, nor one whose parent is gone, nor a child that
  ///   was gone before its row left the view, or is no longer there once the row is back.
  package func sendLeavingView(_ action: Action) -> Bool {
    // Gone with its parent (a row of a collection in a row that left a computed view): on
    // through the parent, as a store that is not a row's goes.
    guard let leftView, parentIsPresent?() ?? true else {
      return leaveThroughParent?(action) ?? false
    }
    guard leftView() else { return false }
    let reads = self.reads
    let version = self.version
    // The version the root reduces the action at: the next one, once it is about to.
    let quiet: @MainActor () -> Void = { reads.quietMissingChildVersion = version() &+ 1 }
    if reads.queuesSends {
      // Queued behind other actions: marked just before it is reduced, as its checks run.
      // This one runs before those of the stores the action goes on through (each wraps the
      // check it finds, see `embedChecked(_:)`): if one of them drops the action, the root
      // withdraws the mark (`RootCore.reduceQueued()`).
      let outer = reads.sendCheck
      reads.sendCheck = {
        guard outer?() ?? true else { return false }
        quiet()
        return true
      }
      defer { reads.sendCheck = outer }
      _ = embed(action)
    } else {
      // Reduced before the send returns.
      quiet()
      defer { reads.quietMissingChildVersion = nil }
      _ = embed(action)
    }
    return true
  }

  /// For a store whose state went with a row that left a computed view (a row's store, or one
  /// scoped from it): looks at that state where the view shows the row again, with a store of
  /// its own, as a look does (the state a store scoped from this one was made for may have
  /// been replaced meanwhile: see ``sendLeavingView(_:)``). `nil` while the row is out of the
  /// view (hidden, or removed), and for other stores.
  package func lookInView(_ found: ((UnsafePointer<State>) -> Void)?) -> LookPresence? {
    lookInViewAgain?(found)
  }

  /// Whether ``lookInView(_:)`` can find the state: this is a row's store of a computed view,
  /// or one scoped from it.
  package var looksInView: Bool { lookInViewAgain != nil }

  package var isPresent: Bool {
    // A derived parent that is gone keeps returning its last state: ask it first.
    guard parentIsPresent?() ?? true, case .present = currentPresence() else { return false }
    return true
  }

  package var stateVersion: Int {
    version()
  }

  package var keepsCopyOfState: Bool { true }

  package func afterDispatch(_ hook: @escaping @MainActor () -> Bool) {
    if ownedHooks != nil {
      ownedHooks!.append(hook)
    } else {
      register(hook)
    }
  }

  /// Runs the hooks this core owns, if it owns them: its owner checked it, as the state it
  /// views may have changed. A hook that returns `false` is dropped; one may register more.
  package func runOwnedHooks() {
    guard let hooks = ownedHooks, !hooks.isEmpty else { return }
    ownedHooks = []
    let kept = hooks.filter { $0() }
    ownedHooks = kept + (ownedHooks ?? [])
  }

  package func warn(_ warning: RuntimeWarning) {
    report(warning)
  }

  package func scope<ChildState, ChildAction: Sendable>(
    state toChild: KeyPath<State, ChildState>,
    action: CaseKey<Action, ChildAction>
  ) -> any StoreCore<ChildState, ChildAction> {
    let look = self.look
    let send = self.embed
    let embedChild = action.embed
    let offset = MemoryLayout<State>.offset(of: toChild)
    // A stored part of a state at a fixed place lies at a fixed offset from it.
    // (Not once the child is gone: no reducer steps it again.)
    let place = keptCopy.flatMap { keptCopy in
      keptCopy.anchor.isGone
        ? nil : offset.map { (anchor: keptCopy.anchor, offset: keptCopy.offset + $0) }
    }
    return withState { state in
      withValue(at: toChild, offset: offset, in: state) { initial in
        // A part of a state another identity took over is that identity's: the part's store
        // keeps its last value and ignores sends, as this one does.
        DerivedCore<ChildState, ChildAction>(
          initial: initial,
          look: { found in
            let presence = look(
              found.map { found in { withValue(at: toChild, offset: offset, in: $0, found) } })
            guard case .takenOver(let takenOver) = presence else { return presence }
            return .takenOver("a part of \(takenOver)")
          },
          send: { send(embedChild($0)) },
          // Through this core: an element's core runs them when its element may have changed.
          afterDispatch: { self.afterDispatch($0) },
          warn: report,
          parentIsPresent: { self.isPresent },
          version: version,
          reads: reads,
          keptAt: place,
          // A part of a state behind a computed property is behind it too; a part reached
          // through one is behind one.
          viewsComputedState: viewsComputedState || offset == nil,
          // A part is gone only with this core's state.
          leaveThroughParent: { self.sendLeavingView(embedChild($0)) },
          lookInView: lookInViewAgain.map {
            lookInView -> DerivedCore<ChildState, ChildAction>.LookInView in
            { found in
              lookInView(
                found.map { found in { withValue(at: toChild, offset: offset, in: $0, found) } })
            }
          }
        )
      }
    }
  }
}

// Outside `DerivedCore`: nested in the generic class, each would be generic too, and its
// every use would look up its metadata at run time.

/// What a derived core's look found, without the state.
package enum LookPresence {
  case present
  case absent
  case takenOver(String)
}

/// When a derived core looked: what it found holds while both stay the same.
private struct LookKey: Equatable {
  var version: Int
  var flagChanges: Int
}

/// Whether the identity a derived store was made for is gone (a row removed, a child
/// dismissed), as that store's core sees it: set by the owner that lets the store go.
@MainActor
final class GoneFlag {
  var isGone = false {
    didSet { if isGone != oldValue { Self.noteChange() } }
  }

  /// How many flags have changed, or owners of flags gone away: what a derived core found on a
  /// look holds while neither this nor the state version moves. Atomic, as an owner that is
  /// let go (an `ElementStoreCache`, whose `deinit` may run on any thread) moves it too.
  private nonisolated static let changeCount = Atomic<Int>(0)

  /// How many flags have changed so far.
  static var changes: Int { changeCount.load(ordering: .relaxed) }

  /// Makes every derived core look again at its next read or send: a flag changed, or
  /// something that its looks relied on went away.
  nonisolated static func noteChange() {
    changeCount.wrappingAdd(1, ordering: .relaxed)
  }
}
