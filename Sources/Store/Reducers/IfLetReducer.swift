import Effects

extension Reducer {
  /// Runs `child` on optional child state while it is present, for the actions that carry a
  /// child action.
  ///
  /// The child's reducer runs first, then this one. An action for the child while its state is
  /// `nil` changes nothing and reports a runtime warning naming the action. The child's
  /// effects belong to its presence: setting the state to `nil`, or replacing an
  /// `Identifiable` child with one of another id, cancels them, when this
  /// reducer or the child does it. Set to `nil` elsewhere (by an ancestor above a `Scope`),
  /// the child is found gone by the store after that action, which ends its effects then.
  ///
  /// ```swift
  /// Reduce { state, action in ... }
  ///   .ifLet(\.details, action: .details) { Details() }
  /// ```
  ///
  /// For a destination that can be dismissed, such as a sheet or an alert, use
  /// ``Reducer/presents(_:action:fileID:line:child:)`` instead.
  ///
  /// - Parameters:
  ///   - toChild: The path to the optional child state.
  ///   - toChildAction: The case that carries child actions.
  ///   - fileID: The file of the declaration, named in runtime warnings.
  ///   - line: The line of the declaration, named in runtime warnings.
  ///   - child: The child's reducer.
  /// - Returns: A reducer that runs both.
  @inlinable
  public func ifLet<ChildState, ChildAction, Child: Reducer>(
    _ toChild: WritableKeyPath<State, ChildState?>,
    action toChildAction: CaseKey<Action, ChildAction>,
    fileID: StaticString = #fileID,
    line: UInt = #line,
    @ReducerBuilder<ChildState, ChildAction> child: () -> Child
  ) -> IfLetReducer<Self, Child>
  where ChildState == Child.State, ChildAction == Child.Action {
    IfLetReducer(
      parent: self,
      toChild: toChild,
      toChildAction: toChildAction,
      toPresentationAction: nil,
      site: SourceSite(fileID: fileID, line: line)
    ) {
      child()
    }
  }

  /// Runs `child` on a presented destination, such as a sheet, while it is present.
  ///
  /// Works like ``Reducer/ifLet(_:action:fileID:line:child:)``, with the child's actions
  /// wrapped in a ``PresentationAction``, and also handles ``PresentationAction/dismiss``: the
  /// parent's reducer sees it first, with the child still there (to keep a draft the user
  /// swiped away, say), then the child's state becomes `nil`, which cancels the child's
  /// effects; unless the parent set it to `nil` itself, or presented a child with another id
  /// in its place, which stays. A `.dismiss` sent while nothing is presented does nothing and
  /// reaches no reducer: not the parent, nor a reducer after this one in a block, nor an
  /// ancestor. The child dismisses itself by returning `Effect.dismiss`; it reports results to
  /// the parent with its own delegate actions, which the parent handles as
  /// `.destination(.presented(.delegate(...)))`.
  ///
  /// ```swift
  /// Reduce { state, action in ... }
  ///   .presents(\.editor, action: .editor) { Editor() }
  /// ```
  ///
  /// - Parameters:
  ///   - toChild: The path to the optional child state.
  ///   - toPresentationAction: The case that carries the child's presentation actions.
  ///   - fileID: The file of the declaration, named in runtime warnings.
  ///   - line: The line of the declaration, named in runtime warnings.
  ///   - child: The child's reducer.
  /// - Returns: A reducer that runs both.
  @inlinable
  public func presents<ChildState, ChildAction, Child: Reducer>(
    _ toChild: WritableKeyPath<State, ChildState?>,
    action toPresentationAction: CaseKey<Action, PresentationAction<ChildAction>>,
    fileID: StaticString = #fileID,
    line: UInt = #line,
    @ReducerBuilder<ChildState, ChildAction> child: () -> Child
  ) -> IfLetReducer<Self, Child>
  where ChildState == Child.State, ChildAction == Child.Action {
    // Named apart from `ifLet` so that the type checker never tries both at a link of a
    // modifier chain: while they shared the name, each link doubled the work of checking the
    // chain (12 links took seconds, 16 did not type-check). `Reducer+Renamed.swift` keeps the
    // old spelling as unavailable, for its error message.
    IfLetReducer(
      parent: self, toChild: toChild, presentation: toPresentationAction,
      closesEphemeralState: true, site: SourceSite(fileID: fileID, line: line), child: child)
  }

