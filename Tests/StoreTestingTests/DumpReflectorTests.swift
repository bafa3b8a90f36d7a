import Foundation
import Observation
import Testing

@testable import StoreTesting

private final class Node {
  var name: String
  var children: [Node] = []
  weak var parent: Node?

  init(_ name: String) { self.name = name }
}

private class Animal {
  var legs = 4
}

private final class Dog: Animal {
  var name = "Rex"
}

private final class Token {}

private struct Totals {
  var items = [1, 2]
  lazy var total = items.reduce(0, +)
  var unit: StaticString = "kg"
}

/// An object that `NSObject` describes: `<ObserverToken: 0x…>`.
private final class ObserverToken: NSObject {}

private final class DescribedToken: NSObject {
  override var description: String { "token 7" }
}

private final class Labelled: CustomStringConvertible {
  var description: String { "labelled" }
}

/// A class whose mirror says what it shows: its superclass's property is not added.
private final class Summarized: Animal, CustomReflectable {
  var secretCount = 3

  var customMirror: Mirror { Mirror(self, children: ["count": secretCount], displayStyle: .class) }
}

/// A struct whose mirror calls it a class.
private struct ClassLike: CustomReflectable {
  var customMirror: Mirror { Mirror(self, children: ["a": 1, "b": "x"], displayStyle: .class) }
}

@Observable private final class Counter {
  var count = 1
  var title = "a"
}

private indirect enum Chain {
  case link(Chain)
  case end
}

/// An ordered collection keyed by id, like an identified array: its storage is a dictionary
/// and an order, but its mirror shows a plain list.
private struct IdentifiedList: CustomReflectable {
  var order: [Int]
  var storage: [Int: String]

  var customMirror: Mirror {
    Mirror(self, unlabeledChildren: order.compactMap { storage[$0] }, displayStyle: .collection)
  }
}

private enum Tab: CustomStringConvertible {
  case home

  var description: String { "Home tab" }
}

private struct Point: Hashable {
  var x: Int
  var y: Int
}

@Suite struct DumpReflectorTests {
  private func render(_ value: Any, maxDepth: Int = DumpReflector.defaultMaxDepth) -> String {
    var reflector = DumpReflector(maxDepth: maxDepth)
    return reflector.node(for: value).rendered
  }

