import Effects

extension Reducer {
  /// Runs `destination` on the screens of a navigation stack, and handles pushes and pops.
  ///
  /// A screen's action runs its reducer first (found by id in O(1)), then this one. `.push`
  /// changes the stack before this reducer runs; `.popFrom(id:)` after it, as in The
  /// Composable Architecture, so that this reducer sees the screens it pops (to keep what one
  /// holds, say): then the screen with that id and those above it go, but not a screen this
  /// reducer pushed in answer. A push the stack refuses (its id was given out already) and a
  /// pop of a screen that is not there change nothing and reach no reducer: not this one,
  /// which would act on a change that did not happen, nor a reducer after this one in a
  /// block, nor an ancestor. They report a runtime warning, except a pop of a screen popped
  /// already (a back button tapped as the screen closed itself), which is ordinary and
  /// silent. A refused push leaves the screen that holds its id as it was, effects and all.
  /// Popping a screen, by action
  /// or by changing ``StackState`` directly, cancels that screen's effects. An action for a
  /// screen that is not on the stack changes nothing and reports a runtime warning naming
  /// the action and the id.
  ///
  /// A screen closes itself by returning `Effect.dismiss`: the stack pops it, with the screens
  /// above it, as `.popFrom(id:)` does. A screen popped already by then stays popped, and
  /// nothing else is.
  ///
  /// ```swift
  /// Reduce { state, action in ... }
  ///   .navigationStack(\.path, action: .path) { Path() }
  /// ```
  ///
  /// - Parameters:
  ///   - toStack: The path to the stack.
  ///   - toStackAction: The case that carries stack actions.
  ///   - fileID: The file of the declaration, named in runtime warnings.
  ///   - line: The line of the declaration, named in runtime warnings.
  ///   - destination: The reducer of the screens.
  /// - Returns: A reducer that runs both.
  @inlinable
  public func navigationStack<DestinationState: Sendable, DestinationAction, Destination: Reducer>(
    _ toStack: WritableKeyPath<State, StackState<DestinationState>>,
    action toStackAction: CaseKey<Action, StackAction<DestinationState, DestinationAction>>,
    fileID: StaticString = #fileID,
    line: UInt = #line,
    @ReducerBuilder<DestinationState, DestinationAction> destination: () -> Destination
  ) -> some Reducer<State, Action>
  where DestinationState == Destination.State, DestinationAction == Destination.Action {
    // Inlinable, so that it is specialized where it is written: unspecialized, an action to a
    // stack screen looked up the stack's types at run time at each step, 1.7 us where the same
    // screen through `Scope` took 0.09 us.
    //
    // Named apart from `forEach` (over an `IdentifiedArray`) so that the type checker never
    // tries both at a link of a modifier chain: while they shared the name, each link doubled
    // the work of checking the chain. `Reducer+Renamed.swift` keeps the old spelling as
    // unavailable, for its error message.
    let site = SourceSite(fileID: fileID, line: line)
    // No capturing closures here: each was a heap allocation at every action. `Self` appears
    // once in the result's type: the stack's operations are typed by the state and action
    // alone. Typed by `Self` as well, the type doubled at each link of a chain of stacks, and
    // 15 links crashed the compiler (large-state adversary trial).
    return ElementsReducer(
      parent: StackOperations<State, Action, DestinationState, DestinationAction, Self>(
        toStack: toStack, toStackAction: toStackAction, site: site, parent: self),
      routing: StackRouting(toStack: toStack, toStackAction: toStackAction),
      element: StackEntryReducer(destination: destination()),
      site: site
    )
  }
}

/// Runs the parent's reducer, and pushes and pops a navigation stack for its `.push` and
/// `.popFrom` actions: a push before the parent's reducer, a pop after it.
@usableFromInline
struct StackOperations<
  State, Action: Sendable, Screen: Sendable, ScreenAction: Sendable, Parent: Reducer
>: Reducer where Parent.State == State, Parent.Action == Action {
  @usableFromInline let toStack: WritableKeyPath<State, StackState<Screen>>
  @usableFromInline let toStackAction: CaseKey<Action, StackAction<Screen, ScreenAction>>
  @usableFromInline let site: SourceSite
  @usableFromInline let parent: Parent

  @inlinable
  init(
    toStack: WritableKeyPath<State, StackState<Screen>>,
    toStackAction: CaseKey<Action, StackAction<Screen, ScreenAction>>,
    site: SourceSite,
    parent: Parent
  ) {
    self.toStack = toStack
    self.toStackAction = toStackAction
    self.site = site
    self.parent = parent
  }

  @inlinable
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch toStackAction.extract(action) {
    case .element?, nil:
      return parent.reduce(into: &state, action: action)
    case .popFrom(let id)?:
      return Self.pop(from: id, of: action, in: &state, toStack, site: site) {
        parent.reduce(into: &$0, action: action)
      }
    case .push(let id, let element)?:
      // A refused push changes nothing, and no reducer sees it: the parent would act on a
      // screen that was not pushed (pop the one that holds that id, say), as a pop of a
      // screen that is gone is kept from it, and so would the reducers after this one and
      // its ancestors. Its mark ends no lifetime: the screen with that id keeps its effects.
      if let refusal = Self.push(element, id: id, of: action, to: &state, toStack, site: site) {
        return refusal
      }
      return parent.reduce(into: &state, action: action)
    }
  }
}

