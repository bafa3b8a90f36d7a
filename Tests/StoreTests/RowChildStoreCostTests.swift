import Effects
import Testing

@testable import Store

/// A list of rows, each with a part a row's view scopes a store to, and an optional note;
/// the parts count their reads.
private struct Shelves: Reducer {
  struct Part: Equatable, Sendable {
    var label = ""
  }

  struct Row: Equatable, Identifiable, Sendable {
    let id: Int
    var storedPart = Part()
    var note: Part?
    let reads: FiringCount

    init(id: Int, note: Part? = nil, reads: FiringCount) {
      self.id = id
      self.note = note
      self.reads = reads
    }

    /// The part, counting its reads.
    var part: Part {
      reads.increment()
      return storedPart
    }

    static func == (lhs: Self, rhs: Self) -> Bool {
      lhs.id == rhs.id && lhs.storedPart == rhs.storedPart && lhs.note == rhs.note
    }
  }

  struct State {
    var rows: IdentifiedArrayOf<Row>
    var unrelated = 0
  }

  enum Action: Sendable {
    case rows(IdentifiedAction<Int, RowAction>)
    case unrelatedChanged
    case removeRow(Int)
    case relabelAll(String)
  }

  enum RowAction: Sendable {
    case part(PartAction)
    case note(PartAction)
    case noteToggled
  }

  enum PartAction: Sendable {
    case relabelled(String)
  }

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      if case .unrelatedChanged = action { state.unrelated += 1 }
      if case .removeRow(let id) = action { state.rows.remove(id: id) }
      if case .relabelAll(let label) = action {
        for position in state.rows.indices { state.rows[position].storedPart.label = label }
      }
      return .none
    }
    .forEach(\.rows, action: .rows) {
      Reduce<Row, RowAction> { row, action in
        switch action {
        case .part(.relabelled(let label)): row.storedPart.label = label
        case .note(.relabelled(let label)): row.note?.label = label
        case .noteToggled: row.note = row.note == nil ? Part() : nil
        }
        return .none
      }
    }
  }
}

extension CaseKey<Shelves.Action, IdentifiedAction<Int, Shelves.RowAction>> {
  fileprivate static var rows: Self {
    Self(Shelves.Action.rows) { if case .rows(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<Shelves.RowAction, Shelves.PartAction> {
  fileprivate static var part: Self {
    Self(Shelves.RowAction.part) { if case .part(let a) = $0 { a } else { nil } }
  }
  fileprivate static var note: Self {
    Self(Shelves.RowAction.note) { if case .note(let a) = $0 { a } else { nil } }
  }
}

@MainActor
@Suite struct RowChildStoreCostTests {
  let reads = FiringCount()

  fileprivate func store(rows count: Int) -> StoreOf<Shelves> {
    let rows = (0..<count).map { Shelves.Row(id: $0, reads: reads) }
    return Store(initialState: Shelves.State(rows: IdentifiedArray(rows))) { Shelves() }
  }

  /// A store scoped from a row's store (a row view's subview) was checked after every action
  /// the root dispatched: with 10,000 rows scrolled through once, an action that touched no
  /// row cost 14 ms. It is checked with its row, when the row may have changed.
  @Test func aRowsChildStoreIsCheckedOnlyWhenItsRowMayHaveChanged() {
    let store = store(rows: 100)
    let parts = store.scope(state: \.rows, action: .rows).map {
      $0.scope(state: \.part, action: .part)
    }
    let observers = parts.map { part in Tracker { _ = part.label } }
    let before = reads.value
    store.send(.unrelatedChanged)
    #expect(reads.value == before)
    store.send(.rows(.element(id: 7, action: .part(.relabelled("seven")))))
    #expect(observers[7].firings == 1)
    // Summed outside `#expect`, where `reduce(0, +)` is slow to type-check.
    let firings: Int = observers.map(\.firings).reduce(0, +)
    #expect(firings == 1)
    #expect(parts[7].label == "seven")
    // Only row 7's part was read again (once to compare, once just now).
    #expect(reads.value - before <= 3)
  }

  /// An optional child scoped from a row's store still goes away when the row drops it, and a
  /// new one comes with the next presentation: the row changed, so its hooks ran.
  @Test func aRowsOptionalChildStoreStillFollowsItsRow() {
    let store = store(rows: 3)
    let row = store.scope(state: \.rows, action: .rows)[1]
    #expect(row.scope(state: \.note, action: .note) == nil)
    row.send(.noteToggled)
    let note = try! #require(row.scope(state: \.note, action: .note))
    let observer = Tracker { _ = note.label }
    note.send(.relabelled("hello"))
    #expect(observer.firings == 1)
    #expect(note.label == "hello")
    store.send(.unrelatedChanged)
    row.send(.noteToggled)
    #expect(row.scope(state: \.note, action: .note) == nil)
    row.send(.noteToggled)
    let next = row.scope(state: \.note, action: .note)
    #expect(next != nil)
    #expect(next !== note)
  }

  /// A change to every row through its position reaches every row's child store.
  @Test func aChangeThroughPositionsReachesEveryRowsChildStore() {
    let store = store(rows: 20)
    let parts = store.scope(state: \.rows, action: .rows).map {
      $0.scope(state: \.part, action: .part)
    }
    let observers = parts.map { part in Tracker { _ = part.label } }
    store.send(.relabelAll("all"))
    #expect(observers.allSatisfy { $0.firings == 1 })
    #expect(parts.allSatisfy { $0.label == "all" })
  }

  /// A row's optional child store, held past the row's removal, learns that it is gone (its
  /// hooks run once more when the row's store is let go; otherwise they would never run
  /// again): its sends go on through the row's store to the `forEach`, which refuses them
  /// naming the row. (They were ignored as sent to "a child that has since been dismissed",
  /// which named neither the row nor its collection.)
  @Test func aRemovedRowsChildStoreKnowsItIsGone() {
    let warnings = WarningLog()
    let rows = (0..<2).map { Shelves.Row(id: $0, note: Shelves.Part(), reads: reads) }
    let store = RuntimeWarningHandler.$current.withValue(warnings.handler) {
      Store(initialState: Shelves.State(rows: IdentifiedArray(rows))) { Shelves() }
    }
    let note = try! #require(
      store.scope(state: \.rows, action: .rows)[1].scope(state: \.note, action: .note))
    store.send(.removeRow(1))
    note.send(.relabelled("late"))
    #expect(warnings.messages.count == 1)
    #expect(
      warnings.messages.first?.contains(
        "was sent to the element with id 1 of \\State.rows, but no element has that id") == true,
      "\(warnings.messages)")
  }
}
