import Foundation
import Store
import Testing

@testable import StoreTesting

private struct Point {
  var x: Int
  var y: Int
}

private struct Empty {}

private struct Version: CustomStringConvertible {
  var description: String { "v2" }
}

private enum Outer {
  struct Inner {
    var isOn = true
  }
}

private enum Request {
  case idle
  case loading(id: Int)
  case loaded(Point)
  case moved(from: Point, to: Point)
}

private struct Tag: Identifiable {
  var id: String
}

private final class Account {
  var name = "Ada"
  var balance = 1.5
}

@Suite struct StateDumpTests {
  @Test func structPrintsLabelledPropertiesIndentedByTwo() {
    #expect(StateDump.render(Point(x: 1, y: -2)) == "Point(\n  x: 1\n  y: -2\n)")
  }

  @Test func aStacksScreenIDsPrintAsActionsAndWarningsPrintThem() {
    var path: StackState<String> = ["a", "b"]
    path.popLast()
    #expect(
      StateDump.render(path)
        == """
        StackState<String>(
          entries: [
            [id: #0]: "a"
          ]
          nextID: 2
        )
        """)
  }

  /// A UUID a counting generator made prints as a test writes it; a random one as hex
  /// (a new-user trial read `…000000000064` for the first id of `incrementing(from: 100)`).
  @Test func countedUUIDsPrintAsATestWritesThem() {
    struct Note: Identifiable, Equatable {
      var id: UUID
      var text = ""
    }
    let notes: IdentifiedArrayOf<Note> = [Note(id: UUID(counting: 100))]
    #expect(
      StateDump.render(notes)
        == "[\n  [id: UUID(counting: 100)]: StateDumpTests.Note(\n    id: UUID(counting: 100)\n    text: \"\"\n  )\n]"
    )
    let random = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!
    #expect(StateDump.render(Note(id: random)).contains("id: E621E1F8-C36C-495A-93FC-0C247A3E6E5F"))
    // The largest number a counted UUID holds, and the smallest UUID that is not one.
    #expect(StateDump.render(UUID(counting: -1)) == "UUID(counting: 281474976710655)")
    let notCounted = UUID(uuidString: "00000000-0000-0000-0001-000000000000")!
    #expect(StateDump.render(notCounted) == "00000000-0000-0000-0001-000000000000")
  }

  @Test func classPrintsLikeAStruct() {
    #expect(StateDump.render(Account()) == "Account(\n  name: \"Ada\"\n  balance: 1.5\n)")
  }

  @Test func childlessTypesPrintEmptyParenthesesOrTheirDescription() {
    #expect(StateDump.render(Empty()) == "Empty()")
    #expect(StateDump.render(Version()) == "v2")
  }

  @Test func nestedTypesKeepTheirEnclosingTypeButNotTheirModule() {
    #expect(StateDump.render(Outer.Inner()) == "Outer.Inner(\n  isOn: true\n)")
  }

  @Test func enumCases() {
    #expect(StateDump.render(Request.idle) == ".idle")
    #expect(StateDump.render(Request.loading(id: 7)) == ".loading(id: 7)")
    #expect(
      StateDump.render(Request.loaded(Point(x: 1, y: 2)))
        == """
        .loaded(
          Point(
            x: 1
            y: 2
          )
        )
        """)
    #expect(
      StateDump.render(Request.moved(from: Point(x: 0, y: 0), to: Point(x: 1, y: 1)))
        == """
        .moved(
          from: Point(
            x: 0
            y: 0
          )
          to: Point(
            x: 1
            y: 1
          )
        )
        """)
  }

  @Test func optionalsPrintNilOrTheWrappedValue() {
    #expect(StateDump.render(Int?.none as Any) == "nil")
    #expect(StateDump.render(Int?.some(3) as Any) == "3")
    // A nested optional holding nil prints as a test writes it, not as the outer nil does
    // (an adversary trial: `.picked(nil)` and `.picked(.some(nil))` printed alike).
    #expect(StateDump.render(Point??.some(nil) as Any) == ".some(nil)")
    #expect(StateDump.render(Point??.none as Any) == "nil")
  }

  @Test func tuplesPrintLabelsOrPositions() {
    #expect(StateDump.render((1, "a")) == "(\n  1\n  \"a\"\n)")
    #expect(StateDump.render((count: 1, name: "a")) == "(\n  count: 1\n  name: \"a\"\n)")
  }

  @Test func arraysPrintIndexedElements() {
    #expect(StateDump.render([10, 20]) == "[\n  [0]: 10\n  [1]: 20\n]")
    #expect(StateDump.render([Int]()) == "[]")
  }

  @Test func identifiedArraysLabelRowsByID() {
    let tags: IdentifiedArrayOf<Tag> = [Tag(id: "b"), Tag(id: "a")]
    #expect(
      StateDump.render(tags) == """
        [
          [id: "b"]: Tag(
            id: "b"
          )
          [id: "a"]: Tag(
            id: "a"
          )
        ]
        """)
  }

  @Test func setsAreSortedByRendering() {
    #expect(StateDump.render(Set(["b", "c", "a"])) == "[\n  \"a\"\n  \"b\"\n  \"c\"\n]")
  }

  @Test func dictionariesAreSortedByKeyRendering() {
    let scores = ["lin": 2, "ada": 1]
    #expect(StateDump.render(scores) == "[\n  \"ada\": 1\n  \"lin\": 2\n]")
    #expect(StateDump.render([String: Int]()) == "[:]")
  }

  @Test func stringsAreQuotedAndEscaped() {
    #expect(StateDump.render("say \"hi\"\n") == #""say \"hi\"\n""#)
    #expect(StateDump.render("") == #""""#)
  }

  @Test func numbersAndBooleansUseTheirDescription() {
    #expect(StateDump.render(42) == "42")
    #expect(StateDump.render(0.25) == "0.25")
    #expect(StateDump.render(false) == "false")
  }

  @Test func foundationValuesAndDurationAreLeaves() throws {
    let id = try #require(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"))
    let url = try #require(URL(string: "https://example.com/a?b=1"))
    let price = try #require(Decimal(string: "3.14"))
    #expect(StateDump.render(id) == "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")
    #expect(
      StateDump.render(Date(timeIntervalSince1970: 0.25))
        == "1970-01-01 00:00:00 +0000 (0.25 s since 1970)")
    #expect(StateDump.render(url) == "https://example.com/a?b=1")
    #expect(StateDump.render(price) == "3.14")
    #expect(StateDump.render(Data([1, 2, 3])) == "3 bytes: 01 02 03")
    #expect(StateDump.render(Duration.milliseconds(1500)) == "1.5 seconds")
  }

  /// Two dates that differ below what seconds since 1970 hold printed alike, and a failure
  /// said only that both print the same (a bug hunt of the test store).
  @Test func datesThatDifferInTheirLastBitsPrintApart() {
    let date = Date(timeIntervalSinceReferenceDate: 0.1)
    let later = Date(timeIntervalSinceReferenceDate: 0.1 + 1e-12)
    #expect(date != later)
    #expect(date.timeIntervalSince1970 == later.timeIntervalSince1970)
    #expect(StateDump.render(date) != StateDump.render(later))
    #expect(StateDump.render(later).hasSuffix("s since 2001)"), "\(StateDump.render(later))")
    #expect(StateDiff.diff(expected: date, actual: later)?.contains("s since 2001") == true)
  }

  @Test func renderingIsDeterministic() {
    let value = ["x": Set([3, 1, 2]), "a": Set([9])]
    let first = StateDump.render(value)
    for _ in 0..<20 {
      #expect(StateDump.render(value) == first)
    }
  }
}
