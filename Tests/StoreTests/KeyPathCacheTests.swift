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

/// Key paths made anew at each use (a literal into a generic type, an index known at run time)
/// find the path made for an equal one: they neither make nor keep another.
@Suite struct KeyPathCacheEqualityTests {
  @Test func anEqualKeyPathMadeApartFindsThePathKeptForTheFirst() {
    let cache = KeyPathCache(limit: 4)
    var made = 0
    var paths: [AnyKeyPath] = []
    for _ in 0..<10 {
      let index = [3][0]
      let source: KeyPath<Stacks, StackState<Int>> = \Stacks.many[index]
      paths.append(
        cache.path(.readOnlyStackEntries(ObjectIdentifier(source)), from: source) {
          made += 1
          return source.appending(path: \.entries)
        })
    }
    #expect(made == 1)
    #expect(paths.allSatisfy { $0 === paths[0] })
    #expect(cache.count == 1)
  }

  /// Equality is per kind of path: a writable request does not get a read-only path kept for
  /// an equal source, and a different index gets a path of its own.
  @Test func equalityIsPerKindAndPerSource() {
    let cache = KeyPathCache(limit: 8)
    let first = \Stacks.many[2]
    let readOnly = cache.keep(
      (first as KeyPath<Stacks, StackState<Int>>).appending(path: \.entries),
      for: .readOnlyStackEntries(ObjectIdentifier(first)), from: first)
    let again = \Stacks.many[[2][0]]
    #expect(
      cache.cached(.readOnlyStackEntries(ObjectIdentifier(again)), equalTo: again) === readOnly)
    #expect(cache.cached(.stackEntries(ObjectIdentifier(again)), equalTo: again) == nil)
    let other = \Stacks.many[[5][0]]
    #expect(cache.cached(.readOnlyStackEntries(ObjectIdentifier(other)), equalTo: other) == nil)
  }

  /// A generic feature's stack: its key path is a new object at every action; the path to its
  /// entries is the one made at the first.
  @Test func aGenericStacksEntriesPathIsMadeOnce() {
    func toStack<Screen>(_: Screen.Type) -> WritableKeyPath<
      GenericStacks<Screen>, StackState<Screen>
    > {
      \GenericStacks<Screen>.path
    }
    let first = entriesPath(of: toStack(Int.self))
    let second = entriesPath(of: toStack(Int.self))
    #expect(toStack(Int.self) !== toStack(Int.self))
    #expect(first === second)
  }
}

/// A generic state with a stack.
private struct GenericStacks<Screen> {
  var path = StackState<Screen>()
}
