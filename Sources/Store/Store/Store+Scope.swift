import Effects

extension Store {
  /// A store for a part of this store's state and actions.
  ///
  /// The child store reads its slice from this store, and sends its actions through this
  /// store, embedded with `action`. Scoping again with the same key path and action case
  /// returns the same child store.
  ///
  /// ```swift
  /// let cartStore = appStore.scope(state: \.cart, action: .cart)
  /// cartStore.send(.checkoutTapped)  // appStore receives .cart(.checkoutTapped)
  /// ```
  ///
  /// This store keeps the child store while it lives, and, while a value read through the
  /// child is unchanged since it was read, reads `state` again after each action to tell the
  /// value's observers when it changes (once told, they read it again if they still look). A
  /// path through a subscript that can go out of range (`\.items[0]`) then stops the program,
  /// as the subscript would, at an action that empties `items` while such a value waits, even
  /// once the child is let go. For an element of a collection, scope to the collection and
  /// take the element's store by id (`store.scope(state: \.items, action: .items)[id: id]`):
  /// it stays valid, and is let go, as its element comes and goes.
  ///
  /// - Parameters:
  ///   - state: The path from this store's state to the child's.
  ///   - action: The case of this store's actions that carries the child's.
  /// - Returns: The child store.
  /// - Complexity: O(1). Under the root, or under stores scoped by key path only, the child
  ///   holds no copy of the state, and reading it costs one key-path read from the root,
  ///   however deep the scope. Under the store of an element, an optional child or an enum
  ///   case, it reads from that store, which keeps a copy of its own state, brought up to
  ///   date once per action.
  @inlinable
  public func scope<ChildState, ChildAction: Sendable>(
    state: KeyPath<State, ChildState>,
    action: CaseKey<Action, ChildAction>
  ) -> Store<ChildState, ChildAction> {
    if let child = cachedChild(state, action.identity, ChildAction.self)
      as? Store<ChildState, ChildAction>
    {
      return child
    }
    // The child sends through this store's own `send`, composed here, in the module that
    // scopes: specialized for the feature's types, however deep the scope.
    let send = sendAction
    let embed = action.embed
    let child = makeChild(state, action) { send(embed($0)) }
    cacheChild(child, state, action.identity, ChildAction.self)
    return child
  }

  @usableFromInline
  func makeChild<ChildState, ChildAction: Sendable>(
    _ state: KeyPath<State, ChildState>,
    _ action: CaseKey<Action, ChildAction>,
    send: @escaping @MainActor (ChildAction) -> StoreTask
  ) -> Store<ChildState, ChildAction> {
    let child = Store<ChildState, ChildAction>(
      core: core.scope(state: state, action: action), send: send)
    // A part of a row of a computed view (or of what is scoped from one) comes back with the
    // row, with a store of its own: its screen's tasks are counted with the old store's.
    if let shared = madeScreenTasks, shared.isShared {
      child.screenTasks = shared.child(
        scopedWith: plainKey(state, action.identity, ChildAction.self), id: nil)
    }
    return child
  }

  @usableFromInline
  func cachedChild(_ state: AnyKeyPath, _ action: CaseKeyIdentity, _ type: Any.Type)
    -> AnyObject?
  {
    children[plainKey(state, action, type)]
  }

  @usableFromInline
  func cacheChild(
    _ child: AnyObject, _ state: AnyKeyPath, _ action: CaseKeyIdentity, _ type: Any.Type
  ) {
    children[plainKey(state, action, type)] = child
  }

  private func plainKey(_ state: AnyKeyPath, _ action: CaseKeyIdentity, _ type: Any.Type)
    -> ScopeKey
  {
    // The key path's type names the child's state type.
    ScopeKey(path: state, action: action, kind: .plain, childState: Void.self, childAction: type)
  }

