import Effects
import Observation
import Testing

@testable import Store

/// Runs a closure from a computed property's getter: a send made inside a read of the state.
@MainActor
final class GetterHook {
  var run: (@MainActor () -> Void)?

  /// Runs the closure once.
  func fire() {
    let run = self.run
    self.run = nil
    run?()
  }
}

/// A feature whose computed `hooked` runs a hook when read, with an optional child and a
/// list of rows.
struct Hooked: Reducer {
  struct Child: Equatable, Sendable { var value = 0 }
  struct Row: Equatable, Identifiable, Sendable {
    let id: Int
    var title = ""
  }
  struct State {
    var title = ""
    var child: Child?
    var rows: IdentifiedArrayOf<Row> = [Row(id: 1, title: "old"), Row(id: 2, title: "two")]
    let hook: GetterHook
    var hooked: String {
      MainActor.assumeIsolated { hook.fire() }
      return title
    }
  }
  enum Action: Sendable {
    case mutate(@Sendable (inout State) -> Void)
    case child(ChildAction)
    case rows(IdentifiedAction<Int, RowAction>)
  }
  enum ChildAction: Sendable { case increment }
  enum RowAction: Sendable { case rename(String) }

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .mutate(let change): change(&state)
      case .child(.increment): state.child?.value += 1
      case .rows: break
      }
      return .none
    }
    .forEach(\.rows, action: .hookedRows) {
      Reduce<Row, RowAction> { row, action in
        if case .rename(let title) = action { row.title = title }
        return .none
      }
    }
  }
}

extension CaseKey<Hooked.Action, Hooked.ChildAction> {
  fileprivate static var hookedChild: Self {
    Self(Hooked.Action.child) { if case .child(let action) = $0 { action } else { nil } }
  }
}

extension CaseKey<Hooked.Action, IdentifiedAction<Int, Hooked.RowAction>> {
  fileprivate static var hookedRows: Self {
    Self(Hooked.Action.rows) { if case .rows(let action) = $0 { action } else { nil } }
  }
}

/// Sends made while the state is being read (by a getter) wait for the read to end; a
/// derived store's among them is checked as one an observer makes: a dismissed child's or a
/// removed row's store does not drive what took its place.
@MainActor
@Suite struct ReadQueuedSendTests {
  let warnings = WarningLog()
  let hook = GetterHook()

  func makeHarness(child: Hooked.Child? = nil) -> Harness<Hooked> {
    var state = Hooked.State(hook: hook)
    state.child = child
    return Harness(initialState: state, warnings: warnings.handler, reducer: Hooked())
  }

  @Test func aDismissedChildsStoreSendingFromAGetterDoesNotDriveTheNewcomer() throws {
    let harness = makeHarness(child: Hooked.Child(value: 0))
    let first = try #require(harness.store.scope(state: \.child, action: .hookedChild))
    _ = first.value
    hook.run = {
      harness.store.send(.mutate { $0.child = nil })
      harness.store.send(.mutate { $0.child = Hooked.Child(value: 100) })
      first.send(.increment)
    }
    _ = harness.store.hooked
    harness.settle()
    #expect(harness.state.child?.value == 100)
    #expect(warnings.messages.count == 1)
    #expect(warnings.messages.first?.contains("The action was ignored") == true)
    // The old store keeps its child's last state, and drives nothing later either.
    #expect(first.value == 0)
    first.send(.increment)
    #expect(harness.state.child?.value == 100)
  }

  @Test func aRemovedRowsStoreSendingFromAGetterDoesNotDriveTheRowAddedBack() throws {
    let harness = makeHarness()
    let removed = try #require(harness.store.scope(state: \.rows, action: .hookedRows)[id: 1])
    _ = removed.title
    hook.run = {
      harness.store.send(.mutate { _ = $0.rows.remove(id: 1) })
      harness.store.send(.mutate { $0.rows.insert(Hooked.Row(id: 1, title: "newcomer"), at: 0) })
      removed.send(.rename("sent to the removed row's store"))
    }
    _ = harness.store.hooked
    harness.settle()
    #expect(harness.state.rows[id: 1]?.title == "newcomer")
    #expect(warnings.messages.count == 1)
    #expect(warnings.messages.first?.contains("The action was ignored") == true)
    #expect(removed.title == "old")
  }

