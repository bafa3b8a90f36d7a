import Effects
import Foundation
import Observation
import Testing

@testable import Store

// What the stores themselves (not the reducers: `LargeStateStackTests`) put on the stack when
// they scope, read, send and check what observers read, with a large state. In a debug build,
// every copy of a value of a generic type takes stack of its own while the function that made
// it runs, and a read through nested stores nests a frame per level: copies of a 1 MiB state
// overflowed the 8 MiB stack of the main thread when a store scoped to an optional child.

/// 64 KiB of inline state.
struct Kilobytes64: Payload {
  var blocks = (Kilobytes16(), Kilobytes16(), Kilobytes16(), Kilobytes16())
  static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.blocks.0 == rhs.blocks.0 && lhs.blocks.1 == rhs.blocks.1
      && lhs.blocks.2 == rhs.blocks.2 && lhs.blocks.3 == rhs.blocks.3
  }
}

/// The deepest stack address a probe saw since it was reset.
nonisolated(unsafe) var deepestProbe: UInt = .max

/// Notes how deep the stack is here.
func probeStack() {
  deepestProbe = min(deepestProbe, currentStackAddress())
}

/// How many bytes below `top` the deepest probe since `top` was taken saw, running `body`.
@MainActor
func stackBelow(_ body: () -> Void) -> Int {
  let top = currentStackAddress()
  deepestProbe = .max
  body()
  return deepestProbe == .max ? 0 : Int(top) - Int(deepestProbe)
}

/// A leaf whose `id`, `probe` and reducer note the stack they run on.
struct ProbedLeaf<P: Payload>: Reducer {
  struct State: Equatable, Identifiable {
    var payload = P()
    var count = 0
    var id: Int {
      probeStack()
      return 0
    }
    var probe: Int {
      probeStack()
      return count
    }
  }
  enum Action: Sendable, Equatable { case tap }
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    state.count += 1
    probeStack()
    return .none
  }
}

/// A level of optional children: `child` holds the level below, as `ifLet` state.
struct OptionalLevel<Child: Reducer & Sendable>: Reducer
where Child.State: Equatable & Identifiable & Filled, Child.Action: Equatable {
  struct State: Equatable, Identifiable {
    var child: Child.State?
    var id: Int {
      probeStack()
      return 0
    }
  }
  enum Action: Sendable, Equatable { case child(Child.Action) }
  static var childKey: CaseKey<Action, Child.Action> { Action.childKey }
  let child: Child
  var body: some Reducer<State, Action> {
    EmptyReducer().ifLet(\.child, action: Action.childKey) { child }
  }
}

extension OptionalLevel.Action {
  static var childKey: CaseKey<Self, Child.Action> {
    CaseKey(Self.child) { if case .child(let a) = $0 { a } else { nil } }
  }
}

/// A state that makes itself with every optional child below it present.
protocol Filled {
  static func filled() -> Self
}

extension ProbedLeaf.State: Filled {
  static func filled() -> Self { Self() }
}

extension OptionalLevel.State: Filled {
  static func filled() -> Self { Self(child: Child.State.filled()) }
}

/// Five levels of optional children over a probed leaf.
typealias FiveOptionals<P: Payload> = OptionalLevel<
  OptionalLevel<OptionalLevel<OptionalLevel<OptionalLevel<ProbedLeaf<P>>>>>
>

@MainActor
func fiveOptionals<P: Payload>(_: P.Type) -> FiveOptionals<P> {
  OptionalLevel(child: .init(child: .init(child: .init(child: .init(child: ProbedLeaf())))))
}

/// The leaf's store, scoped through the five levels.
@MainActor
func leafStore<P: Payload>(of store: StoreOf<FiveOptionals<P>>) -> StoreOf<ProbedLeaf<P>>? {
  typealias L1 = OptionalLevel<OptionalLevel<OptionalLevel<OptionalLevel<ProbedLeaf<P>>>>>
  typealias L2 = OptionalLevel<OptionalLevel<OptionalLevel<ProbedLeaf<P>>>>
  typealias L3 = OptionalLevel<OptionalLevel<ProbedLeaf<P>>>
  typealias L4 = OptionalLevel<ProbedLeaf<P>>
  return store.scope(state: \.child, action: FiveOptionals<P>.childKey)?
    .scope(state: \.child, action: L1.childKey)?
    .scope(state: \.child, action: L2.childKey)?
    .scope(state: \.child, action: L3.childKey)?
    .scope(state: \.child, action: L4.childKey)
}

