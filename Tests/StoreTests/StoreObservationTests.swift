import Effects
import Observation
import Testing

@testable import Store

/// Counts how often observation tracking fires for what `read` reads.
@MainActor
final class Tracker {
  private let count = FiringCount()
  private let read: @MainActor () -> Void

  init(_ read: @escaping @MainActor () -> Void) {
    self.read = read
    observe()
  }

  var firings: Int { count.value }

  /// Tracks `read` again, as a view does when it renders after a change.
  func observe() {
    withObservationTracking {
      read()
    } onChange: { [count] in
      count.increment()
    }
  }
}

final class FiringCount: Sendable {
  private let storage = Locked(0)
  var value: Int { storage.withLock { $0 } }
  func increment() { storage.withLock { $0 += 1 } }
}

@MainActor
@Suite struct StoreObservationTests {
  let clock = TestClock()

  func todos(rows: Range<Int>) -> Harness<Todos> {
    var state = Todos.State()
    for id in rows { state.rows.append(Row.State(id: id, title: "row \(id)")) }
    return Harness(initialState: state, reducer: Todos(clock: clock))
  }

  @Test func anObservedRowStoreKeptPastItsRemovalReadsTheRowAsTheLastActionLeftIt() {
    let harness = todos(rows: 0..<2)
    let row = harness.store.scope(state: \.rows, action: .rows)[id: 1]!
    // A view shows the row: it read the title, and reads it again after each change.
    let view = Tracker { _ = row.title }
    row.send(.renamed("Tea"))
    harness.send(.removeRow(1))
    #expect(view.firings == 1)
    #expect(row.title == "Tea")
    // Outside observation too, once something was read through the store.
    let read = harness.store.scope(state: \.rows, action: .rows)[id: 0]!
    _ = read.title
    read.send(.renamed("Milk"))
    harness.send(.removeRow(0))
    #expect(read.title == "Milk")
    // A store nothing was read through before the removal has the state it was made with.
    harness.send(.addRow(2))
    let neverRead = harness.store.scope(state: \.rows, action: .rows)[id: 2]!
    neverRead.send(.renamed("Eggs"))
    harness.send(.removeRow(2))
    #expect(neverRead.title == "")
  }

  @Test func aReadValueFiresOncePerChangeAndOtherValuesNever() {
    let store = Store(initialState: Pair.State()) { Pair() }
    let tracker = Tracker { _ = store.left.count }
    store.send(.right(.incrementTapped))
    #expect(tracker.firings == 0, "another value changed")
    store.send(.left(.incrementTapped))
    #expect(tracker.firings == 1)
    tracker.observe()
    store.send(.left(.incrementTapped))
    #expect(tracker.firings == 2)
  }

