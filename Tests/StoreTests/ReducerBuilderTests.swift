import Effects
import Testing

@testable import Store

@MainActor
@Suite struct ReducerBuilderTests {
  struct Appender: Reducer {
    let entry: String
    func reduce(into state: inout [String], action: Bool) -> Effect<Bool> {
      state.append(entry)
      return action ? .send(false) : .none
    }
  }

  struct Conditional: Reducer {
    let includeOptional: Bool
    let useFirst: Bool
    let extra: [String]

    var body: some Reducer<[String], Bool> {
      Appender(entry: "always")
      if includeOptional {
        Appender(entry: "optional")
      }
      if useFirst {
        Appender(entry: "first")
      } else {
        Appender(entry: "second")
      }
      for entry in extra {
        Appender(entry: entry)
      }
    }
  }

  @Test(arguments: [(true, true), (false, false)])
  func blocksRunTheirReducersInOrder(includeOptional: Bool, useFirst: Bool) {
    var state: [String] = []
    _ = Conditional(includeOptional: includeOptional, useFirst: useFirst, extra: ["x", "y"])
      .reduce(into: &state, action: false)
    let expected =
      ["always"] + (includeOptional ? ["optional"] : []) + [useFirst ? "first" : "second"]
      + ["x", "y"]
    #expect(state == expected)
  }

  @Test func effectsOfEveryReducerAreMerged() {
    let store = Store(initialState: [String]()) {
      Appender(entry: "a")
      Appender(entry: "b")
    }
    store.send(true)
    // Both reducers ran for `true`, each returned `.send(false)`, and both ran for each.
    #expect(store.state == ["a", "b", "a", "b", "a", "b"])
  }

  @Test func combineReducersAndEmptyReducer() {
    var state: [String] = []
    let combined = CombineReducers<[String], Bool, _> {
      Appender(entry: "one")
      EmptyReducer()
      Appender(entry: "two")
    }
    #expect(combined.reduce(into: &state, action: false).isNone)
    #expect(state == ["one", "two"])
    #expect(EmptyReducer<[String], Bool>().reduce(into: &state, action: true).isNone)
  }

  @Test func reduceWrapsAClosureOrAnotherReducer() {
    var state: [String] = []
    _ = Reduce<[String], Bool> { state, _ in
      state.append("closure")
      return .none
    }
    .reduce(into: &state, action: false)
    _ = Appender(entry: "erased").eraseToReduce().reduce(into: &state, action: false)
    #expect(state == ["closure", "erased"])
    // A `Reduce` erased again runs its closure once (it is returned as it is).
    let reduce = Reduce<[String], Bool> { state, _ in
      state.append("once")
      return .none
    }
    var again: [String] = []
    _ = reduce.eraseToReduce().eraseToReduce().reduce(into: &again, action: false)
    #expect(again == ["once"])
  }
}