/// A list of large rows.
struct ProbedRows<P: Payload>: Reducer {
  struct State: Equatable {
    var rows: IdentifiedArrayOf<ProbedLeafRow<P>.State> = [.init(id: 1), .init(id: 2)]
  }
  enum Action: Sendable, Equatable {
    case rows(IdentifiedActionOf<ProbedLeafRow<P>>)
  }
  static var rowsKey: CaseKey<Action, IdentifiedActionOf<ProbedLeafRow<P>>> {
    CaseKey(Action.rows) { if case .rows(let a) = $0 { a } else { nil } }
  }
  var body: some Reducer<State, Action> {
    EmptyReducer().forEach(\.rows, action: Self.rowsKey) { ProbedLeafRow<P>() }
  }
}

/// A row with an id of its own and a large payload.
struct ProbedLeafRow<P: Payload>: Reducer {
  struct State: Equatable, Identifiable {
    let id: Int
    var payload = P()
    var count = 0
    var probe: Int {
      probeStack()
      return count
    }
  }
  enum Action: Sendable, Equatable { case tap }
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    state.count += 1
    probeStack()
    return .none
  }
}

/// A state that is one of two cases, the first holding a large leaf.
struct ProbedCase<P: Payload>: Reducer {
  enum State: Equatable {
    case leaf(ProbedLeaf<P>.State)
    case other
  }
  enum Action: Sendable, Equatable { case leaf(ProbedLeaf<P>.Action) }
  static var leafCase: CaseKey<State, ProbedLeaf<P>.State> {
    CaseKey(State.leaf) { if case .leaf(let leaf) = $0 { leaf } else { nil } }
  }
  static var leafAction: CaseKey<Action, ProbedLeaf<P>.Action> {
    CaseKey(Action.leaf) { if case .leaf(let a) = $0 { a } else { nil } }
  }
  var body: some Reducer<State, Action> {
    EmptyReducer().ifCaseLet(Self.leafCase, action: Self.leafAction) { ProbedLeaf<P>() }
  }
}

/// 256 KiB of inline state.
struct Kilobytes256: Equatable, Sendable {
  var a = Kilobytes64()
  var b = Kilobytes64()
  var c = Kilobytes64()
  var d = Kilobytes64()
}

/// 1 MiB of inline state.
struct Mebibyte: Payload {
  var a = Kilobytes256()
  var b = Kilobytes256()
  var c = Kilobytes256()
  var d = Kilobytes256()
}

/// Runs `body` on a thread with a 256 MiB stack, and waits for it: making a value of a large
/// type with default values copies its parts, in a debug build, many times over.
func onLargeStack(_ body: @escaping @Sendable () -> Void) {
  let done = DispatchSemaphore(value: 0)
  let thread = Thread {
    body()
    done.signal()
  }
  thread.stackSize = 256 << 20
  thread.start()
  done.wait()
}

/// An address that may be sent to another thread.
struct SendableAddress<Pointee>: @unchecked Sendable {
  let address: UnsafeMutablePointer<Pointee>
}

/// What a reducer reads its own store with: a mistake the store stops.
final class StoreReader: @unchecked Sendable {
  var read: (() -> Void)?
}

/// A reducer that reads its own store as it changes the state.
struct ReadsItsStore: Reducer {
  struct State: Equatable {
    var count = 0
  }
  enum Action: Sendable { case tap }
  let holder: StoreReader
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    state.count += 1
    holder.read?()
    return .none
  }
}

/// A large state and a count, read through one store.
struct ProbedFlat<P: Payload>: Reducer {
  struct State: Equatable {
    var payload = P()
    var count = 0
    var probe: Int {
      probeStack()
      return count
    }
  }
  enum Action: Sendable, Equatable { case bump }
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    state.count += 1
    return .none
  }
}

@MainActor
@Suite struct StoreReadStackTests {
  /// A probe with a 64 KiB payload may go this much deeper than with none: less than one
  /// copy of the payload.
  static let slack = 4_096

  func scopeOnce<P: Payload>(_: P.Type) -> Int {
    let store = Store(initialState: OptionalLevel<ProbedLeaf<P>>.State.filled()) {
      OptionalLevel(child: ProbedLeaf<P>())
    }
    var child: StoreOf<ProbedLeaf<P>>?
    // The child's `id`, read as the store scopes, probes.
    let used = stackBelow {
      child = store.scope(state: \.child, action: OptionalLevel<ProbedLeaf<P>>.childKey)
    }
    #expect(child != nil)
    return used
  }