  @Test func aClassReferenceInStateFiresOnlyWhenAnotherObjectIsPutThere() {
    final class Session {}
    struct Holder: Reducer {
      struct State {
        var session = Session()
        var count = 0
      }
      enum Action: Sendable { case tick, newSession }
      func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .tick: state.count += 1
        case .newSession: state.session = Session()
        }
        return .none
      }
    }
    let store = Store(initialState: Holder.State()) { Holder() }
    let tracker = Tracker { _ = store.session }
    store.send(.tick)
    #expect(tracker.firings == 0, "another value changed")
    store.send(.newSession)
    #expect(tracker.firings == 1)
  }

  @Test func aValueThatIsNotEquatableFiresOnlyWhenItsBytesChange() {
    struct Filter {  // not Equatable
      var tags: [String] = []
      var limit = 10
    }
    struct Search: Reducer {
      struct State {
        var filter = Filter()
        var count = 0
      }
      enum Action: Sendable { case tick, tagAdded, limitRewritten, tagsRebuilt }
      func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .tick: state.count += 1
        case .tagAdded: state.filter.tags.append("new")
        case .limitRewritten: state.filter.limit = state.filter.limit
        case .tagsRebuilt: state.filter.tags = state.filter.tags.map { $0 }
        }
        return .none
      }
    }
    let store = Store(initialState: Search.State()) { Search() }
    let tracker = Tracker { _ = store.filter }
    store.send(.tick)
    #expect(tracker.firings == 0, "another value changed")
    store.send(.limitRewritten)
    #expect(tracker.firings == 0, "the same bytes written back")
    store.send(.tagAdded)
    #expect(tracker.firings == 1, "a change inside the array moves its buffer")
    tracker.observe()
    store.send(.tick)
    #expect(tracker.firings == 1)
    store.send(.tagsRebuilt)
    #expect(tracker.firings == 2, "an equal array in a new buffer counts as a change")
  }

  @Test func writingAnEqualValueFiresNothing() {
    let store = Store(initialState: Pair.State(left: .init(count: 3))) { Pair() }
    let tracker = Tracker { _ = store.left }
    // The reset writes 0 to both counters; left becomes 0, right stays 0 (equal write).
    let rightTracker = Tracker { _ = store.right }
    store.send(.resetTapped)
    #expect(tracker.firings == 1)
    #expect(rightTracker.firings == 0)
  }

  /// A value read through the store whose bytes did not change is equal without a call to
  /// its `==`: the state read whole is compared after every action, and the `==` the
  /// compiler writes for a large nested state can take many times its size in stack. (So a
  /// `Double` that stays NaN, unequal to itself, no longer fires at every action.)
  @Test func aValueWhoseBytesDidNotChangeIsNotComparedWithEquals() {
    struct Tripwire: Equatable {
      static func == (lhs: Self, rhs: Self) -> Bool {
        Issue.record("== was called on a value whose bytes did not change")
        return true
      }
    }
    struct Gauge: Reducer {
      struct State: Equatable {
        var count = 0
        var reading = Double.nan
        var tripwire = Tripwire()
      }
      enum Action: Sendable { case noChange, tick }
      func reduce(into state: inout State, action: Action) -> Effect<Action> {
        if case .tick = action { state.count += 1 }
        return .none
      }
    }
    let store = Store(initialState: Gauge.State()) { Gauge() }
    let whole = Tracker { _ = store.state }
    let reading = Tracker { _ = store.reading }
    store.send(.noChange)
    #expect(whole.firings == 0)
    store.send(.tick)
    #expect(whole.firings == 1)
    #expect(reading.firings == 0, "NaN, before and after")
  }

  @Test func readingTheWholeStateFiresWhenAnyPartChanges() {
    let store = Store(initialState: Pair.State()) { Pair() }
    let tracker = Tracker { _ = store.state.left }
    store.send(.right(.incrementTapped))
    #expect(tracker.firings == 1)
  }

  @Test func aScopedStoreFiresOnlyForItsSlice() {
    let store = Store(initialState: Pair.State()) { Pair() }
    let left = store.scope(state: \.left, action: .left)
    let tracker = Tracker { _ = left.count }
    store.send(.right(.incrementTapped))
    #expect(tracker.firings == 0)
    left.send(.incrementTapped)
    #expect(tracker.firings == 1)
  }

  @Test func aRowStoreFiresOnlyWhenItsRowChanges() {
    let harness = todos(rows: 0..<5)
    let rows = harness.store.scope(state: \.rows, action: .rows)
    let row2 = rows[2]
    let tracker = Tracker { _ = row2.title }
    rows[1].send(.renamed("sibling"))
    harness.send(.addRow(9))
    harness.send(.removeRow(4))
    #expect(tracker.firings == 0, "siblings changed, were added or removed")
    row2.send(.renamed("mine"))
    #expect(tracker.firings == 1)
    tracker.observe()
    harness.send(.rows(.element(id: 2, action: .renamed("mine"))))
    #expect(tracker.firings == 1, "an equal write")
    harness.send(.rows(.element(id: 2, action: .loaded)))
    #expect(tracker.firings == 1, "another field of the row changed")
  }

  @Test func aRowStoreFiresWhenTheWholeCollectionIsReplaced() {
    let harness = todos(rows: 0..<3)
    let row = harness.store.scope(state: \.rows, action: .rows)[id: 1]!
    let tracker = Tracker { _ = row.title }
    harness.send(.replaceRows([Row.State(id: 1, title: "reloaded"), Row.State(id: 5)]))
    #expect(tracker.firings == 1)
    #expect(row.title == "reloaded")
  }

  @Test func aRowStoreFiresWhenItsRowIsRemovedAndAddedBackInOneAction() {
    let harness = todos(rows: 0..<3)
    let row = harness.store.scope(state: \.rows, action: .rows)[id: 1]!
    let tracker = Tracker { _ = row.title }
    // Emptied and refilled, as a refresh does: row 1 keeps its store, with a new title.
    harness.send(.refreshRows([1, 2]))
    #expect(tracker.firings == 1)
    #expect(row.title == "")
    #expect(harness.store.scope(state: \.rows, action: .rows)[id: 1] === row)
  }

  @Test func aParentListingRowsFiresForAddsRemovesAndMovesNotRowContent() {
    let harness = todos(rows: 0..<3)
    let tracker = Tracker { _ = harness.store.scope(state: \.rows, action: .rows) }
    harness.send(.rows(.element(id: 1, action: .renamed("content only"))))
    #expect(tracker.firings == 0)
    harness.send(.addRow(7))
    #expect(tracker.firings == 1)
    tracker.observe()
    harness.send(.removeRow(0))
    #expect(tracker.firings == 2)
  }

  /// A change that moves the array's structure stamp but leaves its ids as they were (a
  /// refresh that replaces the rows with equal ones, or empties and refills them) notified a
  /// list showing the rows, which had nothing new to draw (observation trial).
  @Test func aListIsNotNotifiedWhenItsIDsStayTheSame() {
    let harness = todos(rows: 0..<3)
    let tracker = Tracker { _ = harness.store.scope(state: \.rows, action: .rows) }
    harness.send(.replaceRows((0..<3).map { Row.State(id: $0, title: "row \($0)") }))
    harness.send(.refreshRows([0, 1, 2]))
    harness.send(.replaceRows((0..<3).map { Row.State(id: $0, title: "reloaded") }))
    #expect(tracker.firings == 0)
    harness.send(.replaceRows([2, 1, 0].map { Row.State(id: $0) }))
    #expect(tracker.firings == 1)
    tracker.observe()
    harness.send(.refreshRows([2, 1]))
    #expect(tracker.firings == 2)
  }

  @Test func optionalChildrenFireWhenTheyComeAndGoAndForTheirOwnChanges() {
    var state = Todos.State()
    state.rows.append(Row.State(id: 1, title: "Milk"))
    let harness = Harness(initialState: state, reducer: Todos(clock: clock))
    let presence = Tracker {
      _ = harness.store.scope(state: \.editor, action: .editor)
    }
    harness.send(.rows(.element(id: 1, action: .renamed("Oat milk"))))
    #expect(presence.firings == 0)
    harness.send(.editTapped(1))
    #expect(presence.firings == 1)
    let editor = harness.store.scope(state: \.editor, action: .editor)!
    let title = Tracker { _ = editor.title }
    harness.send(.rows(.element(id: 1, action: .renamed("Soy milk"))))
    #expect(title.firings == 0)
    editor.send(.titleChanged("Rice milk"))
    #expect(title.firings == 1)
    presence.observe()
    editor.send(.cancelTapped)
    #expect(presence.firings == 2)
  }

  @Test func aRowChangedByAnActionAHookSentIsStillNoticed() {
    let harness = todos(rows: 1..<3)
    let row = harness.store.scope(state: \.rows, action: .rows)[0]
    let title = Tracker { _ = row.title }
    var hasSent = false
    // Registered after the row's: an observer that reacts to a change by sending an action.
    harness.core.afterDispatch {
      if !hasSent {
        hasSent = true
        harness.store.send(.rows(.element(id: 1, action: .renamed("renamed by a hook"))))
      }
      return true
    }
    harness.send(.addRow(3))
    #expect(harness.state.rows[id: 1]?.title == "renamed by a hook")
    #expect(title.firings == 1)
  }

  @Test func hooksThatSendAtEveryChangeAreStoppedWithAWarning() {
    let warnings = WarningLog()
    let harness = Harness(
      initialState: LogFeature.State(), warnings: warnings.handler, reducer: LogFeature())
    var sent = 0
    harness.core.afterDispatch {
      sent += 1
      harness.store.send(.record("echo \(sent)"))
      return true
    }
    harness.send(.start("x"))
    #expect(sent == RootCore<LogFeature>.hookRoundLimit)
    #expect(warnings.messages.count == 1)
    #expect(warnings.messages.first?.contains("feedback loop") == true)
  }

  @Test func enumCaseStoresFollowTheSameRule() {
    let harness = Harness(
      initialState: IfCaseLetReducerTests.Screen.State.list(Row.State(id: 1)),
      reducer: IfCaseLetReducerTests.Screen(clock: clock)
    )
    let list = harness.store.scope(
      state: .list,
      action: .list
    )
    let tracker = Tracker { _ = list?.title }
    list?.send(.loadTapped)
    harness.settle()
    #expect(tracker.firings == 0, "no change to the title")
    list?.send(.renamed("x"))
    #expect(tracker.firings == 1)
    let presence = Tracker {
      _ = harness.store.scope(
        state: .list,
        action: .list
      )
    }
    harness.send(.showEmpty)
    #expect(presence.firings == 1)
  }
}

