import Effects

extension Reducer {
  /// Runs `child` on one case of an enum state while the state is that case, for the actions
  /// that carry a child action.
  ///
  /// The child's reducer runs first, then this one. An action for the child while the state is
  /// another case changes nothing and reports a runtime warning naming the action. The
  /// child's effects belong to the case: switching to another case cancels them.
  ///
  /// The child shares this reducer's cancellation ids: a case is the enum seen as one of its
  /// kinds, so this reducer's `.cancel(id:)` reaches the child's effects, and so does a
  /// parent's `.cancel(id:inElement:of:)`, `.cancel(id:inScreen:of:)` or
  /// `.cancel(id:inScope:action:)` naming a row, screen or scope that is this enum.
  ///
  /// An enum's payload cannot be changed where it lies, so the case's state is moved out for
  /// the child to change, then moved back: its buffers (arrays, identified arrays) are not
  /// copied, but its inline part is moved through the stack. Keep a large case's state behind
  /// a collection, or in an optional with `ifLet`.
  ///
  /// ```swift
  /// enum State { case signedOut(SignIn.State), signedIn(Home.State) }
  ///
  /// Reduce { state, action in ... }
  ///   .ifCaseLet(StateKey.signedOut, action: ActionKey.signedOut) { SignIn() }
  ///   .ifCaseLet(StateKey.signedIn, action: ActionKey.signedIn) { Home() }
  /// ```
  ///
  /// The state this runs on is the enum itself. For an enum kept in a property of a larger
  /// state, give the enum a reducer of its own that does this, and `Scope` to the property
  /// (`Scope(state: \.mode, action: .mode) { Mode() }`): applied to the larger state, the case
  /// key's type does not match, and the compiler says only that the state types must be
  /// equivalent.
  ///
  /// - Parameters:
  ///   - toCase: The case of the state that holds the child's state.
  ///   - toChildAction: The case that carries child actions.
  ///   - fileID: The file of the declaration, named in runtime warnings.
  ///   - line: The line of the declaration, named in runtime warnings.
  ///   - child: The child's reducer.
  /// - Returns: A reducer that runs both.
  @inlinable
  public func ifCaseLet<ChildState, ChildAction, Child: Reducer>(
    _ toCase: CaseKey<State, ChildState>,
    action toChildAction: CaseKey<Action, ChildAction>,
    fileID: StaticString = #fileID,
    line: UInt = #line,
    @ReducerBuilder<ChildState, ChildAction> child: () -> Child
  ) -> IfCaseLetReducer<Self, Child>
  where ChildState == Child.State, ChildAction == Child.Action {
    IfCaseLetReducer(
      parent: self,
      child: child(),
      toCase: toCase,
      toChildAction: toChildAction,
      site: SourceSite(fileID: fileID, line: line)
    )
  }
}

extension Reducer {
  /// Refuses the actions of one case of an enum state while the state is another case, for a
  /// case with no reducer of its own: an alert whose state is ``EphemeralState``.
  ///
  /// An alert's button action that arrives while the destination shows something else (a
  /// late tap, the alert replaced by an editor meanwhile) then changes nothing and reports a
  /// runtime warning, rather than reaching the parent, which would act on an alert that is
  /// not shown.
  ///
  /// ```swift
  /// EmptyReducer()
  ///   .ifCaseLet(StateKey.editor, action: ActionKey.editor) { Editor() }
  ///   .ifCaseLet(StateKey.deleteAlert, action: ActionKey.deleteAlert)
  /// ```
  ///
  /// - Parameters:
  ///   - toCase: The case of the state.
  ///   - toChildAction: The case that carries the case's actions.
  ///   - fileID: The file of the declaration, named in runtime warnings.
  ///   - line: The line of the declaration, named in runtime warnings.
  /// - Returns: A reducer that runs this one, and refuses the case's actions while the case
  ///   is not shown.
  @inlinable
  public func ifCaseLet<ChildState, ChildAction: Sendable>(
    _ toCase: CaseKey<State, ChildState>,
    action toChildAction: CaseKey<Action, ChildAction>,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> IfCaseLetReducer<Self, EmptyReducer<ChildState, ChildAction>> {
    ifCaseLet(toCase, action: toChildAction, fileID: fileID, line: line) { EmptyReducer() }
  }
}

/// A reducer that runs a child reducer on one case of an enum state; see
/// ``Reducer/ifCaseLet(_:action:fileID:line:child:)``.
public struct IfCaseLetReducer<Parent: Reducer, Child: Reducer>: Reducer {
  @usableFromInline let parent: Parent
  @usableFromInline let child: Child
  @usableFromInline let toCase: CaseKey<Parent.State, Child.State>
  @usableFromInline let toChildAction: CaseKey<Parent.Action, Child.Action>
  @usableFromInline let site: SourceSite

