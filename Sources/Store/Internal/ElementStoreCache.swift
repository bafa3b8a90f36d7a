import Effects

/// The element stores handed out for one identified collection of a store, keyed by id.
///
/// After each action the root dispatches (for a collection inside an element, after each action
/// that may have changed that element), the cache checks whether the collection's set of
/// ids changed (an O(1) comparison of structure stamps) and, if it did, lets go of the stores
/// of removed elements.
@MainActor
final class ElementStoreCache<ID: Hashable & Sendable, ElementState, ElementAction: Sendable> {
  private let lookup: @MainActor (ID) -> ElementState?
  /// Calls its argument with the address of the state of the element with `id`, where the
  /// state keeps it (`nil` when there is none), valid during the call only: how an element's
  /// store looks at its element (see ``CollectionReader/look(_:)``).
  private let lookAtElement:
    @MainActor (ID, (UnsafePointer<ElementState>?) -> LookPresence) -> LookPresence
  private let structure: @MainActor () -> UInt64
  private let contains: @MainActor (ID) -> Bool
  /// When the stamp is not the one given: the stamp now, the ids removed since (`nil` when
  /// unknown), and whether an id is there now, all from one read of the collection (a computed
  /// view, such as a filter, is built once per state, by the `CollectionReader`).
  private let removedSince:
    @MainActor (UInt64) -> (stamp: UInt64, removed: [ID]?, contains: (ID) -> Bool)?
  /// Whether the collection is a stored one, as opposed to a computed view of one, such as a
  /// filter, or a collection in a child state a computed property builds (see
  /// ``CollectionReader/isStored``).
  private let isStored: Bool
  /// The `CollectionReader` of the collection.
  let reader: AnyObject
  /// The content stamp now, and the ids of elements changed since a stamp (`nil` when
  /// unknown).
  private let changedSince: @MainActor (UInt64) -> (stamp: UInt64, changed: [ID]?)
  private var knownContent: UInt64
  private let send: @MainActor (ID, ElementAction) -> StoreTask
  private let register: @MainActor (@escaping @MainActor () -> Bool) -> Void
  private let warn: @MainActor (RuntimeWarning) -> Void
  /// Whether the store that holds the collection is itself still there.
  private let parentIsPresent: @MainActor () -> Bool
  /// The parent's ``StoreCore/stateVersion``.
  private let version: @MainActor () -> Int
  /// The reads of the root's state in progress, handed to the element stores.
  private let reads: StateReads
  private var stores: [ID: Store<ElementState, ElementAction>] = [:]