/// The routing of `navigationStack`: a stack's entries, its screens' actions in a case, and
/// what a stack adds (a lineage, screens' tokens, pops for `.dismiss`).
@usableFromInline
struct StackRouting<Root, Action: Sendable, Screen: Sendable, ScreenAction: Sendable>:
  ElementRouting
{
  @usableFromInline typealias ID = StackElementID
  @usableFromInline typealias ElementState = StackState<Screen>.Entry

  @usableFromInline let toStack: WritableKeyPath<Root, StackState<Screen>>
  @usableFromInline let toStackAction: CaseKey<Action, StackAction<Screen, ScreenAction>>
  /// Where the stack lies in the parent's state, if the key path is a chain of stored
  /// properties: its lineage and structure are then read in place (through the key path,
  /// each read copied the stack out).
  @usableFromInline let stackOffset: Int?

  @inlinable
  init(
    toStack: WritableKeyPath<Root, StackState<Screen>>,
    toStackAction: CaseKey<Action, StackAction<Screen, ScreenAction>>
  ) {
    self.toStack = toStack
    self.toStackAction = toStackAction
    self.stackOffset = MemoryLayout<Root>.offset(of: toStack)
  }

  @inlinable
  var toElements: WritableKeyPath<Root, IdentifiedArray<StackElementID, ElementState>> {
    entriesPath(of: toStack)
  }

  @inlinable
  func modifyElements<Result>(
    in state: inout Root, _ body: (inout IdentifiedArray<StackElementID, ElementState>) -> Result
  ) -> Result {
    body(&state[keyPath: toStack].entries)
  }

  @inlinable
  func structure(in state: inout Root) -> UInt64 {
    read({ $0.entries.structure }, of: toStack, at: stackOffset, in: &state)
  }

  @inlinable
  func elementAction(_ action: Action) -> (id: StackElementID, action: ScreenAction)? {
    guard case .element(let id, let action)? = toStackAction.extract(action) else { return nil }
    return (id, action)
  }

  @inlinable
  func embedding(_ id: StackElementID) -> @Sendable (ScreenAction) -> Action {
    let embed = toStackAction.embed
    return { embed(.element(id: id, action: $0)) }
  }

  @inlinable
  func lineage(in state: inout Root) -> UInt64? {
    read({ $0.lineage }, of: toStack, at: stackOffset, in: &state)
  }

  @inlinable
  func token(of element: ElementState) -> UInt64? { element.birth }

  @inlinable
  func token(
    ofElementWithID id: StackElementID,
    in elements: IdentifiedArray<StackElementID, ElementState>
  ) -> UInt64? {
    elements[id: id]?.birth
  }

  @inlinable
  func dismissal(of id: StackElementID) -> Action? { toStackAction.embed(.popFrom(id: id)) }

  @inlinable
  var stack: AnyKeyPath? { toStack }

  @inlinable
  func whereElementWent(_ id: StackElementID, in state: inout Root) -> String? {
    let nextID = read({ $0.nextElementID }, of: toStack, at: stackOffset, in: &state)
    return id.rawValue >= 0 && id.rawValue < nextID.rawValue
      // (The stack keeps no record of the ids a push with a later id skipped.)
      ? "it was popped (or its stack replaced by another, or a push with a later id skipped it)"
      : "the stack never pushed it (its next id is \(nextID))"
  }

  @inlinable
  var elementsHaveKeptCopies: Bool { true }
}

extension StackOperations {
  /// Pushes for a `.push` action, or returns the warning that it cannot, marked so that no
  /// reducer runs for it (nil once pushed).
  /// Out of line: not for a screen's actions, which most are.
  @usableFromInline
  static func push(
    _ element: Screen,
    id: StackElementID,
    of action: Action,
    to state: inout State,
    _ toStack: WritableKeyPath<State, StackState<Screen>>,
    site: SourceSite
  ) -> Effect<Action>? {
    guard state[keyPath: toStack].push(element, id: id) else {
      // The pushed state is left out of the message: it can be a whole screen's.
      let nextID = read(toStack, in: &state).nextElementID
      let pushed = String(reflecting: Screen.self)
      let reason =
        id.rawValue < 0
        ? "a stack's ids are never negative"
        : id.rawValue < nextID.rawValue
          ? "the stack's next id is \(nextID), and ids are never reused"
          : "a pushed id must be below Int.max / 2"
      return .refusedChild(
        """
        A .push action of a \(pushed) with id \(id) came to the stack at \(describeKeyPath(toStack)), but \
        \(reason). Nothing was pushed.
        """,
        site: site
      )
    }
    return nil
  }

