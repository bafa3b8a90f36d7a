import Effects
import Store

// Four levels of optional children (`ifLet`), each level's state carrying 4 KiB inline, as
// features that hold forms and settings do. The leaf is `Counter`.

/// 4 KiB of inline state.
struct Inline4K: Equatable {
  var a = SIMD64<Int64>.zero
  var b = SIMD64<Int64>.zero
  var c = SIMD64<Int64>.zero
  var d = SIMD64<Int64>.zero
  var e = SIMD64<Int64>.zero
  var f = SIMD64<Int64>.zero
  var g = SIMD64<Int64>.zero
  var h = SIMD64<Int64>.zero
}

struct Heavy1: Reducer {
  struct State: Equatable {
    var payload = Inline4K()
    var child: Heavy2.State? = Heavy2.State()
  }
  enum Action: Sendable, Equatable { case child(Heavy2.Action) }
  var body: some Reducer<State, Action> {
    EmptyReducer().ifLet(\.child, action: .child) { Heavy2() }
  }
}

extension CaseKey<Heavy1.Action, Heavy2.Action> {
  static var child: Self {
    Self(Heavy1.Action.child) { if case .child(let a) = $0 { a } else { nil } }
  }
}

struct Heavy2: Reducer {
  struct State: Equatable {
    var payload = Inline4K()
    var child: Heavy3.State? = Heavy3.State()
  }
  enum Action: Sendable, Equatable { case child(Heavy3.Action) }
  var body: some Reducer<State, Action> {
    EmptyReducer().ifLet(\.child, action: .child) { Heavy3() }
  }
}

extension CaseKey<Heavy2.Action, Heavy3.Action> {
  static var child: Self {
    Self(Heavy2.Action.child) { if case .child(let a) = $0 { a } else { nil } }
  }
}

struct Heavy3: Reducer {
  struct State: Equatable {
    var payload = Inline4K()
    var child: Heavy4.State? = Heavy4.State()
  }
  enum Action: Sendable, Equatable { case child(Heavy4.Action) }
  var body: some Reducer<State, Action> {
    EmptyReducer().ifLet(\.child, action: .child) { Heavy4() }
  }
}

extension CaseKey<Heavy3.Action, Heavy4.Action> {
  static var child: Self {
    Self(Heavy3.Action.child) { if case .child(let a) = $0 { a } else { nil } }
  }
}

struct Heavy4: Reducer {
  struct State: Equatable {
    var payload = Inline4K()
    var child: Counter.State? = Counter.State()
  }
  enum Action: Sendable, Equatable { case child(Counter.Action) }
  var body: some Reducer<State, Action> {
    EmptyReducer().ifLet(\.child, action: .child) { Counter() }
  }
}

extension CaseKey<Heavy4.Action, Counter.Action> {
  static var child: Self {
    Self(Heavy4.Action.child) { if case .child(let a) = $0 { a } else { nil } }
  }
}

/// The counter's store, scoped through the four optional children.
@MainActor
func heavyLeafStore(_ root: StoreOf<Heavy1>) -> StoreOf<Counter> {
  root.scope(state: \.child, action: .child)!
    .scope(state: \.child, action: .child)!
    .scope(state: \.child, action: .child)!
    .scope(state: \.child, action: .child)!
}