  /// Handles a presented destination that has no reducer of its own, such as an alert or a
  /// confirmation dialog: state that only says what to show, and the actions its buttons
  /// send.
  ///
  /// Each of its actions closes it, as tapping an alert's button does, and then reaches this
  /// reducer as `.alert(.presented(action))`, which can present another in answer.
  /// ``PresentationAction/dismiss`` closes it too. An action sent while nothing is presented
  /// (a second tap on a button) changes nothing, does not reach this reducer, and reports a
  /// runtime warning.
  ///
  /// ```swift
  /// Reduce { state, action in
  ///   switch action {
  ///   case .deleteTapped:
  ///     state.alert = DeleteAlert(title: state.title)
  ///     return .none
  ///   case .alert(.presented(.confirmDelete)):
  ///     return .run { [id = state.id] _ in try await database.delete(id) }
  ///   case .alert:
  ///     return .none
  ///   }
  /// }
  /// .presents(\.alert, action: .alert)
  /// ```
  ///
  /// - Parameters:
  ///   - toChild: The path to the optional destination state.
  ///   - toPresentationAction: The case that carries the destination's presentation actions.
  ///   - fileID: The file of the declaration, named in runtime warnings.
  ///   - line: The line of the declaration, named in runtime warnings.
  /// - Returns: A reducer that runs this one and closes the destination.
  @inlinable
  public func presents<ChildState, ChildAction: Sendable>(
    _ toChild: WritableKeyPath<State, ChildState?>,
    action toPresentationAction: CaseKey<Action, PresentationAction<ChildAction>>,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> some Reducer<State, Action> {
    let parent = ClosingOnEachAction<Self, ChildState, ChildAction>(
      base: self, toChild: toChild, toPresentationAction: toPresentationAction)
    // Not `parent.presents { EmptyReducer() }`: that would close an `EphemeralState` child in
    // its own step, before `parent` could tell a tap on a shown alert from a second tap.
    return IfLetReducer(
      parent: parent, toChild: toChild, presentation: toPresentationAction,
      closesEphemeralState: false, site: SourceSite(fileID: fileID, line: line)
    ) {
      EmptyReducer<ChildState, ChildAction>()
    }
  }
}

/// The parent of a `presents` without a child reducer: closes the destination on each of its
/// actions, before `base` runs. A type rather than a `Reduce`, whose closure, capturing, was
/// a heap allocation at every action (the reducer is built again with the body).
@usableFromInline
struct ClosingOnEachAction<Base: Reducer, ChildState, ChildAction: Sendable>: Reducer {
  @usableFromInline let base: Base
  @usableFromInline let toChild: WritableKeyPath<Base.State, ChildState?>
  @usableFromInline let toPresentationAction: CaseKey<Base.Action, PresentationAction<ChildAction>>

  @inlinable
  init(
    base: Base, toChild: WritableKeyPath<Base.State, ChildState?>,
    toPresentationAction: CaseKey<Base.Action, PresentationAction<ChildAction>>
  ) {
    self.base = base
    self.toChild = toChild
    self.toPresentationAction = toPresentationAction
  }

  @inlinable
  func reduce(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
    if toPresentationAction.extract(action)?.presented != nil {
      // Nothing presented (a second tap on a button): the warning says so, and this
      // reducer never sees the action. Otherwise the destination closes before this
      // reducer runs, so that it can present another in answer.
      guard isPresent(toChild, in: &state) else { return .none }
      IfLetReducer<Base, EmptyReducer<ChildState, ChildAction>>.clear(&state[keyPath: toChild])
    }
    return base.reduce(into: &state, action: action)
  }
}

/// A reducer that runs a child reducer on optional child state; see
/// ``Reducer/ifLet(_:action:fileID:line:child:)`` and
/// ``Reducer/presents(_:action:fileID:line:child:)``.
public struct IfLetReducer<Parent: Reducer, Child: Reducer>: Reducer {
  @usableFromInline let parent: Parent
  @usableFromInline let child: Child
  @usableFromInline let toChild: WritableKeyPath<Parent.State, Child.State?>
  /// The case that carries the child's actions, for `ifLet`; `nil` for `presents`.
  ///
  /// Case keys, not closures made from them: the reducer is built again with the body at
  /// every action, and each capturing closure was a heap allocation then.
  @usableFromInline let toChildAction: CaseKey<Parent.Action, Child.Action>?
  /// The case that carries the child's presentation actions, for `presents`; `nil` for
  /// `ifLet`.
  @usableFromInline let toPresentationAction:
    CaseKey<Parent.Action, PresentationAction<Child.Action>>?
  @usableFromInline let site: SourceSite
  /// Where the child lies in the parent's state, when the key path is a chain of stored
  /// properties (`nil` otherwise): its id is then read in place, where reading it through the
  /// key path copies the whole child out first.
  @usableFromInline let childOffset: Int?
  /// Whether a child whose state is ``EphemeralState`` closes on its own actions: for
  /// `presents` with a child reducer. (Without one, `presents` closes the child on each of its
  /// actions itself, before this reducer runs.)
  @usableFromInline let closesEphemeralState: Bool

