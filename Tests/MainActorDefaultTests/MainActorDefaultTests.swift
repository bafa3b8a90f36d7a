import Effects
import Observation
import Store
import StoreTesting
import Testing

/// A screen, as an app isolated to the main actor by default writes one: it holds the root
/// store and draws each item from the item's own store.
final class ChecklistScreen {
  let store: StoreOf<Checklist>
  private(set) var drawn: [String] = []

  init(store: StoreOf<Checklist>) {
    self.store = store
  }

  /// The item stores, one per item id.
  var items: IdentifiedStores<Int, Item.State, Item.Action> {
    store.scope(state: \.items, action: .items)
  }

  /// Draws the item with `id`, and again each time the item changes.
  func draw(itemWithID id: Int) {
    guard let item = items[id: id] else { return }
    withObservationTracking {
      drawn.append(item.title)
    } onChange: { [weak self] in
      MainActor.assumeIsolated { self?.draw(itemWithID: id) }
    }
  }
}

/// The features of `Checklist.swift`, compiled and run in a target whose code is isolated to
/// the main actor unless it says otherwise (`.defaultIsolation(MainActor.self)`): Xcode 26's
/// default for new app targets. Test functions are isolated to the main actor here without
/// `@MainActor`.
@Suite struct MainActorDefaultTests {
  @Test func savingInTheEditorRenamesTheItemAndClosesTheSheet() async {
    let store = TestStoreOf<Checklist>(
      initialState: Checklist.State(items: [Item.State(id: 1, title: "Milk")])
    ) {
      Checklist(clock: TestClock())
    }
    await store.send(.editTapped(id: 1)) {
      $0.editor = Editor.State(itemID: 1, title: "Milk")
    }
    await store.send(.editor(.presented(.titleChanged("Oat milk")))) {
      $0.editor?.title = "Oat milk"
    }
    await store.send(.editor(.presented(.saveTapped)))
    await store.receive(.editor(.presented(.delegate(.saved(id: 1, title: "Oat milk"))))) {
      $0.items[id: 1]?.title = "Oat milk"
    }
    await store.receive(.editor(.dismiss)) {
      $0.editor = nil
    }
    await store.finish()
  }

  @Test func removingAnItemCancelsItsSaveAndNotTheOthers() async {
    let clock = TestClock()
    let store = TestStoreOf<Checklist>(initialState: Checklist.State()) {
      Checklist(clock: clock)
    }
    await store.send(.addTapped(id: 1, title: "Milk")) {
      $0.items.append(Item.State(id: 1, title: "Milk"))
    }
    await store.send(.addTapped(id: 2, title: "Tea")) {
      $0.items.append(Item.State(id: 2, title: "Tea"))
    }
    await store.send(.items(.element(id: 1, action: .titleChanged("Oat milk")))) {
      $0.items[id: 1]?.title = "Oat milk"
    }
    await store.send(.items(.element(id: 2, action: .titleChanged("Green tea")))) {
      $0.items[id: 2]?.title = "Green tea"
    }
    await store.send(.removeTapped(id: 1)) {
      $0.items.remove(id: 1)
    }
    await clock.advance(by: .seconds(1))
    await store.receive(CaseKey.items[id: 2].appending(.saved)) {
      $0.items[id: 2]?.saveCount = 1
    }
    await store.finish()
  }

  @Test func poppingADetailScreenEndsItsTicks() async {
    let clock = TestClock()
    let store = TestStoreOf<Checklist>(
      initialState: Checklist.State(items: [Item.State(id: 1, title: "Milk")])
    ) {
      Checklist(clock: clock)
    }
    await store.send(.openTapped(id: 1)) {
      $0.path.append(Detail.State(itemID: 1))
    }
    let screen = StackElementID(rawValue: 0)
    await store.send(.path(.element(id: screen, action: .startTapped)))
    await clock.advance(by: .seconds(1))
    await store.receive(.path(.element(id: screen, action: .ticked))) {
      $0.path[id: screen]?.ticks = 1
    }
    await store.send(.path(.popFrom(id: screen))) {
      $0.path.pop(from: screen)
    }
    await clock.advance(by: .seconds(5))
    await store.finish()
  }

  @Test func aScreenRedrawsAnItemOnlyWhenThatItemChanges() {
    let store = Store(
      initialState: Checklist.State(items: [
        Item.State(id: 1, title: "Milk"), Item.State(id: 2, title: "Tea"),
      ])
    ) {
      Checklist(clock: TestClock())
    }
    let screen = ChecklistScreen(store: store)
    screen.draw(itemWithID: 1)
    #expect(screen.drawn == ["Milk"])

    store.send(.items(.element(id: 2, action: .titleChanged("Green tea"))))
    #expect(screen.drawn == ["Milk"])

    screen.items[id: 1]?.send(.titleChanged("Oat milk"))
    #expect(screen.drawn == ["Milk", "Oat milk"])
    #expect(store.items[id: 1]?.title == "Oat milk")
  }
}
