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

  enum Route {
    case destination(Destination)
    case home
    case pair(Destination, Int)
    case labeled(route: Destination)
  }

  /// Through a key made with `appending(_:)`: the cases down to the payload the key reaches,
  /// so that `.destination.appending(.add)` and `.destination.appending(.edit)` read apart.
  @Test func aNestedCaseIsNamedDownToThePayloadTheKeyReaches() {
    #expect(enumCaseName(of: Route.destination(.add(1)), holding: Int.self) == "destination(.add)")
    #expect(
      enumCaseName(of: Route.destination(.edit(id: 1, title: "t")), holding: Int.self)
        == "destination(.edit)")
    #expect(
      enumCaseName(of: Route.destination(.add(1)), holding: Destination.self) == "destination")
    #expect(enumCaseName(of: Route.destination(.idle), holding: Int.self) == "destination(.idle)")
    #expect(enumCaseName(of: Route.home, holding: Int.self) == "home")
    #expect(enumCaseName(of: Route.pair(.add(1), 2), holding: Int.self) == "pair")
    // A labeled payload is reflected as a tuple of one element: it is looked into too.
    #expect(
      enumCaseName(of: Route.labeled(route: .add(1)), holding: Int.self) == "labeled(.add)")
    #expect(enumCaseName(of: Mode(), holding: Int.self) == nil)
  }

  /// An indirect enum nested deeper than 16 levels is named 16 levels down.
  @Test func aDeepNestingIsNamedSixteenLevelsDown() {
    var value = Destination.idle
    for _ in 0..<40 { value = .nested(value) }
    let name = enumCaseName(of: value, holding: Int.self)
    #expect(name?.components(separatedBy: "nested").count == 17)
    #expect(name?.hasPrefix("nested(.nested(") == true)
  }

  @Test func aCaseWithoutAPayloadThatDescribesItselfIsNotNamed() {
    #expect(enumCaseName(of: Described.shown) == nil)
  }
}
