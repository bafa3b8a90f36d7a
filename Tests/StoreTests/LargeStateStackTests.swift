import Effects
import Testing

@testable import Store

// Eight levels of features (scopes, `ifLet`s, `forEach`es), generic over the inline payload
// each level's state carries, so that one test can run the same tree with 16 KiB and with
// nothing per level and compare the stack a send uses.

/// Inline state of a fixed size.
protocol Payload: Equatable, Sendable {
  init()
}

/// No state.
struct NoPayload: Payload {}

/// 16 KiB of inline state: the kind of value that, copied at every level of a deep reducer
/// tree, exhausts a thread's stack (512 KiB on a secondary thread).
struct Kilobytes16: Payload {
  var blocks = (Kilobytes4(), Kilobytes4(), Kilobytes4(), Kilobytes4())
  static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.blocks.0 == rhs.blocks.0 && lhs.blocks.1 == rhs.blocks.1
      && lhs.blocks.2 == rhs.blocks.2 && lhs.blocks.3 == rhs.blocks.3
  }
}

struct Kilobytes4: Equatable, Sendable {
  var a = SIMD64<Int64>.zero
  var b = SIMD64<Int64>.zero
  var c = SIMD64<Int64>.zero
  var d = SIMD64<Int64>.zero
  var e = SIMD64<Int64>.zero
  var f = SIMD64<Int64>.zero
  var g = SIMD64<Int64>.zero
  var h = SIMD64<Int64>.zero
}

/// The address of a local in a new frame: where the stack is now.
@inline(never)
func currentStackAddress() -> UInt {
  var marker = 0
  return withUnsafeMutablePointer(to: &marker) { UInt(bitPattern: $0) }
}

struct DeepLeaf<P: Payload>: Reducer {
  struct State: Equatable, Identifiable {
    var id = 0
    var payload = P()
    var marker: UInt = 0
    var probes = 0
  }
  enum Action: Sendable, Equatable { case probe }
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    state.marker = currentStackAddress()
    state.probes += 1
    return .none
  }
}

struct Deep8<P: Payload>: Reducer {
  struct State: Equatable, Identifiable {
    var id = 0
    var payload = P()
    var child = DeepLeaf<P>.State()
  }
  enum Action: Sendable, Equatable { case child(DeepLeaf<P>.Action) }
  var body: some Reducer<State, Action> {
    Scope(state: \.child, action: Action.childKey) { DeepLeaf<P>() }
  }
}

extension Deep8.Action {
  static var childKey: CaseKey<Self, DeepLeaf<P>.Action> {
    CaseKey(Self.child) { if case .child(let a) = $0 { a } else { nil } }
  }
}

struct Deep7<P: Payload>: Reducer {
  struct State: Equatable, Identifiable {
    var id = 0
    var payload = P()
    var child: Deep8<P>.State? = Deep8<P>.State()
  }
  enum Action: Sendable, Equatable { case child(Deep8<P>.Action) }
  var body: some Reducer<State, Action> {
    EmptyReducer().ifLet(\.child, action: Action.childKey) { Deep8<P>() }
  }
}

extension Deep7.Action {
  static var childKey: CaseKey<Self, Deep8<P>.Action> {
    CaseKey(Self.child) { if case .child(let a) = $0 { a } else { nil } }
  }
}

struct Deep6<P: Payload>: Reducer {
  struct State: Equatable, Identifiable {
    var id = 0
    var payload = P()
    var child: IdentifiedArrayOf<Deep7<P>.State> = [Deep7<P>.State()]
  }
  enum Action: Sendable, Equatable { case child(IdentifiedAction<Int, Deep7<P>.Action>) }
  var body: some Reducer<State, Action> {
    EmptyReducer().forEach(\.child, action: Action.childKey) { Deep7<P>() }
  }
}

extension Deep6.Action {
  static var childKey: CaseKey<Self, IdentifiedAction<Int, Deep7<P>.Action>> {
    CaseKey(Self.child) { if case .child(let a) = $0 { a } else { nil } }
  }
}

struct Deep5<P: Payload>: Reducer {
  struct State: Equatable, Identifiable {
    var id = 0
    var payload = P()
    var child = Deep6<P>.State()
  }
  enum Action: Sendable, Equatable { case child(Deep6<P>.Action) }
  var body: some Reducer<State, Action> {
    Scope(state: \.child, action: Action.childKey) { Deep6<P>() }
  }
}