  /// A store for optional child state, or `nil` while the child is absent.
  ///
  /// Scoping again returns the same child store while the child stays present; once it has
  /// become `nil`, or been replaced by an `Identifiable` child with another id, the store is
  /// let go, and the new presentation gets a new store. The store sees only the state each
  /// `send` leaves: a child dismissed and presented again within one `send` (with the same
  /// id, or not `Identifiable`) is, to it, the child that was there, and keeps its store,
  /// though the child's effects ended with the dismissal when one action dismissed it and a
  /// later one presented it again (within one action, set to `nil` and back, the reducers
  /// saw no dismissal, and its effects go on, as a row's do when it is removed and added back
  /// within one action). A child store
  /// kept past its child's removal still reads the child's last state, as the store last saw
  /// it: as it stood after the last `send` before the one that removed it, once anything was
  /// read through the store (what a view last drew), or, for a child its reducer steps where
  /// it lies, after the last action its `ifLet` or `presents` ran it for, when that came later
  /// (a child that changed its own id in that step included: the store made for its old id
  /// shows what the step left). Actions it sends are ignored with a runtime warning. A child
  /// is stepped where it lies when the path to it from the root's state goes through stored
  /// properties (a store scoped with a key path of stored properties included), optional
  /// children, and screens of stacks that lie at such places (a sheet of a stack's screen, a
  /// screen of a sheet's stack); not through a case's payload (moved out of its enum for the
  /// case's step), a row of a `forEach`, or a stack inside a screen.
  ///
  /// The child's reducer costs no more while such a child's store is read: a row action in a
  /// list of 10,000 rows in a sheet takes what it takes at 100 rows, where the copy the store
  /// keeps made it copy the list (bench scenarios 31, 36 and 37). A write into the child by
  /// its parent's reducer, after the child's step, still copies what it writes into (the
  /// list, for a row). The same holds for a case of an enum child read through the store of
  /// that case (the `scope(state:action:)` that takes a case key of the state). Another
  /// child's store keeps its copy as before, and a write into its buffers copies them.
  ///
  /// - Parameters:
  ///   - state: The path to the optional child state.
  ///   - action: The case of this store's actions that carries the child's.
  /// - Returns: The child store, or `nil`.
  public func scope<ChildState, ChildAction: Sendable>(
    state: KeyPath<State, ChildState?>,
    action: CaseKey<Action, ChildAction>
  ) -> Store<ChildState, ChildAction>? {
    optionalChild(state, kind: .optional, action: action.identity, embed: action.embed)
  }

  /// A store for a presented child, or `nil` while nothing is presented.
  ///
  /// The child store's actions reach this store as `.presented(action)`. To dismiss, send
  /// this store's `.dismiss` presentation action, or have the child return `.dismiss`.
  ///
  /// - Parameters:
  ///   - state: The path to the optional child state.
  ///   - action: The case of this store's actions that carries the child's presentation
  ///     actions.
  /// - Returns: The child store, or `nil`.
  public func scope<ChildState, ChildAction: Sendable>(
    state: KeyPath<State, ChildState?>,
    action: CaseKey<Action, PresentationAction<ChildAction>>
  ) -> Store<ChildState, ChildAction>? {
    optionalChild(state, kind: .presented, action: action.identity) {
      action.embed(.presented($0))
    }
  }

  /// Stores for the elements of an identified collection: one per element, keyed by id.
  ///
  /// Each element's store is created when first asked for, stays the same while its id is in
  /// the collection, and is let go when the element is removed, so the stores of removed rows
  /// do not pile up.
  ///
  /// ```swift
  /// let rowViews = store.scope(state: \.rows, action: .rows).map { RowView(store: $0) }
  /// ```
  ///
  /// The collection counts as a store scoped from this one: while something holds it, even
  /// empty, the effects this store started go on running after this store is released (see
  /// ``Store``).
  ///
  /// - Parameters:
  ///   - state: The path to the collection.
  ///   - action: The case of this store's actions that carries element actions.
  /// - Returns: The element stores, in the collection's order.
  /// - Complexity: O(*n*) to list the ids; each element store is then found in O(1).
  public func scope<ID: Hashable & Sendable, ElementState: Identifiable, ElementAction: Sendable>(
    state: KeyPath<State, IdentifiedArray<ID, ElementState>>,
    action: CaseKey<Action, IdentifiedAction<ID, ElementAction>>
  ) -> IdentifiedStores<ID, ElementState, ElementAction> where ElementState.ID == ID {
    elementStores(state, toState: \.self, action: action.identity) {
      action.embed(.element(id: $0, action: $1))
    }
  }