  @usableFromInline
  init(
    parent: Parent,
    child: Child,
    toCase: CaseKey<Parent.State, Child.State>,
    toChildAction: CaseKey<Parent.Action, Child.Action>,
    site: SourceSite
  ) {
    self.parent = parent
    self.child = child
    self.toCase = toCase
    self.toChildAction = toChildAction
    self.site = site
  }

  /// Runs the child for a child action while the state is its case, then the parent, then
  /// ends the case's lifetime if the state left it. A child action while the state is
  /// another case runs neither: it warns.
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
    // A case whose payload is `Identifiable` and is replaced by one with another id is a new
    // child: its id is compared, typed, before and after. Other payloads compare as the case
    // or not.
    guard let identifiable = Child.State.self as? any Identifiable.Type else {
      let present: (inout Child.State) -> Bool = { _ in true }
      return reduce(into: &state, action: action, hasToken: false, id: present)
    }
    func byID<I: Identifiable>(_: I.Type) -> Effect<Parent.Action> {
      reduce(into: &state, action: action, hasToken: true) { (childState: inout Child.State) in
        withUnsafePointer(to: &childState) {
          ChildIdentity(identity(of: $0, as: I.self))
        }
      }
    }
    return byID(identifiable)
  }

  /// `hasToken`: whether the payload's id tells its occupants apart (an `Identifiable`
  /// payload), so that its effects carry the id they started under.
  @inlinable
  func reduce<ID: Hashable>(
    into state: inout Parent.State,
    action: Parent.Action,
    hasToken: Bool,
    id: (inout Child.State) -> ID
  ) -> Effect<Parent.Action> {
    let identity = CaseIdentity(site: site, toCase: toCase)
    let before: ID?
    var childEffect = Effect<Parent.Action>.none
    var idLeftByChild: ID?? = nil
    var isForMissingChild = false
    if let childAction = toChildAction.extract(action) {
      // An enum's payload cannot be changed in place. Take it out and let go of the enum
      // before the child runs, so that the payload's buffers (a case's list of rows, say)
      // are referenced once and change in place, instead of being copied whole at every
      // child action; then put the changed payload back. The child runs on the extracted
      // optional itself, and what is only needed before or after it (a message, the
      // payload put back) is made in functions of its own: in a build without
      // optimization every temporary of a function has a stack slot of its own for the
      // whole call, and a copy of the payload made here would sit under the child's
      // reducer.
      var extracted = toCase.extract(state)
      guard isPresent(&extracted) else {
        // An effect of the case may still be running, if the state left it where this
        // reducer could not see it (in an ancestor, say): it ends here. The action changes
        // nothing: the parent does not see it either (it would act for a case not there).
        return missingCase(action, state: state, identity: identity)
      }
      // A store of the case keeps a copy of the payload, which would share its buffers too
      // (see `KeptCopies`): let go here, while the enum is still there to be looked at.
      let keptCopies = KeptCopies.isActive ? letGoOfCopies(in: &state, of: &extracted) : nil
      _ = consume state
      before = id(&extracted!)
      let effect = child.reduce(into: &extracted!, action: childAction)
      if let keptCopies { Self.takeAgain(keptCopies, from: &extracted) }
      if !effect.isNone {
        isForMissingChild = effect.isForMissingChild
        let after = hasToken ? id(&extracted!) : nil
        childEffect = effect.map(toChildAction.embed)
          .scoped(to: identity.occupied(by: after), token: after.map(lifetimeToken(ofID:)))
      }
      // The id the child left itself with, when it changed it and started effects: those
      // go on under it, if it keeps it.
      if !childEffect.isNone, id(&extracted!) != before { idLeftByChild = id(&extracted!) }
      state = embedded(&extracted)
    } else {
      // (The extracted copy is let go at once: a child that runs later must find its buffers
      // unshared.)
      before = caseID(of: state, id)
    }
    // An action for a child of the case that is not there changes nothing: the parent does
    // not see it either.
    let parentEffect =
      isForMissingChild ? Effect.none : parent.reduce(into: &state, action: action)
    let after = caseID(of: state, id)
    return childStepEffect(
      before: before, after: after, idLeftByChild: idLeftByChild,
      childEffect: childEffect, parentEffect: parentEffect, identity: identity)
  }

