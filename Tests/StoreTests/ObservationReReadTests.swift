import Effects
import Foundation
import Observation
import Testing

@testable import Store

/// A feature whose state is identified, and whose id changes.
private struct IDPicker: Reducer {
  struct Item: Equatable, Identifiable, Sendable {
    var id: Int
    var name = ""
  }

  struct State: Equatable, Identifiable {
    var id = 0
    var selected = Item(id: 0)
  }

  enum Action: Sendable {
    case pick(Int)
    case selected(ItemAction)
  }

  enum ItemAction: Sendable { case noop }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    if case .pick(let id) = action {
      state.id = id
      state.selected = Item(id: id)
    }
    return .none
  }
}

extension CaseKey<IDPicker.Action, IDPicker.ItemAction> {
  fileprivate static var selected: Self {
    Self(IDPicker.Action.selected) { if case .selected(let a) = $0 { a } else { nil } }
  }
}

/// Rows whose state has a computed, non-Equatable value built anew at each read.
private struct TagSheet: Reducer {
  struct Tags { var list: [String] }

  struct Line: Equatable, Identifiable, Sendable {
    let id: Int
    var title = ""
    var tags: Tags { Tags(list: [title]) }
  }

  struct State: Equatable {
    var count = 0
    var lines: IdentifiedArrayOf<Line> = [Line(id: 1, title: "a"), Line(id: 2)]
  }

  enum Action: Sendable {
    case set(@Sendable (inout State) -> Void)
    case lines(IdentifiedAction<Int, LineAction>)
  }

  enum LineAction: Sendable { case tapped }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    if case .set(let change) = action { change(&state) }
    return .none
  }
}

extension CaseKey<TagSheet.Action, IdentifiedAction<Int, TagSheet.LineAction>> {
  fileprivate static var lines: Self {
    Self(TagSheet.Action.lines) { if case .lines(let a) = $0 { a } else { nil } }
  }
}

@MainActor
@Suite struct ObservationReReadTests {
  /// The `Identifiable` conformance's `id` wins over the dynamic member `store.id` went
  /// through, and read the state untracked: a view showing the id of a store whose state's id
  /// changes (a root, or a plain scope to an identified child) was never told (review).
  @Test func readingTheIDOfAStoreWhoseIDChangesIsTracked() {
    let store = Store(initialState: IDPicker.State()) { IDPicker() }
    let selected = store.scope(state: \.selected, action: .selected)
    let root = Tracker { _ = store.id }
    let child = Tracker { _ = selected.id }
    store.send(.pick(1))
    #expect(store.id == 1)
    #expect(selected.id == 1)
    #expect(root.firings == 1)
    #expect(child.firings == 1)
  }

  /// A non-Equatable value a computed property builds anew at each read is compared by its
  /// bytes, which differ at every build: when a read compared a row store's values whenever
  /// the store had not checked since the last action, a second reader reading it after an
  /// action that changed nothing of the row notified the first (review). Reads compare only
  /// while stores are being checked after an action.
  @Test func readingAnUnchangedRowValueAgainNotifiesNobody() {
    let store = Store(initialState: TagSheet.State()) { TagSheet() }
    let row = store.scope(state: \.lines, action: .lines)[id: 1]!
    let first = Tracker { _ = row.tags }
    store.send(.set { $0.count += 1 })
    #expect(first.firings == 0)
    let second = Tracker { _ = row.tags }
    #expect(first.firings == 0, "nothing of the row changed")
    #expect(second.firings == 0)
  }
}