  // Its stores' looks found their elements while this cache checked them after each action;
  // from now on they find them taken over (see `takenOver`), from their next read or send,
  // not only once the state moves: a send right after this cache went would otherwise reach
  // the reducer, and the store show its last state rather than what the send changed.
  deinit { GoneFlag.noteChange() }
  /// For each store in `stores`, the flag its core reads once the store is let go.
  private var retirements: [ID: GoneFlag] = [:]
  /// For a computed view, the `runScreen` calls of each id's stores (see `ScreenTaskCounts`),
  /// held by the stores: an id let go while a task of its store (or of a store scoped from it)
  /// still runs keeps its entry, for the store made when the row comes back, until the calls
  /// are all over.
  private var screenTasks: [ID: HeldScreenTasks] = [:]
  /// The stores of removed elements that something (a row view playing its removal
  /// animation) still holds: a collection listed before the removal hands them out again.
  /// Oldest first; an id removed, added back and removed again has one for each time.
  private var retired: [ID: [Retired]] = [:]
  /// How many ids `retired` may list before the stores nothing holds any more are dropped
  /// from it: twice as many as were left after the last sweep (at least 64), so a sweep's
  /// cost is shared by as many retirements.
  private var retiredSweepAt = 64
  /// How many stores were let go so far: a listing notes it, to find the store of the
  /// element it listed among the retired ones (the first let go after the listing).
  private(set) var retirementCount = 0
  private var knownStructure: UInt64
  /// The collection's structure and content stamps now.
  private let stamps: @MainActor () -> CollectionStamps
  /// For a navigation stack: the token of the screen with an id now (see
  /// `LifetimeStateCarrier`, unique to each push), and the token each store's screen had. A
  /// stack that replaced another, or was set back to a copy saved before a push and pushed
  /// onto, gives a new screen an old screen's id.
  private let token: (@MainActor (ID) -> UInt64?)?
  private var storeTokens: [ID: UInt64] = [:]
  /// Where the elements lie, when their stores' copies are registered (a stack's screens at a
  /// fixed place of the root's state; see `KeptCopies`).
  private let copyPlace: ElementCopyPlace?
  /// For a collection in a row of a computed view (or in what is scoped from one), whose
  /// store's screen-task counts are shared: those counts, and this collection's scope. Its
  /// elements come back with the row, with stores of their own, and their tasks are counted
  /// with the old stores' (see `ScreenTaskCounts`).
  private let enclosingScreenTasks: (counts: ScreenTaskCounts, scope: ScopeKey)?
  /// Sends an element's action on through the parent's `DerivedCore.sendLeavingView(_:)`,
  /// once the parent went with a row that left a computed view, the element with it.
  private let sendThroughParent: @MainActor (ID, ElementAction) -> Bool
  /// Looks at an element, by id and push (a stack's screen's token, or `nil`), where the view
  /// shows the parent's row again after it left a computed view (see
  /// `DerivedCore.lookInView(_:)`); `nil` for a parent of another kind.
  private let lookInParentView:
    (@MainActor (ID, UInt64?, ((UnsafePointer<ElementState>) -> Void)?) -> LookPresence?)?
  /// The ids last listed, and the structure stamp of the collection they were read from:
  /// while the stamp is the same, so are the ids, and a view that lists the collection again
  /// (each time it draws) gets them in O(1).
  private var listedIDs: (structure: UInt64, ids: [ID])?

  init<ParentState, ParentAction: Sendable, Element>(
    parent: any StoreCore<ParentState, ParentAction>,
    elements reader: CollectionReader<ParentState, ID, Element>,
    toState: KeyPath<Element, ElementState>,
    embed: @escaping @Sendable (ID, ElementAction) -> ParentAction,
    token: (@MainActor (ID) -> UInt64?)? = nil,
    copyPlace: ElementCopyPlace? = nil,
    enclosingScreenTasks: (counts: ScreenTaskCounts, scope: ScopeKey)? = nil
  ) {
    self.token = token
    self.copyPlace = copyPlace
    self.enclosingScreenTasks = enclosingScreenTasks
    sendThroughParent = { id, action in parent.sendLeavingView(embed(id, action)) }
    let toElementsPath = reader.keyPath
    let toStatePath = toState
    if let parentCore = parent as? DerivedCore<ParentState, ParentAction>,
      parentCore.looksInView
    {
      lookInParentView = { id, push, found in
        var presence = LookPresence.absent
        let inView = parentCore.lookInView { state in
          // (Rare: once a task of a store gone with its row ends. A copy of the collection.)
          state.pointee[keyPath: toElementsPath].withElement(id: id) { element in
            guard let element else { return }
            if let push, (element.pointee as? any LifetimeStateCarrier)?.lifetimeToken != push {
              // Another screen with the id (the stack replaced): not this store's.
              presence = .takenOver("")
              return
            }
            presence = .present
            withValue(at: toStatePath, offset: nil, in: element) { found?($0) }
          }
        }
        return inView.map { _ in presence }
      }
    } else {
      lookInParentView = nil
    }
    self.reader = reader
    let elements: @MainActor () -> IdentifiedArray<ID, Element> = reader.read
    lookup = { elements()[id: $0]?[keyPath: toState] }
    let toStateOffset = MemoryLayout<Element>.offset(of: toState)
    lookAtElement = { id, body in
      reader.look { elements in
        elements.pointee.withElement(id: id) { element in
          guard let element else { return body(nil) }
          return withValue(at: toState, offset: toStateOffset, in: element, body)
        }
      }
    }
    structure = { elements().structure }
    contains = { elements().contains(id: $0) }
    removedSince = { stamp in
      let elements = elements()
      guard elements.structure != stamp else { return nil }
      // `nil` when too much changed to list: the stores whose element is gone are found.
      return (
        elements.structure, elements.removedIDs(since: stamp), { elements.contains(id: $0) }
      )
    }
    isStored = reader.isStored
    send = { id, action in parent.send(embed(id, action)) }
    register = { parent.afterDispatch($0) }
    warn = { parent.warn($0) }
    parentIsPresent = { parent.isPresent }
    version = { parent.stateVersion }
    reads = parent.reads
    changedSince = { stamp in
      let elements = elements()
      return (elements.content, elements.changedIDs(since: stamp))
    }
    let now = elements()
    knownStructure = now.structure
    knownContent = now.content
    // After every action: for a stored collection, two numbers read where the root keeps
    // them, with no copy of the state or the collection (about 1.4 us an action, copied).
    stamps = reader.stamps
    // The parent's core keeps the hook for as long as it lives, so the hook holds nothing but
    // this cache, weakly: what reads the elements holds the core, and a hook holding that
    // would keep the core, and the effects it runs, alive after every store was let go.
    parent.afterDispatch { [weak self] in
      guard let self else { return false }
      // Most actions change neither the ids nor an element: one read, two comparisons, which
      // also say which of the two checks is due.
      let now = self.stamps()
      let checkedAll = now.structure != self.knownStructure && self.prune()
      if now.content != self.knownContent { self.notifyChangedElements(checkedAll: checkedAll) }
      return true
    }
  }