  /// Stores for the screens of a navigation stack: one per pushed screen, keyed by its id.
  ///
  /// Each screen's store stays the same while the screen is on the stack, and is let go when
  /// it is popped. A store kept past the pop reads the screen's last state, as the store last
  /// saw it: after the last `send` through which it was read, or, for a stack reached through
  /// stored properties from the root's state or from an optional child reached that way (a
  /// sheet's own stack), after the last action the screen's reducer ran for, when that came
  /// later. For such a stack, a screen's reducer costs no more while its store is read (a
  /// list in a screen is not copied at each row action).
  ///
  /// The collection counts as a store scoped from this one: while something holds it, even
  /// empty, the effects this store started go on running after this store is released (see
  /// ``Store``).
  ///
  /// - Parameters:
  ///   - state: The path to the stack.
  ///   - action: The case of this store's actions that carries stack actions.
  /// - Returns: The screen stores, bottom first.
  /// - Complexity: O(*n*) to list the ids; each screen store is then found in O(1).
  public func scope<ElementState: Sendable, ElementAction: Sendable>(
    state: KeyPath<State, StackState<ElementState>>,
    action: CaseKey<Action, StackAction<ElementState, ElementAction>>
  ) -> IdentifiedStores<StackElementID, ElementState, ElementAction> {
    let core = self.core
    let offset = MemoryLayout<State>.offset(of: state)
    let entries = readOnlyEntriesPath(of: state)
    return elementStores(
      entries, toState: StackState.entryElement, action: action.identity,
      token: { id in
        core.withState { withValue(at: state, offset: offset, in: $0) { $0.pointee.entries } }[
          id: id]?.birth
      },
      copyPlace: { StackState<ElementState>.copyPlace(of: entries, in: core) }
    ) {
      action.embed(.element(id: $0, action: $1))
    }
  }

  /// The reader of the collection at `keyPath`, which the stores of its elements and the
  /// observers of its ids share: one build of a computed view serves them all until the
  /// state changes.
  func collectionReader<ID, Element>(
    _ keyPath: KeyPath<State, IdentifiedArray<ID, Element>>
  ) -> CollectionReader<State, ID, Element> {
    if let made = collectionReaders[keyPath] as? CollectionReader<State, ID, Element> {
      return made
    }
    let made = CollectionReader(core, keyPath)
    collectionReaders[keyPath] = made
    return made
  }

  private func elementStores<ID: Hashable & Sendable, Element, ElementState, ElementAction>(
    _ toElements: KeyPath<State, IdentifiedArray<ID, Element>>,
    toState: KeyPath<Element, ElementState>,
    action: CaseKeyIdentity,
    token: (@MainActor (ID) -> UInt64?)? = nil,
    copyPlace: (@MainActor () -> ElementCopyPlace?)? = nil,
    embed: @escaping @Sendable (ID, ElementAction) -> Action
  ) -> IdentifiedStores<ID, ElementState, ElementAction> {
    let key = ScopeKey(
      path: toElements, action: action, kind: .collection,
      childState: ElementState.self, childAction: ElementAction.self)
    let cache: ElementStoreCache<ID, ElementState, ElementAction>
    if let cached = children[key] as? ElementStoreCache<ID, ElementState, ElementAction> {
      cache = cached
    } else {
      // A collection in a row of a computed view (or in what is scoped from one) comes back
      // with the row: its elements' screen tasks are counted with the old stores' (see
      // `ScreenTaskCounts`).
      let shared = madeScreenTasks.flatMap { $0.isShared ? $0 : nil }
      cache = ElementStoreCache(
        parent: core, elements: collectionReader(toElements), toState: toState, embed: embed,
        token: token, copyPlace: copyPlace?(), enclosingScreenTasks: shared.map { ($0, key) })
      children[key] = cache
    }
    // The cache's reader: made for this key path, whose type gives the element's.
    let reader = unsafeDowncast(cache.reader, to: CollectionReader<State, ID, Element>.self)
    let elements = reader.read()
    let ids = cache.ids(of: elements)
    trackIDs(toElements, elements, ids: ids, comparesIDs: token == nil)
    return IdentifiedStores(ids: ids, cache: cache)
  }