  // Inlinable, so that it is specialized where `ifLet` is written: unspecialized, it looks up
  // the state types at run time to find the child's offset, and an action through this
  // reducer took 240 ns instead of 135.
  @inlinable
  init(
    parent: Parent,
    toChild: WritableKeyPath<Parent.State, Child.State?>,
    toChildAction: CaseKey<Parent.Action, Child.Action>?,
    toPresentationAction: CaseKey<Parent.Action, PresentationAction<Child.Action>>?,
    closesEphemeralState: Bool = false,
    site: SourceSite,
    child: () -> Child
  ) {
    self.parent = parent
    self.child = child()
    self.toChild = toChild
    self.toChildAction = toChildAction
    self.toPresentationAction = toPresentationAction
    self.childOffset = MemoryLayout<Parent.State>.offset(of: toChild)
    self.closesEphemeralState = closesEphemeralState
    self.site = site
  }

  /// A reducer for a presented child, whose actions come wrapped in a ``PresentationAction``:
  /// `.presented` carries the child's, and `.dismiss` closes it.
  @inlinable
  init(
    parent: Parent,
    toChild: WritableKeyPath<Parent.State, Child.State?>,
    presentation: CaseKey<Parent.Action, PresentationAction<Child.Action>>,
    closesEphemeralState: Bool,
    site: SourceSite,
    child: () -> Child
  ) {
    self.init(
      parent: parent,
      toChild: toChild,
      toChildAction: nil,
      toPresentationAction: presentation,
      closesEphemeralState: closesEphemeralState,
      site: site,
      child: child
    )
  }

  /// Runs the child for a child action, then the parent, then ends the child's lifetime if
  /// its state went away. A child action while the child is `nil` runs neither: it warns.
  ///
  /// - Parameters:
  ///   - state: The parent's state.
  ///   - action: The parent's action.
  /// - Returns: The child's and the parent's effects.
  @inlinable
  public func reduce(
    into state: inout Parent.State,
    action: Parent.Action
  ) -> Effect<Parent.Action> {
    // An `Identifiable` child replaced by one with another id is a new child: its id is
    // compared, typed, before and after. Other children compare as present or not.
    guard let identifiable = Child.State.self as? any Identifiable.Type else {
      return reduce(into: &state, action: action, hasToken: false) { _ in true }
    }
    func byID<I: Identifiable>(_: I.Type) -> Effect<Parent.Action> {
      reduce(into: &state, action: action, hasToken: true) {
        ChildIdentity(identity(of: $0, as: I.self))
      }
    }
    return byID(identifiable)
  }

