import Effects

extension Reducer {
  /// Runs `element` on the elements of an identified collection, for the actions that name an
  /// element's id.
  ///
  /// The element's reducer runs first, on that one element, found by id in O(1); then this
  /// reducer runs, and can react to what the element did (its delegate actions, say). An
  /// action for an id that is not in the collection changes nothing and reports a runtime
  /// warning naming the action and the id.
  ///
  /// Each element's effects belong to its id: removing the element cancels them, and two
  /// elements can use the same cancellation id without cancelling each other. An element
  /// removed and added back within one action keeps its effects.
  ///
  /// Attach `forEach` to the reducer that removes elements, as below: it sees the removals
  /// that reducer and the element reducer make, and ends their lifetimes. An element removed
  /// elsewhere (by an ancestor above a `Scope`) is found gone by the store after the action
  /// that removed it, which ends its lifetime then (see "Identity and navigation" for the few
  /// cases it cannot find).
  ///
  /// ```swift
  /// var body: some Reducer<State, Action> {
  ///   Reduce { state, action in ... }
  ///     .forEach(\.rows, action: .rows) { Row() }
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - toElements: The path to the collection.
  ///   - toElementAction: The case that carries element actions.
  ///   - fileID: The file of the declaration, named in runtime warnings.
  ///   - line: The line of the declaration, named in runtime warnings.
  ///   - element: The element's reducer.
  /// - Returns: A reducer that runs both.
  /// - Complexity: O(1) per element action, whatever the collection's size, plus O(*r*) for
  ///   the *r* elements a step removed. (After a step that replaced the whole collection or
  ///   made many changes, O(*k*) for the *k* elements with running effects.)
  @inlinable
  public func forEach<ID: Hashable & Sendable, ElementState, ElementAction, Element: Reducer>(
    _ toElements: WritableKeyPath<State, IdentifiedArray<ID, ElementState>>,
    action toElementAction: CaseKey<Action, IdentifiedAction<ID, ElementAction>>,
    fileID: StaticString = #fileID,
    line: UInt = #line,
    @ReducerBuilder<ElementState, ElementAction> element: () -> Element
  ) -> ForEachReducer<Self, ID, Element>
  where ElementState == Element.State, ElementAction == Element.Action {
    ForEachReducer(
      parent: self,
      toElements: toElements,
      toElementAction: toElementAction,
      element: element(),
      site: SourceSite(fileID: fileID, line: line)
    )
  }
}

/// A reducer that runs an element reducer on the elements of an identified collection; see
/// ``Reducer/forEach(_:action:fileID:line:element:)``.
public struct ForEachReducer<Parent: Reducer, ID: Hashable & Sendable, Element: Reducer>: Reducer
where Element.State: Identifiable, Element.State.ID == ID {
  @usableFromInline let base:
    ElementsReducer<
      Parent, Element,
      IdentifiedRouting<Parent.State, Parent.Action, Element.State, Element.Action>
    >

  @inlinable
  init(
    parent: Parent,
    toElements: WritableKeyPath<Parent.State, IdentifiedArray<ID, Element.State>>,
    toElementAction: CaseKey<Parent.Action, IdentifiedAction<ID, Element.Action>>,
    element: Element,
    site: SourceSite
  ) {
    base = ElementsReducer(
      parent: parent,
      routing: IdentifiedRouting(toElements: toElements, toElementAction: toElementAction),
      element: element,
      site: site)
  }

  /// Runs the element reducer for an element action, then the parent, then ends the
  /// lifetimes of removed elements. An action for an id not in the collection runs neither:
  /// it warns.
  ///
  /// - Parameters:
  ///   - state: The parent's state.
  ///   - action: The parent's action.
  /// - Returns: The element's and the parent's effects.
  @inlinable
  public func reduce(
    into state: inout Parent.State,
    action: Parent.Action
  ) -> Effect<Parent.Action> {
    base.reduce(into: &state, action: action)
  }
}