  /// A store for one case of an enum state, or `nil` while the state is another case.
  ///
  /// Scoping again returns the same child store while the state stays in the case. Cases with
  /// the same state and action types (an `add` and an `edit` of one form) get stores of their
  /// own.
  ///
  /// The store keeps a copy of the case's state, to show once the state leaves the case (a
  /// view being dismissed still draws): the state last read; or, for an enum that its
  /// reducer steps where it lies (the root's state, a sheet's or a screen's destinations, a
  /// stack's screens: the places the optional child's `scope(state:action:)` lists), the
  /// state after the last action the case's `ifCaseLet` ran for, when that came later. There, the
  /// case's reducer costs no more while the store is read: `ifCaseLet` lets the copy go for
  /// the case's step, so that a row action in a list of 10,000 rows in the case takes what it
  /// takes at 100 rows (bench scenarios 33 to 35), where the copy made it copy the list. The
  /// case key the reducer runs the case with must be the one this store was scoped with (the
  /// same creation site, as a static property gives); with another, the reducer copies the
  /// list as before. An enum in a row, or in another case's payload, keeps its copy as before
  /// too.
  ///
  /// - Parameters:
  ///   - state: The case of this store's state that holds the child's state.
  ///   - action: The case of this store's actions that carries the child's.
  /// - Returns: The child store, or `nil`.
  @_disfavoredOverload
  public func scope<ChildState, ChildAction: Sendable>(
    state: CaseKey<State, ChildState>,
    action: CaseKey<Action, ChildAction>
  ) -> Store<ChildState, ChildAction>? {
    // Disfavored for the type checker's sake; it changes no choice, as no other `scope` takes
    // a case key for `state`. In a chain (`a.scope(…)?.scope(…)?…`), the type checker tries
    // each link's overloads before it knows whether `state:` is a key path or a case key, and
    // this one stayed in the running at every key-path link to the chain's end: a chain of 7
    // optional children took 1.6 s to type-check, 0.14 s disfavored (see Performance.md).
    let extract = state.extract
    return optionalChild(
      find: { withExtracted(extract, from: $0, $1) },
      copyPlace: .payload(of: state.identity),
      key: ScopeKey(
        path: \State.self, action: action.identity, kind: .enumCase(state.identity),
        childState: ChildState.self, childAction: ChildAction.self),
      embed: action.embed
    )
  }

  private func optionalChild<ChildState, ChildAction: Sendable>(
    _ toChild: KeyPath<State, ChildState?>,
    kind: ScopeKey.Kind,
    action: CaseKeyIdentity,
    embed: @escaping @Sendable (ChildAction) -> Action
  ) -> Store<ChildState, ChildAction>? {
    let offset = MemoryLayout<State>.offset(of: toChild)
    return optionalChild(
      find: { state, found in
        withValue(at: toChild, offset: offset, in: state) { withWrapped($0, found) }
      },
      copyPlace: offset.map { .found(offset: $0) } ?? .none,
      key: ScopeKey(
        path: toChild, action: action, kind: kind,
        childState: ChildState.self, childAction: ChildAction.self),
      embed: embed
    )
  }

  /// Finds an optional child in a state, given by address: calls the closure it is given with
  /// the child's address, or with `nil` while the child is absent.
  typealias ChildFinder<ChildState> =
    (UnsafePointer<State>, (UnsafePointer<ChildState>?) -> Void) -> Void

