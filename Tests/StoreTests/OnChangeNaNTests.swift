import Effects
import Testing

@testable import Store

/// Settings with a reading that is not a number yet, as a sensor's or a form's can be.
private struct Settings: Equatable, Sendable {
  var volume = Double.nan
  var name = "x"
}

/// Saves the settings, with an action, after any action that changes them. The observer stops
/// sending after 50 saves, so that a regression fails instead of hanging the test process.
private struct SettingsApp: Reducer {
  struct State: Equatable {
    var settings = Settings()
    var taps = 0
    var saves = 0
    var seen: [String] = []
  }
  enum Action: Sendable, Equatable {
    case tapped
    case saved
    case renamed(String)
    case setVolume(Double)
  }
  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .tapped: state.taps += 1
      case .saved: state.saves += 1
      case .renamed(let name): state.settings.name = name
      case .setVolume(let volume): state.settings.volume = volume
      }
      return .none
    }
    .onChange(of: \.settings) { old, new in
      Reduce { state, _ in
        state.seen.append("\(old.volume),\(old.name) → \(new.volume),\(new.name)")
        return state.saves >= 50 ? .none : .send(.saved)
      }
    }
  }
}

@MainActor
@Suite struct OnChangeNaNTests {
  /// An action that leaves a value holding a NaN alone does not run the observer; before, it
  /// ran at every action, and an observer that sent one never let `send` return.
  @Test func aValueHoldingANaNLeftAloneIsNotAChange() {
    let harness = Harness(initialState: SettingsApp.State(), reducer: SettingsApp())
    harness.send(.tapped)
    harness.send(.tapped)
    #expect(harness.state.taps == 2)
    #expect(harness.state.saves == 0)
    #expect(harness.state.seen.isEmpty)
  }

  /// A change beside the NaN, or of the NaN to a number and back, runs the observer once each.
  @Test func aChangeBesideTheNaNOrOfItIsAChange() {
    let harness = Harness(initialState: SettingsApp.State(), reducer: SettingsApp())
    harness.send(.renamed("y"))
    harness.send(.setVolume(0.5))
    harness.send(.setVolume(.nan))
    harness.send(.setVolume(.nan))
    #expect(harness.state.saves == 3)
    #expect(harness.state.seen == ["nan,x → nan,y", "nan,y → 0.5,y", "0.5,y → nan,y"])
  }

  /// The comparison itself, part by part: a NaN is the same as a NaN (whatever its bits) in a
  /// number, a struct, an optional, an array, an enum's payload and a tuple; any other part
  /// that differs is a difference.
  @Test func valuesHoldingNaNsAreComparedPartByPart() {
    let quiet = Double.nan
    let signalling = Double.signalingNaN
    #expect(areEqualDespiteNaN(quiet, signalling))
    #expect(areEqualDespiteNaN(Settings(), Settings()))
    #expect(!areEqualDespiteNaN(Settings(), Settings(volume: .nan, name: "y")))
    // An array is equal to itself when it is the same buffer, NaN or not, and not equal to an
    // equal copy in another buffer: both are alike.
    let shared = [1, quiet, 3]
    #expect(
      areEqualDespiteNaN(Series(now: quiet, past: shared), Series(now: signalling, past: shared)))
    #expect(
      !areEqualDespiteNaN(
        Series(now: quiet, past: shared), Series(now: quiet, past: [1, quiet, 4])))
    #expect(areEqualDespiteNaN([1, quiet, 3], [1, quiet, 3]))
    #expect(areEqualDespiteNaN(Series(now: 1, past: shared), Series(now: 1, past: [1, quiet, 3])))
    #expect(!areEqualDespiteNaN(Series(now: 1, past: shared), Series(now: 2, past: shared)))
    #expect(areEqualDespiteNaN(Optional(Settings()), Optional(Settings())))
    #expect(areEqualDespiteNaN(Reading.measured(quiet, unit: "dB"), .measured(quiet, unit: "dB")))
    #expect(!areEqualDespiteNaN(Reading.measured(quiet, unit: "dB"), .measured(quiet, unit: "W")))
    #expect(!areEqualDespiteNaN(Reading.measured(quiet, unit: "dB"), .estimated(quiet)))
    // Equal to itself on one side: a plain difference, without a walk.
    #expect(!areEqualDespiteNaN(1.0, quiet))
    #expect(!areEqualDespiteNaN(Settings(volume: 1), Settings()))
  }

  /// Objects that are not `Equatable`: the same object is equal; another alike in every field
  /// is not (what compares such objects most likely compares their identity), and a cycle
  /// through them does not keep the comparison going.
  @Test func objectsAreTheSameObjectOrAlikeAndCyclesEnd() {
    let first = Node(value: .nan)
    first.next = first
    let second = Node(value: .nan)
    second.next = second
    #expect(areEqualDespiteNaN(Holder(node: first), Holder(node: first)))
    #expect(!areEqualDespiteNaN(Holder(node: first), Holder(node: second)))
  }
}

/// A reading with an enum payload that may be a NaN.
private enum Reading: Equatable {
  case measured(Double, unit: String)
  case estimated(Double)
}

/// An object in a cycle, holding a NaN; not `Equatable`.
private final class Node {
  var value: Double
  var label = "node"
  var next: Node?

  init(value: Double) {
    self.value = value
  }
}

/// A value that holds a NaN and an object, compared by identity.
private struct Holder: Equatable {
  var reading = Double.nan
  var node: Node

  static func == (lhs: Holder, rhs: Holder) -> Bool {
    lhs.reading == rhs.reading && lhs.node === rhs.node
  }
}

/// A reading now and the ones before.
private struct Series: Equatable {
  var now: Double
  var past: [Double]
}

/// A tree whose two branches are one value, nested: few values, but a path to the leaf for
/// every choice of branch.
private indirect enum SharedTree: Equatable {
  case leaf(Double)
  case node(SharedTree, SharedTree)

  /// A tree `levels` deep over a NaN leaf, each node's branches one value.
  static func nested(_ levels: Int) -> SharedTree {
    var tree = SharedTree.leaf(.nan)
    for _ in 0..<levels { tree = .node(tree, tree) }
    return tree
  }
}

@Suite struct NaNTolerantEqualityBudgetTests {
  /// A comparison visits at most `maxVisits` pairs: a tree of 2^20 paths counts as different
  /// (walked by paths, it took 70 seconds), while one of 2^6 is compared whole.
  @Test func aValueOfSharedPartsIsComparedWithinTheBudget() {
    #expect(NaNTolerantEquality.areEqual(SharedTree.nested(6), SharedTree.nested(6)))
    #expect(!NaNTolerantEquality.areEqual(SharedTree.nested(20), SharedTree.nested(20)))
  }
}
