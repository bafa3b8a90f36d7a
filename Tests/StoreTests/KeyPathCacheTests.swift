import Testing

@testable import Store

/// A state with stacks, for the key paths the library derives from a stack's.
private struct Stacks {
  var path = StackState<Int>()
  var many = Array(repeating: StackState<Int>(), count: 1_500)
}

@Suite struct KeyPathCacheTests {
  @Test func aStacksEntriesPathIsMadeOnceAndIsTheAppendedOne() {
    let toStack = \Stacks.path
    let first = entriesPath(of: toStack)
    #expect(first == toStack.appending(path: \.entries))
    #expect(entriesPath(of: toStack) === first)
    #expect(readOnlyEntriesPath(of: toStack) == first)
    #expect(StackState<Int>.entryElement == \StackState<Int>.Entry.element)
    #expect(StackState<Int>.entryElement === StackState<Int>.entryElement)
  }

  /// Key path objects are told apart by identity: an equal key path made apart gets its own
  /// entry, and the right path; a writable and a read-only request from one object get the
  /// path of their own class.
  @Test func keyPathsMadeApartAndReadOnlyRequestsGetTheirOwnPaths() {
    var state = Stacks()
    state.many[3].append(7)
    for index in [3, 3, 4] {
      let writable = entriesPath(of: \Stacks.many[index])
      #expect(writable == (\Stacks.many[index]).appending(path: \.entries))
      #expect(state[keyPath: writable].count == (index == 3 ? 1 : 0))
      let readOnly = readOnlyEntriesPath(of: \Stacks.many[index] as KeyPath<Stacks, _>)
      #expect(state[keyPath: readOnly].count == (index == 3 ? 1 : 0))
    }
  }

  /// Key paths made at run time (an index into an array of stacks) do not grow the cache
  /// without bound.
  @Test func theCacheIsBounded() {
    for index in 0..<1_500 {
      _ = entriesPath(of: \Stacks.many[index])
      #expect(KeyPathCache.count <= KeyPathCache.limit)
    }
  }
}
