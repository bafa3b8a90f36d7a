import Effects
import Testing

@testable import Store

/// An object held weakly.
private final class HeldWeakly {
  weak var object: AnyObject?
  init(_ object: AnyObject?) { self.object = object }
}

/// A second look at the ends that the screens of a filtered view's row (its list's items, their
/// stacks' screens, a sheet's list's items' stack screens) send on through the row's store when
/// the row leaves the view (ScreenLifecycle): the stores are let go with the row, an item added
/// back with its id is another item, screens two levels down (a presented sheet's stack's too)
/// end with their row, and an item removed while its row is hidden gets nothing.
@MainActor
@Suite struct FilteredRowNestedScreensSecondLookHuntTests {
  let clock = TestClock()

  private typealias Item = StackingItem
  private typealias Screen = SubscribingRow
  private typealias ListingRows = FilteredRows<ListingRow>
  private typealias PresentingRows = FilteredRows<SheetStackRow>

  private func makeHarness(_ warnings: WarningLog) -> Harness<ListingRows> {
    Harness(filteredRowsOn: clock, warnings: warnings)
  }

  /// Row 1's store as the list showing the view scopes it now.
  private func row(_ harness: Harness<ListingRows>) -> Store<ListingRow.State, ListingRow.Action>? {
    harness.shownRow()
  }

  /// The store of row 1's item 7 (of its own list).
  private func item(_ harness: Harness<ListingRows>) -> Store<Item.State, Item.Action>? {
    row(harness)?.scope(state: \.items, action: ListingRow.Action.itemsKey)[id: 7]
  }

  /// The store of the first screen of the stack of row 1's item 7.
  private func itemsScreen(_ harness: Harness<ListingRows>) -> Store<Screen.State, Screen.Action>? {
    item(harness)?.scope(state: \.path, action: Item.Action.pathKey)[id: 0]
  }

  /// The store of the first screen of the stack of item 8 of row 1's sheet's list.
  private func sheetsScreen(_ harness: Harness<ListingRows>) -> Store<Screen.State, Screen.Action>?
  {
    row(harness)?.scope(state: \.sheet, action: ListingRow.Action.sheetKey)?
      .scope(state: \.items, action: ItemsSheet<Item>.itemsKey)[id: 8]?
      .scope(state: \.path, action: Item.Action.pathKey)[id: 0]
  }

  /// Row 1's item 7's lifecycle actions `action` that the harness reduced.
  private func itemCount(_ action: ScreenLifecycleAction, in harness: Harness<ListingRows>) -> Int {
    count(.items(.element(id: 7, action: .lifecycle(action))), in: harness)
  }

  /// The lifecycle actions `action` of the first screen of the stack of row 1's item 7, or,
  /// `inSheet`, of its sheet's item 8.
  private func screenCount(
    _ action: ScreenLifecycleAction, inSheet: Bool = false, in harness: Harness<ListingRows>
  ) -> Int {
    let screenAction = Item.Action.path(.element(id: 0, action: .lifecycle(action)))
    return count(
      inSheet
        ? .sheet(.element(id: 8, action: screenAction))
        : .items(.element(id: 7, action: screenAction)),
      in: harness)
  }

  private func count(_ rowAction: ListingRow.Action, in harness: Harness<ListingRows>) -> Int {
    harness.count(rowAction)
  }

  /// Scopes row 1's store and every store beneath it that the tests look at, and returns them
  /// (their cores, and the collections' caches the stores hold) held weakly.
  private func scopeAll(_ harness: Harness<ListingRows>) -> [HeldWeakly] {
    var objects: [AnyObject?] = []
    let row = row(harness)
    let item = item(harness)
    let itemsScreen = itemsScreen(harness)
    let sheetsScreen = sheetsScreen(harness)
    objects += [row, row?.core, item, item?.core, itemsScreen, itemsScreen?.core]
    objects += [sheetsScreen, sheetsScreen?.core]
    objects += row.map { Array($0.children.values) } ?? []
    objects += item.map { Array($0.children.values) } ?? []
    #expect(objects.allSatisfy { $0 != nil })
    #expect(objects.count >= 10, "the row's and the item's caches")
    return objects.map(HeldWeakly.init)
  }