  /// How many stores of elements in the collection now this cache holds (for tests).
  var heldStoreCount: Int { stores.count }

  /// How many ids the list of removed elements' stores lists (for tests).
  var retiredIDCount: Int { retired.count }

  /// The ids of `elements`, the collection now, in order.
  ///
  /// - Complexity: O(1) while the collection's ids are those last listed; else O(*n*).
  func ids<Element>(of elements: IdentifiedArray<ID, Element>) -> [ID] {
    if let listedIDs, listedIDs.structure == elements.structure { return listedIDs.ids }
    let ids = elements.ids
    listedIDs = (elements.structure, ids)
    return ids
  }

  func isPresent(_ id: ID) -> Bool {
    contains(id)
  }

  /// The store of the element with `id`, as a collection listed when ``retirementCount`` was
  /// `listedAt` sees it: the first store for `id` let go since the listing that something
  /// still holds (the listed element's, when it had one; else a later element's), even when
  /// another element has taken its id since (a row added back by an undo, the first screen
  /// of a stack that replaced the stack); else the store of the element with `id` now; else
  /// a store still held for an earlier element with `id`; `nil` when there is none of these.
  func store(for id: ID, listedAt: Int) -> Store<ElementState, ElementAction>? {
    retireIfTakenOver(id)
    // Asked first: the element with the id now may be another than the one listed, and a
    // view playing the listed row's removal must not show, or drive, the newcomer.
    if let listed = retiredStore(for: id, after: listedAt) { return listed }
    return currentStore(for: id) ?? retired[id]?.last(where: { $0.store != nil })?.store
  }

  /// The store of the element with `id` in the collection now, made when first asked for;
  /// `nil` when the collection has no element with `id`.
  func store(for id: ID) -> Store<ElementState, ElementAction>? {
    retireIfTakenOver(id)
    return currentStore(for: id)
  }