extension Deep5.Action {
  static var childKey: CaseKey<Self, Deep6<P>.Action> {
    CaseKey(Self.child) { if case .child(let a) = $0 { a } else { nil } }
  }
}

struct Deep4<P: Payload>: Reducer {
  struct State: Equatable, Identifiable {
    var id = 0
    var payload = P()
    var child: Deep5<P>.State? = Deep5<P>.State()
  }
  enum Action: Sendable, Equatable { case child(Deep5<P>.Action) }
  var body: some Reducer<State, Action> {
    EmptyReducer().ifLet(\.child, action: Action.childKey) { Deep5<P>() }
  }
}

extension Deep4.Action {
  static var childKey: CaseKey<Self, Deep5<P>.Action> {
    CaseKey(Self.child) { if case .child(let a) = $0 { a } else { nil } }
  }
}

struct Deep3<P: Payload>: Reducer {
  struct State: Equatable, Identifiable {
    var id = 0
    var payload = P()
    var child = Deep4<P>.State()
  }
  enum Action: Sendable, Equatable { case child(Deep4<P>.Action) }
  var body: some Reducer<State, Action> {
    Scope(state: \.child, action: Action.childKey) { Deep4<P>() }
  }
}

extension Deep3.Action {
  static var childKey: CaseKey<Self, Deep4<P>.Action> {
    CaseKey(Self.child) { if case .child(let a) = $0 { a } else { nil } }
  }
}

struct Deep2<P: Payload>: Reducer {
  struct State: Equatable, Identifiable {
    var id = 0
    var payload = P()
    var child: IdentifiedArrayOf<Deep3<P>.State> = [Deep3<P>.State()]
  }
  enum Action: Sendable, Equatable { case child(IdentifiedAction<Int, Deep3<P>.Action>) }
  var body: some Reducer<State, Action> {
    EmptyReducer().forEach(\.child, action: Action.childKey) { Deep3<P>() }
  }
}

extension Deep2.Action {
  static var childKey: CaseKey<Self, IdentifiedAction<Int, Deep3<P>.Action>> {
    CaseKey(Self.child) { if case .child(let a) = $0 { a } else { nil } }
  }
}

struct Deep1<P: Payload>: Reducer {
  struct State: Equatable, Identifiable {
    var id = 0
    var payload = P()
    var child = Deep2<P>.State()
  }
  enum Action: Sendable, Equatable { case child(Deep2<P>.Action) }
  var body: some Reducer<State, Action> {
    Scope(state: \.child, action: Action.childKey) { Deep2<P>() }
  }
}

extension Deep1.Action {
  static var childKey: CaseKey<Self, Deep2<P>.Action> {
    CaseKey(Self.child) { if case .child(let a) = $0 { a } else { nil } }
  }
}

/// A navigation stack of `Deep8` screens, under a root with a payload of its own.
struct DeepStack<P: Payload>: Reducer {
  struct State: Equatable {
    var payload = P()
    var path = StackState([Deep8<P>.State(), Deep8<P>.State()])
  }
  enum Action: Sendable, Equatable { case path(StackActionOf<Deep8<P>>) }
  var body: some Reducer<State, Action> {
    EmptyReducer().navigationStack(\.path, action: Action.pathKey) { Deep8<P>() }
  }
}

extension DeepStack.Action {
  static var pathKey: CaseKey<Self, StackActionOf<Deep8<P>>> {
    CaseKey(Self.path) { if case .path(let a) = $0 { a } else { nil } }
  }
}

/// A destination enum whose case holds a leaf, attached with `ifCaseLet`.
struct DeepCase<P: Payload>: Reducer {
  enum State: Equatable {
    case leaf(DeepLeaf<P>.State)
    case other
  }
  enum Action: Sendable, Equatable { case leaf(DeepLeaf<P>.Action) }
  var body: some Reducer<State, Action> {
    EmptyReducer().ifCaseLet(Self.leafCase, action: Self.leafAction) { DeepLeaf<P>() }
  }
  static var leafCase: CaseKey<State, DeepLeaf<P>.State> {
    CaseKey(State.leaf) { if case .leaf(let leaf) = $0 { leaf } else { nil } }
  }
  static var leafAction: CaseKey<Action, DeepLeaf<P>.Action> {
    CaseKey(Action.leaf) { if case .leaf(let a) = $0 { a } else { nil } }
  }
}

