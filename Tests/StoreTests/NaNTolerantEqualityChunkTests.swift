import Effects
import Testing

@testable import Store

/// The NaN-tolerant comparison of collections compares their elements a chunk at a time with
/// the standard library's `==`, and element by element only in a chunk `==` rejects: a NaN in
/// any chunk, at its borders, and from a slice's offset, is found as before. (Its cost, about
/// twice what `==` costs, is not timed here: tests do not time.)
@Suite struct NaNTolerantEqualityChunkTests {
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
