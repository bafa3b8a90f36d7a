import Testing

@testable import Store

/// The case name warnings give a kept case store and `ifCaseLet`: an enum's case, and
/// nothing for a value that is not an enum (a `CaseKey` may pick a part of a struct, whose
/// first property's name is no case's).
@Suite struct CaseNameTests {
  enum Destination {
    case idle
    case add(Int)
    case edit(id: Int, title: String)
    indirect case nested(Destination)
  }
  struct Mode {
    var count = 0
    var editing: Int?
  }
  enum Described: CustomStringConvertible {
    case shown
    var description: String { "a long description" }
  }

  @Test func anEnumsCaseIsNamedWithOrWithoutAPayload() {
    #expect(enumCaseName(of: Destination.idle) == "idle")
    #expect(enumCaseName(of: Destination.add(1)) == "add")
    #expect(enumCaseName(of: Destination.edit(id: 1, title: "t")) == "edit")
    #expect(enumCaseName(of: Destination.nested(.idle)) == "nested")
  }

  @Test func aStructIsNoCase() {
    #expect(enumCaseName(of: Mode()) == nil)
    #expect(enumCaseName(of: Mode(count: 1, editing: 2)) == nil)
  }

  @Test func aCaseWithoutAPayloadThatDescribesItselfIsNotNamed() {
    #expect(enumCaseName(of: Described.shown) == nil)
  }
}