  ///
  /// `copyPlace`: how the child lies in this store's state, for the place its store's copy is
  /// kept at (see `KeptCopies`).
  private func optionalChild<ChildState, ChildAction: Sendable>(
    find: @escaping ChildFinder<ChildState>,
    copyPlace: ChildCopyPlace,
    key: ScopeKey,
    embed: @escaping @Sendable (ChildAction) -> Action
  ) -> Store<ChildState, ChildAction>? {
    // Followed by the child's id when it has one: a child replaced by one with another id is
    // a new child, with a store of its own, and a view showing it scopes again.
    let idOf = identityReader(ChildState.self)
    trackDerived(.presence(key)) { state -> Presence in
      var presence = Presence.absent
      find(state) { child in
        guard let child else { return }
        presence = idOf.map { .identified($0(child)) } ?? .present
      }
      return presence
    }
    var isPresent = false
    var currentID: AnyHashable?
    core.withState { state in
      find(state) { child in
        guard let child else { return }
        isPresent = true
        currentID = idOf?(child)
      }
    }
    guard isPresent else {
      children[key] = nil
      childIDs[key] = nil
      return nil
    }
    if let child = children[key] as? Store<ChildState, ChildAction>,
      childIDs[key] == currentID
    {
      return child
    }
    let parent = core
    /// Whether the child at an address is the one this store is made for: the same id, when it
    /// has one.
    let isOwn: @MainActor (UnsafePointer<ChildState>) -> Bool = { [currentID] child in
      guard let idOf, let currentID else { return true }
      return idOf(child) == currentID
    }
    // Once the child is gone, its actions go on to the parent's reducer, which warns. Once
    // another child is there (another id, or a later presentation), this store neither reads
    // nor drives it.
    let dismissal = GoneFlag()
    // Whether the child went with its parent (a row that left a filtered view, which may
    // still hold it), rather than dismissed first: the end of its screen's task then goes on
    // through the parent (see `DerivedCore.sendLeavingView(_:)`).
    let leftWithParent = GoneFlag()
    // The child where the view shows its row again, after the row left a computed view (see
    // `DerivedCore.lookInView(_:)`): another there now (another id, or none) is not this
    // store's, as for this store's own sends.
    let lookInView = (parent as? DerivedCore<State, Action>).flatMap { core in
      core.looksInView ? core : nil
    }.map { parentCore -> DerivedCore<ChildState, ChildAction>.LookInView in
      { found in
        var presence = LookPresence.absent
        let inView = parentCore.lookInView { state in
          find(state) { now in
            guard let now else { return }
            if isOwn(now) {
              presence = .present
              found?(now)
            } else {
              // (What it was taken over by is not asked: no warning names it.)
              presence = .takenOver("")
            }
          }
        }
        return inView.map { _ in presence }
      }
    }
    // What this store was for, as its warnings say once another child or case has taken its
    // place ("… was sent to the store of …"), `replaced` by one with another id or there
    // again after it left: named as a case for a case (as `ifCaseLet`'s warnings name it),
    // and with its id when it has one. A case, or a child with an id, that left and came back
    // read "a child that has since been dismissed; … another presentation". Built by a look
    // that finds the child taken over (once per state version), never for a child present,
    // given the parent's state, which is then in the case this store was made for: its name
    // tells apart two cases that hold the same type (an `add` and an `edit` of one form).
    let takenOver: @MainActor (_ replaced: Bool, _ parentState: UnsafePointer<State>) -> String = {
      [kind = key.kind, currentID] replaced, parentState in
      guard case .enumCase = kind else {
        let named = currentID.map { "the child with id \(describeID($0))" }
        return replaced
          ? """
          \(named ?? "the child"), but the child there now has another id: it was replaced, or \
          changed its id
          """
          : """
          \(named.map { "\($0), which" } ?? "a child that") has since been dismissed; the child \
          there now is another presentation
          """
      }
      let caseName =
        enumCaseName(of: parentState.pointee, holding: ChildState.self).map { " .\($0)" } ?? ""
      let name = """
        the case\(caseName) of \(TypeName.name(of: State.self)) holding \
        \(TypeName.name(of: ChildState.self))
        """
      let named = currentID.map { "\(name) with id \(describeID($0))" } ?? name
      return replaced
        ? "\(named), but the case there now has another id: it was replaced, or changed its id"
        : """
        \(named), which the state has since left; the state is in that case again, with a store \
        of its own: scope again for it
        """
    }
    // The parent's state is read once per look, for both the child and whether it was
    // taken over: reading it for each would read every ancestor twice, so that the cost of a
    // read doubled with each level of nested children with ids.
    let look: DerivedCore<ChildState, ChildAction>.Look = { [currentID] found in
      // Asked only once the child is gone, and outside the read of the parent's state: whether
      // the parent went with it (a popped screen, a removed row).
      let parentIsGone = dismissal.isGone && !parent.isPresent
      var presence = LookPresence.absent
      parent.withState { state in
        find(state) { now in
          guard let now else { return }
          // (Only a child with an id, or one since dismissed, can have been taken over.)
          if currentID != nil, !isOwn(now) {
            presence = .takenOver(takenOver(true, state))
          } else if parentIsGone {
            // The last state of a parent that is gone itself: the child is not there either.
            // Absent, so that sends go on through the parent to the reducer that removed it
            // (`navigationStack`, `forEach`), which refuses them with a warning that names the
            // screen's or row's id, its collection, and where that reducer is declared. As
            // ignored here, the warning could name neither.
          } else if dismissal.isGone {
            // Another presentation, in a parent still there: not this store's to read or drive.
            presence = .takenOver(takenOver(false, state))
          } else {
            presence = .present
            found?(now)
          }
        }
      }
      return presence
    }
    // A child behind a computed property (its own path's, or one above this store) may be
    // built anew at each read, with the collections in it: its store's copy of it cannot tell
    // (see `StoreCore.viewsComputedState`). A case's payload is where its enum lies.
    var viewsComputedState = parent.viewsComputedState
    if case .none = copyPlace { viewsComputedState = true }
    var made: Store<ChildState, ChildAction>?
    // Where the child lies, when its reducer steps it there (at a fixed address of the root's
    // state, or in a screen): it lets go of the store's copy of it for its steps there (see
    // `KeptCopies`).
    var anchor: KeptCopyAnchor?
    let isOwnChild = idOf.map { [currentID] idOf in { idOf($0) == currentID } }
    parent.withState { state in
      find(state) { current in
        guard let current else { return }
        // Where this store's state lies: at the address it reads it from, or at an offset in
        // the optional child or screen its kept copy is of (see `KeptCopies`).
        let enclosing = parent.stateLiesInPlace ? nil : enclosingCopyPlace(of: parent)
        switch copyPlace {
        case .found(let offset):
          if parent.stateLiesInPlace {
            anchor = KeptCopyAnchor(
              ChildState.self, at: UnsafeRawPointer(current), in: nil, isOwn: isOwnChild)
          } else if let enclosing {
            anchor = KeptCopyAnchor(
              ChildState.self, at: nil, in: (enclosing.anchor, enclosing.offset + offset),
              isOwn: isOwnChild)
          }
        case .payload(let identity):
          if parent.stateLiesInPlace {
            anchor = KeptCopyAnchor(
              case: identity, of: ChildState.self, enumAt: UnsafeRawPointer(state), in: nil,
              isOwn: isOwnChild)
          } else if let enclosing {
            anchor = KeptCopyAnchor(
              case: identity, of: ChildState.self, enumAt: nil, in: enclosing,
              isOwn: isOwnChild)
          }
        case .none:
          break
        }
        made = Store<ChildState, ChildAction>(
          core: DerivedCore(
            initial: current,
            look: look,
            send: { parent.send(embed($0)) },
            afterDispatch: { parent.afterDispatch($0) },
            warn: { parent.warn($0) },
            parentIsPresent: { parent.isPresent },
            version: { parent.stateVersion },
            reads: parent.reads,
            keptAt: anchor.map { ($0, 0) },
            viewsComputedState: viewsComputedState,
            leaveThroughParent: { action in
              guard leftWithParent.isGone else { return false }
              // The row back in the view with another child there (replaced while the row was
              // out of it): this store's end is not that child's.
              switch lookInView?(nil) {
              case .absent?, .takenOver?: return false
              case .present?, nil: return parent.sendLeavingView(embed(action))
              }
            },
            lookInView: lookInView
          )
        )
      }
    }
    // Present when looked for above, unless a computed property or case key answers
    // otherwise at each read.
    guard let child = made else {
      children[key] = nil
      childIDs[key] = nil
      return nil
    }
    children[key] = child
    childIDs[key] = currentID
    // A screen a row of a computed view presents (or one presented from what is scoped from
    // such a row) comes back with the row, with a store of its own: its tasks are counted with
    // the old store's, while the child is the one the old store was made for.
    if let shared = madeScreenTasks, shared.isShared {
      child.screenTasks = shared.child(scopedWith: key, id: currentID)
    }
    // Let the store go as soon as the child disappears, or another takes its place, so that
    // a new presentation gets a new one.
    // The store learns that its child is gone as long as something holds it, even once the
    // cache has let it go, and once this store is let go too: the child's store holds the
    // parent's core, which the check reads. (Unowned here: the hook is kept by the root, which
    // must not keep the parent's core, and so the root itself, alive; read only once the child
    // is known to be alive, which keeps the parent's core alive. Not weak: an object weakly
    // referenced counts its references in a side table, and every retain and release of the
    // core took that slower path, a quarter more on a send through nested children's stores.)
    parent.afterDispatch { [weak self, weak child, unowned parent] in
      guard let child else { return false }
      let parentIsGone = !parent.isPresent
      var isGone = parentIsGone
      if !isGone {
        isGone = true
        parent.withState { state in
          find(state) { now in isGone = now.map { !isOwn($0) } ?? true }
        }
      }
      guard isGone else { return true }
      dismissal.isGone = true
      leftWithParent.isGone = parentIsGone
      // Closed, not gone with its row: a child presented again is another screen.
      if !parentIsGone { child.madeScreenTasks?.leaveEnclosing() }
      (child.core as? DerivedCore<ChildState, ChildAction>)?.endKeptCopy()
      if let self, self.children[key] === child {
        self.children[key] = nil
        self.childIDs[key] = nil
      }
      return false
    }
    return child
  }
}

