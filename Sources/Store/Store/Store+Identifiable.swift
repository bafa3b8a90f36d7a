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
  /// state is gone (a removed row), the id of its last state.
  ///
  /// It is read as any value through the store, so an observer is told when it changes. It
  /// can change only in a store that follows whatever state lies at its place: the root's
  /// store, a child's scoped through a key path (`scope(state: \.profile, action: .profile)`),
  /// a stack screen's (known by its ``StackElementID``, not by this id). An optional child,
  /// a presented child or a case replaced by one with another id gets a store of its own
  /// (scope again for it), and a row's id never changes: their stores keep the id they were
  /// made for.
  public var id: State.ID {
    self[dynamicMember: \.id]
  }
}