  /// ``store(for:)``, once a store whose screen's id was taken over has been let go.
  private func currentStore(for id: ID) -> Store<ElementState, ElementAction>? {
    if let store = stores[id] { return store }
    let lookup = self.lookup
    guard let initial = lookup(id) else { return nil }
    let send = self.send
    // For a stack: the screen pushed with this id. Once another screen has the id (in a
    // stack that replaced this one, or pushed after an undo), the store keeps its screen's
    // last state and ignores its sends, rather than reading and driving the newcomer.
    // For any element: once its store was let go (the element removed), an element added
    // with its id later is another element, which the old store does not read or drive.
    let token = self.token
    let tokenThen = token?(id)
    let structure = self.structure
    let replacement = Replacement()
    let retirement = GoneFlag()
    let contains = self.contains
    let isStored = self.isStored
    let takenOver: @MainActor () -> String? = { [weak self] in
      // This cache checks, after each action, whether the element was removed. Once it is let
      // go (with the store the collection was scoped from, and every collection of its
      // stores), nothing does: an element removed, then added back with its id, would be read
      // and driven by this store. So the store stops following the collection then.
      guard self != nil else {
        // A stack's screens (a cache with tokens) are named as its other warnings name them.
        let (element, collection) = token == nil ? ("element", "collection") : ("screen", "stack")
        return """
          \(element) \(describeID(id)) of a \(collection) whose store has been let go (the store it \
          was scoped from, with every collection of its stores: a sheet holding it dismissed, \
          say): this store can no longer tell whether the \(element) with that id now is its own
          """
      }
      // The screen's token is read again only after the stack's ids changed.
      if let token,
        replacement.isReplaced(
          structure: structure(), { token(id).map { $0 != tokenThen } ?? false })
      {
        return """
          screen \(describeID(id)) of a stack that has since been replaced, or whose id another screen \
          has since taken
          """
      }
      guard retirement.isGone else { return nil }
      if contains(id) {
        // In a computed view, an element with the id is back: this one left the view and came
        // back, most likely, rather than being removed (the cache cannot tell which).
        guard isStored else {
          return """
            the element with id \(describeID(id)), which left the view of the collection the \
            store was scoped to (a computed property, or a property with an observer or a \
            wrapper, which the store cannot read in place), or was removed, since the store was \
            made; the element with that id is in the view again, with a store of its own: scope \
            again for its current store
            """
        }
        guard token == nil else {
          // Popped, then pushed back with its id (a saved path restored, an undo): the same
          // screen, perhaps, but with a store of its own now.
          return """
            screen \(describeID(id)), which was popped; the screen with that id now (restored, \
            or pushed again) has a store of its own: scope again for it
            """
        }
        return
          "element \(describeID(id)), which was removed; the element with that id now is another"
      }
      // Gone from a stored collection: the send goes to the parent, whose `forEach` warns and
      // ends the element's lifetime (its effects, if an ancestor removed it out of sight).
      if isStored { return nil }
      // Gone from a computed view (`\.visibleRows`, a filter, or the rows of a child state a
      // computed property builds): the parent's `forEach`, over the whole collection, would
      // find the row and change it, while this store shows its last state. A text field on a
      // row leaving the view would write, then snap back.
      return Self.leftView(id)
    }
    // For an element of a computed view (not a stack's screen): whether it is out of the
    // view now, this cache still following it. It may still be in the whole collection (see
    // `DerivedCore.sendLeavingView(_:)`).
    var leftView: (@MainActor () -> Bool)?
    if !isStored, token == nil {
      // Or back in it, with a store of its own, after it left it: the row the view hands out
      // a new store for may be this store's row, which it cannot tell from another with the
      // id.
      leftView = { [weak self] in self != nil && (retirement.isGone || !contains(id)) }
    }
    let lookAtElement = self.lookAtElement
    let parentIsPresent = self.parentIsPresent
    // The row where the view shows it now, for a store scoped from this one whose state went
    // with the row (see `DerivedCore.lookInView(_:)`): `nil` while it is out of the view. For
    // an element of a collection in such a row (or in what is scoped from one), gone with the
    // row: the element where the view shows the row again.
    var lookInView: DerivedCore<ElementState, ElementAction>.LookInView?
    let lookInParentView = self.lookInParentView
    let isView = leftView != nil
    if leftView != nil || lookInParentView != nil {
      lookInView = { [weak self] found in
        // (Gone with its row, the store may outlive this cache, which the row's store held.)
        guard parentIsPresent() else { return lookInParentView?(id, tokenThen, found) }
        guard self != nil, isView, contains(id) else { return nil }
        return lookAtElement(id) { element in
          guard let element else { return .absent }
          found?(element)
          return .present
        }
      }
    }
    // Once its parent went with a row that left a computed view, this element with it (not
    // removed first): its screen's end goes on through the parent, unless the row, back in the
    // view, holds another element there now (removed, or another screen with its id). An
    // element of a collection that is not stored (a filter in the row, or any list of a row
    // the view builds anew) that left it, before the row left or after, may be hidden there
    // rather than removed, which this cache cannot tell: its end goes on (reaching no
    // element, quietly, if it was removed), as a row of a view's does.
    var leaveThroughParent: (@MainActor (ElementAction) -> Bool)?
    if lookInParentView != nil {
      let sendThroughParent = self.sendThroughParent
      leaveThroughParent = { [lookInView] action in
        guard !parentIsPresent(), isView || !retirement.isGone else { return false }
        switch lookInView?(nil) {
        case .takenOver?: return false
        case .absent?: return isView && sendThroughParent(id, action)
        case .present?, nil: return sendThroughParent(id, action)
        }
      }
    }
    // A screen's store's copy, registered under the stack's place and the screen's id, for the
    // screen's reducer to let go of at its steps; told apart from a newcomer with the id by
    // its push.
    var keptAt: (anchor: KeptCopyAnchor, offset: Int)?
    if let copyPlace, let tokenThen, let screen = id as? StackElementID {
      // Once this cache is let go, the store can no longer tell its screen from a newcomer
      // (see `takenOver`): its copy no longer follows the screen's steps either.
      let anchor = KeptCopyAnchor(
        screen: screen, of: copyPlace.elementType, in: copyPlace.collection,
        container: copyPlace.container,
        isOwn: { [weak self] in self != nil && copyPlace.token($0) == tokenThen })
      keptAt = (anchor, copyPlace.stateOffset)
    }
    let core = withUnsafePointer(to: initial) {
      DerivedCore<ElementState, ElementAction>(
        initial: $0,
        // As `DerivedCore`'s `read:` would, with the element found where the state keeps it,
        // and copied once, to where the core keeps it: read through `lookup`, it was copied
        // out of the collection, then out of an optional, after each action that may have
        // changed it.
        look: { found in
          if let takenOver = takenOver() { return .takenOver(takenOver) }
          return lookAtElement(id) { element in
            // Gone from a computed view before this cache's check after the action saw it (a
            // send made by a `deinit` the reducer ran, asked about once the reducer is done):
            // ignored, as after that check; the `forEach`, over the whole collection, would
            // find the row.
            guard let element else { return isStored ? .absent : .takenOver(Self.leftView(id)) }
            found?(element)
            return .present
          }
        },
        send: { send(id, $0) },
        afterDispatch: register,
        warn: warn,
        parentIsPresent: parentIsPresent,
        version: version,
        reads: reads,
        ownsHooks: true,
        keptAt: keptAt,
        // A row of a view (a filter, or a collection in a child state a computed property
        // builds) is built with it: a collection in the row may be built anew too (the row's
        // visible tasks), which the row's copy cannot tell from the stored one.
        viewsComputedState: !isStored,
        leftView: leftView,
        leaveThroughParent: leaveThroughParent,
        lookInView: lookInView
      )
    }
    let store = Store<ElementState, ElementAction>(core: core)
    store.isCheckedByOwner = true
    if let enclosingScreenTasks {
      // An element of a collection in a row of a computed view comes back with the row, with
      // a store of its own: its tasks are counted with the old store's, while it is the same
      // element (for a stack, the same push).
      store.screenTasks = enclosingScreenTasks.counts.child(
        scopedWith: enclosingScreenTasks.scope,
        id: tokenThen.map { AnyHashable(PushedID(id: id, push: $0)) } ?? AnyHashable(id))
    } else if leftView != nil {
      // A task of an earlier store for the row that still runs (the row left the view and came
      // back before SwiftUI's cancellation of it ran) and this store's tasks are one run.
      // (A task of a store scoped from such a store, a screen the row presents, counts too.)
      let running = screenTasks[id]?.counts.flatMap { $0.isIdle ? nil : $0 }
      store.screenTasks = running ?? ScreenTaskCounts(isShared: true)
      screenTasks[id] = HeldScreenTasks(counts: store.screenTasks)
    }
    stores[id] = store
    retirements[id] = retirement
    if let tokenThen { storeTokens[id] = tokenThen }
    return store
  }

