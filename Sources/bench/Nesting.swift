import Effects
import Store

// Ten concrete levels of nesting, written the way features nest: each level a reducer with
// its own State and Action, scoping into the next. The leaf is `Counter`.

struct Level1: Reducer {
  struct State { var child = Level2.State() }
  enum Action: Sendable, Equatable { case child(Level2.Action) }
  var body: some Reducer<State, Action> {
    Scope(state: \.child, action: Action.child) { Level2() }
  }
}

extension Level1.Action {
  static let child = CaseKey(Self.child) { if case .child(let a) = $0 { a } else { nil } }
}

struct Level2: Reducer {
  struct State { var child = Level3.State() }
  enum Action: Sendable, Equatable { case child(Level3.Action) }
  var body: some Reducer<State, Action> {
    Scope(state: \.child, action: Action.child) { Level3() }
  }
}

extension Level2.Action {
  static let child = CaseKey(Self.child) { if case .child(let a) = $0 { a } else { nil } }
}

struct Level3: Reducer {
  struct State { var child = Level4.State() }
  enum Action: Sendable, Equatable { case child(Level4.Action) }
  var body: some Reducer<State, Action> {
    Scope(state: \.child, action: Action.child) { Level4() }
  }
}

extension Level3.Action {
  static let child = CaseKey(Self.child) { if case .child(let a) = $0 { a } else { nil } }
}

struct Level4: Reducer {
  struct State { var child = Level5.State() }
  enum Action: Sendable, Equatable { case child(Level5.Action) }
  var body: some Reducer<State, Action> {
    Scope(state: \.child, action: Action.child) { Level5() }
  }
}

extension Level4.Action {
  static let child = CaseKey(Self.child) { if case .child(let a) = $0 { a } else { nil } }
}

struct Level5: Reducer {
  struct State { var child = Level6.State() }
  enum Action: Sendable, Equatable { case child(Level6.Action) }
  var body: some Reducer<State, Action> {
    Scope(state: \.child, action: Action.child) { Level6() }
  }
}

extension Level5.Action {
  static let child = CaseKey(Self.child) { if case .child(let a) = $0 { a } else { nil } }
}

struct Level6: Reducer {
  struct State { var child = Level7.State() }
  enum Action: Sendable, Equatable { case child(Level7.Action) }
  var body: some Reducer<State, Action> {
    Scope(state: \.child, action: Action.child) { Level7() }
  }
}

extension Level6.Action {
  static let child = CaseKey(Self.child) { if case .child(let a) = $0 { a } else { nil } }
}

struct Level7: Reducer {
  struct State { var child = Level8.State() }
  enum Action: Sendable, Equatable { case child(Level8.Action) }
  var body: some Reducer<State, Action> {
    Scope(state: \.child, action: Action.child) { Level8() }
  }
}

extension Level7.Action {
  static let child = CaseKey(Self.child) { if case .child(let a) = $0 { a } else { nil } }
}

struct Level8: Reducer {
  struct State { var child = Level9.State() }
  enum Action: Sendable, Equatable { case child(Level9.Action) }
  var body: some Reducer<State, Action> {
    Scope(state: \.child, action: Action.child) { Level9() }
  }
}

extension Level8.Action {
  static let child = CaseKey(Self.child) { if case .child(let a) = $0 { a } else { nil } }
}

struct Level9: Reducer {
  struct State { var child = Level10.State() }
  enum Action: Sendable, Equatable { case child(Level10.Action) }
  var body: some Reducer<State, Action> {
    Scope(state: \.child, action: Action.child) { Level10() }
  }
}

extension Level9.Action {
  static let child = CaseKey(Self.child) { if case .child(let a) = $0 { a } else { nil } }
}

struct Level10: Reducer {
  struct State { var child = Counter.State() }
  enum Action: Sendable, Equatable { case child(Counter.Action) }
  var body: some Reducer<State, Action> {
    Scope(state: \.child, action: Action.child) { Counter() }
  }
}

extension Level10.Action {
  static let child = CaseKey(Self.child) { if case .child(let a) = $0 { a } else { nil } }
}

@MainActor
func leafStore(_ root: StoreOf<Level1>) -> StoreOf<Counter> {
  root.scope(state: \.child, action: Level1.Action.child)
    .scope(state: \.child, action: Level2.Action.child)
    .scope(state: \.child, action: Level3.Action.child)
    .scope(state: \.child, action: Level4.Action.child)
    .scope(state: \.child, action: Level5.Action.child)
    .scope(state: \.child, action: Level6.Action.child)
    .scope(state: \.child, action: Level7.Action.child)
    .scope(state: \.child, action: Level8.Action.child)
    .scope(state: \.child, action: Level9.Action.child)
    .scope(state: \.child, action: Level10.Action.child)
}
