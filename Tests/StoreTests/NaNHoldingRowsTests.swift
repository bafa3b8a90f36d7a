import Effects
import Testing

@testable import Store

/// A sensor's row whose reading is not taken yet: every row holds a NaN.
private struct SensorRow: Equatable, Identifiable, Sendable {
  var id: Int
  var name: String
  var reading = Double.nan
}

/// 120,000 rows, each holding a NaN; saves, with an action, after any action that changes them.
private struct SensorsApp: Reducer {
  struct State: Equatable {
    var rows = IdentifiedArray((0..<120_000).map { SensorRow(id: $0, name: "sensor \($0)") })
    var saves = 0
  }
  enum Action: Sendable, Equatable {
    /// Writes row 3's reading again, NaN as it was: the collection is written, not changed.
    case rewroteReading
    /// Renames row 3.
    case renamed
    /// Takes row 3's reading.
    case measured
    case saved
  }
  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .rewroteReading: state.rows[id: 3]?.reading = .nan
      case .renamed: state.rows[id: 3]?.name = "renamed"
      case .measured: state.rows[id: 3]?.reading = 21.5
      case .saved: state.saves += 1
      }
      return .none
    }
    .onChange(of: \.rows) { _, _ in
      Reduce { state, _ in state.saves >= 5 ? .none : .send(.saved) }
    }
  }
}

/// A collection whose every element holds a NaN, written by an action: the elements the action
/// did not write are the same bits before and after, and are taken as equal without a walk.
/// Each was walked through its mirror: 2,000 rows cost 0.06 to 0.1 s per action in a debug
/// build, and past 100,000 walked parts the value counted as changed, so `onChange` ran its
/// observer for a write that changed nothing (and a non-exhaustive step failed).
@MainActor
@Suite struct NaNHoldingRowsTests {
  @Test func aWriteThatChangesNothingIsNotAChange() {
    let harness = Harness(initialState: SensorsApp.State(), reducer: SensorsApp())
    harness.send(.rewroteReading)
    #expect(harness.state.saves == 0)
  }

  @Test func aChangeToOneRowIsAChange() {
    let harness = Harness(initialState: SensorsApp.State(), reducer: SensorsApp())
    harness.send(.renamed)
    #expect(harness.state.saves == 1)
    harness.send(.measured)
    #expect(harness.state.saves == 2)
  }

  /// The comparison itself, for an array, an identified array and a dictionary of such rows.
  @Test func copiedRowsAreEqualAndAChangedOneIsNot() {
    let rows = (0..<120_000).map { SensorRow(id: $0, name: "sensor \($0)") }
    var copy = rows
    copy.append(SensorRow(id: -1, name: "extra"))
    copy.removeLast()
    // (Results taken first: a failed expectation prints the values it was given.)
    let copiesAreEqual = areEqualDespiteNaN(rows, copy)
    #expect(copiesAreEqual)
    let identifiedCopiesAreEqual = areEqualDespiteNaN(
      IdentifiedArray(rows), IdentifiedArray(copy))
    #expect(identifiedCopiesAreEqual)
    let byID = Dictionary(uniqueKeysWithValues: rows.map { ($0.id, $0) })
    var byIDCopy = byID
    byIDCopy[-1] = SensorRow(id: -1, name: "extra")
    byIDCopy[-1] = nil
    let dictionaryCopiesAreEqual = areEqualDespiteNaN(byID, byIDCopy)
    #expect(dictionaryCopiesAreEqual)

    copy[119_999].name = "renamed"
    let renamedIsEqual = areEqualDespiteNaN(rows, copy)
    #expect(!renamedIsEqual)
    byIDCopy[7]?.reading = 1
    let measuredIsEqual = areEqualDespiteNaN(byID, byIDCopy)
    #expect(!measuredIsEqual)
  }

  /// Rows rebuilt alike, their names in new storage, are not the same bits, and are walked:
  /// still equal.
  @Test func rebuiltRowsAreWalkedAndEqual() {
    let rows = (0..<50).map {
      SensorRow(id: $0, name: "a sensor with a long name, number \($0)")
    }
    let rebuilt = rows.map {
      SensorRow(id: $0.id, name: String(decoding: Array($0.name.utf8), as: UTF8.self))
    }
    #expect(areEqualDespiteNaN(rows, rebuilt))
    var changed = rebuilt
    changed[49].name += "!"
    #expect(!areEqualDespiteNaN(rows, changed))
  }
}
