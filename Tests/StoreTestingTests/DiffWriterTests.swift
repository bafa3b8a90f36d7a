import Testing

@testable import StoreTesting

private struct Columns {
  var left: [Int]
  var right: [Int]
}

private struct Note {
  var title = "Groceries"
  var text: String
}

private enum Shape {
  case dot
  case polygon([Int])
}

@Suite struct DiffWriterTests {
  /// A long label (a dictionary's key, a row's id) printed whole on each line of its entry: a
  /// value changed under a key of 1,000 characters made two lines of 1,009, and a field changed
  /// in a struct under it an opening line of 1,013.
  @Test func aLongKeyIsShortenedAsALongLineIs() throws {
    let key = String(repeating: "k", count: 1_000)
    let shortKey = "\"" + String(repeating: "k", count: 159) + "…[842 characters]…"
    let leaf = try #require(StateDiff.diff(expected: [key: 1], actual: [key: 2]))
    #expect(leaf == "  [\n-   \(shortKey): 1\n+   \(shortKey): 2\n  ]")
    let note = try #require(
      StateDiff.diff(expected: [key: Note(text: "a")], actual: [key: Note(text: "b")]))
    #expect(note.split(separator: "\n")[1] == "    \(shortKey): Note(")
    // Without a limit, lines are whole.
    let whole = try #require(StateDiff.diff(expected: [key: 1], actual: [key: 2], changeLimit: nil))
    #expect(whole.contains("\"\(key)\": 1"))
  }

  @Test func aCollectionChangedThroughoutStopsAtTheLimitAndCountsTheRest() throws {
    let values = Array(0..<20_000)
    let diff = try #require(StateDiff.diff(expected: values, actual: values.map { $0 + 1 }))
    // Checked first: a failure would print the whole diff otherwise.
    try #require(diff.count < 2_000)
    let lines = diff.split(separator: "\n")
    #expect(lines.count == 1 + 2 * 50 + 3)
    #expect(lines[1] == "-   [0]: 0")
    #expect(lines[100] == "+   [49]: 50")
    #expect(
      lines.suffix(3).joined(separator: "\n") == """
            … (19950 more changes left out)
          ]
        The diff shows the first 50 of 20000 changes (the limit is 50); set the test store's \
        `diffChangeLimit` to `nil` to see them all.
        """)
  }

  @Test func aReversedCollectionCountsEveryMovedElement() throws {
    let values = Array(0..<20_000)
    let diff = try #require(StateDiff.diff(expected: values, actual: Array(values.reversed())))
    try #require(diff.count < 2_000)
    #expect(diff.contains("… (19950 more changes left out)"))
    #expect(
      diff.hasSuffix(
        "The diff shows the first 50 of 20000 changes (the limit is 50); "
          + "set the test store's `diffChangeLimit` to `nil` to see them all."))
  }

  @Test func theChangesLeftOutIncludeThoseOfLaterContainers() {
    let expected = Columns(left: [1, 2, 3, 4], right: [5, 6])
    let actual = Columns(left: [2, 3, 4, 5], right: [6, 7])
    // The right column is not opened: its two changes are counted with the left's last two.
    #expect(
      StateDiff.diff(expected: expected, actual: actual, changeLimit: 3) == """
          Columns(
            left: [
        -     [0]: 1
        +     [0]: 2
        -     [1]: 2
        +     [1]: 3
        -     [2]: 3
        +     [2]: 4
              … (3 more changes left out)
            ]
          )
        The diff shows the first 3 of 6 changes (the limit is 3); set the test store's \
        `diffChangeLimit` to `nil` to see them all.
        """)
  }

  @Test func aDiffWithinTheLimitIsWhole() {
    let expected = Columns(left: [1, 2, 3], right: [5])
    let actual = Columns(left: [2, 3, 4], right: [6])
    let whole = StateDiff.diff(expected: expected, actual: actual, changeLimit: nil)
    #expect(StateDiff.diff(expected: expected, actual: actual, changeLimit: 4) == whole)
    #expect(whole?.contains("left out") == false)
    #expect(whole?.split(separator: "\n").count == 14)
  }

  @Test func aLargeValuePrintedWholeIsCutShortPastTheLines() {
    // One change, of eight lines at most: the polygon's twenty points do not fit.
    let diff = StateDiff.diff(
      expected: Shape.dot, actual: Shape.polygon(Array(0..<20)), changeLimit: 1)
    #expect(
      diff == """
        - .dot
        + .polygon(
        +   [
        +     [0]: 0
        +     [1]: 1
        +     [2]: 2
        +     [3]: 3
        +   … (cut short)
        """)
  }

  @Test func stringsThatSpanLinesDiffLineByLine() {
    let expected = Note(text: "line one\nline two\nline three")
    let actual = Note(text: "line one\nline 2\nline three")
    #expect(
      StateDiff.diff(expected: expected, actual: actual) == """
          Note(
            … (1 unchanged)
            text: \"\"\"
              line one
        -     line two
        +     line 2
              line three
              \"\"\"
          )
        """)
  }

  @Test func unchangedLinesFarFromAChangeCollapseAndATrailingSpaceShows() {
    let lines = (0..<20).map { "line \($0)" }
    var edited = lines
    edited[10] = "line 10 "
    let diff = StateDiff.diff(
      expected: lines.joined(separator: "\n"), actual: edited.joined(separator: "\n"))
    #expect(
      diff == """
          \"\"\"
            … (8 unchanged lines)
            line 8
            line 9
        -   line 10
        +   line 10\\u{20}
            line 11
            line 12
            … (7 unchanged lines)
            \"\"\"
        """)
  }

  @Test func aStringOnOneLineAgainstOneThatSpansLinesPrintsBothWhole() {
    #expect(StateDiff.diff(expected: "a", actual: "a\nb") == "- \"a\"\n+ \"a\\nb\"")
  }

  @Test func aLongTextThatChangedThroughoutStopsAtTheLimit() throws {
    let expected = (0..<10_000).map { "old \($0)" }.joined(separator: "\n")
    let actual = (0..<10_000).map { "new \($0)" }.joined(separator: "\n")
    let diff = try #require(StateDiff.diff(expected: expected, actual: actual))
    try #require(diff.count < 2_000)
    #expect(diff.contains("… (19950 more changes left out)"))
  }
}