  // Apart from `reduce`, which the child runs under (see there), and never inlined into it,
  // where even an optimized build keeps some of their copies; inlinable, so that a client
  // module specializes them (called unspecialized, across modules, they cost 26 ns an
  // action).

  /// The id of the case's payload in `state`, or `nil` when the state is another case.
  @inlinable @inline(never)
  func caseID<ID>(of state: Parent.State, _ id: (inout Child.State) -> ID) -> ID? {
    guard var childState = toCase.extract(state) else { return nil }
    return id(&childState)
  }

  /// Lets go of the copies that stores of the case keep of the payload in `extracted`, taken
  /// out of the enum `state` where it lies, for the child's step; see `KeptCopies`.
  @inlinable @inline(never)
  func letGoOfCopies(
    in state: inout Parent.State, of extracted: inout Child.State?
  ) -> [any KeptCopyProtocol]? {
    withUnsafePointer(to: &state) { state in
      withUnsafePointer(to: &extracted) { payload in
        // (An optional's value lies at the optional's address.)
        KeptCopies.letGo(
          Child.State.self, case: toCase.identity, at: UnsafeRawPointer(payload),
          inEnumAt: UnsafeRawPointer(state))
      }
    }
  }

  /// Has the copies let go by ``letGoOfCopies(in:of:)`` taken again from the stepped payload.
  @inlinable @inline(never)
  static func takeAgain(_ copies: [any KeptCopyProtocol], from extracted: inout Child.State?) {
    withUnsafePointer(to: &extracted) { KeptCopies.takeAgain(copies, from: UnsafeRawPointer($0)) }
  }

  /// Whether the state was the case (without a copy of the payload).
  @inlinable @inline(never)
  func isPresent(_ extracted: inout Child.State?) -> Bool {
    extracted != nil
  }

  /// The state of the case with the changed payload, which it takes out of `extracted`.
  @inlinable @inline(never)
  func embedded(_ extracted: inout Child.State?) -> Parent.State {
    toCase.embed(extracted.take()!)
  }

  /// The effect for a child action while the state is another case: a warning, and the end
  /// of the case's lifetime.
  @usableFromInline
  func missingCase(
    _ action: Parent.Action, state: Parent.State,
    identity: CaseIdentity<Parent.State, Child.State>
  ) -> Effect<Parent.Action> {
    .missingChild(
      """
      \(describe(action)) was sent to the case of \(TypeName.name(of: Parent.State.self)) \
      holding \(TypeName.name(of: Child.State.self)), but the state is another \
      case\(enumCaseName(of: state, holding: Child.State.self).map { ": .\($0)" } ?? ""). \
      Neither the case's reducer nor the parent's ran for it, so they changed nothing.
      """,
      site: site, lifetime: identity)
  }
}
