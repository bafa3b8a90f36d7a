import Effects
import Testing

@testable import Store

/// Rows with a part that a row view's store scopes to; the parts count their reads.
private struct Bulk: Reducer {
  struct Part: Equatable, Sendable { var label = "" }
  struct Row: Equatable, Identifiable, Sendable {
    let id: Int
    var storedPart = Part()
    let reads: FiringCount
    var part: Part {
      reads.increment()
      return storedPart
    }
    static func == (lhs: Self, rhs: Self) -> Bool {
      lhs.id == rhs.id && lhs.storedPart == rhs.storedPart
    }
  }
  struct State { var rows: IdentifiedArrayOf<Row> }
  enum Action: Sendable {
    case rows(IdentifiedAction<Int, PartAction>)
    case markRead([Int])
  }
  enum PartAction: Sendable { case relabelled(String) }
  var body: some Reducer<State, Action> {
    Reduce { state, action in
      if case .markRead(let ids) = action {
        for id in ids { state.rows[id: id]?.storedPart.label = "read" }
      }
      return .none
    }
    .forEach(\.rows, action: .bulk) {
      Reduce<Row, PartAction> { row, action in
        if case .relabelled(let label) = action { row.storedPart.label = label }
        return .none
      }
    }
  }
}

extension CaseKey<Bulk.Action, IdentifiedAction<Int, Bulk.PartAction>> {
  fileprivate static var bulk: Self {
    Self(Bulk.Action.rows) { if case .rows(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<Bulk.PartAction, Bulk.PartAction> {
  fileprivate static var itself: Self { Self({ $0 }) { $0 } }
}

/// An action that changes more rows than their array's change record holds has every row
/// store that something read check its row; one that changes fewer has those rows' stores
/// alone check (IdentityAndNavigation, "A list of rows"). The guide said "a sixteenth of the
/// rows or more" for the first; the record holds 16, or a sixteenth rounded up to a power of
/// two (a docs audit found it).
@MainActor
@Suite struct BulkChangeCheckTests {
  /// Reads of the observed rows' parts after an action that marks `changed` of `count` rows.
  func readsAfterMarking(_ changed: Int, of count: Int) -> Int {
    let reads = FiringCount()
    let rows = (0..<count).map { Bulk.Row(id: $0, reads: reads) }
    let store = Store(initialState: Bulk.State(rows: IdentifiedArray(rows))) { Bulk() }
    let parts = store.scope(state: \.rows, action: .bulk).map {
      $0.scope(state: \.part, action: .itself)
    }
    let observers = parts.map { part in Tracker { _ = part.label } }
    let before = reads.value
    store.send(.markRead(Array(0..<changed)))
    withExtendedLifetime(observers) {}
    return reads.value - before
  }

  @Test func rowsWithinTheRecordAreCheckedAloneAndMoreHaveEveryReadRowChecked() {
    // 100 rows: a record of 16.
    #expect(readsAfterMarking(7, of: 100) == 7)
    #expect(readsAfterMarking(16, of: 100) == 16)
    #expect(readsAfterMarking(40, of: 100) >= 100)
    // 1,000 rows: a sixteenth (62.5) rounded up to 64.
    #expect(readsAfterMarking(63, of: 1_000) == 63)
    #expect(readsAfterMarking(200, of: 1_000) >= 1_000)
  }
}
