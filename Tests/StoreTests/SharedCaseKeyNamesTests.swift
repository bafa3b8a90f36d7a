import Effects
import Testing

@testable import Store

// Twelve destinations whose four cases share their names, as the features of one module do
// (`alert`, `edit`, ...): each body writes its keys with `StateKey` and `ActionKey`, and
// type-checks in about 5 ms. With leading dots (`.ifCaseLet(.alert, action: .alert)`), each
// took about 1 s (12 s for the file), at CI's one-second limit on an expression, and each
// destination more would have added to every body's time. The keys are `fileprivate`: the
// keys of other files do not count, and these would slow other files' bodies.

/// A child that counts its taps.
private struct Child0: Reducer {
  struct State: Equatable { var taps = 0 }
  enum Action: Sendable { case tapped }
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    state.taps += 1
    return .none
  }
}

/// A destination of four cases, named as the other destinations' are.
private struct Destination0: Reducer {
  enum State: Equatable {
    case alert(Child0.State)
    case edit(Child0.State)
    case detail(Child0.State)
    case add(Child0.State)
  }
  enum Action: Sendable {
    case alert(Child0.Action)
    case edit(Child0.Action)
    case detail(Child0.Action)
    case add(Child0.Action)
  }
  var body: some Reducer<State, Action> {
    EmptyReducer()
      .ifCaseLet(StateKey.alert, action: ActionKey.alert) { Child0() }
      .ifCaseLet(StateKey.edit, action: ActionKey.edit) { Child0() }
      .ifCaseLet(StateKey.detail, action: ActionKey.detail) { Child0() }
      .ifCaseLet(StateKey.add, action: ActionKey.add) { Child0() }
  }
}

extension CaseKey<Destination0.State, Child0.State> {
  fileprivate static var alert: Self {
    Self(Destination0.State.alert) { if case .alert(let s) = $0 { s } else { nil } }
  }
}

