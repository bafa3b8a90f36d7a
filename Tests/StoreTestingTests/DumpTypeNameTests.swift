import Testing

@testable import StoreTesting

private enum Feature {
  struct State {}
  enum Action {}
}

private struct Box<Value> {
  var value: Value
}

@Suite struct DumpTypeNameTests {
  @Test func standardLibraryTypesLoseTheirModule() {
    #expect(DumpTypeName.name(of: Int.self) == "Int")
    #expect(DumpTypeName.name(of: [String].self) == "Array<String>")
    #expect(DumpTypeName.name(of: [String: Int?].self) == "Dictionary<String, Optional<Int>>")
  }

  @Test func nestedTypesKeepTheirEnclosingTypes() {
    #expect(DumpTypeName.name(of: Feature.State.self) == "Feature.State")
    #expect(DumpTypeName.name(of: Feature.Action.Type.self) == "Feature.Action.Type")
  }

  @Test func genericArgumentsAreShortenedToo() {
    #expect(DumpTypeName.name(of: Box<Feature.State>.self) == "Box<Feature.State>")
  }

  @Test func localTypesLoseTheirUnknownContext() {
    // The context segment holds an address, which would make failure messages differ
    // from run to run.
    struct Local {}
    #expect(String(reflecting: Local.self).contains("unknown context"))
    #expect(DumpTypeName.name(of: Local.self) == "DumpTypeNameTests.Local")
    #expect(DumpTypeName.name(of: Box<Local>.self) == "Box<DumpTypeNameTests.Local>")
  }

  @Test func tupleLabelsAndFunctionTypesSurvive() {
    #expect(DumpTypeName.name(of: (count: Int, name: String).self) == "(count: Int, name: String)")
    #expect(DumpTypeName.name(of: ((Int) -> String).self) == "(Int) -> String")
  }
}
