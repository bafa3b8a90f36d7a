import Store
import StoreTesting
import Testing

/// A point stored as a SIMD vector, as graphics and layout code does.
private struct Placement: Equatable {
  var position: SIMD2<Double>
  var tint: SIMD4<Float>
}

/// A holder of one object's identity.
private struct Selection: Equatable {
  var object: ObjectIdentifier
}

/// A class instance to take the identity of.
private final class Token {}

/// A struct of the user's with a description of its own, holding a vector.
private struct Unit: Equatable, CustomStringConvertible {
  var position: SIMD2<Float>
  var health: Int
  var description: String { "Unit" }
}

/// Values whose storage is a compiler builtin (`SIMD2<Double>`, `Float16`, `ObjectIdentifier`)
/// print their description: their mirror shows only `(Opaque Value)`, so any two of a type
/// printed the same, and a difference between them was reported as none that prints.
@Suite struct BuiltinValueDumpTests {
  @Test func vectorsPrintTheirElements() {
    #expect(StateDump.render(SIMD2<Double>(3, 4)) == "SIMD2<Double>(3.0, 4.0)")
    #expect(
      StateDump.render(Placement(position: [3, 4], tint: [1, 0, 0, 1])) == """
        Placement(
          position: SIMD2<Double>(3.0, 4.0)
          tint: SIMD4<Float>(1.0, 0.0, 0.0, 1.0)
        )
        """)
  }

  /// A struct of the user's that describes itself and holds a vector keeps printing its
  /// fields: printed as its description, a changed `health` was hidden (the second review).
  @Test func aDescribedStructHoldingAVectorPrintsItsFields() {
    let expected = Unit(position: SIMD2<Float>(1, 2), health: 100)
    var actual = expected
    actual.health = 1
    #expect(
      StateDiff.diff(expected: expected, actual: actual) == """
          Unit(
            … (1 unchanged)
        -   health: 100
        +   health: 1
          )
        """)
  }

  @Test func aChangedVectorShowsInTheDiff() {
    let expected = Placement(position: [3, 4], tint: [1, 0, 0, 1])
    var actual = expected
    actual.position.y = 5
    #expect(
      StateDiff.diff(expected: expected, actual: actual) == """
          Placement(
        -   position: SIMD2<Double>(3.0, 4.0)
        +   position: SIMD2<Double>(3.0, 5.0)
            … (1 unchanged)
          )
        """)
  }

  @Test func objectIdentifiersPrintTheirValue() {
    let first = Token()
    let second = Token()
    let rendered = StateDump.render(Selection(object: ObjectIdentifier(first)))
    #expect(rendered.contains("object: ObjectIdentifier(0x"), "\(rendered)")
    #expect(!rendered.contains("Opaque"), "\(rendered)")
    let difference = StateDiff.diff(
      expected: Selection(object: ObjectIdentifier(first)),
      actual: Selection(object: ObjectIdentifier(second)))
    #expect(difference?.contains("-   object: ObjectIdentifier(0x") == true, "\(difference ?? "")")
    withExtendedLifetime((first, second)) {}
  }

  @Test func setsAndDictionariesOfVectorsSortAndPair() {
    let expected: Set<SIMD2<Int>> = [[1, 1], [2, 2], [3, 3]]
    let actual: Set<SIMD2<Int>> = [[1, 1], [2, 5], [3, 3]]
    #expect(
      StateDump.render(expected) == """
        [
          SIMD2<Int>(1, 1)
          SIMD2<Int>(2, 2)
          SIMD2<Int>(3, 3)
        ]
        """)
    #expect(
      StateDiff.diff(expected: expected, actual: actual) == """
          [
            … (1 unchanged)
        -   SIMD2<Int>(2, 2)
        +   SIMD2<Int>(2, 5)
            … (1 unchanged)
          ]
        """)
    let scores: [SIMD2<Int>: String] = [[2, 0]: "b", [1, 0]: "a"]
    var changed = scores
    changed[[2, 0]] = "c"
    #expect(
      StateDiff.diff(expected: scores, actual: changed) == """
          [
            … (1 unchanged)
        -   SIMD2<Int>(2, 0): "b"
        +   SIMD2<Int>(2, 0): "c"
          ]
        """)
  }

  #if !((os(macOS) || targetEnvironment(macCatalyst)) && arch(x86_64))
    @Test func halfPrecisionNumbersPrintTheirValue() {
      #expect(StateDump.render(Float16(1.5)) == "1.5")
      #expect(StateDump.render([Float16(2), Float16(0.25)]) == "[\n  [0]: 2.0\n  [1]: 0.25\n]")
      #expect(
        StateDiff.diff(expected: [Float16(2)], actual: [Float16(3)]) == """
            [
          -   [0]: 2.0
          +   [0]: 3.0
            ]
          """)
      #expect(
        StateDump.render(Set([Float16(3), Float16(1), Float16(2)])) == "[\n  1.0\n  2.0\n  3.0\n]")
    }
  #endif
}
