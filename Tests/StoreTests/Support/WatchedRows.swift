import Testing

@testable import Store

/// Row stores as a list view holds them, each with the name it showed and an observation of
/// that read, checked after each action of a model test: an observer fires exactly when its
/// row's name changed, and a store reads what the state holds.
@MainActor
final class WatchedRows<ID: Hashable & Sendable, Row, RowAction: Sendable> {
  typealias RowStore = Store<Row, RowAction>

  /// One row store, the name it showed, and an observation of that read.
  @MainActor private final class Watched {
    let store: RowStore
    let tracker: Tracker
    let shownName: String
    init(store: RowStore, name: KeyPath<Row, String>) {
      self.store = store
      self.shownName = store[dynamicMember: name]
      tracker = Tracker { _ = store[dynamicMember: name] }
    }
  }

  private let name: KeyPath<Row, String>
  private var watched: [ID: Watched] = [:]

  /// - Parameter name: The name a row shows, read through its store as a view reads it.
  init(name: KeyPath<Row, String>) {
    self.name = name
  }

  /// Checks each watched row store against the rows now, then watches the stores of the rows
  /// not watched yet, as a view that draws them does.
  ///
  /// - Parameters:
  ///   - ids: The ids of the rows the list shows now, in order.
  ///   - names: The name of the row with an id now, or `nil` for a row the list lacks.
  ///   - stores: The collection of row stores the list scopes to now.
  ///   - replaced: The ids of rows the action replaced whole, whose observers may fire with
  ///     no change of name.
  ///   - place: Where the check is, for a failure: the seed, the step and the action.
  ///   - log: The recent actions, for a failure.
  /// - Returns: Whether every check held; a failure is recorded as an issue.
  func check(
    ids: [ID], names: (ID) -> String?,
    stores: IdentifiedStores<ID, Row, RowAction>, replaced: Set<ID>, place: String,
    log: [String]
  ) -> Bool {
    for (id, watch) in watched {
      // Stores of rows that went are let go, as a view lets them go.
      guard let rowName = names(id), stores[id: id] === watch.store else {
        watched[id] = nil
        continue
      }
      let place = "\(place): row \(id)"
      let isChanged = rowName != watch.shownName
      let firings = watch.tracker.firings
      if isChanged && firings != 1 {
        Issue.record(
          """
          \(place) was renamed from \(watch.shownName) to \(rowName) and its observer fired \
          \(firings) times; recent actions \(log.suffix(8))
          """)
        return false
      }
      if !isChanged && !replaced.contains(id) && firings != 0 {
        Issue.record(
          """
          \(place) kept its name \(rowName) and its observer fired \(firings) times; recent \
          actions \(log.suffix(8))
          """)
        return false
      }
      let storeName = watch.store[dynamicMember: name]
      if storeName != rowName {
        Issue.record("\(place)'s store reads \(storeName), the state \(rowName)")
        return false
      }
      if firings > 0 || isChanged {
        watched[id] = Watched(store: watch.store, name: name)
      }
    }
    for id in ids where watched[id] == nil {
      guard let store = stores[id: id] else {
        Issue.record("\(place): the list hands out no store for row \(id)")
        return false
      }
      watched[id] = Watched(store: store, name: name)
    }
    return true
  }
}