/// Where the state of the store with `core` lies when that core is a derived one whose kept
/// copy is of a child at a fixed place or of a screen (see `KeptCopies`): that child's anchor,
/// and the offset of the state in it; `nil` for a core that keeps a copy of its own, or of a
/// child with no place a reducer steps its children at (a case's payload), or of one gone.
@MainActor
func enclosingCopyPlace<State, Action: Sendable>(
  of core: any StoreCore<State, Action>
) -> (anchor: KeptCopyAnchor, offset: Int)? {
  guard let kept = (core as? DerivedCore<State, Action>)?.keptCopyPlace, !kept.anchor.isGone,
    kept.anchor.placesChildren
  else { return nil }
  return kept
}

/// How an optional child lies in the state of the store it is scoped from, for the place its
/// store's copy is kept at (see `KeptCopies`).
private enum ChildCopyPlace {
  /// Not where a reducer steps it in place (behind a computed property): the copy is the
  /// store's alone.
  case none
  /// At `offset` in the state, through stored properties.
  case found(offset: Int)
  /// The payload of the case with `identity` of the state, an enum: taken out of the enum
  /// for the case's reducer, which lets go of the copy for its step (`ifCaseLet`).
  case payload(of: CaseKeyIdentity)
}

/// Whether an optional child is there, and which one when it has an id.
private enum Presence: Equatable {
  case absent
  case present
  case identified(AnyHashable)
}

