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
  @usableFromInline let parent: Parent
  @usableFromInline let toElements:
    WritableKeyPath<Parent.State, IdentifiedArray<ID, Element.State>>
  @usableFromInline let toElementAction:
    CaseKey<Parent.Action, IdentifiedAction<ID, Element.Action>>
  @usableFromInline let element: Element
  @usableFromInline let site: SourceSite
  /// For a navigation stack: the stack's lineage, which changes when the stack is replaced by
  /// another. Its ids restart from 0, so a screen with an old id is a new screen: when the
  /// lineage changes, every screen's lifetime from before the step ends. `nil` for an
  /// identified array, where an id that is still present keeps its lifetime.
  @usableFromInline let lineage: ((inout Parent.State) -> UInt64)?
  /// For a navigation stack: a screen's token, unique to its push, which its effects carry
  /// (see ``LifetimeStateCarrier``). `nil` for an identified array.
  @usableFromInline let token: ((Element.State) -> UInt64)?
  /// For a navigation stack: the action that pops the screen with an id, which a screen's
  /// `.dismiss` becomes.
  @usableFromInline let dismiss: (@Sendable (ID) -> Parent.Action)?
  /// For a navigation stack: the key path to the stack, which warnings name (the elements
  /// are the stack's entries, a detail of `StackState`).
  @usableFromInline let stack: AnyKeyPath?
  /// Where the collection lies in the parent's state, when the key path is a chain of stored
  /// properties (`nil` otherwise): its structure stamp is then read in place after each
  /// action. Read through the key path, the read looked up the key path's types at run time
  /// and copied the collection out: about 45 ns of a row action's 260.
  @usableFromInline let elementsOffset: Int?

  // Inlinable, so that it is specialized where `forEach` is written: unspecialized, finding
  // the collection's offset looks up the state types at run time.
  @inlinable
  init(
    parent: Parent,
    toElements: WritableKeyPath<Parent.State, IdentifiedArray<ID, Element.State>>,
    toElementAction: CaseKey<Parent.Action, IdentifiedAction<ID, Element.Action>>,
    element: Element,
    site: SourceSite,
    lineage: ((inout Parent.State) -> UInt64)? = nil,
    token: ((Element.State) -> UInt64)? = nil,
    dismiss: (@Sendable (ID) -> Parent.Action)? = nil,
    stack: AnyKeyPath? = nil
  ) {
    self.parent = parent
    self.toElements = toElements
    self.toElementAction = toElementAction
    self.element = element
    self.site = site
    self.lineage = lineage
    self.token = token
    self.dismiss = dismiss
    self.stack = stack
    self.elementsOffset = MemoryLayout<Parent.State>.offset(of: toElements)
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
    let lineageBefore = lineage?(&state)
    var structureBefore: UInt64 = 0
    var elementEffect = Effect<Parent.Action>.none
    // One access to the collection for the element's step, however many operations.
    let isForMissingChild = reduceElement(
      &state[keyPath: toElements], action, &structureBefore, &elementEffect)
    // An action for an element that is not there, or for a child of the element that is not
    // there, changes nothing: the parent does not see it either (it would act for a child
    // that no longer exists).
    let parentEffect =
      isForMissingChild ? Effect.none : parent.reduce(into: &state, action: action)
    guard structure(in: &state) != structureBefore else {
      if elementEffect.isNone { return parentEffect }
      if parentEffect.isNone { return elementEffect }
      return .merge(elementEffect, parentEffect)
    }
    let elements = read(toElements, in: &state)
    let collection = KeyPathIdentity(keyPath: toElements)
    if let lineage, lineage(&state) != lineageBefore {
      return .merge(elementEffect, parentEffect, Self.endAllLifetimes(in: collection))
    }
    return .merge(
      elementEffect, parentEffect,
      endLifetimes(removedFrom: elements, since: structureBefore, collection: collection))
  }

  /// The collection's structure stamp, read in place when the collection's offset is known.
  @inlinable
  func structure(in state: inout Parent.State) -> UInt64 {
    read({ $0.structure }, of: toElements, at: elementsOffset, in: &state)
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
  /// - Returns: Whether `action` is for an element that is not there (`elementEffect` is
  ///   then the warning and the end of that element's lifetime), or for a child of the
  ///   element that is not there.
  @inlinable
  func reduceElement(
    _ elements: inout IdentifiedArray<ID, Element.State>,
    _ action: Parent.Action,
    _ structureBefore: inout UInt64,
    _ elementEffect: inout Effect<Parent.Action>
  ) -> Bool {
    structureBefore = elements.structure
    guard case .element(let id, let elementAction)? = toElementAction.extract(action) else {
      return false
    }
    guard let slot = elements.slot(of: id) else {
      // An effect of the element may still be running, if the element was removed where this
      // reducer could not see it (by an ancestor, say): it ends here.
      let collection = KeyPathIdentity(keyPath: toElements)
      let message =
        if let stack {
          """
          \(describe(action)) was sent to the screen with id \(id) of the stack at \
          \(stack), but no screen has that id: it was popped, or never pushed. No screen's \
          reducer ran for it, nor the parent's: nothing changed.
          """
        } else {
          """
          \(describe(action)) was sent to the element with id \(id) of \
          \(collection), but no element has that id: it was removed, or never added. No \
          element's reducer ran for it, nor the parent's: nothing changed.
          """
        }
      elementEffect = .missingChild(
        message, site: site, lifetime: ElementIdentity(collection: collection, id: id))
      return true
    }
    let effect = elements.modifyElement(inSlot: slot) {
      element.reduce(into: &$0, action: elementAction)
    }
    guard !effect.isNone else { return false }
    let isForMissingChild = effect.isForMissingChild
    let embed = toElementAction.embed
    var embedded = effect.map { embed(.element(id: id, action: $0)) }
    if let dismiss { embedded = embedded.resolvingDismiss(with: dismiss(id)) }
    elementEffect =
      embedded
      .scoped(
        to: ElementIdentity(collection: KeyPathIdentity(keyPath: toElements), id: id),
        token: token.flatMap { token in elements[id: id].map(token) })
    return isForMissingChild
  }

  /// Ends the lifetimes of the elements removed since `stamp`: each one by id when the
  /// array's history knows them, otherwise every identity with effects that is not in the
  /// array any more, and, for a stack, the effects of screens whose id another push has now.
  /// An id removed and added back since keeps its lifetime.
  @usableFromInline
  func endLifetimes(
    removedFrom elements: IdentifiedArray<ID, Element.State>,
    since stamp: UInt64,
    collection: KeyPathIdentity
  ) -> Effect<Parent.Action> {
    if let removed = elements.removedIDs(since: stamp) {
      return .merge(
        removed.filter { !elements.contains(id: $0) }.map {
          .endLifetime(of: ElementIdentity(collection: collection, id: $0))
        }
      )
    }
    let isPresent = MainActorLoan<(ID) -> Bool>(value: { elements.contains(id: $0) })
    let removed = Effect<Parent.Action>.retainLifetimes { identity in
      guard let element = identity.base as? ElementIdentity<ID>, element.collection == collection
      else { return true }
      return isPresent.value(element.id)
    }
    guard let token else { return removed }
    // A stack set to a copy of itself from before a push, then pushed onto: a screen may
    // have the id of a screen pushed since the copy was made, whose effects end here (the
    // token tells the two pushes apart). A stack holds few screens.
    return .merge(
      [removed]
        + zip(elements.ids, elements).map { id, element in
          .endLifetime(
            of: ElementIdentity(collection: collection, id: id), exceptOccupant: token(element))
        }
    )
  }
}
