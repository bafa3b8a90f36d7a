import Effects
import Testing

@testable import Store

/// A list shown through views built anew at each read, for the review of 8015875.
private struct Reloading: Reducer {
  struct Item: Equatable, Identifiable, Sendable {
    let id: Int
    var name: String
    var isHidden = false
  }

  struct State {
    var items: IdentifiedArrayOf<Item>
    var draft: Item?
    var archive: IdentifiedArrayOf<Item> = []

    /// The list and its archive, in one view.
    var everything: IdentifiedArrayOf<Item> {
      var view = items
      view.append(contentsOf: archive)
      return view
    }

    /// A child state built anew at each read, holding a filtered view as a stored property.
    struct Panel { var rows: IdentifiedArrayOf<Item> }
    var panel: Panel { Panel(rows: items.filter { !$0.isHidden }) }

    /// A filtered view.
    var shown: IdentifiedArrayOf<Item> { items.filter { !$0.isHidden } }

    /// The list, with the draft row shown at its end while there is one.
    var withDraft: IdentifiedArrayOf<Item> {
      var view = items
      if let draft { view.append(draft) }
      return view
    }
  }

  enum Action: Sendable {
    /// A refresh that keeps the array: emptied, then refilled.
    case reloadInPlace([Item])
    /// Replaces a row by removing it and inserting the new one where it was.
    case replace(Item)
    case renameDraft(String)
    case renameArchived(Int, String)
    case rows(IdentifiedAction<Int, Never>)
    case panel(PanelAction)
  }

  enum PanelAction: Sendable {
    case rows(IdentifiedAction<Int, Never>)
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .reloadInPlace(let items):
      state.items.removeAll()
      state.items.append(contentsOf: items)
    case .replace(let item):
      if let position = state.items.index(id: item.id) {
        state.items.remove(at: position)
        state.items.insert(item, at: position)
      }
    case .renameDraft(let name):
      state.draft?.name = name
    case .renameArchived(let id, let name):
      state.archive[id: id]?.name = name
    case .rows, .panel:
      break
    }
    return .none
  }
}

extension CaseKey<Reloading.Action, IdentifiedAction<Int, Never>> {
  fileprivate static var rows: Self {
    Self(Reloading.Action.rows) { if case .rows(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<Reloading.Action, Reloading.PanelAction> {
  fileprivate static var panel: Self {
    Self(Reloading.Action.panel) { if case .panel(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<Reloading.PanelAction, IdentifiedAction<Int, Never>> {
  fileprivate static var panelRows: Self {
    Self(Reloading.PanelAction.rows) { if case .rows(let a) = $0 { a } else { nil } }
  }
}

@MainActor
@Suite struct FilteredViewReviewTests {
  private func items(_ names: [String]) -> IdentifiedArrayOf<Reloading.Item> {
    IdentifiedArray(names.enumerated().map { Reloading.Item(id: $0.offset, name: $0.element) })
  }

  /// A stored list refilled in place (same ids, new names): its row stores see the new
  /// names. This is the baseline the filtered view should match.
  @Test func storedListReloadedInPlaceUpdatesRowStores() {
    let store = Store(initialState: Reloading.State(items: items(["a", "b", "c"]))) {
      Reloading()
    }
    let rows = store.scope(state: \.items, action: .rows)
    let row = rows[id: 1]!
    let tracker = Tracker { _ = row.name }
    store.send(
      .reloadInPlace([.init(id: 0, name: "A"), .init(id: 1, name: "B"), .init(id: 2, name: "C")]))
    #expect(tracker.firings == 1)
    #expect(row.name == "B")
  }

  /// The same refill seen through a filtered view: the view keeps the list's content stamp
  /// (no element was written in place, so it did not move), and the reader gives the build
  /// the last build's structure stamp (the same ids in the same order): nothing tells the
  /// row stores that their rows are other elements now.
  @Test func filteredViewOfAListReloadedInPlaceUpdatesRowStores() {
    let store = Store(initialState: Reloading.State(items: items(["a", "b", "c"]))) {
      Reloading()
    }
    let rows = store.scope(state: \.shown, action: .rows)
    let row = rows[id: 1]!
    let tracker = Tracker { _ = row.name }
    store.send(
      .reloadInPlace([.init(id: 0, name: "A"), .init(id: 1, name: "B"), .init(id: 2, name: "C")]))
    #expect(store.state.shown[id: 1]?.name == "B")
    #expect(tracker.firings == 1)
    #expect(row.name == "B")
    #expect(store.scope(state: \.shown, action: .rows)[id: 1]?.name == "B")
  }

  /// A row replaced by removal and insertion at its place: the same ids in the same order.
  @Test func filteredViewOfARowReplacedByRemoveAndInsertUpdatesItsStore() {
    let store = Store(initialState: Reloading.State(items: items(["a", "b", "c"]))) {
      Reloading()
    }
    let rows = store.scope(state: \.shown, action: .rows)
    let row = rows[id: 1]!
    let tracker = Tracker { _ = row.name }
    store.send(.replace(.init(id: 1, name: "B")))
    #expect(tracker.firings == 1)
    #expect(row.name == "B")
  }

  /// A view that copies the list and appends a draft row: the draft renamed changes no
  /// stamp the build carries (an append does not move the content stamp, which is the
  /// list's; the ids are the same, so the reader hands the build the last structure stamp).
  @Test func appendedDraftRowOfAViewUpdatesItsStore() {
    var state = Reloading.State(items: items(["a", "b"]))
    state.draft = .init(id: 99, name: "d")
    let store = Store(initialState: state) { Reloading() }
    let rows = store.scope(state: \.withDraft, action: .rows)
    let row = rows[id: 99]!
    let tracker = Tracker { _ = row.name }
    store.send(.renameDraft("draft"))
    #expect(store.state.withDraft[id: 99]?.name == "draft")
    #expect(tracker.firings == 1)
    #expect(row.name == "draft")
  }

  /// A view of the list followed by its archive: an archived row renamed moves the archive's
  /// content stamp, not the list's, which the view carries.
  @Test func archivedRowOfAConcatenatedViewUpdatesItsStore() {
    var state = Reloading.State(items: items(["a", "b"]))
    state.archive = [.init(id: 50, name: "old")]
    let store = Store(initialState: state) { Reloading() }
    let rows = store.scope(state: \.everything, action: .rows)
    let row = rows[id: 50]!
    let tracker = Tracker { _ = row.name }
    store.send(.renameArchived(50, "older"))
    #expect(store.state.everything[id: 50]?.name == "older")
    #expect(tracker.firings == 1)
    #expect(row.name == "older")
  }

  /// The refill seen through a computed child state whose stored collection is a filter
  /// (the `look` path of the collection reader).
  @Test func filteredCollectionOfAComputedChildStateReloadedInPlaceUpdatesRowStores() {
    let store = Store(initialState: Reloading.State(items: items(["a", "b", "c"]))) {
      Reloading()
    }
    let panel = store.scope(state: \.panel, action: .panel)
    let rows = panel.scope(state: \.rows, action: .panelRows)
    let row = rows[id: 1]!
    let tracker = Tracker { _ = row.name }
    store.send(
      .reloadInPlace([.init(id: 0, name: "A"), .init(id: 1, name: "B"), .init(id: 2, name: "C")]))
    #expect(store.state.panel.rows[id: 1]?.name == "B")
    #expect(tracker.firings == 1)
    #expect(row.name == "B")
  }
}