extension CaseKey<Destination0.Action, Child0.Action> {
  fileprivate static var alert: Self {
    Self(Destination0.Action.alert) { if case .alert(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<Destination0.State, Child0.State> {
  fileprivate static var edit: Self {
    Self(Destination0.State.edit) { if case .edit(let s) = $0 { s } else { nil } }
  }
}

extension CaseKey<Destination0.Action, Child0.Action> {
  fileprivate static var edit: Self {
    Self(Destination0.Action.edit) { if case .edit(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<Destination0.State, Child0.State> {
  fileprivate static var detail: Self {
    Self(Destination0.State.detail) { if case .detail(let s) = $0 { s } else { nil } }
  }
}

extension CaseKey<Destination0.Action, Child0.Action> {
  fileprivate static var detail: Self {
    Self(Destination0.Action.detail) { if case .detail(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<Destination0.State, Child0.State> {
  fileprivate static var add: Self {
    Self(Destination0.State.add) { if case .add(let s) = $0 { s } else { nil } }
  }
}

extension CaseKey<Destination0.Action, Child0.Action> {
  fileprivate static var add: Self {
    Self(Destination0.Action.add) { if case .add(let a) = $0 { a } else { nil } }
  }
}

/// A child that counts its taps.
private struct Child1: Reducer {
  struct State: Equatable { var taps = 0 }
  enum Action: Sendable { case tapped }
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    state.taps += 2
    return .none
  }
}

/// A destination of four cases, named as the other destinations' are.
private struct Destination1: Reducer {
  enum State: Equatable {
    case alert(Child1.State)
    case edit(Child1.State)
    case detail(Child1.State)
    case add(Child1.State)
  }
  enum Action: Sendable {
    case alert(Child1.Action)
    case edit(Child1.Action)
    case detail(Child1.Action)
    case add(Child1.Action)
  }
  var body: some Reducer<State, Action> {
    EmptyReducer()
      .ifCaseLet(StateKey.alert, action: ActionKey.alert) { Child1() }
      .ifCaseLet(StateKey.edit, action: ActionKey.edit) { Child1() }
      .ifCaseLet(StateKey.detail, action: ActionKey.detail) { Child1() }
      .ifCaseLet(StateKey.add, action: ActionKey.add) { Child1() }
  }
}

extension CaseKey<Destination1.State, Child1.State> {
  fileprivate static var alert: Self {
    Self(Destination1.State.alert) { if case .alert(let s) = $0 { s } else { nil } }
  }
}

extension CaseKey<Destination1.Action, Child1.Action> {
  fileprivate static var alert: Self {
    Self(Destination1.Action.alert) { if case .alert(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<Destination1.State, Child1.State> {
  fileprivate static var edit: Self {
    Self(Destination1.State.edit) { if case .edit(let s) = $0 { s } else { nil } }
  }
}

extension CaseKey<Destination1.Action, Child1.Action> {
  fileprivate static var edit: Self {
    Self(Destination1.Action.edit) { if case .edit(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<Destination1.State, Child1.State> {
  fileprivate static var detail: Self {
    Self(Destination1.State.detail) { if case .detail(let s) = $0 { s } else { nil } }
  }
}

extension CaseKey<Destination1.Action, Child1.Action> {
  fileprivate static var detail: Self {
    Self(Destination1.Action.detail) { if case .detail(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<Destination1.State, Child1.State> {
  fileprivate static var add: Self {
    Self(Destination1.State.add) { if case .add(let s) = $0 { s } else { nil } }
  }
}

extension CaseKey<Destination1.Action, Child1.Action> {
  fileprivate static var add: Self {
    Self(Destination1.Action.add) { if case .add(let a) = $0 { a } else { nil } }
  }
}

/// A child that counts its taps.
private struct Child2: Reducer {
  struct State: Equatable { var taps = 0 }
  enum Action: Sendable { case tapped }
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    state.taps += 3
    return .none
  }
}

/// A destination of four cases, named as the other destinations' are.
private struct Destination2: Reducer {
  enum State: Equatable {
    case alert(Child2.State)
    case edit(Child2.State)
    case detail(Child2.State)
    case add(Child2.State)
  }
  enum Action: Sendable {
    case alert(Child2.Action)
    case edit(Child2.Action)
    case detail(Child2.Action)
    case add(Child2.Action)
  }
  var body: some Reducer<State, Action> {
    EmptyReducer()
      .ifCaseLet(StateKey.alert, action: ActionKey.alert) { Child2() }
      .ifCaseLet(StateKey.edit, action: ActionKey.edit) { Child2() }
      .ifCaseLet(StateKey.detail, action: ActionKey.detail) { Child2() }
      .ifCaseLet(StateKey.add, action: ActionKey.add) { Child2() }
  }
}

extension CaseKey<Destination2.State, Child2.State> {
  fileprivate static var alert: Self {
    Self(Destination2.State.alert) { if case .alert(let s) = $0 { s } else { nil } }
  }
}

extension CaseKey<Destination2.Action, Child2.Action> {
  fileprivate static var alert: Self {
    Self(Destination2.Action.alert) { if case .alert(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<Destination2.State, Child2.State> {
  fileprivate static var edit: Self {
    Self(Destination2.State.edit) { if case .edit(let s) = $0 { s } else { nil } }
  }
}

extension CaseKey<Destination2.Action, Child2.Action> {
  fileprivate static var edit: Self {
    Self(Destination2.Action.edit) { if case .edit(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<Destination2.State, Child2.State> {
  fileprivate static var detail: Self {
    Self(Destination2.State.detail) { if case .detail(let s) = $0 { s } else { nil } }
  }
}

extension CaseKey<Destination2.Action, Child2.Action> {
  fileprivate static var detail: Self {
    Self(Destination2.Action.detail) { if case .detail(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<Destination2.State, Child2.State> {
  fileprivate static var add: Self {
    Self(Destination2.State.add) { if case .add(let s) = $0 { s } else { nil } }
  }
}

extension CaseKey<Destination2.Action, Child2.Action> {
  fileprivate static var add: Self {
    Self(Destination2.Action.add) { if case .add(let a) = $0 { a } else { nil } }
  }
}

/// A child that counts its taps.
private struct Child3: Reducer {
  struct State: Equatable { var taps = 0 }
  enum Action: Sendable { case tapped }
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    state.taps += 4
    return .none
  }
}

/// A destination of four cases, named as the other destinations' are.
private struct Destination3: Reducer {
  enum State: Equatable {
    case alert(Child3.State)
    case edit(Child3.State)
    case detail(Child3.State)
    case add(Child3.State)
  }
  enum Action: Sendable {
    case alert(Child3.Action)
    case edit(Child3.Action)
    case detail(Child3.Action)
    case add(Child3.Action)
  }
  var body: some Reducer<State, Action> {
    EmptyReducer()
      .ifCaseLet(StateKey.alert, action: ActionKey.alert) { Child3() }
      .ifCaseLet(StateKey.edit, action: ActionKey.edit) { Child3() }
      .ifCaseLet(StateKey.detail, action: ActionKey.detail) { Child3() }
      .ifCaseLet(StateKey.add, action: ActionKey.add) { Child3() }
  }
}

extension CaseKey<Destination3.State, Child3.State> {
  fileprivate static var alert: Self {
    Self(Destination3.State.alert) { if case .alert(let s) = $0 { s } else { nil } }
  }
}

extension CaseKey<Destination3.Action, Child3.Action> {
  fileprivate static var alert: Self {
    Self(Destination3.Action.alert) { if case .alert(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<Destination3.State, Child3.State> {
  fileprivate static var edit: Self {
    Self(Destination3.State.edit) { if case .edit(let s) = $0 { s } else { nil } }
  }
}

extension CaseKey<Destination3.Action, Child3.Action> {
  fileprivate static var edit: Self {
    Self(Destination3.Action.edit) { if case .edit(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<Destination3.State, Child3.State> {
  fileprivate static var detail: Self {
    Self(Destination3.State.detail) { if case .detail(let s) = $0 { s } else { nil } }
  }
}

extension CaseKey<Destination3.Action, Child3.Action> {
  fileprivate static var detail: Self {
    Self(Destination3.Action.detail) { if case .detail(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<Destination3.State, Child3.State> {
  fileprivate static var add: Self {
    Self(Destination3.State.add) { if case .add(let s) = $0 { s } else { nil } }
  }
}

extension CaseKey<Destination3.Action, Child3.Action> {
  fileprivate static var add: Self {
    Self(Destination3.Action.add) { if case .add(let a) = $0 { a } else { nil } }
  }
}

/// A child that counts its taps.
private struct Child4: Reducer {
  struct State: Equatable { var taps = 0 }
  enum Action: Sendable { case tapped }
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    state.taps += 5
    return .none
  }
}

/// A destination of four cases, named as the other destinations' are.
private struct Destination4: Reducer {
  enum State: Equatable {
    case alert(Child4.State)
    case edit(Child4.State)
    case detail(Child4.State)
    case add(Child4.State)
  }
  enum Action: Sendable {
    case alert(Child4.Action)
    case edit(Child4.Action)
    case detail(Child4.Action)
    case add(Child4.Action)
  }
  var body: some Reducer<State, Action> {
    EmptyReducer()
      .ifCaseLet(StateKey.alert, action: ActionKey.alert) { Child4() }
      .ifCaseLet(StateKey.edit, action: ActionKey.edit) { Child4() }
      .ifCaseLet(StateKey.detail, action: ActionKey.detail) { Child4() }
      .ifCaseLet(StateKey.add, action: ActionKey.add) { Child4() }
  }
}

extension CaseKey<Destination4.State, Child4.State> {
  fileprivate static var alert: Self {
    Self(Destination4.State.alert) { if case .alert(let s) = $0 { s } else { nil } }
  }
}

extension CaseKey<Destination4.Action, Child4.Action> {
  fileprivate static var alert: Self {
    Self(Destination4.Action.alert) { if case .alert(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<Destination4.State, Child4.State> {
  fileprivate static var edit: Self {
    Self(Destination4.State.edit) { if case .edit(let s) = $0 { s } else { nil } }
  }
}

extension CaseKey<Destination4.Action, Child4.Action> {
  fileprivate static var edit: Self {
    Self(Destination4.Action.edit) { if case .edit(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<Destination4.State, Child4.State> {
  fileprivate static var detail: Self {
    Self(Destination4.State.detail) { if case .detail(let s) = $0 { s } else { nil } }
  }
}

extension CaseKey<Destination4.Action, Child4.Action> {
  fileprivate static var detail: Self {
    Self(Destination4.Action.detail) { if case .detail(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<Destination4.State, Child4.State> {
  fileprivate static var add: Self {
    Self(Destination4.State.add) { if case .add(let s) = $0 { s } else { nil } }
  }
}

extension CaseKey<Destination4.Action, Child4.Action> {
  fileprivate static var add: Self {
    Self(Destination4.Action.add) { if case .add(let a) = $0 { a } else { nil } }
  }
}

/// A child that counts its taps.
private struct Child5: Reducer {
  struct State: Equatable { var taps = 0 }
  enum Action: Sendable { case tapped }
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    state.taps += 6
    return .none
  }
}

/// A destination of four cases, named as the other destinations' are.
private struct Destination5: Reducer {
  enum State: Equatable {
    case alert(Child5.State)
    case edit(Child5.State)
    case detail(Child5.State)
    case add(Child5.State)
  }
  enum Action: Sendable {
    case alert(Child5.Action)
    case edit(Child5.Action)
    case detail(Child5.Action)
    case add(Child5.Action)
  }
  var body: some Reducer<State, Action> {
    EmptyReducer()
      .ifCaseLet(StateKey.alert, action: ActionKey.alert) { Child5() }
      .ifCaseLet(StateKey.edit, action: ActionKey.edit) { Child5() }
      .ifCaseLet(StateKey.detail, action: ActionKey.detail) { Child5() }
      .ifCaseLet(StateKey.add, action: ActionKey.add) { Child5() }
  }
}

extension CaseKey<Destination5.State, Child5.State> {
  fileprivate static var alert: Self {
    Self(Destination5.State.alert) { if case .alert(let s) = $0 { s } else { nil } }
  }
}

extension CaseKey<Destination5.Action, Child5.Action> {
  fileprivate static var alert: Self {
    Self(Destination5.Action.alert) { if case .alert(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<Destination5.State, Child5.State> {
  fileprivate static var edit: Self {
    Self(Destination5.State.edit) { if case .edit(let s) = $0 { s } else { nil } }
  }
}

extension CaseKey<Destination5.Action, Child5.Action> {
  fileprivate static var edit: Self {
    Self(Destination5.Action.edit) { if case .edit(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<Destination5.State, Child5.State> {
  fileprivate static var detail: Self {
    Self(Destination5.State.detail) { if case .detail(let s) = $0 { s } else { nil } }
  }
}

extension CaseKey<Destination5.Action, Child5.Action> {
  fileprivate static var detail: Self {
    Self(Destination5.Action.detail) { if case .detail(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<Destination5.State, Child5.State> {
  fileprivate static var add: Self {
    Self(Destination5.State.add) { if case .add(let s) = $0 { s } else { nil } }
  }
}

extension CaseKey<Destination5.Action, Child5.Action> {
  fileprivate static var add: Self {
    Self(Destination5.Action.add) { if case .add(let a) = $0 { a } else { nil } }
  }
}

/// A child that counts its taps.
private struct Child6: Reducer {
  struct State: Equatable { var taps = 0 }
  enum Action: Sendable { case tapped }
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    state.taps += 7
    return .none
  }
}

/// A destination of four cases, named as the other destinations' are.
private struct Destination6: Reducer {
  enum State: Equatable {
    case alert(Child6.State)
    case edit(Child6.State)
    case detail(Child6.State)
    case add(Child6.State)
  }
  enum Action: Sendable {
    case alert(Child6.Action)
    case edit(Child6.Action)
    case detail(Child6.Action)
    case add(Child6.Action)
  }
  var body: some Reducer<State, Action> {
    EmptyReducer()
      .ifCaseLet(StateKey.alert, action: ActionKey.alert) { Child6() }
      .ifCaseLet(StateKey.edit, action: ActionKey.edit) { Child6() }
      .ifCaseLet(StateKey.detail, action: ActionKey.detail) { Child6() }
      .ifCaseLet(StateKey.add, action: ActionKey.add) { Child6() }
  }
}

extension CaseKey<Destination6.State, Child6.State> {
  fileprivate static var alert: Self {
    Self(Destination6.State.alert) { if case .alert(let s) = $0 { s } else { nil } }
  }
}

extension CaseKey<Destination6.Action, Child6.Action> {
  fileprivate static var alert: Self {
    Self(Destination6.Action.alert) { if case .alert(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<Destination6.State, Child6.State> {
  fileprivate static var edit: Self {
    Self(Destination6.State.edit) { if case .edit(let s) = $0 { s } else { nil } }
  }
}

extension CaseKey<Destination6.Action, Child6.Action> {
  fileprivate static var edit: Self {
    Self(Destination6.Action.edit) { if case .edit(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<Destination6.State, Child6.State> {
  fileprivate static var detail: Self {
    Self(Destination6.State.detail) { if case .detail(let s) = $0 { s } else { nil } }
  }
}

extension CaseKey<Destination6.Action, Child6.Action> {
  fileprivate static var detail: Self {
    Self(Destination6.Action.detail) { if case .detail(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<Destination6.State, Child6.State> {
  fileprivate static var add: Self {
    Self(Destination6.State.add) { if case .add(let s) = $0 { s } else { nil } }
  }
}

extension CaseKey<Destination6.Action, Child6.Action> {
  fileprivate static var add: Self {
    Self(Destination6.Action.add) { if case .add(let a) = $0 { a } else { nil } }
  }
}

/// A child that counts its taps.
private struct Child7: Reducer {
  struct State: Equatable { var taps = 0 }
  enum Action: Sendable { case tapped }
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    state.taps += 8
    return .none
  }
}

/// A destination of four cases, named as the other destinations' are.
private struct Destination7: Reducer {
  enum State: Equatable {
    case alert(Child7.State)
    case edit(Child7.State)
    case detail(Child7.State)
    case add(Child7.State)
  }
  enum Action: Sendable {
    case alert(Child7.Action)
    case edit(Child7.Action)
    case detail(Child7.Action)
    case add(Child7.Action)
  }
  var body: some Reducer<State, Action> {
    EmptyReducer()
      .ifCaseLet(StateKey.alert, action: ActionKey.alert) { Child7() }
      .ifCaseLet(StateKey.edit, action: ActionKey.edit) { Child7() }
      .ifCaseLet(StateKey.detail, action: ActionKey.detail) { Child7() }
      .ifCaseLet(StateKey.add, action: ActionKey.add) { Child7() }
  }
}

extension CaseKey<Destination7.State, Child7.State> {
  fileprivate static var alert: Self {
    Self(Destination7.State.alert) { if case .alert(let s) = $0 { s } else { nil } }
  }
}

extension CaseKey<Destination7.Action, Child7.Action> {
  fileprivate static var alert: Self {
    Self(Destination7.Action.alert) { if case .alert(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<Destination7.State, Child7.State> {
  fileprivate static var edit: Self {
    Self(Destination7.State.edit) { if case .edit(let s) = $0 { s } else { nil } }
  }
}

extension CaseKey<Destination7.Action, Child7.Action> {
  fileprivate static var edit: Self {
    Self(Destination7.Action.edit) { if case .edit(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<Destination7.State, Child7.State> {
  fileprivate static var detail: Self {
    Self(Destination7.State.detail) { if case .detail(let s) = $0 { s } else { nil } }
  }
}

extension CaseKey<Destination7.Action, Child7.Action> {
  fileprivate static var detail: Self {
    Self(Destination7.Action.detail) { if case .detail(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<Destination7.State, Child7.State> {
  fileprivate static var add: Self {
    Self(Destination7.State.add) { if case .add(let s) = $0 { s } else { nil } }
  }
}

extension CaseKey<Destination7.Action, Child7.Action> {
  fileprivate static var add: Self {
    Self(Destination7.Action.add) { if case .add(let a) = $0 { a } else { nil } }
  }
}

/// A child that counts its taps.
private struct Child8: Reducer {
  struct State: Equatable { var taps = 0 }
  enum Action: Sendable { case tapped }
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    state.taps += 9
    return .none
  }
}

/// A destination of four cases, named as the other destinations' are.
private struct Destination8: Reducer {
  enum State: Equatable {
    case alert(Child8.State)
    case edit(Child8.State)
    case detail(Child8.State)
    case add(Child8.State)
  }
  enum Action: Sendable {
    case alert(Child8.Action)
    case edit(Child8.Action)
    case detail(Child8.Action)
    case add(Child8.Action)
  }
  var body: some Reducer<State, Action> {
    EmptyReducer()
      .ifCaseLet(StateKey.alert, action: ActionKey.alert) { Child8() }
      .ifCaseLet(StateKey.edit, action: ActionKey.edit) { Child8() }
      .ifCaseLet(StateKey.detail, action: ActionKey.detail) { Child8() }
      .ifCaseLet(StateKey.add, action: ActionKey.add) { Child8() }
  }
}

extension CaseKey<Destination8.State, Child8.State> {
  fileprivate static var alert: Self {
    Self(Destination8.State.alert) { if case .alert(let s) = $0 { s } else { nil } }
  }
}

extension CaseKey<Destination8.Action, Child8.Action> {
  fileprivate static var alert: Self {
    Self(Destination8.Action.alert) { if case .alert(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<Destination8.State, Child8.State> {
  fileprivate static var edit: Self {
    Self(Destination8.State.edit) { if case .edit(let s) = $0 { s } else { nil } }
  }
}

extension CaseKey<Destination8.Action, Child8.Action> {
  fileprivate static var edit: Self {
    Self(Destination8.Action.edit) { if case .edit(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<Destination8.State, Child8.State> {
  fileprivate static var detail: Self {
    Self(Destination8.State.detail) { if case .detail(let s) = $0 { s } else { nil } }
  }
}

extension CaseKey<Destination8.Action, Child8.Action> {
  fileprivate static var detail: Self {
    Self(Destination8.Action.detail) { if case .detail(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<Destination8.State, Child8.State> {
  fileprivate static var add: Self {
    Self(Destination8.State.add) { if case .add(let s) = $0 { s } else { nil } }
  }
}

extension CaseKey<Destination8.Action, Child8.Action> {
  fileprivate static var add: Self {
    Self(Destination8.Action.add) { if case .add(let a) = $0 { a } else { nil } }
  }
}

/// A child that counts its taps.
private struct Child9: Reducer {
  struct State: Equatable { var taps = 0 }
  enum Action: Sendable { case tapped }
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    state.taps += 10
    return .none
  }
}

/// A destination of four cases, named as the other destinations' are.
private struct Destination9: Reducer {
  enum State: Equatable {
    case alert(Child9.State)
    case edit(Child9.State)
    case detail(Child9.State)
    case add(Child9.State)
  }
  enum Action: Sendable {
    case alert(Child9.Action)
    case edit(Child9.Action)
    case detail(Child9.Action)
    case add(Child9.Action)
  }
  var body: some Reducer<State, Action> {
    EmptyReducer()
      .ifCaseLet(StateKey.alert, action: ActionKey.alert) { Child9() }
      .ifCaseLet(StateKey.edit, action: ActionKey.edit) { Child9() }
      .ifCaseLet(StateKey.detail, action: ActionKey.detail) { Child9() }
      .ifCaseLet(StateKey.add, action: ActionKey.add) { Child9() }
  }
}

extension CaseKey<Destination9.State, Child9.State> {
  fileprivate static var alert: Self {
    Self(Destination9.State.alert) { if case .alert(let s) = $0 { s } else { nil } }
  }
}

extension CaseKey<Destination9.Action, Child9.Action> {
  fileprivate static var alert: Self {
    Self(Destination9.Action.alert) { if case .alert(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<Destination9.State, Child9.State> {
  fileprivate static var edit: Self {
    Self(Destination9.State.edit) { if case .edit(let s) = $0 { s } else { nil } }
  }
}

extension CaseKey<Destination9.Action, Child9.Action> {
  fileprivate static var edit: Self {
    Self(Destination9.Action.edit) { if case .edit(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<Destination9.State, Child9.State> {
  fileprivate static var detail: Self {
    Self(Destination9.State.detail) { if case .detail(let s) = $0 { s } else { nil } }
  }
}

extension CaseKey<Destination9.Action, Child9.Action> {
  fileprivate static var detail: Self {
    Self(Destination9.Action.detail) { if case .detail(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<Destination9.State, Child9.State> {
  fileprivate static var add: Self {
    Self(Destination9.State.add) { if case .add(let s) = $0 { s } else { nil } }
  }
}

extension CaseKey<Destination9.Action, Child9.Action> {
  fileprivate static var add: Self {
    Self(Destination9.Action.add) { if case .add(let a) = $0 { a } else { nil } }
  }
}

/// A child that counts its taps.
private struct Child10: Reducer {
  struct State: Equatable { var taps = 0 }
  enum Action: Sendable { case tapped }
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    state.taps += 11
    return .none
  }
}

/// A destination of four cases, named as the other destinations' are.
private struct Destination10: Reducer {
  enum State: Equatable {
    case alert(Child10.State)
    case edit(Child10.State)
    case detail(Child10.State)
    case add(Child10.State)
  }
  enum Action: Sendable {
    case alert(Child10.Action)
    case edit(Child10.Action)
    case detail(Child10.Action)
    case add(Child10.Action)
  }
  var body: some Reducer<State, Action> {
    EmptyReducer()
      .ifCaseLet(StateKey.alert, action: ActionKey.alert) { Child10() }
      .ifCaseLet(StateKey.edit, action: ActionKey.edit) { Child10() }
      .ifCaseLet(StateKey.detail, action: ActionKey.detail) { Child10() }
      .ifCaseLet(StateKey.add, action: ActionKey.add) { Child10() }
  }
}

extension CaseKey<Destination10.State, Child10.State> {
  fileprivate static var alert: Self {
    Self(Destination10.State.alert) { if case .alert(let s) = $0 { s } else { nil } }
  }
}

extension CaseKey<Destination10.Action, Child10.Action> {
  fileprivate static var alert: Self {
    Self(Destination10.Action.alert) { if case .alert(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<Destination10.State, Child10.State> {
  fileprivate static var edit: Self {
    Self(Destination10.State.edit) { if case .edit(let s) = $0 { s } else { nil } }
  }
}

extension CaseKey<Destination10.Action, Child10.Action> {
  fileprivate static var edit: Self {
    Self(Destination10.Action.edit) { if case .edit(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<Destination10.State, Child10.State> {
  fileprivate static var detail: Self {
    Self(Destination10.State.detail) { if case .detail(let s) = $0 { s } else { nil } }
  }
}

extension CaseKey<Destination10.Action, Child10.Action> {
  fileprivate static var detail: Self {
    Self(Destination10.Action.detail) { if case .detail(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<Destination10.State, Child10.State> {
  fileprivate static var add: Self {
    Self(Destination10.State.add) { if case .add(let s) = $0 { s } else { nil } }
  }
}

extension CaseKey<Destination10.Action, Child10.Action> {
  fileprivate static var add: Self {
    Self(Destination10.Action.add) { if case .add(let a) = $0 { a } else { nil } }
  }
}

/// A child that counts its taps.
private struct Child11: Reducer {
  struct State: Equatable { var taps = 0 }
  enum Action: Sendable { case tapped }
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    state.taps += 12
    return .none
  }
}

/// A destination of four cases, named as the other destinations' are.
private struct Destination11: Reducer {
  enum State: Equatable {
    case alert(Child11.State)
    case edit(Child11.State)
    case detail(Child11.State)
    case add(Child11.State)
  }
  enum Action: Sendable {
    case alert(Child11.Action)
    case edit(Child11.Action)
    case detail(Child11.Action)
    case add(Child11.Action)
  }
  var body: some Reducer<State, Action> {
    EmptyReducer()
      .ifCaseLet(StateKey.alert, action: ActionKey.alert) { Child11() }
      .ifCaseLet(StateKey.edit, action: ActionKey.edit) { Child11() }
      .ifCaseLet(StateKey.detail, action: ActionKey.detail) { Child11() }
      .ifCaseLet(StateKey.add, action: ActionKey.add) { Child11() }
  }
}

extension CaseKey<Destination11.State, Child11.State> {
  fileprivate static var alert: Self {
    Self(Destination11.State.alert) { if case .alert(let s) = $0 { s } else { nil } }
  }
}

extension CaseKey<Destination11.Action, Child11.Action> {
  fileprivate static var alert: Self {
    Self(Destination11.Action.alert) { if case .alert(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<Destination11.State, Child11.State> {
  fileprivate static var edit: Self {
    Self(Destination11.State.edit) { if case .edit(let s) = $0 { s } else { nil } }
  }
}

extension CaseKey<Destination11.Action, Child11.Action> {
  fileprivate static var edit: Self {
    Self(Destination11.Action.edit) { if case .edit(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<Destination11.State, Child11.State> {
  fileprivate static var detail: Self {
    Self(Destination11.State.detail) { if case .detail(let s) = $0 { s } else { nil } }
  }
}

extension CaseKey<Destination11.Action, Child11.Action> {
  fileprivate static var detail: Self {
    Self(Destination11.Action.detail) { if case .detail(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<Destination11.State, Child11.State> {
  fileprivate static var add: Self {
    Self(Destination11.State.add) { if case .add(let s) = $0 { s } else { nil } }
  }
}

extension CaseKey<Destination11.Action, Child11.Action> {
  fileprivate static var add: Self {
    Self(Destination11.Action.add) { if case .add(let a) = $0 { a } else { nil } }
  }
}

@MainActor
@Suite struct SharedCaseKeyNamesTests {
  /// Each body routes an action to the case shown, and refuses one for another case with a
  /// warning: the keys named through `StateKey` and `ActionKey` are the destination's own.
  @Test func destinationsSharingCaseNamesRouteToTheirOwnCases() {
    let warnings = WarningLog()
    let first = Harness(
      initialState: .edit(Child0.State()), warnings: warnings.handler, reducer: Destination0())
    first.send(.edit(.tapped))
    #expect(first.state == .edit(Child0.State(taps: 1)))
    let last = Harness(
      initialState: .add(Child11.State()), warnings: warnings.handler, reducer: Destination11())
    last.send(.add(.tapped))
    last.send(.add(.tapped))
    #expect(last.state == .add(Child11.State(taps: 24)))
    #expect(warnings.messages.isEmpty)
    last.send(.alert(.tapped))
    #expect(last.state == .add(Child11.State(taps: 24)))
    #expect(warnings.messages.count == 1)
    #expect(warnings.messages.first?.contains("alert") == true)
  }
}
