import Foundation
import Testing

@testable import Store

/// Edge cases of a stack's own operations, as its doc comments state them.
@Suite struct StackStateEdgeTests {
  @Test func popsOfAnEmptyStackOrAnAbsentIDChangeNothing() throws {
    var stack = StackState<String>()
    #expect(stack.popLast() == nil)
    let poppedFrom = stack.pop(from: 0)
    let poppedToRoot = stack.pop(to: 0)
    #expect(!poppedFrom && !poppedToRoot)
    stack[id: 3] = "x"
    stack[id: 3] = nil
    stack.removeAll()
    #expect(stack.isEmpty && stack.nextElementID == 0)
    stack.append("a")
    stack.append("b")
    stack.popLast()
    stack.append("c")
    #expect(stack.ids == [0, 2], "ids are never reused")
    let poppedTo = stack.pop(to: 1)
    #expect(!poppedTo && stack.ids == [0, 2])
    stack.removeAll()
    stack.append("d")
    #expect(stack.ids == [3], "removeAll keeps the next id")
    let reused = stack.push("e", id: 2)
    #expect(!reused && stack.ids == [3])
    let skipped = stack.push("f", id: 7)
    #expect(skipped && stack.nextElementID == 8)
    let data = try JSONEncoder().encode(stack)
    let decoded = try JSONDecoder().decode(StackState<String>.self, from: data)
    #expect(decoded == stack)
    #expect(decoded.ids == [3, 7] && decoded.nextElementID == 8)
  }

  @Test(arguments: [
    #"{"entries":[{"id":1,"element":"a"},{"id":0,"element":"b"}],"nextID":2}"#,
    #"{"entries":[{"id":0,"element":"a"},{"id":0,"element":"b"}],"nextID":2}"#,
    #"{"entries":[{"id":-1,"element":"a"}],"nextID":2}"#,
    #"{"entries":[{"id":2,"element":"a"}],"nextID":2}"#,
    #"{"entries":[],"nextID":-1}"#,
  ])
  func aStackNoPushesCouldMakeIsRefused(json: String) {
    #expect(throws: DecodingError.self) {
      try JSONDecoder().decode(StackState<String>.self, from: Data(json.utf8))
    }
  }
}