/// Where an ``ElementsReducer``'s collection lies in the parent's state, which of the
/// parent's actions are for an element, and, for a navigation stack, what else a stack has.
///
/// A protocol rather than closures: `navigationStack` and `forEach` are rebuilt with the body
/// at every action, and each capturing closure was a heap allocation then, and its context a
/// retain and a release at every copy of the reducer.
@usableFromInline
protocol ElementRouting {
  /// The parent's state.
  associatedtype Root
  /// The parent's action.
  associatedtype Action: Sendable
  /// The elements' id.
  associatedtype ID: Hashable & Sendable
  /// An element's state.
  associatedtype ElementState: Identifiable where ElementState.ID == ID
  /// An element's action.
  associatedtype ElementAction: Sendable

  /// The key path to the collection: its identity names the elements' lifetimes. Read only
  /// off the hot path (for a stack, it is looked up in ``KeyPathCache``).
  var toElements: WritableKeyPath<Root, IdentifiedArray<ID, ElementState>> { get }

  /// Runs `body` on the collection, in place.
  func modifyElements<Result>(
    in state: inout Root, _ body: (inout IdentifiedArray<ID, ElementState>) -> Result
  ) -> Result

  /// The collection's structure stamp, read in place where the layout allows.
  func structure(in state: inout Root) -> UInt64

  /// For a navigation stack: where the screen with `id`, which is not there, went (popped,
  /// or never pushed: the stack's next id tells which), for a warning. `nil` for an
  /// identified array. Off the hot path.
  func whereElementWent(_ id: ID, in state: inout Root) -> String?

  /// The element's id and action, if `action` is for an element.
  func elementAction(_ action: Action) -> (id: ID, action: ElementAction)?

  /// The parent's action for the element with `id` sending `action`.
  func embedding(_ id: ID) -> @Sendable (ElementAction) -> Action

  /// For a navigation stack: the stack's lineage, which changes when the stack is replaced
  /// by another. Its ids restart from 0, so a screen with an old id is a new screen: when
  /// the lineage changes, every screen's lifetime from before the step ends. `nil` for an
  /// identified array, where an id that is still present keeps its lifetime.
  func lineage(in state: inout Root) -> UInt64?

  /// For a navigation stack: a screen's token, unique to its push, which its effects carry
  /// (see ``LifetimeStateCarrier``). `nil` for an identified array.
  func token(of element: ElementState) -> UInt64?

  /// For a navigation stack: the token of the screen with `id`. A function of its own: a
  /// debug build reserves stack for the copy of an element that reading one makes, for the
  /// whole call of the function that reads it, even when the read does not run; in the
  /// element reducer's step, 64 KiB for 16 KiB elements (`LargeStateStackTests`).
  func token(
    ofElementWithID id: ID, in elements: IdentifiedArray<ID, ElementState>
  ) -> UInt64?

  /// For a navigation stack: the action that pops the screen with `id`, which a screen's
  /// `.dismiss` becomes. `nil` for an identified array.
  func dismissal(of id: ID) -> Action?

  /// For a navigation stack: the key path to the stack, which warnings name (the elements
  /// are the stack's entries, a detail of `StackState`).
  var stack: AnyKeyPath? { get }

  /// Whether stores of the elements may register copies of them to let go of at an element's
  /// step (a stack's screens; see `KeptCopies`).
  var elementsHaveKeptCopies: Bool { get }
}

/// The routing of `forEach`: an identified array at a key path, its actions in a case.
@usableFromInline
struct IdentifiedRouting<
  Root, Action: Sendable, ElementState: Identifiable, ElementAction: Sendable
>:
  ElementRouting
