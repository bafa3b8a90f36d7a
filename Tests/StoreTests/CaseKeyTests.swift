import Testing

@testable import Store

@Suite struct CaseKeyTests {
  enum Inner: Equatable, Sendable { case tapped, typed(String) }
  enum Outer: Equatable, Sendable { case inner(Inner), other }

  static let inner = CaseKey(Outer.inner) { if case .inner(let a) = $0 { a } else { nil } }
  static let typed = CaseKey(Inner.typed) { if case .typed(let a) = $0 { a } else { nil } }

  @Test func embedAndExtract() {
    #expect(Self.inner.embed(.tapped) == .inner(.tapped))
    #expect(Self.inner.extract(.inner(.typed("a"))) == .typed("a"))
    #expect(Self.inner.extract(.other) == nil)
  }

  @Test func appendingReachesANestedPayload() {
    let path = Self.inner.appending(Self.typed)
    #expect(path.embed("hi") == .inner(.typed("hi")))
    #expect(path.extract(.inner(.typed("hi"))) == "hi")
    #expect(path.extract(.inner(.tapped)) == nil)
    #expect(path.extract(.other) == nil)
  }

  static func typedKey(_: Int) -> CaseKey<Inner, String> {
    CaseKey(Inner.typed) { if case .typed(let a) = $0 { a } else { nil } }
  }

  @Test func aKeyIsKnownByWhereItIsCreated() {
    // Created twice at one place: one key. Created elsewhere, with the same types: another.
    #expect(Self.typedKey(1).identity == Self.typedKey(2).identity)
    #expect(Self.typedKey(1).identity != Self.typed.identity)
    #expect(Self.inner.appending(Self.typed).identity == Self.inner.appending(Self.typed).identity)
    #expect(Self.inner.appending(Self.typed).identity != Self.inner.identity)
    #expect(
      Self.inner.appending(Self.typed).identity != Self.inner.appending(Self.typedKey(0)).identity)
  }

  @Test func aKeyIsFoundByItsCasesNameWhereAKeyIsExpected() {
    // `.left` is the case where an action is expected and the key where a key is expected.
    let action: Pair.Action = .left(.incrementTapped)
    let key: CaseKey<Pair.Action, Counter.Action> = .left
    #expect(key.extract(action) == .incrementTapped)
  }
}
