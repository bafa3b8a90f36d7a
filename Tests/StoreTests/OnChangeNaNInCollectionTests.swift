import Effects
import Testing

@testable import Store

/// Samples, one of which is not a number yet, in an array and in a dictionary.
private struct Samples: Equatable, Sendable {
  var values: [Double] = [1, .nan, 3]
  var byName: [String: Double] = ["a": .nan, "b": 2]
  var rows: IdentifiedArrayOf<SampleRow> = [
    SampleRow(id: 1, value: .nan), SampleRow(id: 2, value: 2),
  ]
}

/// A row of samples.
private struct SampleRow: Equatable, Identifiable, Sendable {
  var id: Int
  var value: Double
}

/// Rebuilds each collection alike, in a buffer of its own, or changes one of them; saves the
/// samples, with an action, after any action that changes them. The observer stops sending
/// after 50 saves, so that a regression fails instead of hanging the test process.
private struct SamplesApp: Reducer {
  struct State: Equatable {
    var samples = Samples()
    var saves = 0
  }
  enum Action: Sendable, Equatable {
    case rebuiltAlike
    case changedArray
    case changedDictionary
    case changedRow
    case saved
  }
  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .rebuiltAlike:
        state.samples.values = state.samples.values.map { $0 }
        state.samples.byName = state.samples.byName.mapValues { $0 }
        state.samples.rows = IdentifiedArray(state.samples.rows.map { $0 })
      case .changedArray: state.samples.values[2] += 1
      case .changedDictionary: state.samples.byName["b", default: 0] += 1
      case .changedRow: state.samples.rows[id: 2]?.value += 1
      case .saved: state.saves += 1
      }
      return .none
    }
    .onChange(of: \.samples) { _, _ in
      Reduce { state, _ in state.saves >= 50 ? .none : .send(.saved) }
    }
  }
}

/// A NaN held in an array, a dictionary or an identified array: `==` finds a value holding one
/// equal to itself through the collection's shared storage, so whether the value was equal to
/// itself could not tell a NaN was there. An action that rebuilt such a collection alike ran
/// the observer, and an observer that sent that action again looped.
@MainActor
@Suite struct OnChangeNaNInCollectionTests {
  @Test func aCollectionRebuiltAlikeIsNotAChange() {
    let harness = Harness(initialState: SamplesApp.State(), reducer: SamplesApp())
    harness.send(.rebuiltAlike)
    harness.send(.rebuiltAlike)
    #expect(harness.state.saves == 0)
  }

  @Test func aChangeInEachCollectionIsAChange() {
    let harness = Harness(initialState: SamplesApp.State(), reducer: SamplesApp())
    harness.send(.changedArray)
    #expect(harness.state.saves == 1)
    harness.send(.changedDictionary)
    #expect(harness.state.saves == 2)
    harness.send(.changedRow)
    #expect(harness.state.saves == 3)
    harness.send(.rebuiltAlike)
    #expect(harness.state.saves == 3)
  }

  /// The comparison itself: equal elements are compared by `==`, the ones it rejects walked.
  @Test func collectionsAreComparedElementByElement() {
    let values: [Double] = [1, .nan, 3]
    #expect(areEqualDespiteNaN(values, [1, .nan, 3]))
    #expect(!areEqualDespiteNaN(values, [1, .nan, 4]))
    #expect(!areEqualDespiteNaN(values, [1, .nan]))
    #expect(areEqualDespiteNaN(ContiguousArray(values), ContiguousArray([1, .nan, 3])))
    #expect(areEqualDespiteNaN(values[1...], [0, .nan, 3][1...]))
    #expect(areEqualDespiteNaN(["a": Double.nan, "b": 2], ["b": 2, "a": .nan]))
    #expect(!areEqualDespiteNaN(["a": Double.nan, "b": 2], ["a": .nan, "c": 2]))
    #expect(!areEqualDespiteNaN(["a": Double.nan, "b": 2], ["a": .nan, "b": 3]))
    #expect(areEqualDespiteNaN(Samples(), Samples()))
    var other = Samples()
    other.rows[id: 1]?.value = 0
    #expect(!areEqualDespiteNaN(Samples(), other))
    // Nested: an array of arrays, each holding a NaN.
    #expect(areEqualDespiteNaN([[Double.nan], [1, .nan]], [[.nan], [1, .nan]]))
    #expect(!areEqualDespiteNaN([[Double.nan], [1, .nan]], [[.nan], [2, .nan]]))
  }

  /// The elements `==` finds equal are neither walked nor counted against the walk's budget: a
  /// million samples holding one NaN are compared whole, and quickly.
  @Test func equalElementsAreNotWalked() {
    var values = [Double](repeating: 1, count: 1_000_000)
    values[500_000] = .nan
    let copy = values.map { $0 }
    // (Results taken first: a failed expectation prints the values it was given.)
    let copiesAreEqual = areEqualDespiteNaN(values, copy)
    #expect(copiesAreEqual)
    var changed = copy
    changed[999_999] = 2
    let changedIsEqual = areEqualDespiteNaN(values, changed)
    #expect(!changedIsEqual)
  }

  /// Objects whose `==` finds each equal to itself, and the two unequal, differ: their `==`
  /// tells them apart, by identity here, even when their fields are alike.
  @Test func objectsEachEqualToItselfDiffer() {
    #expect(!areEqualDespiteNaN(IdentityTracker(), IdentityTracker()))
    let tracker = IdentityTracker()
    #expect(areEqualDespiteNaN(tracker, tracker))
  }
}

/// An object compared by identity, holding a NaN.
private final class IdentityTracker: Equatable {
  let reading = Double.nan

  static func == (lhs: IdentityTracker, rhs: IdentityTracker) -> Bool { lhs === rhs }
}