  /// Pops from the screen with `id` for a `.popFrom` action, after `parent` (the parent's
  /// reducer) ran with the screens still there. A screen `parent` pushed in answer stays,
  /// whatever its id; one it popped already is not looked for. A pop of a screen that is
  /// not on the stack runs neither. Out of line: not for a screen's actions, which most are.
  @usableFromInline
  static func pop(
    from id: StackElementID,
    of action: Action,
    in state: inout State,
    _ toStack: WritableKeyPath<State, StackState<Screen>>,
    site: SourceSite,
    parent: (inout State) -> Effect<Action>
  ) -> Effect<Action> {
    let stack = read(toStack, in: &state)
    guard stack.contains(id: id) else {
      return missingScreen(id, of: action, in: &state, toStack, site: site)
    }
    // The screens to pop, by push rather than by id: after the parent ran, an id may name
    // a screen it pushed in answer (on a stack it set anew, or set back to a saved copy).
    let stamp = StackState<Screen>.currentBirth
    let parentEffect = parent(&state)
    state[keyPath: toStack].pop(from: id, pushedBy: stamp)
    return parentEffect
  }

  /// What a `.popFrom` of a screen that is not on the stack does: nothing, and the parent's
  /// reducer does not run for it.
  @usableFromInline
  static func missingScreen(
    _ id: StackElementID,
    of action: Action,
    in state: inout State,
    _ toStack: WritableKeyPath<State, StackState<Screen>>,
    site: SourceSite
  ) -> Effect<Action> {
    // A pop of a screen that is gone changes nothing: the parent does not see it either (it
    // would act on a pop that did not happen). A screen the stack pushed and popped already
    // (its id is below the next, and ids are never reused) is ordinary, as a sheet's second
    // dismissal is: a back button tapped as the screen closed itself. An id the stack never
    // gave out is a mistake, and reported. (Ids a `push(_:id:)` skipped count as given out:
    // the stack does not list them.)
    let lifetime = ElementIdentity(
      collection: KeyPathIdentity(keyPath: entriesPath(of: toStack)), id: id)
    if id.rawValue >= 0, id.rawValue < read(toStack, in: &state).nextElementID.rawValue {
      return .missingChild(
        "\(describe(action)) pops from id \(id), which was popped already.", site: site,
        lifetime: lifetime, isOrdinary: true)
    }
    return .missingChild(
      """
      \(describe(action)) pops from id \(id), which is not on the stack. Neither a pop nor \
      the parent's reducer ran for it, so they changed nothing.
      """,
      site: site, lifetime: lifetime)
  }
}

extension Reducer {
  /// Handles pushes and pops of a navigation stack whose screens have no reducer of their
  /// own: routes that only name what to show, such as an id whose state lives elsewhere.
  ///
  /// The same as ``navigationStack(_:action:fileID:line:destination:)`` with a destination
  /// that does nothing; the screens' action type is `Never`.
  ///
  /// ```swift
  /// enum Route: Equatable, Sendable { case itemEditor(Item.ID) }
  /// case path(StackAction<Route, Never>)
  /// ...
  /// Reduce { state, action in ... }
  ///   .navigationStack(\.path, action: .path)
  /// ```
  ///
  /// - Parameters:
  ///   - toStack: The path to the stack.
  ///   - toStackAction: The case that carries stack actions.
  ///   - fileID: The file of the declaration, named in runtime warnings.
  ///   - line: The line of the declaration, named in runtime warnings.
  /// - Returns: A reducer that runs this one and handles the stack's pushes and pops.
  public func navigationStack<Route: Sendable>(
    _ toStack: WritableKeyPath<State, StackState<Route>>,
    action toStackAction: CaseKey<Action, StackAction<Route, Never>>,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> some Reducer<State, Action> {
    navigationStack(toStack, action: toStackAction, fileID: fileID, line: line) {
      EmptyReducer<Route, Never>()
    }
  }
}

/// Runs a screen's reducer on a stack entry's state. Not a ``Scope``: a scope namespaces
/// effects by the action's case, and a screen's actions are not wrapped in one, so each of
/// its actions would get its own namespace and a `.cancel(id:)` from one action would miss
/// an effect another started. The entry's id is the screen's namespace, and that is enough.
@usableFromInline
struct StackEntryReducer<Destination: Reducer>: Reducer where Destination.State: Sendable {
  @usableFromInline let destination: Destination

  @usableFromInline
  init(destination: Destination) {
    self.destination = destination
  }

  @inlinable
  func reduce(
    into entry: inout StackState<Destination.State>.Entry, action: Destination.Action
  ) -> Effect<Destination.Action> {
    destination.reduce(into: &entry.element, action: action)
  }
}