extension StoreObservationTests {
  /// A view that shows a list by reading it through the store (`ForEach(store.rows)`) is
  /// notified of its changes, and costs no copy of the list: the store follows the list's
  /// version stamps instead of keeping a copy, which would make the next change to one row
  /// copy every row.
  @Test func aListReadThroughTheStoreIsFollowedWithoutACopy() {
    let harness = todos(rows: 0..<10_000)
    let list = Tracker { _ = harness.store.rows }
    let stack = Tracker { _ = harness.store.path }
    func rowsBuffer() -> UnsafeRawPointer? {
      harness.core.untrackedState.rows.storage.withUnsafeBufferPointer {
        UnsafeRawPointer($0.baseAddress)
      }
    }
    let before = rowsBuffer()
    harness.send(.rows(.element(id: 5, action: .renamed("five"))))
    #expect(rowsBuffer() == before, "the rows were copied")
    #expect(list.firings == 1)
    #expect(stack.firings == 0)

    list.observe()
    harness.send(.editTapped(5))
    #expect(list.firings == 1, "another value changed")
    harness.send(.openDetail(5))
    #expect(stack.firings == 1)
    #expect(list.firings == 1)
    harness.send(.removeRow(7))
    #expect(list.firings == 2)
    #expect(rowsBuffer() == before, "removing a row moved the others within their buffer")
  }
}