  /// Scoping to an optional child reads the child's presence and id by address. It made
  /// nine copies of the parent's state: 590 KB of stack for a 64 KiB child, and a 1 MiB child
  /// overflowed the main thread's 8 MiB.
  @Test func scopingToAnOptionalChildCopiesNoState() {
    let large = scopeOnce(Kilobytes64.self)
    let empty = scopeOnce(NoPayload.self)
    #expect(large - empty < Self.slack, "\(large) bytes with a 64 KiB child, \(empty) with none")
  }

  func throughFiveOptionals<P: Payload>(_: P.Type) -> (read: Int, send: Int, count: Int) {
    let store = Store(initialState: FiveOptionals<P>.State.filled()) { fiveOptionals(P.self) }
    guard let leaf = leafStore(of: store) else {
      Issue.record("the leaf is absent")
      return (0, 0, 0)
    }
    let send = stackBelow { leaf.send(.tap) }
    var count = 0
    let read = stackBelow { count = leaf.probe }
    return (read, send, count)
  }

  /// A store scoped under five optional children reads and sends through all five: a look at
  /// each level passes the level's address to the next, and the leaf's store keeps its own
  /// copy, brought up to date in place. Each level held a copy of its state (a read through
  /// ten levels of a 64 KiB leaf took 525 KB; a send 800 KB).
  @Test func readingAndSendingThroughNestedOptionalStoresCopiesNoState() {
    let large = throughFiveOptionals(Kilobytes64.self)
    let empty = throughFiveOptionals(NoPayload.self)
    #expect(large.count == 1 && empty.count == 1)
    #expect(
      large.read - empty.read < Self.slack,
      "read: \(large.read) bytes with a 64 KiB leaf, \(empty.read) with none")
    #expect(
      large.send - empty.send < Self.slack,
      "send: \(large.send) bytes with a 64 KiB leaf, \(empty.send) with none")
  }

  func observed<P: Payload>(_: P.Type) -> (read: Int, check: Int) {
    let store = Store(initialState: ProbedFlat<P>.State()) { ProbedFlat<P>() }
    let read = stackBelow {
      withObservationTracking {
        _ = store.probe
      } onChange: {
      }
    }
    // The check after the action reads `probe` again, to compare.
    let check = stackBelow { store.send(.bump) }
    return (read, check)
  }

  /// A value read through a store (here a computed property of a 64 KiB state) is read, and
  /// compared after each action, where the state lies: a read copied the whole state once, the
  /// check after an action five times.
  @Test func observedReadsAndTheirChecksCopyNoState() {
    let large = observed(Kilobytes64.self)
    let empty = observed(NoPayload.self)
    #expect(
      large.read - empty.read < Self.slack,
      "read: \(large.read) bytes with 64 KiB of state, \(empty.read) with none")
    #expect(
      large.check - empty.check < Self.slack,
      "check: \(large.check) bytes with 64 KiB of state, \(empty.check) with none")
  }

  func row<P: Payload>(_: P.Type) -> (read: Int, send: Int, count: Int) {
    let store = Store(initialState: ProbedRows<P>.State()) { ProbedRows<P>() }
    guard let row = store.scope(state: \.rows, action: ProbedRows<P>.rowsKey)[id: 2] else {
      Issue.record("no store for row 2")
      return (0, 0, 0)
    }
    let send = stackBelow { row.send(.tap) }
    var count = 0
    let read = stackBelow { count = row.probe }
    return (read, send, count)
  }

  /// A row's store keeps a copy of its row, made once per action from the collection: one
  /// copy of the row on the stack while it is made, no more.
  @Test func aRowStoreCopiesItsRowOnceOntoTheStack() {
    let large = row(Kilobytes64.self)
    let empty = row(NoPayload.self)
    #expect(large.count == 1 && empty.count == 1)
    #expect(
      large.read - empty.read < 65_536 + Self.slack,
      "read: \(large.read) bytes with 64 KiB rows, \(empty.read) with none")
    #expect(
      large.send - empty.send < 65_536 + Self.slack,
      "send: \(large.send) bytes with 64 KiB rows, \(empty.send) with none")
  }

  func enumCase<P: Payload>(_: P.Type) -> (read: Int, count: Int) {
    let store = Store(initialState: ProbedCase<P>.State.leaf(.init())) { ProbedCase<P>() }
    guard let leaf = store.scope(state: ProbedCase<P>.leafCase, action: ProbedCase<P>.leafAction)
    else {
      Issue.record("the case's store is absent")
      return (0, 0)
    }
    leaf.send(.tap)
    var count = 0
    let read = stackBelow { count = leaf.probe }
    return (read, count)
  }

  /// A case's payload is only had by value (a case key extracts it): one copy on the stack
  /// while the case's store brings its own up to date.
  @Test func anEnumCaseStoreCopiesItsPayloadOnceOntoTheStack() {
    let large = enumCase(Kilobytes64.self)
    let empty = enumCase(NoPayload.self)
    #expect(large.count == 1 && empty.count == 1)
    #expect(
      large.read - empty.read < 65_536 + Self.slack,
      "read: \(large.read) bytes with a 64 KiB payload, \(empty.read) with none")
  }

  #if EXIT_TESTS
    /// A store read while its reducer changes the state stops the program, naming the state's
    /// type, rather than reading it halfway through the change. (The state was a stored
    /// property, and the runtime's exclusivity check stopped this; it lies at an address of
    /// its own now, which that check does not see.)
    @Test func aStoreReadWhileItsReducerRunsStopsTheProgram() async {
      let result = await #expect(
        processExitsWith: .failure, observing: [\.standardErrorContent]
      ) {
        await MainActor.run {
          let holder = StoreReader()
          let store = Store(initialState: ReadsItsStore.State()) { ReadsItsStore(holder: holder) }
          holder.read = { MainActor.assumeIsolated { _ = store.count } }
          store.send(.tap)
        }
      }
      let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
      #expect(message.contains("A store of ReadsItsStore"))
      #expect(message.contains("was read while its reducer was changing the state"))
    }

    /// A store of a 1 MiB state scopes to its optional child, sends to it and reads it on the
    /// main actor (under `swift test` on Linux, a dispatch thread with 8 MiB of stack, as the
    /// main thread has): with nine copies of the state as it scoped, it overflowed.
    @Test func aStoreOfOneMebibyteScopesSendsAndReads() async {
      await #expect(processExitsWith: .success) {
        await MainActor.run { scopeSendAndRead(Mebibyte.self) }
      }
    }

    /// A store of a 3 MiB state is made on the main thread: `Store(initialState:)` moves the
    /// state to the heap. It copied it twice on the way, in a debug build (in its own frame
    /// and the root's), and with the caller's copy, 9 MiB overflowed the thread's 8 MiB (a
    /// trial's 164 KB state needed 768 KiB of stack; now 384 KiB is enough).
    @Test func aStoreOfThreeMebibytesIsMadeOnTheMainThread() async {
      await #expect(processExitsWith: .success) {
        await MainActor.run { makeSendAndRead(ThreeMebibytes.self) }
      }
    }
  #endif
}