  /// What the store of the element with `id` of a computed view was for, once the element is
  /// no longer in the view (for the warning: "the store of …").
  private static func leftView(_ id: ID) -> String {
    """
    the element with id \(describeID(id)), which is no longer in the view of the collection the store \
    was scoped to (through a computed property, an optional chain, or a property with an observer \
    or a wrapper, which the store cannot read in place; the element left it, or was removed)
    """
  }

  /// Lets the stores of the elements that changed check what their observers read; the
  /// others are not even looked at.
  ///
  /// - Complexity: O(*c*) for the *c* elements changed since the last check; O(*k*) for the
  ///   *k* stores held when too much changed to list.
  ///
  /// - Parameter checkedAll: Whether ``prune()`` just had every store check.
  private func notifyChangedElements(checkedAll: Bool) {
    let (current, changed) = changedSince(knownContent)
    guard current != knownContent else { return }
    knownContent = current
    guard !stores.isEmpty, !checkedAll else { return }
    if let changed {
      // One id, as after most actions, has no repeat to drop: a set of it, built in code not
      // specialized for the id's type, cost a tenth of an action that wrote one observed row.
      if changed.count == 1 {
        stores[changed[0]]?.checkObservations()
      } else {
        for id in Set(changed) { stores[id]?.checkObservations() }
      }
    } else {
      for store in stores.values { store.checkObservations() }
    }
  }

