import Effects
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

  /// The helper `CaseKey`'s docs show: it passes its caller's place on, so the keys it makes
  /// for two cases are two keys.
  static func key<Root, Value>(
    _ embed: @escaping @Sendable (Value) -> Root,
    _ extract: @escaping @Sendable (Root) -> Value?,
    fileID: StaticString = #fileID, line: UInt = #line, column: UInt = #column
  ) -> CaseKey<Root, Value> {
    CaseKey(embed, extract: extract, fileID: fileID, line: line, column: column)
  }

  enum Form: Equatable, Sendable { case add(String), edit(String) }
  static var add: CaseKey<Form, String> {
    key(Form.add) { if case .add(let a) = $0 { a } else { nil } }
  }
  static var edit: CaseKey<Form, String> {
    key(Form.edit) { if case .edit(let a) = $0 { a } else { nil } }
  }

  @Test func aHelperThatPassesItsCallersPlaceOnMakesOneKeyPerCase() {
    #expect(Self.add.identity != Self.edit.identity)
    #expect(Self.add.identity == Self.add.identity)
    #expect(Self.edit.embed("x") == .edit("x"))
  }

  @MainActor
  @Test func storesScopedThroughKeysFromSuchAHelperSendToTheirOwnCase() {
    struct Host: Reducer {
      struct State: Equatable, Sendable { var log: [String] = [] }
      func reduce(into state: inout State, action: Form) -> Effect<Form> {
        switch action {
        case .add(let text): state.log.append("add \(text)")
        case .edit(let text): state.log.append("edit \(text)")
        }
        return .none
      }
    }
    let store = Store(initialState: Host.State()) { Host() }
    let adding = store.scope(state: \.self, action: Self.add)
    let editing = store.scope(state: \.self, action: Self.edit)
    #expect(adding !== editing)
    adding.send("x")
    editing.send("y")
    #expect(store.state.log == ["add x", "edit y"])
  }

  @Test func aKeyIsFoundByItsCasesNameWhereAKeyIsExpected() {
    // `.left` is the case where an action is expected and the key where a key is expected.
    let action: Pair.Action = .left(.incrementTapped)
    let key: CaseKey<Pair.Action, Counter.Action> = .left
    #expect(key.extract(action) == .incrementTapped)
  }
}
