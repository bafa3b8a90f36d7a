import Testing

@testable import StoreTesting

@Suite struct DumpNodeTests {
  private static let point = DumpNode(
    kind: .object, name: "Point", typeName: "App.Point",
    children: [
      .init(label: "x", node: .leaf("1")),
      .init(label: "y", node: .leaf("2")),
    ])

  @Test func linesIndentChildrenOneLevelDeeper() {
    let lines = Self.point.lines(label: "origin", depth: 1)
    #expect(
      lines == [
        .init(depth: 1, text: "origin: Point("),
        .init(depth: 2, text: "x: 1"),
        .init(depth: 2, text: "y: 2"),
        .init(depth: 1, text: ")"),
      ])
  }

  @Test func indentedUsesTwoSpacesPerLevel() {
    #expect(DumpNode.Line(depth: 3, text: "x").indented == "      x")
  }

  @Test func emptyContainersPrintOnOneLine() {
    #expect(DumpNode(kind: .object, name: "Empty", typeName: "").rendered == "Empty()")
    #expect(DumpNode(kind: .collection, name: "", typeName: "").rendered == "[]")
    #expect(DumpNode(kind: .set, name: "", typeName: "").rendered == "[]")
    #expect(DumpNode(kind: .dictionary, name: "", typeName: "").rendered == "[:]")
    #expect(DumpNode(kind: .tuple, name: "", typeName: "").rendered == "()")
  }

  @Test func multilineLeavesStayInsideTheirIndentation() {
    let node = DumpNode(
      kind: .object, name: "Note", typeName: "",
      children: [.init(label: "body", node: .leaf("first\nsecond"))])
    #expect(node.rendered == "Note(\n  body: first\n    second\n)")
  }

  @Test func compactPutsATreeOnOneLine() {
    #expect(Self.point.compact == "Point(x: 1, y: 2)")
    let list = DumpNode(
      kind: .collection, name: "", typeName: "",
      children: [.init(label: "[0]", node: .leaf("1")), .init(label: "[1]", node: Self.point)])
    #expect(list.compact == "[1, Point(x: 1, y: 2)]")
    #expect(DumpNode.leaf("a\nb").compact == "a\\nb")
  }

  @Test func rendersLikeAgreesWithTheRenderedText() {
    var otherType = Self.point
    otherType.typeName = "Other.Point"
    var moved = Self.point
    moved.children[1].node = .leaf("3")
    // A description that spans lines, printed like the container.
    let described = DumpNode.leaf("Point(\n  x: 1\n  y: 2\n)")
    let array = DumpNode(kind: .collection, name: "", typeName: "")
    let set = DumpNode(kind: .set, name: "", typeName: "")
    let pairs = [
      (Self.point, otherType), (Self.point, moved), (Self.point, described), (array, set),
      (array, .leaf("[]")), (Self.point, .leaf("1")),
    ]
    for (first, second) in pairs {
      #expect(first.rendersLike(second) == (first.rendered == second.rendered))
    }
    #expect(Self.point.rendersLike(otherType))
    #expect(!Self.point.rendersLike(moved))
  }

  @Test func comparableNodesShareKindAndTypeOfObjects() {
    var other = Self.point
    other.typeName = "Other.Point"
    #expect(Self.point.isComparable(to: Self.point))
    #expect(!Self.point.isComparable(to: other))
    #expect(!DumpNode.leaf("1").isComparable(to: .leaf("1")))
    let array = DumpNode(kind: .collection, name: "", typeName: "")
    #expect(array.isComparable(to: array))
    #expect(!array.isComparable(to: DumpNode(kind: .set, name: "", typeName: "")))
  }
}