  /// `hasToken`: whether the child's id tells its occupants apart (an `Identifiable` child),
  /// so that its effects carry the id they started under.
  @inlinable
  func reduce<ID: Hashable>(
    into state: inout Parent.State,
    action: Parent.Action,
    hasToken: Bool,
    id: (UnsafePointer<Child.State>) -> ID
  ) -> Effect<Parent.Action> {
    let identity = PresenceIdentity(keyPath: toChild, childOffset: childOffset, site: site)
    let childAction = extract(action)
    var before: ID? = nil
    var effect = Effect<Child.Action>.none
    // The id the child left itself with, when it changed it (a draft given its server id)
    // and started effects: those belong to the child under its new id, if it keeps it.
    var idLeftByChild: ID?? = nil
    // The child's id after its step, when it started effects.
    var idAfterStep: ID? = nil
    // Whether a presented child closed on its own action (``EphemeralState``).
    var closedItself = false
    if let childAction {
      // In a function of its own, which returns before the parent runs: the access to the
      // child reserves stack for a whole child (its write-back), and in this frame it would
      // stay reserved under the parent's reducer, and under every `ifLet` that wraps this one,
      // whether or not an action came for the child.
      (before, effect, idLeftByChild, idAfterStep, closedItself) = stepChild(
        childAction, action: action, in: &state, identity: identity, id: id)
    } else {
      before = presentID(in: &state, id)
    }
    let wasPresent = before != nil
    var childEffect = Effect<Parent.Action>.none
    var wasDismissed = false
    if childAction != nil {
      if closedItself {
        wasDismissed = true
        if !effect.isNone {
          childEffect = effectOfClosingItself(effect, action: action, identity: identity)
        }
      } else if wasPresent {
        if !effect.isNone {
          let token = hasToken ? idAfterStep.map(lifetimeToken(ofID:)) : nil
          childEffect = embedChildEffect(
            effect, action, identity: identity.occupied(by: hasToken ? idAfterStep : nil),
            token: token)
        }
      } else {
        // An effect of the child may still be running, if it was dismissed where this reducer
        // could not see it (by an ancestor, say): it ends here. The action changes nothing:
        // the parent does not see it either (it would act for a child that is not there).
        return .missingChild(
          """
          \(describe(action)) was sent to the child at \(identity), but that child is nil: \
          it was dismissed, or never presented. Neither the child's reducer nor the parent's \
          ran for it, so they changed nothing.
          """,
          site: site, lifetime: identity)
      }
    } else if isDismissAction(action) {
      // A dismissal of a child that is gone (a second tap on a close button, or one racing
      // the child's own) does nothing: the parent does not see it either, nor do the
      // reducers after this one in a block, or its ancestors (it reaches no reducer), as a
      // stack's pop of a screen popped already. Ordinary: no warning.
      guard wasPresent else {
        return .missingChild(
          "\(describe(action)) dismissed the child at \(identity), which is not there.",
          site: site, lifetime: identity, isOrdinary: true)
      }
      // The parent sees the child it dismisses (to keep its draft, say), then the child goes,
      // unless the parent already dismissed it, or replaced it with a child of another id.
      let parentEffect = parent.reduce(into: &state, action: action)
      var after = presentID(in: &state, id)
      if after == before {
        clearChild(in: &state)
        after = nil
      }
      return childStepEffect(
        before: before, after: after, idLeftByChild: nil, childEffect: .none,
        parentEffect: parentEffect, identity: identity)
    }
    // An action for a child of the child that is not there changes nothing: the parent does
    // not see it either.
    let parentEffect =
      effect.isForMissingChild ? Effect.none : parent.reduce(into: &state, action: action)
    let after = presentID(in: &state, id)
    return childStepEffect(
      before: before, after: after, idLeftByChild: idLeftByChild, wasDismissed: wasDismissed,
      childEffect: childEffect, parentEffect: parentEffect, identity: identity)
  }