  // MARK: - Leaks

  /// The row leaves the view: its store, its items' and their stacks' screens' stores, a
  /// sheet's, their cores and their collections' caches are all let go (nothing else holds
  /// them), and so they are once the row is removed while hidden.
  @Test(arguments: [false, true])
  func aHiddenRowsStoresAreLetGo(thenRemoved: Bool) {
    let warnings = WarningLog()
    let harness = makeHarness(warnings)
    let held = scopeAll(harness)
    harness.send(.hide(1))
    if thenRemoved { harness.send(.delete(1)) }
    harness.send(.hide(2))
    let kept = held.enumerated().filter { $0.element.object != nil }.map(\.offset)
    #expect(kept.isEmpty, "still held: \(kept)")
    #expect(warnings.messages.isEmpty, "\(warnings.messages)")
  }

  /// Tasks of an item and of its stack's screen run as the row leaves the view and end while
  /// it is hidden, their ends sent on through the row's store: then every store of the row is
  /// let go, and so they are once the row is shown again (the new stores' alone are held).
  @Test func storesWhoseTasksEndedWhileTheRowWasHiddenAreLetGo() async {
    let warnings = WarningLog()
    let harness = makeHarness(warnings)
    let held = scopeAll(harness)
    await harness.runTask(of: item(harness), Item.Action.lifecycleKey) {
      await harness.runTask(of: itemsScreen(harness), Screen.Action.lifecycleKey) {
        harness.send(.hide(1))
      }
    }
    #expect(itemCount(.taskEnded, in: harness) == 1)
    #expect(screenCount(.taskEnded, in: harness) == 1)
    #expect(clock.sleeperCount == 0)
    harness.send(.hide(2))
    var kept = held.enumerated().filter { $0.element.object != nil }.map(\.offset)
    #expect(kept.isEmpty, "still held while hidden: \(kept)")

    harness.send(.show(1))
    let shownAgain = scopeAll(harness)
    harness.send(.show(2))
    kept = held.enumerated().filter { $0.element.object != nil }.map(\.offset)
    #expect(kept.isEmpty, "still held once shown again: \(kept)")
    #expect(shownAgain.allSatisfy { $0.object != nil }, "the view holds the new row's stores")
    #expect(warnings.messages.isEmpty, "\(warnings.messages)")
  }

  // MARK: - An item added back with its id

  /// Documented edge (ScreenLifecycle): an item of a row's list removed, then added back with
  /// its id while the old item's task runs (SwiftUI's cancellation of it not yet seen), in the
  /// view or while its row was out of it, is taken for the old item, as a row of the view is
  /// (the row is a view's, whose items the view may have built anew: a removal cannot be told
  /// from a filter): a task started for it joins the old run, and does not start it; the last
  /// task's end warns that no task was running. A stack's screen pushed again with its id is
  /// told apart by its push (the replaced stack of FilteredRowNestedScreensHuntTests).
  @Test(arguments: [false, true])
  func anItemAddedBackWithItsIDWhileTheOldTaskRunsIsTakenForTheOldItem(rowHidden: Bool) async {
    let warnings = WarningLog()
    let harness = makeHarness(warnings)
    let old = item(harness)
    await harness.runTask(of: old, Item.Action.lifecycleKey) {
      if rowHidden { harness.send(.hide(1)) }
      harness.send(.rows(.element(id: 1, action: .removeItem(7))))
      harness.send(.rows(.element(id: 1, action: .addItem(7))))
      if rowHidden { harness.send(.show(1)) }
      let new = item(harness)
      #expect(new != nil && new !== old)
      await harness.runTask(of: new, Item.Action.lifecycleKey) {
        #expect(harness.state.rows[id: 1]?.items[id: 7]?.lifecycle.isTaskRunning == false)
      }
      #expect(warnings.messages.isEmpty, "\(warnings.messages)")
    }
    #expect(itemCount(.taskStarted, in: harness) == 1, "the old item's start alone")
    #expect(itemCount(.taskEnded, in: harness) == 1)
    #expect(warnings.messages.count == 1)
    #expect(warnings.messages.first?.contains("says no task was running") == true)
  }

  // MARK: - Two levels

