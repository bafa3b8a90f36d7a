import Testing

@testable import StoreTesting

@Suite struct TreeDifferTests {
  private func object(_ name: String, _ fields: [(String, DumpNode)]) -> DumpNode {
    DumpNode(
      kind: .object, name: name, typeName: name,
      children: fields.map { DumpNode.Child(label: $0.0, node: $0.1) })
  }

  private func text(_ lines: [TreeDiffer.Line]) -> String {
    lines.map(\.rendered).joined(separator: "\n")
  }

  @Test func equalTreesGiveNoLines() {
    let tree = object("A", [("x", .leaf("1"))])
    #expect(TreeDiffer.lines(expected: tree, actual: tree).isEmpty)
  }

  @Test func markersKeepColumnsAligned() {
    let line = DumpNode.Line(depth: 1, text: "x: 1")
    #expect(TreeDiffer.Line(marker: .context, line: line).rendered == "    x: 1")
    #expect(TreeDiffer.Line(marker: .removed, line: line).rendered == "-   x: 1")
    #expect(TreeDiffer.Line(marker: .inserted, line: line).rendered == "+   x: 1")
  }

  @Test func eachRunOfUnchangedSiblingsCollapsesToOneLine() {
    let fields = (0..<6).map { ("f\($0)", DumpNode.leaf("\($0)")) }
    var changed = fields
    changed[2].1 = .leaf("20")
    let lines = TreeDiffer.lines(expected: object("A", fields), actual: object("A", changed))
    #expect(
      text(lines) == """
          A(
            … (2 unchanged)
        -   f2: 2
        +   f2: 20
            … (3 unchanged)
          )
        """)
  }

  @Test func contextLinesAreTheAncestorsOnly() {
    let expected = object("A", [("b", object("B", [("c", .leaf("1"))]))])
    let actual = object("A", [("b", object("B", [("c", .leaf("2"))]))])
    let lines = TreeDiffer.lines(expected: expected, actual: actual)
    #expect(lines.map(\.marker) == [.context, .context, .removed, .inserted, .context, .context])
    #expect(lines.map(\.line.depth) == [0, 1, 2, 2, 1, 0])
  }

  @Test func differentTypesPrintWhole() {
    let expected = object("A", [("x", .leaf("1"))])
    let actual = object("B", [("x", .leaf("1"))])
    #expect(
      text(TreeDiffer.lines(expected: expected, actual: actual)) == """
        - A(
        -   x: 1
        - )
        + B(
        +   x: 1
        + )
        """)
  }

  @Test func childrenOnlyOneSideHasPrintWhole() {
    let expected = object("A", [("x", .leaf("1"))])
    let actual = object("A", [("x", .leaf("1")), ("y", object("B", [("z", .leaf("2"))]))])
    #expect(
      text(TreeDiffer.lines(expected: expected, actual: actual)) == """
          A(
            … (1 unchanged)
        +   y: B(
        +     z: 2
        +   )
          )
        """)
  }

  @Test func emptyCollectionGainingElements() {
    let empty = DumpNode(kind: .collection, name: "", typeName: "")
    var filled = empty
    filled.children = [.init(label: "[0]", node: .leaf("1"))]
    #expect(text(TreeDiffer.lines(expected: empty, actual: filled)) == "  [\n+   [0]: 1\n  ]")
  }
}