  /// A child action's step: the child's id before, the step, and the id after it. Never
  /// inlined: see the caller.
  @inlinable @inline(never)
  func stepChild<ID: Hashable>(
    _ childAction: Child.Action,
    action: Parent.Action,
    in state: inout Parent.State,
    identity: PresenceIdentity<Parent.State, Child.State>,
    id: (UnsafePointer<Child.State>) -> ID
  ) -> (
    before: ID?, effect: Effect<Child.Action>, idLeftByChild: ID??, idAfterStep: ID?,
    closedItself: Bool
  ) {
    var before: ID? = nil
    var effect = Effect<Child.Action>.none
    var idLeftByChild: ID?? = nil
    var idAfterStep: ID? = nil
    var closedItself = false
    // One access to the child: its id before, its step, and its id after the step.
    // (Ids are read through the child's address, never by copying the child out.)
    func step(_ presented: inout Child.State?) {
      guard let idBefore = withUnsafePointer(to: &presented, { Self.id(ofPresent: $0, id) })
      else {
        return
      }
      before = idBefore
      // Decided on the child as the action found it (the child may switch itself into an
      // alert case), and through its address: a copy would reserve stack for a whole child
      // here, in every `ifLet`'s frame, whether or not it checks.
      // Also: an enum destination showing an alert, and an action of a case with another name.
      let (closingCase, mismatch) =
        closesEphemeralState
        ? withUnsafePointer(to: &presented) { Ephemerality.closing($0, on: childAction) }
        : (nil, nil)
      // A store's copy of the child lets go of the child's buffers for the step (see
      // `KeptCopies`): shared with it, a write into a list of the child copied it whole.
      let keptCopies = withUnsafePointer(to: &presented) {
        // (An optional's value lies at the optional's address.)
        KeptCopies.letGo(Child.State.self, at: UnsafeRawPointer($0))
      }
      effect = child.reduce(into: &presented!, action: childAction)
      if let keptCopies {
        withUnsafePointer(to: &presented) {
          KeptCopies.takeAgain(keptCopies, from: UnsafeRawPointer($0))
        }
      }
      // Unless a reducer refused the action, or handled it by showing something else.
      if let mismatch, !effect.isForMissingChild,
        withUnsafePointer(to: &presented, { Ephemerality.stillCloses($0, as: mismatch.shown) })
      {
        effect = .merge(effect, ephemeralMismatch(mismatch, action: action, identity: identity))
      }
      // A reducer that refused the action (for a child of the child that is not there) leaves
      // it open: the action changes nothing.
      if let closingCase, !effect.isForMissingChild,
        withUnsafePointer(to: &presented, { Ephemerality.stillCloses($0, as: closingCase) })
      {
        Self.clear(&presented)
        closedItself = true
        return
      }
      guard !effect.isNone else { return }
      let idNow = withUnsafePointer(to: &presented) { Self.id(ofPresent: $0, id) }
      idAfterStep = idNow
      if idNow != idBefore { idLeftByChild = idNow }
    }
    step(&state[keyPath: toChild])
    return (before, effect, idLeftByChild, idAfterStep, closedItself)
  }

  /// Sets the child to `nil`. Never inlined, for the reason `stepChild` is not.
  @inlinable @inline(never)
  func clearChild(in state: inout Parent.State) {
    Self.clear(&state[keyPath: toChild])
  }

  /// The child's id, or `nil` while it is absent. Read in place when the child's offset is
  /// known: a copy of the child retains every buffer it holds (beside a form of 16 strings,
  /// a parent's action cost 8.6 times what it does beside a `Scope`; read in place, 1.6).
  @inlinable
  func presentID<ID>(
    in state: inout Parent.State, _ id: (UnsafePointer<Child.State>) -> ID
  ) -> ID? {
    read(through: { Self.id(ofPresent: $0, id) }, of: toChild, at: childOffset, in: &state)
  }

  /// The id of the child `optional` points to, read through its address, or `nil` while it
  /// is absent. Taken out of the optional (`map`), the child was copied, and each copy of a
  /// large child took stack: three `ifLet`s of 64 KiB children used 692 KiB of stack for one
  /// action in a release build (large-state adversary trial).
  @inlinable
  static func id<ID>(
    ofPresent optional: UnsafePointer<Child.State?>, _ id: (UnsafePointer<Child.State>) -> ID
  ) -> ID? {
    // In a frame of its own: the copy a look at the case makes in a debug build would stay
    // reserved here, under the id read (and its stack, one child, is gone once it returns).
    guard holdsValue(optional) else { return nil }
    // An optional's payload lies at its start (the layout of a single-payload enum).
    return id(UnsafeRawPointer(optional).assumingMemoryBound(to: Child.State.self))
  }

  /// What is left of a child's effect when the child closed itself (``EphemeralState``): its
  /// warnings, each as it was raised (one that names the store's action still does). Work it
  /// returned would run with nothing presented, so it is not run, and that is reported too.
  /// Out of line: only for actions that close an alert.
  @usableFromInline
  func effectOfClosingItself(
    _ effect: Effect<Child.Action>, action: Parent.Action,
    identity: PresenceIdentity<Parent.State, Child.State>
  ) -> Effect<Parent.Action> {
    var reported: [Effect<Parent.Action>] = []
    effect.forEachWarning(as: Parent.Action.self) { reported.append($0) }
    if effect.hasWork {
      reported.append(
        .warning(
          """
          \(describe(action)) closed the child at \(identity), whose state is \
          EphemeralState, but the child's reducer returned work for it (an effect that sends \
          or runs), which was not run. An alert's work belongs to the parent that handles its \
          action.
          """,
          site: site, namingStoreAction: true
        ))
    }
    return .merge(reported)
  }

