import Effects
import Testing

@testable import Store

/// A collection of element stores read by position after its element was replaced by another
/// with the same id: a removed row added back (an undo), or a stack replaced, whose screen ids
/// start over.
@MainActor
@Suite struct IdentifiedStoresTests {
  let clock = TestClock()

  /// A stack list made before the stack was replaced handed out its bottom screen's store;
  /// read again by position it gave the new bottom screen's store (ids start over in a new
  /// stack), which read and drove the newcomer (adversary trial F3).
  @Test func aStackListGivesTheScreenStoreItGaveBeforeAfterTheStackIsReplaced() {
    let warnings = WarningLog()
    var state = Todos.State()
    state.path.append(Row.State(id: 1, title: "one"))
    let harness = Harness(
      initialState: state, warnings: warnings.handler, reducer: Todos(clock: clock))
    let screens = harness.store.scope(state: \.path, action: .path)
    let bottom = screens[0]
    harness.send(.deepLink([7]))  // a new stack: its first screen is #0 too
    #expect(screens[0] === bottom)
    #expect(screens[0].title == "one")
    screens[0].send(.renamed("meant for screen one"))
    harness.settle()
    #expect(harness.state.path[0].title == "")
    #expect(warnings.messages.count == 1)
    // The collection now has the new screen's store, by id and by a new listing.
    let now = harness.store.scope(state: \.path, action: .path)
    #expect(screens[id: screens.ids[0]] === now[0])
    #expect(now[0] !== bottom)
    #expect(now[0].id == 7)
  }

  /// A row list made before a row was removed and another added with its id gave the
  /// newcomer's store for the old row's position, though it had handed out the old row's.
  @Test func aRowListGivesTheRowStoreItGaveBeforeAfterItsIDIsTakenByANewRow() {
    let warnings = WarningLog()
    var state = Todos.State()
    state.rows.append(Row.State(id: 1, title: "old"))
    let harness = Harness(
      initialState: state, warnings: warnings.handler, reducer: Todos(clock: clock))
    let rows = harness.store.scope(state: \.rows, action: .rows)
    let old = rows[0]
    harness.send(.removeRow(1))
    harness.send(.addRow(1))  // an undo, say: another row with the same id
    #expect(rows[0] === old)
    #expect(rows[0].title == "old")
    rows[0].send(.renamed("meant for the old row"))
    #expect(harness.state.rows[id: 1]?.title == "")
    #expect(warnings.messages.count == 1)
    // By id: the collection now.
    #expect(rows[id: 1] !== old)
    #expect(rows[id: 1] === harness.store.scope(state: \.rows, action: .rows)[0])
  }

  /// A row list that never handed out a position's store gives, once the row was removed and
  /// another took its id, the removed row's store that is still held elsewhere (a row view
  /// playing its removal), not the newcomer's.
  @Test func aRowListGivesTheListedRowsHeldStoreRatherThanTheNewcomersForItsID() {
    var state = Todos.State()
    state.rows.append(Row.State(id: 1, title: "old"))
    let harness = Harness(initialState: state, reducer: Todos(clock: clock))
    let rows = harness.store.scope(state: \.rows, action: .rows)
    let held = harness.store.scope(state: \.rows, action: .rows)[id: 1]!
    harness.send(.removeRow(1))
    harness.send(.addRow(1))
    let newcomer = harness.store.scope(state: \.rows, action: .rows)[0]
    #expect(newcomer !== held)
    #expect(rows[0] === held)
    #expect(rows[0].title == "old")
    #expect(rows[id: 1] === newcomer)
  }
}