  /// A screen of the stack of an item of the row's sheet's list: the row leaves the view while
  /// its task runs, and its end reaches it, hidden with its row; shown again, a new task
  /// starts it again.
  @Test func aSheetsItemsStackScreenEndsWithItsRow() async {
    let warnings = WarningLog()
    let harness = makeHarness(warnings)
    await harness.runTask(of: sheetsScreen(harness), Screen.Action.lifecycleKey) {
      #expect(clock.sleeperCount == 1)
      harness.send(.hide(1))
    }
    let screen = { harness.state.rows[id: 1]?.sheet?.items[id: 8]?.path[id: 0] }
    #expect(screen()?.lifecycle.isTaskRunning == false)
    #expect(screenCount(.taskEnded, inSheet: true, in: harness) == 1)
    #expect(clock.sleeperCount == 0, "the hidden screen's subscription ended")
    #expect(warnings.messages.isEmpty, "\(warnings.messages)")

    harness.send(.show(1))
    await harness.runTask(of: sheetsScreen(harness), Screen.Action.lifecycleKey) {
      #expect(screen()?.lifecycle.isTaskRunning == true)
    }
    #expect(screenCount(.taskStarted, inSheet: true, in: harness) == 2)
    #expect(screenCount(.taskEnded, inSheet: true, in: harness) == 2)
    #expect(warnings.messages.isEmpty, "\(warnings.messages)")
  }

  /// The row leaves the view while both an item's task and its stack screen's task run: each
  /// end reaches its own screen, and both start again once the row is back.
  @Test func anItemAndItsStackScreenBothEndWithTheirRow() async {
    let warnings = WarningLog()
    let harness = makeHarness(warnings)
    let state = { harness.state.rows[id: 1]?.items[id: 7] }
    await harness.runTask(of: item(harness), Item.Action.lifecycleKey) {
      await harness.runTask(of: itemsScreen(harness), Screen.Action.lifecycleKey) {
        #expect(state()?.lifecycle.isTaskRunning == true)
        #expect(state()?.path[id: 0]?.lifecycle.isTaskRunning == true)
        harness.send(.hide(1))
      }
      #expect(state()?.path[id: 0]?.lifecycle.isTaskRunning == false)
      #expect(state()?.lifecycle.isTaskRunning == true, "the item's own task runs on")
    }
    #expect(state()?.lifecycle.isTaskRunning == false)
    #expect(itemCount(.taskEnded, in: harness) == 1)
    #expect(screenCount(.taskEnded, in: harness) == 1)
    #expect(clock.sleeperCount == 0)
    #expect(warnings.messages.isEmpty, "\(warnings.messages)")

    harness.send(.show(1))
    await harness.runTask(of: item(harness), Item.Action.lifecycleKey) {
      await harness.runTask(of: itemsScreen(harness), Screen.Action.lifecycleKey) {
        #expect(state()?.lifecycle.isTaskRunning == true)
        #expect(state()?.path[id: 0]?.lifecycle.isTaskRunning == true)
      }
    }
    #expect(itemCount(.taskStarted, in: harness) == 2)
    #expect(screenCount(.taskStarted, in: harness) == 2)
    #expect(itemCount(.taskEnded, in: harness) == 2)
    #expect(screenCount(.taskEnded, in: harness) == 2)
    #expect(warnings.messages.isEmpty, "\(warnings.messages)")
  }

  /// The row removed from the whole collection while hidden, with an item's task, its stack
  /// screen's and a sheet's item's stack screen's running: their ends reach no row, quietly
  /// (ScreenLifecycle), and every store is let go.
  @Test func endsOfARowRemovedWhileHiddenGoNowhereQuietly() async {
    let warnings = WarningLog()
    let harness = makeHarness(warnings)
    let held = scopeAll(harness)
    await harness.runTask(of: item(harness), Item.Action.lifecycleKey) {
      await harness.runTask(of: itemsScreen(harness), Screen.Action.lifecycleKey) {
        await harness.runTask(of: sheetsScreen(harness), Screen.Action.lifecycleKey) {
          #expect(clock.sleeperCount == 2)
          harness.send(.hide(1))
          harness.send(.delete(1))
        }
      }
    }
    #expect(harness.state.rows[id: 1] == nil)
    #expect(clock.sleeperCount == 0)
    // Sent, as the view cannot tell a removed row from a hidden one, and reaching no row.
    #expect(itemCount(.taskEnded, in: harness) == 1)
    #expect(screenCount(.taskEnded, in: harness) == 1)
    #expect(screenCount(.taskEnded, inSheet: true, in: harness) == 1)
    #expect(warnings.messages.isEmpty, "\(warnings.messages)")
    harness.send(.hide(2))
    let kept = held.enumerated().filter { $0.element.object != nil }.map(\.offset)
    #expect(kept.isEmpty, "still held: \(kept)")
  }

