import Effects
import Testing

@testable import Store

/// A row of a long list.
private struct ListRow: Equatable, Identifiable, Sendable {
  var id: Int
  var title: String
  var isDone = false
}

/// The NaN-tolerant comparison of a collection that really changed, against `==` alone: it
/// compared the elements by `==` in a loop of its own, which a debug build leaves unspecialized,
/// so that `onChange` of a long list that changed cost 35 to 40 times what `==` costs (`==`,
/// which the standard library compiles optimized, had told it that the lists differ).
@Suite struct NaNTolerantEqualityCostTests {
  /// The shortest of five runs, in seconds.
  private static func shortestTime(of body: () -> Bool) -> Double {
    var shortest = Double.infinity
    for _ in 0..<5 {
      let start = ContinuousClock.now
      _ = body()
      let elapsed = ContinuousClock.now - start
      shortest = min(
        shortest,
        Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18)
    }
    return shortest
  }

  @Test func anArrayChangedAtItsEndCostsAboutWhatEqualityCosts() {
    let numbers = Array(0..<1_000_000)
    var changed = numbers
    changed[changed.count - 1] = -1
    #expect(!areEqualDespiteNaN(numbers, changed))
    let equality = Self.shortestTime { numbers == changed }
    let walk = Self.shortestTime { areEqualDespiteNaN(numbers, changed) }
    #expect(walk < 12 * equality + 0.005, "== took \(equality) s, the walk \(walk) s")
  }

  @Test func anIdentifiedArrayChangedAtItsEndCostsAboutWhatEqualityCosts() {
    let rows = IdentifiedArray((0..<100_000).map { ListRow(id: $0, title: "Row \($0)") })
    var changed = rows
    changed[changed.count - 1].isDone = true
    #expect(!areEqualDespiteNaN(rows, changed))
    let equality = Self.shortestTime { rows == changed }
    let walk = Self.shortestTime { areEqualDespiteNaN(rows, changed) }
    #expect(walk < 12 * equality + 0.005, "== took \(equality) s, the walk \(walk) s")
  }

  @Test func elementsAreStillComparedAcrossChunksAndFromASliceOffset() {
    var values = [Double](repeating: 1, count: 1_000)
    values[0] = .nan
    values[300] = .nan
    values[999] = .nan
    let rebuilt = values.map { $0 }
    #expect(areEqualDespiteNaN(values, rebuilt))
    #expect(areEqualDespiteNaN(values[1...], rebuilt[1...]))
    #expect(areEqualDespiteNaN(ContiguousArray(values), ContiguousArray(rebuilt)))
    var changed = rebuilt
    changed[998] = 2
    #expect(!areEqualDespiteNaN(values, changed))
    #expect(!areEqualDespiteNaN(values[1...], changed[1...]))
    #expect(!areEqualDespiteNaN(values[1...], rebuilt[2...] + [1]))
  }
}