  /// A live store's sends from a getter are reduced, in order, before the read returns.
  @Test func aLiveStoresSendsFromAGetterAreReducedInOrder() throws {
    let harness = makeHarness(child: Hooked.Child(value: 0))
    let child = try #require(harness.store.scope(state: \.child, action: .hookedChild))
    _ = child.value
    hook.run = {
      child.send(.increment)
      harness.store.send(.mutate { $0.child?.value *= 10 })
      child.send(.increment)
    }
    _ = harness.store.hooked
    #expect(harness.state.child?.value == 11)
    #expect(child.value == 11)
    #expect(warnings.messages.isEmpty)
  }

  /// A view reading a value whose getter sends an action that changes it is shown the value
  /// that action left: the action is reduced as the read ends, inside the view's tracking,
  /// which is installed only afterwards and would never be told of it. Later changes are.
  @Test func aViewReadingAGetterThatSendsIsShownWhatTheActionLeft() {
    let harness = makeHarness()
    hook.run = { harness.store.send(.mutate { $0.title = "changed by the getter's send" }) }
    let changed = Flag()
    var shown: String?
    withObservationTracking {
      shown = harness.store.hooked
    } onChange: {
      changed.set()
    }
    #expect(harness.state.title == "changed by the getter's send")
    #expect(shown == "changed by the getter's send")
    #expect(!changed.isSet)
    harness.send(.mutate { $0.title = "later" })
    #expect(changed.isSet)
  }
}

/// Runs a closure when let go.
final class DeinitToken: Sendable {
  let onDeinit: @MainActor @Sendable () -> Void
  init(_ onDeinit: @escaping @MainActor @Sendable () -> Void) { self.onDeinit = onDeinit }
  deinit { MainActor.assumeIsolated { onDeinit() } }
}

/// A feature whose `dismissAndCarry` dismisses the child and feeds back an action that
/// carries a token: the token is let go as the dispatch ends.
struct Carrier: Reducer {
  struct Child: Equatable, Sendable { var value = 0 }
  struct State: Equatable { var child: Child? = Child(value: 0) }
  enum Action: Sendable {
    case dismissAndCarry(@MainActor @Sendable () -> Void)
    case carry(DeinitToken)
    case present(Int)
    case child(ChildAction)
  }
  enum ChildAction: Sendable { case increment }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .dismissAndCarry(let onDeinit):
      state.child = nil
      return .send(.carry(DeinitToken(onDeinit)))
    case .carry: break
    case .present(let value): state.child = Child(value: value)
    case .child(.increment): state.child?.value += 1
    }
    return .none
  }
}

extension CaseKey<Carrier.Action, Carrier.ChildAction> {
  fileprivate static var carrierChild: Self {
    Self(Carrier.Action.child) { if case .child(let action) = $0 { action } else { nil } }
  }
}

/// What the `deinit` of a value a dispatch lets go at its end sends waits for that dispatch's
/// hooks, as a send from an observer does.
@MainActor
@Suite struct DeinitQueuedSendTests {
  let warnings = WarningLog()

  /// A store of its own: the test harness keeps every action, and with it the token.
  func makeStore() -> (StoreOf<Carrier>, RootCore<Carrier>) {
    let core = RootCore(
      initialState: Carrier.State(), reducer: Carrier(), warnings: warnings.handler)
    return (Store(core: core), core)
  }

  @Test func aSendFromTheDeinitOfAQueuedActionWaitsForTheHooks() throws {
    let (store, core) = makeStore()
    let first = try #require(store.scope(state: \.child, action: .carrierChild))
    _ = first.value
    store.send(
      .dismissAndCarry { [weak first] in
        store.send(.present(100))
        first?.send(.increment)
      })
    #expect(core.untrackedState.child?.value == 100)
    #expect(warnings.messages.count == 1)
    #expect(warnings.messages.first?.contains("The action was ignored") == true)
    #expect(first.value == 0)
  }