  // MARK: - A sheet's filtered list

  /// An item of a filtered view in the row's sheet, hidden by that filter while its task
  /// runs: its end reaches it, hidden, as a row of the top-level view does; and so it does when
  /// the row leaves the view too before the task ends.
  @Test(arguments: [false, true])
  func aSheetsItemHiddenByItsFilterEndsItsTask(rowHiddenToo: Bool) async {
    let warnings = WarningLog()
    let harness = makeHarness(warnings)
    let store = {
      row(harness)?.scope(state: \.sheet, action: ListingRow.Action.sheetKey)?
        .scope(state: \.visibleItems, action: ItemsSheet<Item>.itemsKey)[id: 8]
    }
    let state = { harness.state.rows[id: 1]?.sheet?.items[id: 8] }
    await harness.runTask(of: store(), Item.Action.lifecycleKey) {
      #expect(state()?.lifecycle.isTaskRunning == true)
      harness.send(.rows(.element(id: 1, action: .hideSheetItem(8))))
      if rowHiddenToo { harness.send(.hide(1)) }
    }
    #expect(state()?.lifecycle.isTaskRunning == false)
    #expect(count(.sheet(.element(id: 8, action: .lifecycle(.taskEnded))), in: harness) == 1)
    #expect(warnings.messages.isEmpty, "\(warnings.messages)")
  }

  // MARK: - A stack in a presented sheet

  /// The store of the first screen of the stack in row 1's presented sheet, as the list
  /// showing the view scopes it now.
  private func presentedScreen(
    _ harness: Harness<PresentingRows>
  ) -> Store<Screen.State, Screen.Action>? {
    harness.shownRow()?
      .scope(state: \.sheet, action: SheetStackRow.Action.sheetKey)?
      .scope(state: \.path, action: SheetStackRow.Action.pathKey)[id: 0]
  }

  /// The lifecycle actions `action` of the first screen of the stack in row 1's sheet.
  private func presentedCount(
    _ action: ScreenLifecycleAction, in harness: Harness<PresentingRows>
  ) -> Int {
    harness.count(.sheet(.presented(.element(id: 0, action: .lifecycle(action)))))
  }

  /// A screen of a stack in a sheet the row presents (row, sheet, stack screen): the row
  /// leaves the view while the screen's task runs, and the end reaches the screen, hidden with
  /// its row; shown again, a new task starts it again (ScreenLifecycle).
  @Test func aPresentedSheetsStackScreenEndsWithItsRow() async {
    let warnings = WarningLog()
    let harness = Harness<PresentingRows>(filteredRowsOn: clock, warnings: warnings)
    let screen = { harness.state.rows[id: 1]?.sheet?.path[id: 0] }
    await harness.runTask(of: presentedScreen(harness), Screen.Action.lifecycleKey) {
      #expect(screen()?.lifecycle.isTaskRunning == true)
      #expect(clock.sleeperCount == 1)
      harness.send(.hide(1))
    }
    #expect(screen()?.lifecycle.isTaskRunning == false)
    #expect(presentedCount(.taskEnded, in: harness) == 1)
    #expect(clock.sleeperCount == 0, "the hidden screen's subscription ended")
    #expect(warnings.messages.isEmpty, "\(warnings.messages)")

    harness.send(.show(1))
    await harness.runTask(of: presentedScreen(harness), Screen.Action.lifecycleKey) {
      #expect(screen()?.lifecycle.isTaskRunning == true)
    }
    #expect(presentedCount(.taskStarted, in: harness) == 2)
    #expect(presentedCount(.taskEnded, in: harness) == 2)
    #expect(warnings.messages.isEmpty, "\(warnings.messages)")
  }

