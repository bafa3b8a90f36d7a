import Effects
import Testing

@testable import Store

/// An action sent while a store's state is being read (by a computed property's getter, or by
/// a `deinit` a read runs) waits for the read to end: reduced at once, it changed, and freed,
/// what the getter was reading where the state lies (found by an adversary trial, under
/// AddressSanitizer: a heap use after free).
@MainActor
@Suite struct SendDuringReadTests {
  /// Code a getter runs halfway through its read.
  @MainActor final class Hook {
    var run: (@MainActor () -> Void)?
  }

  struct Child: Equatable {
    var values = ["one", "two"]
    let hook: Hook
    /// The first value, read after the hook ran, from the buffer read before it.
    var firstAfterHook: String {
      values.withUnsafeBufferPointer { buffer in
        MainActor.assumeIsolated { hook.run?() }
        return buffer.first ?? "<none>"
      }
    }
    static func == (lhs: Self, rhs: Self) -> Bool { lhs.values == rhs.values }
  }

  struct Feature: Reducer {
    struct State {
      var items = ["a", "b"]
      var child: Child?
      let hook: Hook
      /// The first item, read after the hook ran, from the buffer read before it.
      var firstAfterHook: String {
        items.withUnsafeBufferPointer { buffer in
          MainActor.assumeIsolated { hook.run?() }
          return buffer.first ?? "<none>"
        }
      }
    }
    enum Action: Sendable {
      case clearItems
      case clearChildValues
      case child(Never)
      case record(String)
    }
    let log: Collected<String>
    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .clearItems:
        state.items = []
        return .send(.record("effect of clearItems"))
      case .clearChildValues: state.child?.values = []
      case .record(let entry): log.append(entry)
      }
      return .none
    }
  }

  func makeStore(_ hook: Hook, _ log: Collected<String>) -> StoreOf<Feature> {
    Store(
      initialState: Feature.State(
        items: ["a", "b"].map { String(repeating: $0, count: 64) },
        child: Child(values: ["one", "two"].map { String(repeating: $0, count: 8) }, hook: hook),
        hook: hook)
    ) { Feature(log: log) }
  }

  @Test func anActionSentByAGetterIsReducedOnceTheReadEnds() {
    let hook = Hook()
    let log = Collected<String>()
    let store = makeStore(hook, log)
    var itemsDuringRead: Int?
    hook.run = { [weak store] in
      hook.run = nil
      let task = store?.send(.clearItems)
      // Not reduced yet: the getter is still reading the items.
      itemsDuringRead = store?.items.count
      _ = task
      log.append("sent")
    }
    // The getter read its buffer whole before the action was reduced; the store then read
    // again, so what it returns is what the action left (a view's tracking, installed only
    // after the read, would never be told of the change).
    #expect(store.firstAfterHook == "<none>")
    #expect(itemsDuringRead == 2)
    // Reduced when the read ended, with its effect.
    #expect(store.items.isEmpty)
    #expect(log.values == ["sent", "effect of clearItems"])
  }

  @Test func anActionSentByAChildStoresGetterIsReducedOnceTheReadEnds() throws {
    let hook = Hook()
    let log = Collected<String>()
    let store = makeStore(hook, log)
    let child = try #require(
      store.scope(
        state: \.child,
        action: CaseKey(Feature.Action.child) { if case .child(let a) = $0 { a } else { nil } }))
    hook.run = { [weak store] in
      hook.run = nil
      store?.send(.clearChildValues)
    }
    #expect(child.firstAfterHook == "<none>")
    #expect(child.values.isEmpty)
    #expect(store.child?.values.isEmpty == true)
  }

  @Test func actionsSentDuringNestedReadsAreReducedInOrderAfterTheOutermost() {
    let hook = Hook()
    let log = Collected<String>()
    let store = makeStore(hook, log)
    hook.run = { [weak store] in
      hook.run = nil
      store?.send(.record("first"))
      // A read inside the read: its end is not the outermost's.
      _ = store?.items.count
      store?.send(.record("second"))
      #expect(log.values.isEmpty)
    }
    _ = store.firstAfterHook
    #expect(log.values == ["first", "second"])
  }
}

extension SendDuringReadTests {
  /// Only the root being read holds its actions back: an action sent to another root during
  /// the read is reduced at once, and the getter can read what it changed. A read of the
  /// other root nested in this one that sends to it returns with the action reduced.
  @Test func anotherRootsActionsGoOnAtOnceDuringARead() {
    let hook = Hook()
    let log = Collected<String>()
    let store = makeStore(hook, log)
    let otherHook = Hook()
    let other = makeStore(otherHook, log)
    var otherItemsDuringRead: Int?
    hook.run = { [weak other] in
      hook.run = nil
      other?.send(.clearItems)
      otherItemsDuringRead = other?.items.count
    }
    _ = store.firstAfterHook
    #expect(otherItemsDuringRead == 0)
    // Nested: a read of `other`'s getter, inside a read of `store`, that sends to `other`.
    otherHook.run = { [weak other] in
      otherHook.run = nil
      other?.send(.record("other's own"))
    }
    hook.run = { [weak other] in
      hook.run = nil
      _ = other?.firstAfterHook
      log.append("after other's read")
    }
    _ = store.firstAfterHook
    #expect(log.values.suffix(2) == ["other's own", "after other's read"])
  }
}

/// Child states whose size is less than their stride (a struct that ends in a `Bool`): a
/// derived store's copy of such a state read past its end, by the stride, until it copied
/// the value's size alone. These read the right values in any build; under
/// `swift test --sanitize=address` they stopped at the read past the end.
@MainActor
@Suite struct SmallStrideStateTests {
  struct Small: Equatable, Identifiable {
    var id: Int
    var flag = true
  }
  struct Holder: Reducer {
    struct State: Equatable {
      var child: Small? = Small(id: 1)
      var rows: IdentifiedArrayOf<Small> = [Small(id: 1), Small(id: 2)]
      var computedChild: Small? { child }
    }
    enum Action: Sendable {
      case toggle(Int)
      case toggleChild
      case child(Never)
      case rows(IdentifiedAction<Int, Never>)
    }
    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .toggle(let id): state.rows[id: id]?.flag.toggle()
      case .toggleChild: state.child?.flag.toggle()
      case .rows: break
      }
      return .none
    }
  }

  @Test func aComputedOptionalChildsStoreReadsItsValues() throws {
    #expect(MemoryLayout<Small>.size < MemoryLayout<Small>.stride)
    let store = Store(initialState: Holder.State()) { Holder() }
    let child = try #require(
      store.scope(
        state: \.computedChild,
        action: CaseKey(Holder.Action.child) { if case .child(let a) = $0 { a } else { nil } }))
    #expect(child.flag)
    store.send(.toggleChild)
    #expect(!child.flag)
  }

  @Test func aRowStoreReadsItsValuesAfterAnAction() throws {
    let store = Store(initialState: Holder.State()) { Holder() }
    let rows = store.scope(
      state: \.rows,
      action: CaseKey(Holder.Action.rows) { if case .rows(let a) = $0 { a } else { nil } })
    let row = try #require(rows[id: 2])
    #expect(row.flag)
    store.send(.toggle(2))
    #expect(!row.flag)
  }
}
