/// A store of identifiable state is identified as its state is: a row's store by its row's
/// id. So a list can show a collection of row stores as it comes,
/// `ForEach(store.scope(state: \.rows, action: .rows)) { RowView(store: $0) }` in SwiftUI,
/// and an optional child's store can drive a presentation that takes an `Identifiable` item.
///
/// Each element's store is the same while its id lives (see ``IdentifiedStores``), so the id
/// names one store at a time in a collection, where ids are unique. Not in a stack: a stack
/// may show the same item twice (a detail pushed, then the same detail from a link in it),
/// and two screens' stores then have their state's one id. List a stack's screens by their
/// ``StackElementID``s, the ``IdentifiedStores/ids`` of the stores a stack is scoped to.
/// The conformance is isolated to the main actor, as the store is.
extension Store: @MainActor Identifiable where State: Identifiable {
  /// The id of the state: for an element's store, the element's id; for a store whose
  /// state is gone (a removed row), the id of its last state. Read as any value through the
  /// store, so an observer is told when it changes (for the root's state, or a child's).
  public var id: State.ID {
    self[dynamicMember: \.id]
  }
}