  /// The warning that an action reached a destination showing an ``EphemeralState`` case, for
  /// a case of another name that no reducer refused. Out of line: rare.
  @usableFromInline
  func ephemeralMismatch(
    _ mismatch: (shown: String, action: String), action: Parent.Action,
    identity: PresenceIdentity<Parent.State, Child.State>
  ) -> Effect<Child.Action> {
    .warning(
      """
      \(describe(action)) reached the destination at \(identity) while it shows its \
      EphemeralState case `\(mismatch.shown)`, but the action is of the case \
      `\(mismatch.action)`, so the destination stays open. It closes on actions of the case \
      with the same name as its state's: name the two cases alike. If the action is for \
      another case, add an `ifCaseLet` for that case, which refuses it while that case is \
      not shown.
      """,
      site: site, namingStoreAction: true)
  }

  /// The child's effect in the parent's actions, with its dismissals resolved (refused with
  /// a warning for an `ifLet` child, which is not presented), in the child's namespace. Out of
  /// line: only for actions whose child returned work.
  @usableFromInline
  func embedChildEffect(
    _ effect: Effect<Child.Action>, _ action: Parent.Action,
    identity: PresenceIdentity<Parent.State, Child.State>, token: UInt64?
  )
    -> Effect<Parent.Action>
  {
    guard let toPresentationAction else {
      guard let toChildAction else { return .none }
      return effect.map(toChildAction.embed)
        .refusingDismiss {
          .warning(
            """
            \(describe(action)) returned `.dismiss` in the child at \(identity), but an \
            `ifLet` child is not presented: nothing was dismissed (neither the child, nor a \
            sheet or screen that shows its parent). Present it with `presents` to let it \
            close itself, or report to the parent with a delegate action.
            """,
            site: site, namingStoreAction: true)
        }
        .scoped(to: identity, token: token)
    }
    let embed = toPresentationAction.embed
    return effect.map { embed(.presented($0)) }
      .resolvingDismiss(with: embed(.dismiss))
      .scoped(to: identity, token: token)
  }

  /// The child's action, if `action` carries one.
  @inlinable
  func extract(_ action: Parent.Action) -> Child.Action? {
    if let toChildAction { return toChildAction.extract(action) }
    return toPresentationAction?.extract(action)?.presented
  }

  /// Whether `action` is a presented child's `.dismiss`.
  @inlinable
  func isDismissAction(_ action: Parent.Action) -> Bool {
    toPresentationAction?.extract(action)?.isDismiss == true
  }

  // The child is looked at through its address (`withUnsafePointer`) and cleared in place
  // through `clear`: reading it, or setting `nil`, through the key path in `reduce` itself
  // makes unspecialized code reserve stack for a whole copy of the child while `reduce` runs,
  // the child's own reducer included (see `read(_:in:)`).

  /// Dismisses the child.
  @usableFromInline
  static func clear(_ child: inout Child.State?) {
    child = nil
  }
}

/// An action for a presented child: one of the child's own actions, or its dismissal.
public enum PresentationAction<Action: Sendable>: Sendable {
  /// An action for the presented child.
  case presented(Action)
  /// Dismisses the child: the parent's reducer sees it with the child still there, then the
  /// child's state becomes `nil` and its effects are cancelled (unless the parent presented
  /// a child with another id in its place, which stays).
  ///
  /// Sent while nothing is presented, it does nothing, reaches no reducer, and raises no
  /// warning: a second tap on a close button, or a dismissal racing the child's own, is not a
  /// mistake.
  case dismiss

  /// The child's action, if this is one.
  public var presented: Action? {
    if case .presented(let action) = self { return action }
    return nil
  }

  @usableFromInline var isDismiss: Bool {
    if case .dismiss = self { return true }
    return false
  }
}

extension PresentationAction: Equatable where Action: Equatable {}
extension PresentationAction: Hashable where Action: Hashable {}
extension PresentationAction: Codable where Action: Codable {}