  /// With no store to check anything, such a send is still reduced before `send` returns.
  @Test func withNoHooksSuchASendIsStillReducedBeforeSendReturns() {
    let (store, core) = makeStore()
    store.send(.dismissAndCarry { store.send(.present(7)) })
    #expect(core.untrackedState.child?.value == 7)
    #expect(warnings.messages.isEmpty)
  }
}

/// A feature whose `a` feeds back `aFollow`, logging every action, with a child.
struct Sequenced: Reducer {
  struct State {
    var log: [String] = []
    var child: Int? = 0
    let hook: GetterHook
    var hooked: Int {
      MainActor.assumeIsolated { hook.fire() }
      return log.count
    }
  }
  enum Action: Sendable {
    case a, aFollow, b
    case child(ChildAction)
  }
  enum ChildAction: Sendable { case x }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .a:
      state.log.append("a")
      return .send(.aFollow)
    case .aFollow: state.log.append("aFollow")
    case .b: state.log.append("b")
    case .child(.x): state.log.append("x")
    }
    return .none
  }
}

extension CaseKey<Sequenced.Action, Sequenced.ChildAction> {
  static var sequencedChild: Self {
    Self(Sequenced.Action.child) { if case .child(let action) = $0 { action } else { nil } }
  }
}

/// Sends made in a getter are reduced in the order the same sends have outside a read, each
/// with what it feeds back before the next, with or without a child store's send among them.
@MainActor
@Suite struct ReadQueuedSendOrderTests {
  let hook = GetterHook()

  @Test func aGettersSendsKeepTheOrderTheyHaveOutsideARead() throws {
    let harness = Harness(initialState: Sequenced.State(hook: hook), reducer: Sequenced())
    let child = try #require(harness.store.scope(state: \.child, action: .sequencedChild))
    _ = child.state
    hook.run = {
      harness.store.send(.a)
      harness.store.send(.b)
    }
    _ = harness.store.hooked
    #expect(harness.state.log == ["a", "aFollow", "b"])
    hook.run = {
      child.send(.x)
      harness.store.send(.a)
      harness.store.send(.b)
    }
    _ = harness.store.hooked
    #expect(harness.state.log.dropFirst(3) == ["x", "a", "aFollow", "b"])
    harness.store.send(.a)
    harness.store.send(.b)
    #expect(harness.state.log.dropFirst(7) == ["a", "aFollow", "b"])
  }
}

/// A feature whose every `carry` changes the title an observer watches, and carries a token
/// whose `deinit` sends.
struct LoopCarrier: Reducer {
  struct State: Equatable {
    var title = ""
    var carries = 0
    var marks = 0
  }
  enum Action: Sendable {
    case trigger
    case carry(DeinitToken)
    case mark
    case mark2(DeinitToken)
    case other
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .trigger: state.title += "t"
    case .carry:
      state.title += "c"
      state.carries += 1
    case .mark, .mark2: state.marks += 1
    case .other: break
    }
    return .none
  }
}

extension DeinitQueuedSendTests {
  /// An observer that answers every change is a loop, reported once; what the `deinit`s of
  /// the last actions send is reduced before `send` returns, not left queued for the next
  /// action (a send after the loop reduced it after its own action).
  @Test func whatTheLastActionsOfALoopSendFromDeinitIsReducedBeforeSendReturns() {
    let core = RootCore(
      initialState: LoopCarrier.State(), reducer: LoopCarrier(), warnings: warnings.handler)
    let store = Store(core: core)
    let stopped = Flag()
    let watcher = Rewatcher(read: { _ = store.title }) {
      guard !stopped.isSet else { return }
      store.send(.carry(DeinitToken { store.send(.mark2(DeinitToken { store.send(.mark) })) }))
    }
    store.send(.trigger)
    stopped.set()
    #expect(warnings.messages.filter { $0.contains("feedback loop") }.count == 1)
    let state = core.untrackedState
    #expect(state.marks == 2 * state.carries, "\(state.marks) marks for \(state.carries) carries")
    #expect(core.queue.count == core.queueHead)
    var after: [String] = []
    core.didReduce = { action, _ in after.append("\(action)".prefix(5).description) }
    store.send(.other)
    #expect(after == ["other"])
    withExtendedLifetime(watcher) {}
  }
}