extension StoreObservationTests {
  /// A value read through a store once, outside observation tracking or by a view that is
  /// gone (a log line, a button's handler reading `store.state`), is compared after the next
  /// action, and forgotten once it changed: it does not keep a copy that makes every later
  /// change to a collection copy the whole collection, for the store's whole life.
  @Test func aValueReadOnceIsNotComparedAndCopiedAfterEveryActionForever() {
    let harness = todos(rows: 0..<10_000)
    func rowsBuffer() -> UnsafeRawPointer? {
      harness.core.untrackedState.rows.storage.withUnsafeBufferPointer {
        UnsafeRawPointer($0.baseAddress)
      }
    }
    _ = harness.store.state  // read once, outside observation tracking
    harness.send(.rows(.element(id: 5, action: .renamed("five"))))
    let before = rowsBuffer()
    harness.send(.rows(.element(id: 6, action: .renamed("six"))))
    #expect(rowsBuffer() == before, "the rows were copied by a read nobody observes")
    // A read that is observed still notifies, once per change.
    let view = Tracker { _ = harness.store.state }
    harness.send(.rows(.element(id: 7, action: .renamed("seven"))))
    #expect(view.firings == 1)
    view.observe()
    harness.send(.rows(.element(id: 8, action: .renamed("eight"))))
    #expect(view.firings == 2)
    let after = rowsBuffer()
    harness.send(.rows(.element(id: 9, action: .renamed("nine"))))
    #expect(rowsBuffer() == after)
  }
}
