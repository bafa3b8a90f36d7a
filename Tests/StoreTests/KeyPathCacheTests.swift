import Testing

@testable import Store

/// A state with stacks, for the key paths the library derives from a stack's.
private struct Stacks {
  var path = StackState<Int>()
  var many = Array(repeating: StackState<Int>(), count: 8)
}

@Suite struct KeyPathCacheTests {
  @Test func aStacksEntriesPathIsTheAppendedOne() {
    let toStack = \Stacks.path
    #expect(entriesPath(of: toStack) == toStack.appending(path: \.entries))
    #expect(entriesPath(of: toStack) == entriesPath(of: toStack))
    #expect(readOnlyEntriesPath(of: toStack) == toStack.appending(path: \.entries))
    #expect(StackState<Int>.entryElement == \StackState<Int>.Entry.element)
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

  /// A cache gives back the object it kept for a key (the path is made once), and holds no
  /// more than its limit: key paths made at run time, an index into an array of stacks say,
  /// do not grow it without bound. (A cache of its own: the shared one is used by tests
  /// running alongside.)
  @Test func aCacheGivesBackWhatItKeptAndIsBounded() {
    let cache = KeyPathCache(limit: 4)
    let first = \Stacks.many[0]
    let kept = cache.keep(
      first.appending(path: \.entries), for: .stackEntries(ObjectIdentifier(first)), from: first)
    #expect(cache.cached(.stackEntries(ObjectIdentifier(first))) === kept)
    #expect(cache.cached(.readOnlyStackEntries(ObjectIdentifier(first))) == nil)
    var largest = 0
    for index in 1..<8 {
      let source = \Stacks.many[index]
      _ = cache.keep(
        source.appending(path: \.entries), for: .stackEntries(ObjectIdentifier(source)),
        from: source)
      largest = max(largest, cache.count)
    }
    #expect(largest == 4)
    #expect(cache.cached(.stackEntries(ObjectIdentifier(first))) == nil)
  }
}