  @Test func aClassSeenAgainOnThePathPrintsACycleMarker() {
    let root = Node("root")
    let leaf = Node("leaf")
    root.children = [leaf]
    leaf.parent = root
    #expect(
      render(root) == """
        Node(
          name: "root"
          children: [
            [0]: Node(
              name: "leaf"
              children: []
              parent: Node(↻)
            )
          ]
          parent: nil
        )
        """)
  }

  @Test func aSelfReferenceFinishes() {
    let node = Node("self")
    node.children = [node, node]
    #expect(render(node).components(separatedBy: "Node(↻)").count == 3)
  }

  @Test func aClassSharedBySiblingsPrintsInFull() {
    let shared = Node("shared")
    #expect(!render([shared, shared]).contains("↻"))
  }

  /// A lazy property's storage printed as `$__lazy_storage_$_total`, and a `StaticString`
  /// without quotes (the dump hunt at stop 67).
  @Test func aLazyPropertyPrintsByItsNameAndAStaticStringInQuotes() {
    var totals = Totals()
    #expect(
      render(totals)
        == "Totals(\n  items: [\n    [0]: 1\n    [1]: 2\n  ]\n  total: nil\n  unit: \"kg\"\n)")
    _ = totals.total
    #expect(render(totals).contains("\n  total: 3\n"))
  }

  /// A case whose payload is an empty collection or object printed over three lines (the
  /// dump hunt at stop 67).
  @Test func aCaseWithAnEmptyPayloadPrintsOnOneLine() {
    enum Load {
      case loaded([Int])
      case found(names: [String: Int])
      case saved(Token)
    }
    #expect(render(Load.loaded([])) == ".loaded([])")
    #expect(render(Load.found(names: [:])) == ".found(names: [:])")
    #expect(render(Load.saved(Token())) == ".saved(Token())")
    #expect(render(Load.loaded([1])) == ".loaded(\n  [\n    [0]: 1\n  ]\n)")
  }

  @Test func inheritedPropertiesComeFirst() {
    #expect(render(Dog()) == "Dog(\n  legs: 4\n  name: \"Rex\"\n)")
  }

  @Test func aClassWithNoStoredPropertiesPrintsEmptyParenthesesOrItsDescription() {
    #expect(render(Token()) == "Token()")
    #expect(render(Labelled()) == "labelled")
  }

  @Test func aClassWithACustomMirrorShowsOnlyWhatItsMirrorSays() {
    #expect(render(Summarized()) == "Summarized(\n  count: 3\n)")
  }

  /// Not an object, so not on the path for cycles: printed as its mirror's children.
  @Test func aStructWhoseMirrorCallsItAClassPrintsItsChildren() {
    #expect(render(ClassLike()) == "ClassLike(\n  a: 1\n  b: \"x\"\n)")
  }

  @Test func deepNestingStopsAtTheLimit() {
    var chain = Chain.end
    for _ in 0..<200 { chain = .link(chain) }
    let lines = render(chain).split(separator: "\n")
    #expect(lines.contains { $0.contains("…") })
    #expect(lines.count < 200)
    #expect(render(Chain.link(.link(.end)), maxDepth: 2) == ".link(.link(…))")
  }

  /// A key path showed its only stored property, a pointer: `\Point.x` printed as
  /// `WritableKeyPath<Point, Int>(_kvcKeyPathStringPtr: UnsafePointer<Int8>(pointerValue: …))`,
  /// and every computed path of a type as `_kvcKeyPathStringPtr: nil`.
  @Test func keyPathsPrintAsSwiftWritesThem() {
    #expect(render(\Point.x) == #"\Point.x"#)
    #expect(
      StateDiff.diff(expected: [\Point.x], actual: [\Point.y]) == #"""
          [
        -   [0]: \Point.x
        +   [0]: \Point.y
          ]
        """#)
    // A computed property's address changes from run to run.
    let computed = render(\[Int].[0])
    #expect(
      computed.hasPrefix(#"\Array<Int>.<computed"#) && !computed.contains("0x"), "\(computed)")
  }

  /// An observable class showed its properties' backing storage (`_count`) and its
  /// registrar's bookkeeping, an id counter and the key paths observed, six levels deep: an
  /// object observed once diffed against one never observed as changed.
  @Test func anObservableClassPrintsItsTrackedPropertiesByName() {
    let observed = Counter()
    withObservationTracking {
      _ = observed.count
    } onChange: {
    }
    #expect(render(observed) == "Counter(\n  count: 1\n  title: \"a\"\n)")
    let other = Counter()
    other.title = "b"
    #expect(
      StateDiff.diff(expected: observed, actual: other) == """
          Counter(
            … (1 unchanged)
        -   title: "a"
        +   title: "b"
          )
        """)
  }

  /// An object with no stored properties that `NSObject` describes printed its address,
  /// `<ObserverToken: 0x00007f5aa80f5920>`, new each run.
  @Test func anObjectDescribedByItsAddressPrintsAsItsType() {
    #expect(render(ObserverToken()) == "ObserverToken()")
    #expect(render(NSObject()) == "NSObject()")
    #expect(render(DescribedToken()) == "token 7")
  }

  @Test func customMirrorsAreHonoured() {
    let list = IdentifiedList(order: [2, 1], storage: [1: "one", 2: "two"])
    #expect(render(list) == "[\n  [0]: \"two\"\n  [1]: \"one\"\n]")
  }

  @Test func describedEnumWithoutPayloadPrintsItsDescription() {
    #expect(render(Tab.home) == "Home tab")
  }

  @Test func anyHashablePrintsWhatItWraps() {
    let keyed: [AnyHashable: Int] = ["a": 1]
    #expect(render(keyed) == "[\n  \"a\": 1\n]")
  }

  @Test func structuredKeysPrintOnOneLine() {
    let grid = [Point(x: 1, y: 2): "b", Point(x: 0, y: 5): "a"]
    #expect(render(grid) == "[\n  Point(x: 0, y: 5): \"a\"\n  Point(x: 1, y: 2): \"b\"\n]")
  }

  @Test func leafTextCoversTextFoundationAndMetatypes() {
    #expect(DumpReflector.leafText(of: "a") == "\"a\"")
    #expect(DumpReflector.leafText(of: Substring("a")) == "\"a\"")
    #expect(DumpReflector.leafText(of: Character("c")) == "\"c\"")
    #expect(DumpReflector.leafText(of: Duration.seconds(2)) == "2.0 seconds")
    #expect(DumpReflector.leafText(of: Point.self) == "Point")
    #expect(DumpReflector.leafText(of: Point(x: 0, y: 0)) == nil)
    #expect(DumpReflector.leafText(of: 1) == nil)
  }

  @Test func customDescriptionIsDetected() {
    #expect(DumpReflector.hasCustomDescription(Tab.home))
    #expect(DumpReflector.hasCustomDescription(1))
    #expect(!DumpReflector.hasCustomDescription(Point(x: 0, y: 0)))
  }
}
