import Store
import Testing

@testable import StoreTesting

private struct Address {
  var city: String
  var street: String
}

private struct UserProfile {
  var address: Address
  var name: String
  var age: Int
}

private struct State {
  var profile: UserProfile
}

private struct Form {
  var username: String
  var password: Secret<String>
  var confirmation: Secret<String>
}

private struct Item: Hashable {
  var id: Int
  var title: String
}

private struct Row: Identifiable {
  var id: Int
  var title: String
}

private enum Phase {
  case idle
  case running(step: Int, label: String)
  case done(Item)
}

private final class Node {
  var name: String
  var next: Node?

  init(_ name: String) { self.name = name }
}

@Suite struct StateDiffTests {
  private static let state = State(
    profile: UserProfile(
      address: Address(city: "Paris", street: "Rue de Rivoli"), name: "Ada", age: 36))

  @Test func oneFieldChangeShowsThePathAndHidesTheSiblings() throws {
    var actual = Self.state
    actual.profile.address.city = "Lyon"
    let diff = try #require(StateDiff.diff(expected: Self.state, actual: actual))
    #expect(
      diff == """
          State(
            profile: UserProfile(
              address: Address(
        -       city: "Paris"
        +       city: "Lyon"
                … (1 unchanged)
              )
              … (2 unchanged)
            )
          )
        """)
    #expect(!diff.contains("Rue de Rivoli"))
    #expect(!diff.contains("Ada"))
    #expect(!diff.contains("36"))
  }

  /// A stack's screen shows as its state under its id, with no `Entry(id:element:)` around
  /// it (a new-user trial found the wrapper noisy), and is paired by id.
  @Test func aStackScreensChangeShowsUnderItsIDAsItsState() throws {
    var expected: StackState<Row> = [Row(id: 1, title: "a"), Row(id: 2, title: "b")]
    expected.popLast()
    expected.append(Row(id: 3, title: "c"))
    var actual = expected
    actual[id: expected.ids[1]]?.title = "changed"
    let diff = try #require(StateDiff.diff(expected: expected, actual: actual))
    #expect(
      diff == """
          StackState<Row>(
            entries: [
              … (1 unchanged)
              [id: #2]: Row(
                … (1 unchanged)
        -       title: "c"
        +       title: "changed"
              )
            ]
            … (1 unchanged)
          )
        """)
  }

  @Test func aSecretThatDiffersShowsWhereByNumberNeverWhat() throws {
    let expected = Form(username: "ada", password: Secret("hunter2"), confirmation: Secret("x"))
    var actual = expected
    actual.password = Secret("hunter3")
    let diff = try #require(StateDiff.diff(expected: expected, actual: actual))
    #expect(
      diff == """
          Form(
            … (1 unchanged)
        -   password: <redacted #1>
        +   password: <redacted #3>
            … (1 unchanged)
          )
        """)
    #expect(!diff.contains("hunter"))
    // Secrets that are equal give no diff, and a change elsewhere leaves them unnumbered.
    #expect(StateDiff.diff(expected: expected, actual: expected) == nil)
    var renamed = expected
    renamed.username = "bob"
    let other = try #require(StateDiff.diff(expected: expected, actual: renamed))
    #expect(!other.contains("#"))
  }

  /// A dictionary's values were read in its own order, which changes from run to run with the
  /// hash seed, and its secrets were numbered as they were read: the same failure numbered
  /// them differently each run.
  @Test func secretsInADictionaryAreNumberedInTheOrderOfTheirKeys() {
    let keys = ["a", "b", "c", "d", "e", "f", "g", "h"]
    let secrets = Dictionary(
      uniqueKeysWithValues: keys.enumerated().map { ($1, Secret("s\($0)")) })
    var reflector = DumpReflector(numberingRedactedValues: true)
    let lines = reflector.node(for: secrets).rendered.split(separator: "\n")
    // Typed one step at a time: as one `#expect` of two mapped chains, the expression took
    // about a second to type-check, at CI's limit (a clean-clone run failed on it).
    let shown: [String] = lines.dropFirst().dropLast().map(String.init)
    let expected: [String] = keys.enumerated().map { index, key in
      "  \"\(key)\": <redacted #\(index + 1)>"
    }
    #expect(shown == expected)
  }

  /// A login whose password is a secret, for a set's elements and a dictionary's keys.
  struct Login: Hashable {
    var name: String
    var password: Secret<String>
  }

  /// The secrets of a set's elements, and of a dictionary's keys, were numbered in the order
  /// the collection held them, which changes with the hash seed and the collection's
  /// capacity: one failure numbered them differently from run to run. They are numbered in
  /// the order of how the elements print without the numbers.
  @Test func secretsInASetsElementsAreNumberedInTheOrderTheElementsPrint() {
    let names = ["a", "b", "c", "d", "e", "f", "g", "h"]
    let logins = names.enumerated().map { Login(name: $1, password: Secret("p\($0)")) }
    var expected: [String] = []
    for (index, name) in names.enumerated() {
      expected += [
        "  StateDiffTests.Login(", "    name: \"\(name)\"",
        "    password: <redacted #\(index + 1)>", "  )",
      ]
    }
    // Held in other orders: a larger capacity, and the elements inserted the other way round.
    var roomy = Set<Login>(minimumCapacity: 1_000)
    for login in logins.reversed() { roomy.insert(login) }
    for set in [Set(logins), roomy] {
      var reflector = DumpReflector(numberingRedactedValues: true)
      let lines = reflector.node(for: set).rendered.split(separator: "\n")
      let shown: [String] = lines.dropFirst().dropLast().map(String.init)
      #expect(shown == expected)
    }
  }

  @Test func secretsInADictionarysKeysAreNumberedInTheOrderTheKeysPrint() {
    let names = ["a", "b", "c", "d", "e", "f", "g", "h"]
    let logins = names.enumerated().map { Login(name: $1, password: Secret("p\($0)")) }
    var expected: [String] = []
    for (index, name) in names.enumerated() {
      expected.append(
        "  StateDiffTests.Login(name: \"\(name)\", password: <redacted #\(index + 1)>): \(index)")
    }
    var roomy = [Login: Int](minimumCapacity: 1_000)
    for (index, login) in logins.enumerated().reversed() { roomy[login] = index }
    let plain = Dictionary(uniqueKeysWithValues: logins.enumerated().map { ($1, $0) })
    for dictionary in [plain, roomy] {
      var reflector = DumpReflector(numberingRedactedValues: true)
      let lines = reflector.node(for: dictionary).rendered.split(separator: "\n")
      let shown: [String] = lines.dropFirst().dropLast().map(String.init)
      #expect(shown == expected)
    }
  }

  @Test func equalValuesGiveNil() {
    #expect(StateDiff.diff(expected: Self.state, actual: Self.state) == nil)
    #expect(StateDiff.diff(expected: [1, 2], actual: [1, 2]) == nil)
    #expect(StateDiff.diff(expected: Int?.none as Any, actual: Int?.none as Any) == nil)
  }

  @Test func enumCaseChangePrintsBothValuesWhole() {
    let diff = StateDiff.diff(
      expected: Phase.running(step: 1, label: "fetch"),
      actual: Phase.done(Item(id: 1, title: "a")))
    #expect(
      diff == """
        - .running(
        -   step: 1
        -   label: "fetch"
        - )
        + .done(
        +   Item(
        +     id: 1
        +     title: "a"
        +   )
        + )
        """)
  }

  @Test func samePayloadCaseDiffsInsideThePayload() {
    let diff = StateDiff.diff(
      expected: Phase.running(step: 1, label: "fetch"),
      actual: Phase.running(step: 2, label: "fetch"))
    #expect(diff == "  .running(\n-   step: 1\n+   step: 2\n    … (1 unchanged)\n  )")
  }

  @Test func arrayElementChanged() {
    let diff = StateDiff.diff(expected: ["a", "b", "c"], actual: ["a", "x", "c"])
    #expect(
      diff == """
          [
            … (1 unchanged)
        -   [1]: "b"
        +   [1]: "x"
            … (1 unchanged)
          ]
        """)
  }

  @Test func arrayElementInserted() {
    let expected = [Item(id: 1, title: "a"), Item(id: 2, title: "b")]
    let actual = [Item(id: 1, title: "a"), Item(id: 3, title: "c"), Item(id: 2, title: "b")]
    #expect(
      StateDiff.diff(expected: expected, actual: actual) == """
          [
            … (1 unchanged)
        +   [1]: Item(
        +     id: 3
        +     title: "c"
        +   )
            … (1 unchanged)
          ]
        """)
  }

  @Test func identifiedElementsPairByIDNotPosition() {
    // The first row removed and the last one edited: one removal and one change, not every
    // row shown as changed because the positions shifted.
    let expected = (1...4).map { Row(id: $0, title: "row \($0)") }
    var actual = Array(expected.dropFirst())
    actual[2].title = "edited"
    actual.append(Row(id: 9, title: "new"))
    #expect(
      StateDiff.diff(expected: expected, actual: actual) == """
          [
        -   [0]: Row(
        -     id: 1
        -     title: "row 1"
        -   )
            … (2 unchanged)
            [2]: Row(
              … (1 unchanged)
        -     title: "row 4"
        +     title: "edited"
            )
        +   [3]: Row(
        +     id: 9
        +     title: "new"
        +   )
          ]
        """)
  }

  @Test func identifiedArrayRowsAreLabelledByID() throws {
    let expected: IdentifiedArrayOf<Row> = [
      Row(id: 7, title: "tea"), Row(id: 3, title: "milk"), Row(id: 5, title: "oats"),
    ]
    var actual = expected
    actual.remove(id: 7)
    actual[id: 5]?.title = "rye"
    actual.append(Row(id: 9, title: "jam"))
    #expect(
      StateDiff.diff(expected: expected, actual: actual) == """
          [
        -   [id: 7]: Row(
        -     id: 7
        -     title: "tea"
        -   )
            … (1 unchanged)
            [id: 5]: Row(
              … (1 unchanged)
        -     title: "oats"
        +     title: "rye"
            )
        +   [id: 9]: Row(
        +     id: 9
        +     title: "jam"
        +   )
          ]
        """)
  }

  @Test func aRowThatMovedInAnIdentifiedArrayIsPairedByID() throws {
    let rows = (1...4).map { Row(id: $0, title: "row \($0)") }
    let expected = try IdentifiedArrayOf<Row>(uniqueElements: rows)
    // Row 1 moved to the end; row 3 changed in place.
    var moved = Array(rows.dropFirst()) + [rows[0]]
    moved[1].title = "edited"
    let actual = try IdentifiedArrayOf<Row>(uniqueElements: moved)
    #expect(
      StateDiff.diff(expected: expected, actual: actual) == """
          [
        -   [id: 1]: Row(
        -     id: 1
        -     title: "row 1"
        -   )
            … (1 unchanged)
            [id: 3]: Row(
              … (1 unchanged)
        -     title: "row 3"
        +     title: "edited"
            )
            … (1 unchanged)
        +   [id: 1]: Row(
        +     id: 1
        +     title: "row 1"
        +   )
          ]
        """)
  }

  @Test func aLongArrayWithAFewChangesShowsThoseChanges() throws {
    let expected = Array(0..<3_000)
    var actual = expected
    actual.removeFirst()
    actual.append(3_000)
    actual.append(3_001)
    let diff = try #require(StateDiff.diff(expected: expected, actual: actual))
    #expect(
      diff == """
          [
        -   [0]: 0
            … (2999 unchanged)
        +   [2999]: 3000
        +   [3000]: 3001
          ]
        """)
  }

  @Test func arrayElementRemoved() {
    let diff = StateDiff.diff(expected: [1, 2, 3, 4], actual: [1, 2, 4])
    #expect(diff == "  [\n    … (2 unchanged)\n-   [2]: 3\n    … (1 unchanged)\n  ]")
  }

  @Test func dictionaryValueChanged() {
    let diff = StateDiff.diff(expected: ["a": 1, "b": 2], actual: ["a": 1, "b": 5])
    #expect(diff == "  [\n    … (1 unchanged)\n-   \"b\": 2\n+   \"b\": 5\n  ]")
  }

  @Test func dictionaryKeyAdded() {
    let diff = StateDiff.diff(expected: ["a": 1, "c": 3], actual: ["a": 1, "b": 2, "c": 3])
    #expect(diff == "  [\n    … (1 unchanged)\n+   \"b\": 2\n    … (1 unchanged)\n  ]")
  }

  /// Keys that print as an enum's case (`.apple`) keep their labels: taken for a tuple's
  /// positions (`.0`), they were dropped, and entries were paired by position.
  @Test func dictionaryWithEnumKeysNamesTheKeys() {
    enum Fruit: Hashable { case apple, pear, fig(size: Int) }
    let counts: [Fruit: Int] = [.apple: 1, .pear: 2, .fig(size: 3): 4]
    #expect(StateDump.render(counts) == "[\n  .apple: 1\n  .fig(size: 3): 4\n  .pear: 2\n]")
    var eaten = counts
    eaten[.apple] = nil
    #expect(
      StateDiff.diff(expected: counts, actual: eaten)
        == "  [\n-   .apple: 1\n    … (2 unchanged)\n  ]")
    let choices: [Int??: String] = [.some(nil): "none chosen", nil: "not asked"]
    #expect(
      StateDump.render(choices) == "[\n  .some(nil): \"none chosen\"\n  nil: \"not asked\"\n]")
  }

  @Test func optionalNilAgainstSome() {
    let diff = StateDiff.diff(
      expected: Item?.none as Any, actual: Item?.some(Item(id: 1, title: "a")) as Any)
    #expect(diff == "- nil\n+ Item(\n+   id: 1\n+   title: \"a\"\n+ )")
  }

  @Test func setsAlignByRendering() {
    let diff = StateDiff.diff(expected: Set([1, 2, 3]), actual: Set([1, 3, 4]))
    #expect(diff == "  [\n    … (1 unchanged)\n-   2\n    … (1 unchanged)\n+   4\n  ]")
  }

  @Test func differentTypesPrintBothValuesWhole() {
    #expect(StateDiff.diff(expected: 1, actual: "1") == "- 1\n+ \"1\"")
  }

  @Test func cyclicClassGraphsFinish() {
    let first = Node("a")
    first.next = Node("b")
    first.next?.next = first
    let second = Node("a")
    second.next = Node("c")
    second.next?.next = second
    #expect(
      StateDiff.diff(expected: first, actual: second) == """
          Node(
            … (1 unchanged)
            next: Node(
        -     name: "b"
        +     name: "c"
              … (1 unchanged)
            )
          )
        """)
    #expect(StateDiff.diff(expected: first, actual: first) == nil)
  }
}