@MainActor
@Suite struct LargeStateStackTests {
  /// The stack a send through the eight levels uses to reach the leaf.
  func stackUsed<P: Payload>(_: P.Type) -> (bytes: Int, probes: Int) {
    let store = Store(initialState: Deep1<P>.State()) { Deep1<P>() }
    let top = currentStackAddress()
    store.send(
      .child(
        .child(
          .element(
            id: 0,
            action: .child(.child(.child(.child(.element(id: 0, action: .child(.child(.probe))))))))
        )))
    let leaf = store.state.child.child[0].child.child!.child.child[0].child!.child
    return (Int(top) - Int(leaf.marker), leaf.probes)
  }

  /// With 16 KiB of state at each of eight levels (144 KiB in all), a send reaches the leaf
  /// using no more stack than with no state at all, give or take a few hundred bytes: no
  /// level copies its state, or a child's, onto the stack. (It did: a nil check and a `nil`
  /// assignment through a key path in `ifLet` reserved stack for a whole copy of the child,
  /// 405 KiB in all here; and under the thread sanitizer a read through a key path in
  /// `forEach` reserved a copy of the parent.)
  @Test func aSendThroughLevelsOfLargeStateCopiesNoStateOntoTheStack() {
    // Two levels inline in the root; the rest behind the two `forEach` arrays.
    #expect(MemoryLayout<Deep1<Kilobytes16>.State>.size > 2 * 16_384)
    let large = stackUsed(Kilobytes16.self)
    let empty = stackUsed(NoPayload.self)
    #expect(large.probes == 1 && empty.probes == 1)
    #expect(
      large.bytes - empty.bytes < 4_096,
      "\(large.bytes) bytes of stack with 16 KiB per level, \(empty.bytes) with none")
  }

  /// The stack a send to the top screen of a navigation stack uses to reach the leaf.
  func stackUsedThroughAStack<P: Payload>(_: P.Type) -> (bytes: Int, probes: Int) {
    let store = Store(initialState: DeepStack<P>.State()) { DeepStack<P>() }
    let top = currentStackAddress()
    store.send(.path(.element(id: 1, action: .child(.probe))))
    let leaf = store.state.path[id: 1]!.child
    return (Int(top) - Int(leaf.marker), leaf.probes)
  }

  /// The same through `navigationStack`, whose screens hold 16 KiB each: no copy of a screen
  /// or of the root on the way. (A screen's token, read in the element step's own frame,
  /// reserved stack for a whole screen there in a debug build.)
  @Test func aSendToAStackScreenCopiesNoStateOntoTheStack() {
    let large = stackUsedThroughAStack(Kilobytes16.self)
    let empty = stackUsedThroughAStack(NoPayload.self)
    #expect(large.probes == 1 && empty.probes == 1)
    #expect(
      large.bytes - empty.bytes < 4_096,
      "\(large.bytes) bytes of stack with 16 KiB screens, \(empty.bytes) with none")
  }

  /// The stack a send to the case's leaf uses to reach it.
  func stackUsedThroughACase<P: Payload>(_: P.Type) -> (bytes: Int, probes: Int) {
    let store = Store(initialState: DeepCase<P>.State.leaf(DeepLeaf<P>.State())) {
      DeepCase<P>()
    }
    let top = currentStackAddress()
    store.send(.leaf(.probe))
    guard case .leaf(let leaf) = store.state else { return (0, 0) }
    return (Int(top) - Int(leaf.marker), leaf.probes)
  }

  /// An enum's payload cannot change in place: `ifCaseLet` takes it out, runs the child on
  /// it, and puts it back, so one copy of the payload sits under the child's reducer, and,
  /// in a build without optimization, one more slot for the state put back. No more: the
  /// presence check, the id reads, the warning's message and the reads after the parent ran
  /// each held a copy of their own in the same frame, six in all.
  @Test func aSendToAnEnumCaseCopiesThePayloadAtMostTwiceOntoTheStack() {
    let large = stackUsedThroughACase(Kilobytes16.self)
    let empty = stackUsedThroughACase(NoPayload.self)
    #expect(large.probes == 1 && empty.probes == 1)
    #expect(
      large.bytes - empty.bytes < 2 * 16_384 + 4_096,
      "\(large.bytes) bytes of stack with a 16 KiB payload, \(empty.bytes) with none")
  }
}
