import Effects
import Testing

private enum Feature {
  struct State {}
  enum Action {}
}

private struct Box<Value> {
  var value: Value
}

@Suite struct TypeNameTests {
  @Test func standardLibraryTypesLoseTheirModule() {
    #expect(TypeName.name(of: Int.self) == "Int")
    #expect(TypeName.name(of: [String].self) == "Array<String>")
    #expect(TypeName.name(of: [String: Int?].self) == "Dictionary<String, Optional<Int>>")
  }

  @Test func nestedTypesKeepTheirEnclosingTypes() {
    #expect(TypeName.name(of: Feature.State.self) == "Feature.State")
    #expect(TypeName.name(of: Feature.Action.Type.self) == "Feature.Action.Type")
  }

  @Test func genericArgumentsAreShortenedToo() {
    #expect(TypeName.name(of: Box<Feature.State>.self) == "Box<Feature.State>")
  }

  @Test func localTypesLoseTheirUnknownContext() {
    // The context segment holds an address, which would make failure messages differ
    // from run to run.
    struct Local {}
    #expect(String(reflecting: Local.self).contains("unknown context"))
    #expect(TypeName.name(of: Local.self) == "TypeNameTests.Local")
    #expect(TypeName.name(of: Box<Local>.self) == "Box<TypeNameTests.Local>")
  }

  @Test func tupleLabelsAndFunctionTypesSurvive() {
    #expect(TypeName.name(of: (count: Int, name: String).self) == "(count: Int, name: String)")
    #expect(TypeName.name(of: ((Int) -> String).self) == "(Int) -> String")
  }
}