  /// Lets go of the stores of removed elements; the others check their observations when
  /// their element may be another by now.
  ///
  /// - Returns: Whether every store still held checked its observations (the removed ids
  ///   were not known: the collection was replaced, or too much changed to list).
  private func prune() -> Bool {
    guard let (current, removed, contains) = removedSince(knownStructure) else { return false }
    // Not at every change: while something holds many removed rows' stores (a list that
    // keeps every store it handed out), sweeping them all at each removal made removing k
    // rows one by one cost O(k^2) (2.1 ms a removal at 5,000; performance adversary trial).
    if retired.count >= retiredSweepAt {
      retired = retired.compactMapValues { stores in
        let held = stores.filter { $0.store != nil }
        return held.isEmpty ? nil : held
      }
      screenTasks = screenTasks.filter { $0.value.counts?.isIdle == false || stores[$0.key] != nil }
      retiredSweepAt = max(64, 2 * retired.count)
    }
    knownStructure = current
    guard !stores.isEmpty else { return false }
    let removedIDs = removed.map(Set.init)
    if let token {
      // A stack's screens whose ids other screens took (see `token`). An id is taken only
      // once its screen was removed: in a stack whose history tells what was removed, only
      // those ids are looked at; else (a stack replaced, or set back to a saved copy) every
      // screen's. (Looking at every screen at each push made a push O(n) with n screens'
      // stores held: 0.7 ms a push at 3,000; performance adversary trial.)
      for id in removedIDs ?? Set(storeTokens.keys) {
        guard let tokenThen = storeTokens[id], let now = token(id), now != tokenThen else {
          continue
        }
        retire(id)
      }
    }
    if let removedIDs {
      for id in removedIDs {
        if contains(id) {
          // Removed and added back since (a refresh that emptied and refilled the array):
          // the store stays, and its observers check the element that is there now, which
          // no content stamp announced.
          stores[id]?.checkObservations()
        } else {
          retire(id)
        }
      }
    } else {
      for (id, store) in stores {
        if contains(id) { store.checkObservations() } else { retire(id) }
      }
      return true
    }
    return false
  }