/// 3 MiB of inline state.
struct ThreeMebibytes: Payload {
  var a = Mebibyte()
  var b = Mebibyte()
  var c = Mebibyte()
}

/// Makes a store of a state holding a `P` payload on the main thread, sends to it and reads
/// it.
@MainActor
func makeSendAndRead<P: Payload>(_: P.Type) {
  let state = SendableAddress(
    address: UnsafeMutablePointer<ProbedFlat<P>.State>.allocate(capacity: 1))
  onLargeStack { state.address.initialize(to: ProbedFlat<P>.State()) }
  let store = makeFlatStore(from: state.address)
  state.address.deinitialize(count: 1)
  state.address.deallocate()
  store.send(.bump)
  precondition(store.probe == 1)
}

/// A store of the state at `state`, made in a frame of its own that holds one copy of it.
@MainActor @inline(never)
func makeFlatStore<P: Payload>(from state: UnsafeMutablePointer<ProbedFlat<P>.State>)
  -> StoreOf<ProbedFlat<P>>
{
  Store(initialState: state.pointee) { ProbedFlat<P>() }
}

/// Scopes a store of a `P` payload to its optional child, sends to it, and reads it.
@MainActor
func scopeSendAndRead<P: Payload>(_: P.Type) {
  typealias Parent = OptionalLevel<ProbedLeaf<P>>
  let state = SendableAddress(address: UnsafeMutablePointer<Parent.State>.allocate(capacity: 1))
  onLargeStack { state.address.initialize(to: .filled()) }
  let store = makeStore(from: state.address)
  state.address.deinitialize(count: 1)
  state.address.deallocate()
  let child = store.scope(state: \.child, action: Parent.childKey)
  child?.send(.tap)
  precondition(child?.probe == 1)
}

/// A store of the state at `state`, made in a frame of its own: its copy of the state is gone
/// once it returns.
@MainActor @inline(never)
func makeStore<P: Payload>(from state: UnsafeMutablePointer<OptionalLevel<ProbedLeaf<P>>.State>)
  -> StoreOf<OptionalLevel<ProbedLeaf<P>>>
{
  Store(initialState: state.pointee) { OptionalLevel(child: ProbedLeaf<P>()) }
}