/// What a child store was scoped by: the state path, the case key of the child's actions and
/// the kind of scope (for an enum state, with the case key of the state's case).
struct ScopeKey: Hashable {
  enum Kind: Hashable {
    case plain, optional, presented, collection
    case enumCase(CaseKeyIdentity)
  }
  let path: AnyKeyPath
  let action: CaseKeyIdentity
  /// The child's state and action types: keys made by one helper share a creation site.
  let childState: ObjectIdentifier
  let childAction: ObjectIdentifier
  let kind: Kind

  init(
    path: AnyKeyPath, action: CaseKeyIdentity, kind: Kind,
    childState: Any.Type, childAction: Any.Type
  ) {
    self.path = path
    self.action = action
    self.kind = kind
    self.childState = ObjectIdentifier(childState)
    self.childAction = ObjectIdentifier(childAction)
  }
}

extension StackState {
  /// Where the screens of the stack at `entries` of `core`'s state lie, when that is a fixed
  /// place of the root's state (see `KeptCopies`), or `nil`.
  @MainActor
  static func copyPlace<Root, Action: Sendable>(
    of entries: KeyPath<Root, IdentifiedArray<StackElementID, Entry>>,
    in core: any StoreCore<Root, Action>
  ) -> ElementCopyPlace? {
    guard !_isPOD(Element.self),
      let offset = MemoryLayout<Root>.offset(of: entries),
      let stateOffset = MemoryLayout<Entry>.offset(of: \.element),
      let birthOffset = MemoryLayout<Entry>.offset(of: \.birth)
    else { return nil }
    // The state lies in place, or in an optional child with a fixed place (a stack of a
    // sheet), whose anchor the screens' are tied to: once it is gone, so are they.
    let collection: UnsafeRawPointer
    var container: KeptCopyAnchor?
    if core.stateLiesInPlace {
      collection = core.withState { UnsafeRawPointer($0).advanced(by: offset) }
    } else if let kept = enclosingCopyPlace(of: core), let place = kept.anchor.fixedPlace {
      collection = place + kept.offset + offset
      container = kept.anchor
    } else {
      return nil
    }
    return ElementCopyPlace(
      collection: collection,
      container: container,
      elementType: ObjectIdentifier(Entry.self),
      stateOffset: stateOffset,
      token: { $0.advanced(by: birthOffset).load(as: UInt64.self) })
  }
}