where ElementState.ID: Sendable {
  @usableFromInline typealias ID = ElementState.ID

  @usableFromInline let toElements: WritableKeyPath<Root, IdentifiedArray<ID, ElementState>>
  @usableFromInline let toElementAction: CaseKey<Action, IdentifiedAction<ID, ElementAction>>
  /// Where the collection lies in the parent's state, when the key path is a chain of stored
  /// properties (`nil` otherwise): its structure stamp is then read in place after each
  /// action. Read through the key path, the read looked up the key path's types at run time
  /// and copied the collection out: about 45 ns of a row action's 260.
  @usableFromInline let elementsOffset: Int?

  // Inlinable, so that it is specialized where `forEach` is written: unspecialized, finding
  // the collection's offset looks up the state types at run time.
  @inlinable
  init(
    toElements: WritableKeyPath<Root, IdentifiedArray<ID, ElementState>>,
    toElementAction: CaseKey<Action, IdentifiedAction<ID, ElementAction>>
  ) {
    self.toElements = toElements
    self.toElementAction = toElementAction
    self.elementsOffset = MemoryLayout<Root>.offset(of: toElements)
  }

  @inlinable
  func modifyElements<Result>(
    in state: inout Root, _ body: (inout IdentifiedArray<ID, ElementState>) -> Result
  ) -> Result {
    body(&state[keyPath: toElements])
  }

  @inlinable
  func structure(in state: inout Root) -> UInt64 {
    read({ $0.structure }, of: toElements, at: elementsOffset, in: &state)
  }

  @inlinable
  func elementAction(_ action: Action) -> (id: ID, action: ElementAction)? {
    guard case .element(let id, let action)? = toElementAction.extract(action) else { return nil }
    return (id, action)
  }

  @inlinable
  func embedding(_ id: ID) -> @Sendable (ElementAction) -> Action {
    let embed = toElementAction.embed
    return { embed(.element(id: id, action: $0)) }
  }

  @inlinable
  func lineage(in state: inout Root) -> UInt64? { nil }

  @inlinable
  func token(of element: ElementState) -> UInt64? { nil }

  @inlinable
  func token(
    ofElementWithID id: ID, in elements: IdentifiedArray<ID, ElementState>
  ) -> UInt64? { nil }

  @inlinable
  func dismissal(of id: ID) -> Action? { nil }

  @inlinable
  var stack: AnyKeyPath? { nil }

  @inlinable
  func whereElementWent(_ id: ID, in state: inout Root) -> String? { nil }

  // A row's store's copy shares the row's buffers only: a row action writes the row, not
  // the list. (A row holding a list of its own is the exception, left as it was.)
  @inlinable
  var elementsHaveKeptCopies: Bool { false }
}

