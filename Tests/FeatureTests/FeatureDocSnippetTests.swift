import CartFeature
import Effects
import Foundation
import Store
import Testing

// The CartFeature article's example and `Cart`'s own, which no test ran: the store built as
// the article writes it, its child stores scoped as the two write them, and what the text
// says those stores do.

@MainActor
@Suite struct FeatureDocSnippetTests {
  /// CartFeature's article and `Cart`'s doc: one store per item, by id; the editor screen of a
  /// pushed route is the store of the item it names, so an edit made there is the list's edit
  /// too; the title sheet edits a draft and reports back, then dismisses itself.
  @Test func theCartArticlesStoresShareEachItemAndTheSheetReportsBack() async throws {
    let store = Store(initialState: Cart.State()) {
      Cart(checkout: .live(clock: ContinuousClock()), makeID: .live, clock: ContinuousClock())
    }
    store.send(.addItemTapped(name: "Tea"))
    store.send(.addItemTapped(name: "Milk"))
    let rows = store.scope(state: \.items, action: .items)  // one store per item, by id
    #expect(rows.map(\.state.name) == ["Tea", "Milk"])
    let milk = try #require(rows.last).state.id

    // Forward: a row pushes the item's id, never a copy.
    store.send(.rowTapped(milk))
    let screens = store.scope(state: \.path, action: .path)  // the pushed routes
    let route = try #require(screens.last).state
    #expect(route == .itemEditor(milk))
    // The editor screen for a route is the store of the item it names:
    let editor = try #require(rows[id: route.itemID])
    editor.send(.noteChanged("oat"))
    editor.send(.quantityStepped(by: 1))
    #expect(store.items[id: milk]?.note == "oat")
    #expect(store.items[id: milk]?.quantity == 2)
    #expect(store.scope(state: \.items, action: .items)[id: milk]?.state.note == "oat")

    // Backward: the sheet edits a draft of its own, reports, and dismisses itself.
    #expect(store.scope(state: \.titleEditor, action: .titleEditor) == nil)
    store.send(.editTitleTapped)
    let sheet = try #require(store.scope(state: \.titleEditor, action: .titleEditor))
    sheet.send(.draftChanged("  Weekend "))
    #expect(store.title == Cart.State.defaultTitle)
    await sheet.send(.saveTapped).finish()
    #expect(store.title == "Weekend")
    #expect(store.titleEditor == nil)
    #expect(store.scope(state: \.titleEditor, action: .titleEditor) == nil)
  }
}