  /// The presented sheet's stack screen shown again with its row before the old store's task
  /// ends: the new store's task joins the old run (one start, no warning that a task was
  /// already running), and the last task's end ends it.
  @Test(.timeLimit(.minutes(30)))
  func aPresentedSheetsStackScreenShownAgainBeforeItsOldTaskEndsKeepsOneRun() async {
    let warnings = WarningLog()
    let harness = Harness<PresentingRows>(filteredRowsOn: clock, warnings: warnings)
    let isRunning = { harness.state.rows[id: 1]?.sheet?.path[id: 0]?.lifecycle.isTaskRunning }
    let (newTask, newPhasesEnd) = await harness.runAnOldTaskStartingANewOne(
      { presentedScreen(harness) }, Screen.Action.lifecycleKey, sending: [.hide(1), .show(1)],
      until: { presentedCount(.scenePhaseChanged(.active), in: harness) >= 2 })
    #expect(warnings.messages.isEmpty, "\(warnings.messages)")
    #expect(isRunning() == true)
    #expect(clock.sleeperCount == 1, "the screen's subscription runs on")
    #expect(presentedCount(.taskEnded, in: harness) == 0)

    newPhasesEnd.finish()
    await newTask.task?.value
    harness.settle()
    #expect(isRunning() == false)
    #expect(clock.sleeperCount == 0, "the new task's end ended the screen's subscription")
    #expect(presentedCount(.taskStarted, in: harness) == 1, "one run, started once")
    #expect(presentedCount(.taskEnded, in: harness) == 1)
    #expect(warnings.messages.isEmpty, "\(warnings.messages)")
  }

  // MARK: - An item removed while its row is hidden

  /// An item of the row's own list removed while the row is out of the view, its old task
  /// ending before the row is back: the end is sent (the row's store cannot tell a removal
  /// from a filter's) and reaches no item, quietly (ScreenLifecycle). Shown again, the row
  /// works as before: a new item, with another id, added while the row was hidden or once it
  /// is back, starts and ends its own task.
  @Test(arguments: [false, true])
  func anItemRemovedWhileItsRowIsHiddenGetsNothingAndTheRowWorksOnceBack(
    addedWhileHidden: Bool
  ) async {
    let warnings = WarningLog()
    let harness = makeHarness(warnings)
    await harness.runTask(of: item(harness), Item.Action.lifecycleKey) {
      #expect(harness.state.rows[id: 1]?.items[id: 7]?.lifecycle.isTaskRunning == true)
      harness.send(.hide(1))
      harness.send(.rows(.element(id: 1, action: .removeItem(7))))
    }
    #expect(harness.state.rows[id: 1]?.items[id: 7] == nil)
    #expect(itemCount(.taskEnded, in: harness) == 1, "sent, reaching no item")
    #expect(warnings.messages.isEmpty, "\(warnings.messages)")

    if addedWhileHidden { harness.send(.rows(.element(id: 1, action: .addItem(9)))) }
    harness.send(.show(1))
    if !addedWhileHidden { harness.send(.rows(.element(id: 1, action: .addItem(9)))) }
    let newItem = row(harness)?.scope(state: \.items, action: ListingRow.Action.itemsKey)[id: 9]
    #expect(newItem != nil)
    let isRunning = { harness.state.rows[id: 1]?.items[id: 9]?.lifecycle.isTaskRunning }
    await harness.runTask(of: newItem, Item.Action.lifecycleKey) {
      #expect(isRunning() == true)
    }
    #expect(isRunning() == false)
    let newItemCount = { (action: ScreenLifecycleAction) in
      count(.items(.element(id: 9, action: .lifecycle(action))), in: harness)
    }
    #expect(newItemCount(.taskStarted) == 1)
    #expect(newItemCount(.taskEnded) == 1)
    #expect(itemCount(.taskStarted, in: harness) == 1, "the old item's start alone")
    #expect(itemCount(.taskEnded, in: harness) == 1)
    #expect(warnings.messages.isEmpty, "\(warnings.messages)")
  }
}