  /// Lets go of the store for `id`, whose element was removed; something may still hold it.
  private func retire(_ id: ID) {
    guard let store = stores.removeValue(forKey: id) else { return }
    retirements.removeValue(forKey: id)?.isGone = true
    if screenTasks[id]?.counts?.isIdle != false { screenTasks[id] = nil }
    (store.core as? DerivedCore<ElementState, ElementAction>)?.endKeptCopy()
    // Once more, for what was scoped from it: its children learn that they are gone (an
    // optional child's store stops driving the parent, as when it is dismissed).
    store.core.runOwnedHooks()
    storeTokens[id] = nil
    retirementCount += 1
    // The id's entries whose stores are gone go first: an id removed and added back again
    // and again (or a stack replaced again and again) would pile them up, and each first
    // read of a position looks through the id's entries (2,000 cycles took 1.7 s after 8,000,
    // against 0.3 s at first, in an adversary trial).
    retired[id, default: []].removeAll { $0.store == nil }
    retired[id, default: []].append(Retired(store: store, retiredAt: retirementCount))
  }

  /// Lets go of the store for `id` if its screen's id was taken by another screen since the
  /// last prune (see `token`), before a store is looked up for `id`.
  private func retireIfTakenOver(_ id: ID) {
    if let token, let tokenThen = storeTokens[id], token(id) != tokenThen { retire(id) }
  }

  /// The store, still held, of a removed element with `id` that a collection listed when
  /// ``retirementCount`` was `listedAt`: the first let go after the listing, which is the
  /// listed element's when it had one; `nil` when none let go since is held.
  private func retiredStore(for id: ID, after listedAt: Int) -> Store<ElementState, ElementAction>?
  {
    for entry in retired[id] ?? [] where entry.retiredAt > listedAt {
      if let store = entry.store { return store }
    }
    return nil
  }

  /// A removed element's store, held weakly, and when it was let go.
  private struct Retired {
    weak var store: Store<ElementState, ElementAction>?
    /// The ``ElementStoreCache/retirementCount`` that letting it go reached.
    var retiredAt: Int
  }

  /// A stack screen's id and push: a screen pushed with the id of another (a replaced stack)
  /// is another screen, whose tasks are counted apart.
  private struct PushedID: Hashable {
    var id: ID
    var push: UInt64
  }

  /// The `runScreen` calls of an id's stores, held weakly: by the stores.
  private struct HeldScreenTasks {
    weak var counts: ScreenTaskCounts?
  }

  /// Whether a stack screen's id was taken by another screen, as of a structure stamp.
  private final class Replacement {
    private var checked: (structure: UInt64, isReplaced: Bool)?

    /// The answer for `structure`, worked out by `check` only when the stamp moved.
    func isReplaced(structure: UInt64, _ check: () -> Bool) -> Bool {
      if let checked, checked.structure == structure { return checked.isReplaced }
      let isReplaced = check()
      checked = (structure, isReplaced)
      return isReplaced
    }
  }

}

/// Where the elements of a collection lie, for their stores' copies (see `KeptCopies`).
struct ElementCopyPlace {
  /// Where the collection lies in the root's state: a fixed place.
  let collection: UnsafeRawPointer
  /// The anchor of the optional child the collection lies in, if it does.
  let container: KeptCopyAnchor?
  /// The type of the collection's elements, which its reducer steps.
  let elementType: ObjectIdentifier
  /// Where a store's state lies in its element.
  let stateOffset: Int
  /// The push of the element at an address (a stack's screen's token).
  let token: (UnsafeRawPointer) -> UInt64
}