/// Runs an element reducer on the elements of a collection its routing finds: the body of
/// `forEach` and of `navigationStack`.
@usableFromInline
struct ElementsReducer<Parent: Reducer, Element: Reducer, Routing: ElementRouting>: Reducer
where
  Routing.Root == Parent.State, Routing.Action == Parent.Action,
  Routing.ElementState == Element.State, Routing.ElementAction == Element.Action
{
  @usableFromInline typealias ID = Routing.ID

  @usableFromInline let parent: Parent
  @usableFromInline let routing: Routing
  @usableFromInline let element: Element
  @usableFromInline let site: SourceSite

  @inlinable
  init(parent: Parent, routing: Routing, element: Element, site: SourceSite) {
    self.parent = parent
    self.routing = routing
    self.element = element
    self.site = site
  }

  @inlinable
  func reduce(
    into state: inout Parent.State,
    action: Parent.Action
  ) -> Effect<Parent.Action> {
    let lineageBefore = routing.lineage(in: &state)
    var structureBefore: UInt64 = 0
    var elementEffect = Effect<Parent.Action>.none
    // One access to the collection for the element's step, however many operations.
    var missingID: ID?
    let isForMissingChild = routing.modifyElements(in: &state) {
      reduceElement(&$0, action, &structureBefore, &elementEffect, &missingID)
    }
    if let missingID {
      elementEffect = missingElement(
        missingID, action, went: routing.whereElementWent(missingID, in: &state))
    }
    // An action for an element that is not there, or for a child of the element that is not
    // there, changes nothing: the parent does not see it either (it would act for a child
    // that no longer exists).
    let parentEffect =
      isForMissingChild ? Effect.none : parent.reduce(into: &state, action: action)
    guard routing.structure(in: &state) != structureBefore else {
      return merged(elementEffect, parentEffect)
    }
    let elements = read(routing.toElements, in: &state)
    let collection = KeyPathIdentity(keyPath: routing.toElements)
    if let lineageBefore, routing.lineage(in: &state) != lineageBefore {
      return .merge(elementEffect, parentEffect, Self.endAllLifetimes(in: collection))
    }
    return .merge(
      elementEffect, parentEffect,
      endLifetimes(removedFrom: elements, since: structureBefore, collection: collection))
  }

  /// Ends the lifetime of every element of `collection` that has effects: for a stack
  /// replaced by another, whose screens are all new whatever their ids.
  @usableFromInline
  static func endAllLifetimes(in collection: KeyPathIdentity) -> Effect<Parent.Action> {
    .retainLifetimes { identity in
      guard let element = identity.base as? ElementIdentity<ID> else { return true }
      return element.collection != collection
    }
  }

  /// Runs the element reducer if `action` is for an element: finds the element by id and
  /// changes it in place. A stack screen's effects carry its token, which tells it from
  /// screens with the same id in a stack it replaced, or pushed after it was undone.
  ///
  /// - Returns: Whether `action` is for an element that is not there (`missingID` is then
  ///   its id, for the caller to warn, with the stack read), or for a child of the element
  ///   that is not there.
  @inlinable
  func reduceElement(
    _ elements: inout IdentifiedArray<ID, Element.State>,
    _ action: Parent.Action,
    _ structureBefore: inout UInt64,
    _ elementEffect: inout Effect<Parent.Action>,
    _ missingID: inout ID?
  ) -> Bool {
    structureBefore = elements.structure
    guard let (id, elementAction) = routing.elementAction(action) else { return false }
    guard let slot = elements.slot(of: id) else {
      missingID = id
      return true
    }
    let effect =
      routing.elementsHaveKeptCopies && KeptCopies.isActive
      ? reduceElementLettingCopiesGo(&elements, inSlot: slot, id: id, elementAction)
      : elements.modifyElement(inSlot: slot) { element.reduce(into: &$0, action: elementAction) }
    guard !effect.isNone else { return false }
    let isForMissingChild = effect.isForMissingChild
    var embedded = effect.map(routing.embedding(id))
    if let dismissal = routing.dismissal(of: id) {
      embedded = embedded.resolvingDismiss(with: dismissal)
    } else {
      embedded = embedded.refusingDismiss { rowDismissal(id, action) }
    }
    elementEffect =
      embedded
      .scoped(
        to: ElementIdentity(
          collection: KeyPathIdentity(keyPath: routing.toElements), id: id, site: site),
        token: routing.token(ofElementWithID: id, in: elements))
    return isForMissingChild
  }

  /// The element's step, with the copies stores keep of it let go meanwhile (see
  /// `KeptCopies`): a screen's list, shared with the copy its store keeps, was copied whole
  /// at each write. Out of line: only while some store keeps a copy.
  @inlinable @inline(never)
  func reduceElementLettingCopiesGo(
    _ elements: inout IdentifiedArray<ID, Element.State>, inSlot slot: Int, id: ID,
    _ action: Element.Action
  ) -> Effect<Element.Action> {
    // (Where the collection lies: the key the copies are registered under.)
    let collection = withUnsafePointer(to: &elements) { UnsafeRawPointer($0) }
    return elements.modifyElement(inSlot: slot) { state in
      let kept = withUnsafePointer(to: &state) {
        KeptCopies.letGo(Element.State.self, id: id, at: UnsafeRawPointer($0), in: collection)
      }
      let effect = element.reduce(into: &state, action: action)
      if let kept {
        withUnsafePointer(to: &state) { KeptCopies.takeAgain(kept, from: UnsafeRawPointer($0)) }
      }
      return effect
    }
  }

  /// The warning for a `.dismiss` a row returned: rows are not presented. Out of line: off
  /// the hot path.
  @usableFromInline
  func rowDismissal(_ id: ID, _ action: Parent.Action) -> Effect<Parent.Action> {
    .warning(
      """
      \(describe(action)) returned `.dismiss` in the element with id \(describeID(id)) of \
      \(KeyPathIdentity(keyPath: routing.toElements)), but a `forEach` row is not presented: \
      nothing was dismissed (neither the row, nor a sheet or screen that shows the list). \
      Report to the parent with a delegate action, and let it remove the row.
      """,
      site: site, namingStoreAction: true)
  }

  /// The warning for an action to the element with `id`, which is not there, and the end of
  /// that element's lifetime: an effect of the element may still be running, if the element
  /// was removed where this reducer could not see it (by an ancestor, say). Out of line: off
  /// the hot path.
  ///
  /// - Parameter went: For a stack, where the screen went (see
  ///   `ElementRouting.whereElementWent(_:in:)`).
  @usableFromInline
  func missingElement(_ id: ID, _ action: Parent.Action, went: String?) -> Effect<Parent.Action> {
    let collection = KeyPathIdentity(keyPath: routing.toElements)
    let message =
      if let stack = routing.stack {
        """
        \(describe(action)) was sent to the screen with id \(describeID(id)) of the stack at \
        \(describeKeyPath(stack)), but no screen has that id: \(went ?? "it was popped, or never pushed"). \
        No screen's reducer ran for it, nor the parent's, so they changed nothing.
        """
      } else {
        """
        \(describe(action)) was sent to the element with id \(describeID(id)) of \
        \(collection), but no element has that id: it was removed, or never added. No \
        element's reducer ran for it, nor the parent's, so they changed nothing.
        """
      }
    return .missingChild(
      message, site: site, lifetime: ElementIdentity(collection: collection, id: id))
  }

  /// Ends the lifetimes of the elements removed since `stamp`: each one by id when the
  /// array's history knows them, otherwise every identity with effects that is not in the
  /// array any more, and, for a stack, the effects of screens whose id another push has now.
  /// An id removed and added back since keeps its lifetime.
  @inlinable
  func endLifetimes(
    removedFrom elements: IdentifiedArray<ID, Element.State>,
    since stamp: UInt64,
    collection: KeyPathIdentity
  ) -> Effect<Parent.Action> {
    if let removed = elements.removedIDs(since: stamp) {
      // An append removed nothing: no effect to merge, and none to start.
      if removed.isEmpty { return .none }
      return .merge(
        removed.filter { !elements.contains(id: $0) }.map {
          .endLifetime(of: ElementIdentity(collection: collection, id: $0))
        }
      )
    }
    return endLifetimesOfAbsent(from: elements, collection: collection)
  }

  /// Ends the lifetimes of the elements that are not in `elements`, when its history does
  /// not say which were removed; see ``endLifetimes(removedFrom:since:collection:)``.
  @usableFromInline
  func endLifetimesOfAbsent(
    from elements: IdentifiedArray<ID, Element.State>, collection: KeyPathIdentity
  ) -> Effect<Parent.Action> {
    let isPresent = MainActorLoan<(ID) -> Bool>(value: { elements.contains(id: $0) })
    let removed = Effect<Parent.Action>.retainLifetimes { identity in
      guard let element = identity.base as? ElementIdentity<ID>, element.collection == collection
      else { return true }
      return isPresent.value(element.id)
    }
    // Screens have tokens; an identified array's elements have none (and may be many).
    guard routing.stack != nil else { return removed }
    // A stack set to a copy of itself from before a push, then pushed onto: a screen may
    // have the id of a screen pushed since the copy was made, whose effects end here (the
    // token tells the two pushes apart). A stack holds few screens.
    return .merge(
      [removed]
        + zip(elements.ids, elements).compactMap { id, element in
          routing.token(of: element).map {
            .endLifetime(of: ElementIdentity(collection: collection, id: id), exceptOccupant: $0)
          }
        }
    )
  }
}
