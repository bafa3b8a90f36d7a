import Effects
import Store

// Ten concrete levels of nesting, written the way features nest: each level a reducer with
// its own State and Action, scoping into the next. The leaf is `Counter`.

struct Level1: Reducer {
  struct State { var child = Level2.State() }
  enum Action: Sendable, Equatable { case child(Level2.Action) }
  var body: some Reducer<State, Action> {
    Scope(state: \.child, action: .child) { Level2() }
  }
}

extension CaseKey<Level1.Action, Level2.Action> {
  static var child: Self {
    Self(Level1.Action.child) { if case .child(let a) = $0 { a } else { nil } }
  }
}

struct Level2: Reducer {
  struct State { var child = Level3.State() }
  enum Action: Sendable, Equatable { case child(Level3.Action) }
  var body: some Reducer<State, Action> {
    Scope(state: \.child, action: .child) { Level3() }
  }
}

extension CaseKey<Level2.Action, Level3.Action> {
  static var child: Self {
    Self(Level2.Action.child) { if case .child(let a) = $0 { a } else { nil } }
  }
}

struct Level3: Reducer {
  struct State { var child = Level4.State() }
  enum Action: Sendable, Equatable { case child(Level4.Action) }
  var body: some Reducer<State, Action> {
    Scope(state: \.child, action: .child) { Level4() }
  }
}

extension CaseKey<Level3.Action, Level4.Action> {
  static var child: Self {
    Self(Level3.Action.child) { if case .child(let a) = $0 { a } else { nil } }
  }
}

struct Level4: Reducer {
  struct State { var child = Level5.State() }
  enum Action: Sendable, Equatable { case child(Level5.Action) }
  var body: some Reducer<State, Action> {
    Scope(state: \.child, action: .child) { Level5() }
  }
}

extension CaseKey<Level4.Action, Level5.Action> {
  static var child: Self {
    Self(Level4.Action.child) { if case .child(let a) = $0 { a } else { nil } }
  }
}

struct Level5: Reducer {
  struct State { var child = Level6.State() }
  enum Action: Sendable, Equatable { case child(Level6.Action) }
  var body: some Reducer<State, Action> {
    Scope(state: \.child, action: .child) { Level6() }
  }
}

extension CaseKey<Level5.Action, Level6.Action> {
  static var child: Self {
    Self(Level5.Action.child) { if case .child(let a) = $0 { a } else { nil } }
  }
}

struct Level6: Reducer {
  struct State { var child = Level7.State() }
  enum Action: Sendable, Equatable { case child(Level7.Action) }
  var body: some Reducer<State, Action> {
    Scope(state: \.child, action: .child) { Level7() }
  }
}

extension CaseKey<Level6.Action, Level7.Action> {
  static var child: Self {
    Self(Level6.Action.child) { if case .child(let a) = $0 { a } else { nil } }
  }
}

struct Level7: Reducer {
  struct State { var child = Level8.State() }
  enum Action: Sendable, Equatable { case child(Level8.Action) }
  var body: some Reducer<State, Action> {
    Scope(state: \.child, action: .child) { Level8() }
  }
}

extension CaseKey<Level7.Action, Level8.Action> {
  static var child: Self {
    Self(Level7.Action.child) { if case .child(let a) = $0 { a } else { nil } }
  }
}

struct Level8: Reducer {
  struct State { var child = Level9.State() }
  enum Action: Sendable, Equatable { case child(Level9.Action) }
  var body: some Reducer<State, Action> {
    Scope(state: \.child, action: .child) { Level9() }
  }
}

extension CaseKey<Level8.Action, Level9.Action> {
  static var child: Self {
    Self(Level8.Action.child) { if case .child(let a) = $0 { a } else { nil } }
  }
}

struct Level9: Reducer {
  struct State { var child = Level10.State() }
  enum Action: Sendable, Equatable { case child(Level10.Action) }
  var body: some Reducer<State, Action> {
    Scope(state: \.child, action: .child) { Level10() }
  }
}

extension CaseKey<Level9.Action, Level10.Action> {
  static var child: Self {
    Self(Level9.Action.child) { if case .child(let a) = $0 { a } else { nil } }
  }
}

struct Level10: Reducer {
  struct State { var child = Counter.State() }
  enum Action: Sendable, Equatable { case child(Counter.Action) }
  var body: some Reducer<State, Action> {
    Scope(state: \.child, action: .child) { Counter() }
  }
}

extension CaseKey<Level10.Action, Counter.Action> {
  static var child: Self {
    Self(Level10.Action.child) { if case .child(let a) = $0 { a } else { nil } }
  }
}

@MainActor
func leafStore(_ root: StoreOf<Level1>) -> StoreOf<Counter> {
  root.scope(state: \.child, action: .child)
    .scope(state: \.child, action: .child)
    .scope(state: \.child, action: .child)
    .scope(state: \.child, action: .child)
    .scope(state: \.child, action: .child)
    .scope(state: \.child, action: .child)
    .scope(state: \.child, action: .child)
    .scope(state: \.child, action: .child)
    .scope(state: \.child, action: .child)
    .scope(state: \.child, action: .child)
}
