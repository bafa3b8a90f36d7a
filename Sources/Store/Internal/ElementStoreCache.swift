import Effects

/// The element stores handed out for one identified collection of a store, keyed by id.
///
/// After each action the root dispatches, the cache checks whether the collection's set of
/// ids changed (an O(1) comparison of structure stamps) and, if it did, lets go of the stores
/// of removed elements.
@MainActor
final class ElementStoreCache<
  ID: Hashable & Sendable, ElementState: Identifiable, ElementAction: Sendable
> where ElementState.ID == ID {
  private let read: @MainActor () -> IdentifiedArray<ID, ElementState>
  private let send: @MainActor (ID, ElementAction) -> StoreTask
  private let register: @MainActor (@escaping @MainActor () -> Bool) -> Void
  private var stores: [ID: Store<ElementState, ElementAction>] = [:]
  private var structure: UInt64

  init<ParentState, ParentAction>(
    parent: any StoreCore<ParentState, ParentAction>,
    toElements: KeyPath<ParentState, IdentifiedArray<ID, ElementState>>,
    embed: @escaping @Sendable (IdentifiedAction<ID, ElementAction>) -> ParentAction
  ) {
    let read: @MainActor () -> IdentifiedArray<ID, ElementState> = {
      parent.state[keyPath: toElements]
    }
    self.read = read
    self.send = { id, action in parent.send(embed(.element(id: id, action: action))) }
    self.register = { parent.afterDispatch($0) }
    self.structure = read().structure
    parent.afterDispatch { [weak self] in
      guard let self else { return false }
      self.prune()
      return true
    }
  }

  /// The number of element stores held.
  var count: Int { stores.count }

  func isPresent(_ id: ID) -> Bool {
    read().contains(id: id)
  }

  func store(for id: ID) -> Store<ElementState, ElementAction> {
    if let store = stores[id] { return store }
    let read = self.read
    let send = self.send
    let store = Store<ElementState, ElementAction>(
      core: DerivedCore(
        initial: read()[id: id]!,
        read: { read()[id: id] },
        send: { send(id, $0) },
        afterDispatch: register
      )
    )
    stores[id] = store
    return store
  }

  private func prune() {
    let elements = read()
    guard elements.structure != structure else { return }
    structure = elements.structure
    guard !stores.isEmpty else { return }
    stores = stores.filter { elements.contains(id: $0.key) }
  }
}
