import Effects
import Testing

@testable import Store

/// A body that chains 24 modifiers type-checks in about 0.14 s (Getting Started's trial).
///
/// Each modifier's name has one meaning for the type checker. While `presents` was a second
/// `ifLet` and `navigationStack` a second `forEach`, the compiler tried both at each link of
/// a chain (12 links took seconds, 16 failed with "unable to type-check this expression in
/// reasonable time"). This chain is 10 `ifLet`s and 10 `forEach`s, then one of each other
/// form: with the old presentation `ifLet`, or the old stack `forEach`, put back as an
/// available overload, it took 3.0 and 3.6 s to type-check on a 2-core VM, over the 1 s that
/// `.ci/run` allows an expression. (Kept unavailable, as they are, they cost nothing.) The test itself checks that an action reaches each of the 24 children.
@MainActor
@Suite struct LongModifierChainTests {
  struct Counter: Reducer {
    struct State: Equatable, Identifiable, Sendable {
      var id = 0
      var count = 0
    }
    enum Action: Equatable, Sendable { case increment }
    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      state.count += 1
      return .none
    }
  }

  enum Alert: Equatable, Sendable { case ok }
  enum Route: Equatable, Sendable { case counter(Int) }

  struct Hub: Reducer {
    struct State: Equatable, Sendable {
      var c0: Counter.State? = Counter.State()
      var c1: IdentifiedArrayOf<Counter.State> = [Counter.State()]
      var c2: Counter.State? = Counter.State()
      var c3: IdentifiedArrayOf<Counter.State> = [Counter.State()]
      var c4: Counter.State? = Counter.State()
      var c5: IdentifiedArrayOf<Counter.State> = [Counter.State()]
      var c6: Counter.State? = Counter.State()
      var c7: IdentifiedArrayOf<Counter.State> = [Counter.State()]
      var c8: Counter.State? = Counter.State()
      var c9: IdentifiedArrayOf<Counter.State> = [Counter.State()]
      var c10: Counter.State? = Counter.State()
      var c11: IdentifiedArrayOf<Counter.State> = [Counter.State()]
      var c12: Counter.State? = Counter.State()
      var c13: IdentifiedArrayOf<Counter.State> = [Counter.State()]
      var c14: Counter.State? = Counter.State()
      var c15: IdentifiedArrayOf<Counter.State> = [Counter.State()]
      var c16: Counter.State? = Counter.State()
      var c17: IdentifiedArrayOf<Counter.State> = [Counter.State()]
      var c18: Counter.State? = Counter.State()
      var c19: IdentifiedArrayOf<Counter.State> = [Counter.State()]
      var c20: Counter.State? = Counter.State()
      var c21: StackState<Counter.State> = [Counter.State()]
      var c22: Alert? = .ok
      var c23: StackState<Route> = [.counter(23)]
      var parentSaw = 0
    }
    enum Action: Sendable {
      case c0(Counter.Action)
      case c1(IdentifiedAction<Int, Counter.Action>)
      case c2(Counter.Action)
      case c3(IdentifiedAction<Int, Counter.Action>)
      case c4(Counter.Action)
      case c5(IdentifiedAction<Int, Counter.Action>)
      case c6(Counter.Action)
      case c7(IdentifiedAction<Int, Counter.Action>)
      case c8(Counter.Action)
      case c9(IdentifiedAction<Int, Counter.Action>)
      case c10(Counter.Action)
      case c11(IdentifiedAction<Int, Counter.Action>)
      case c12(Counter.Action)
      case c13(IdentifiedAction<Int, Counter.Action>)
      case c14(Counter.Action)
      case c15(IdentifiedAction<Int, Counter.Action>)
      case c16(Counter.Action)
      case c17(IdentifiedAction<Int, Counter.Action>)
      case c18(Counter.Action)
      case c19(IdentifiedAction<Int, Counter.Action>)
      case c20(PresentationAction<Counter.Action>)
      case c21(StackAction<Counter.State, Counter.Action>)
      case c22(PresentationAction<Alert>)
      case c23(StackAction<Route, Never>)
    }
    var body: some Reducer<State, Action> {
      Reduce { state, action in
        state.parentSaw += 1
        return .none
      }
      .ifLet(\.c0, action: .c0) { Counter() }
      .forEach(\.c1, action: .c1) { Counter() }
      .ifLet(\.c2, action: .c2) { Counter() }
      .forEach(\.c3, action: .c3) { Counter() }
      .ifLet(\.c4, action: .c4) { Counter() }
      .forEach(\.c5, action: .c5) { Counter() }
      .ifLet(\.c6, action: .c6) { Counter() }
      .forEach(\.c7, action: .c7) { Counter() }
      .ifLet(\.c8, action: .c8) { Counter() }
      .forEach(\.c9, action: .c9) { Counter() }
      .ifLet(\.c10, action: .c10) { Counter() }
      .forEach(\.c11, action: .c11) { Counter() }
      .ifLet(\.c12, action: .c12) { Counter() }
      .forEach(\.c13, action: .c13) { Counter() }
      .ifLet(\.c14, action: .c14) { Counter() }
      .forEach(\.c15, action: .c15) { Counter() }
      .ifLet(\.c16, action: .c16) { Counter() }
      .forEach(\.c17, action: .c17) { Counter() }
      .ifLet(\.c18, action: .c18) { Counter() }
      .forEach(\.c19, action: .c19) { Counter() }
      .presents(\.c20, action: .c20) { Counter() }
      .navigationStack(\.c21, action: .c21) { Counter() }
      .presents(\.c22, action: .c22)
      .navigationStack(\.c23, action: .c23)
    }
  }

  /// A chain of 12 `ifCaseLet`s, every other one without a reducer: the two forms differ in
  /// arity, and the chain type-checks as quickly as one of a single form.
  struct Deck: Reducer {
    enum State: Equatable, Sendable {
      case counter(Counter.State)
      case alert(Alert)
    }
    enum Action: Sendable {
      case counter(Counter.Action)
      case alert(Alert)
    }
    var body: some Reducer<State, Action> {
      EmptyReducer()
        .ifCaseLet(.deckCounter, action: .deckCounter) { Counter() }
        .ifCaseLet(.deckAlert, action: .deckAlert)
        .ifCaseLet(.deckCounter, action: .deckCounter) { Counter() }
        .ifCaseLet(.deckAlert, action: .deckAlert)
        .ifCaseLet(.deckCounter, action: .deckCounter) { Counter() }
        .ifCaseLet(.deckAlert, action: .deckAlert)
        .ifCaseLet(.deckCounter, action: .deckCounter) { Counter() }
        .ifCaseLet(.deckAlert, action: .deckAlert)
        .ifCaseLet(.deckCounter, action: .deckCounter) { Counter() }
        .ifCaseLet(.deckAlert, action: .deckAlert)
        .ifCaseLet(.deckCounter, action: .deckCounter) { Counter() }
        .ifCaseLet(.deckAlert, action: .deckAlert)
    }
  }

  @Test func aChainOfBothIfCaseLetFormsRunsEachLink() {
    let store = Store(initialState: Deck.State.counter(Counter.State())) { Deck() }
    store.send(.counter(.increment))
    #expect(store.state == .counter(Counter.State(count: 6)))
  }

  @Test func anActionReachesEachOfTheChainsChildren() {
    let store = Store(initialState: Hub.State()) { Hub() }
    store.send(.c0(.increment))
    #expect(store.state.c0?.count == 1)
    store.send(.c1(.element(id: 0, action: .increment)))
    #expect(store.state.c1[id: 0]?.count == 1)
    store.send(.c2(.increment))
    #expect(store.state.c2?.count == 1)
    store.send(.c3(.element(id: 0, action: .increment)))
    #expect(store.state.c3[id: 0]?.count == 1)
    store.send(.c4(.increment))
    #expect(store.state.c4?.count == 1)
    store.send(.c5(.element(id: 0, action: .increment)))
    #expect(store.state.c5[id: 0]?.count == 1)
    store.send(.c6(.increment))
    #expect(store.state.c6?.count == 1)
    store.send(.c7(.element(id: 0, action: .increment)))
    #expect(store.state.c7[id: 0]?.count == 1)
    store.send(.c8(.increment))
    #expect(store.state.c8?.count == 1)
    store.send(.c9(.element(id: 0, action: .increment)))
    #expect(store.state.c9[id: 0]?.count == 1)
    store.send(.c10(.increment))
    #expect(store.state.c10?.count == 1)
    store.send(.c11(.element(id: 0, action: .increment)))
    #expect(store.state.c11[id: 0]?.count == 1)
    store.send(.c12(.increment))
    #expect(store.state.c12?.count == 1)
    store.send(.c13(.element(id: 0, action: .increment)))
    #expect(store.state.c13[id: 0]?.count == 1)
    store.send(.c14(.increment))
    #expect(store.state.c14?.count == 1)
    store.send(.c15(.element(id: 0, action: .increment)))
    #expect(store.state.c15[id: 0]?.count == 1)
    store.send(.c16(.increment))
    #expect(store.state.c16?.count == 1)
    store.send(.c17(.element(id: 0, action: .increment)))
    #expect(store.state.c17[id: 0]?.count == 1)
    store.send(.c18(.increment))
    #expect(store.state.c18?.count == 1)
    store.send(.c19(.element(id: 0, action: .increment)))
    #expect(store.state.c19[id: 0]?.count == 1)
    store.send(.c20(.presented(.increment)))
    #expect(store.state.c20?.count == 1)
    store.send(.c21(.element(id: 0, action: .increment)))
    #expect(store.state.c21[id: 0]?.count == 1)
    store.send(.c22(.presented(.ok)))
    #expect(store.state.c22 == nil)
    store.send(.c23(.popFrom(id: 0)))
    #expect(store.state.c23.isEmpty)
    #expect(store.state.parentSaw == 24)
  }
}

extension CaseKey<LongModifierChainTests.Hub.Action, LongModifierChainTests.Counter.Action> {
  fileprivate static var c0: Self {
    Self(LongModifierChainTests.Hub.Action.c0) { if case .c0(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<
  LongModifierChainTests.Hub.Action, IdentifiedAction<Int, LongModifierChainTests.Counter.Action>
> {
  fileprivate static var c1: Self {
    Self(LongModifierChainTests.Hub.Action.c1) { if case .c1(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<LongModifierChainTests.Hub.Action, LongModifierChainTests.Counter.Action> {
  fileprivate static var c2: Self {
    Self(LongModifierChainTests.Hub.Action.c2) { if case .c2(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<
  LongModifierChainTests.Hub.Action, IdentifiedAction<Int, LongModifierChainTests.Counter.Action>
> {
  fileprivate static var c3: Self {
    Self(LongModifierChainTests.Hub.Action.c3) { if case .c3(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<LongModifierChainTests.Hub.Action, LongModifierChainTests.Counter.Action> {
  fileprivate static var c4: Self {
    Self(LongModifierChainTests.Hub.Action.c4) { if case .c4(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<
  LongModifierChainTests.Hub.Action, IdentifiedAction<Int, LongModifierChainTests.Counter.Action>
> {
  fileprivate static var c5: Self {
    Self(LongModifierChainTests.Hub.Action.c5) { if case .c5(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<LongModifierChainTests.Hub.Action, LongModifierChainTests.Counter.Action> {
  fileprivate static var c6: Self {
    Self(LongModifierChainTests.Hub.Action.c6) { if case .c6(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<
  LongModifierChainTests.Hub.Action, IdentifiedAction<Int, LongModifierChainTests.Counter.Action>
> {
  fileprivate static var c7: Self {
    Self(LongModifierChainTests.Hub.Action.c7) { if case .c7(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<LongModifierChainTests.Hub.Action, LongModifierChainTests.Counter.Action> {
  fileprivate static var c8: Self {
    Self(LongModifierChainTests.Hub.Action.c8) { if case .c8(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<
  LongModifierChainTests.Hub.Action, IdentifiedAction<Int, LongModifierChainTests.Counter.Action>
> {
  fileprivate static var c9: Self {
    Self(LongModifierChainTests.Hub.Action.c9) { if case .c9(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<LongModifierChainTests.Hub.Action, LongModifierChainTests.Counter.Action> {
  fileprivate static var c10: Self {
    Self(LongModifierChainTests.Hub.Action.c10) { if case .c10(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<
  LongModifierChainTests.Hub.Action, IdentifiedAction<Int, LongModifierChainTests.Counter.Action>
> {
  fileprivate static var c11: Self {
    Self(LongModifierChainTests.Hub.Action.c11) { if case .c11(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<LongModifierChainTests.Hub.Action, LongModifierChainTests.Counter.Action> {
  fileprivate static var c12: Self {
    Self(LongModifierChainTests.Hub.Action.c12) { if case .c12(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<
  LongModifierChainTests.Hub.Action, IdentifiedAction<Int, LongModifierChainTests.Counter.Action>
> {
  fileprivate static var c13: Self {
    Self(LongModifierChainTests.Hub.Action.c13) { if case .c13(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<LongModifierChainTests.Hub.Action, LongModifierChainTests.Counter.Action> {
  fileprivate static var c14: Self {
    Self(LongModifierChainTests.Hub.Action.c14) { if case .c14(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<
  LongModifierChainTests.Hub.Action, IdentifiedAction<Int, LongModifierChainTests.Counter.Action>
> {
  fileprivate static var c15: Self {
    Self(LongModifierChainTests.Hub.Action.c15) { if case .c15(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<LongModifierChainTests.Hub.Action, LongModifierChainTests.Counter.Action> {
  fileprivate static var c16: Self {
    Self(LongModifierChainTests.Hub.Action.c16) { if case .c16(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<
  LongModifierChainTests.Hub.Action, IdentifiedAction<Int, LongModifierChainTests.Counter.Action>
> {
  fileprivate static var c17: Self {
    Self(LongModifierChainTests.Hub.Action.c17) { if case .c17(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<LongModifierChainTests.Hub.Action, LongModifierChainTests.Counter.Action> {
  fileprivate static var c18: Self {
    Self(LongModifierChainTests.Hub.Action.c18) { if case .c18(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<
  LongModifierChainTests.Hub.Action, IdentifiedAction<Int, LongModifierChainTests.Counter.Action>
> {
  fileprivate static var c19: Self {
    Self(LongModifierChainTests.Hub.Action.c19) { if case .c19(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<
  LongModifierChainTests.Hub.Action, PresentationAction<LongModifierChainTests.Counter.Action>
> {
  fileprivate static var c20: Self {
    Self(LongModifierChainTests.Hub.Action.c20) { if case .c20(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<
  LongModifierChainTests.Hub.Action,
  StackAction<LongModifierChainTests.Counter.State, LongModifierChainTests.Counter.Action>
> {
  fileprivate static var c21: Self {
    Self(LongModifierChainTests.Hub.Action.c21) { if case .c21(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<
  LongModifierChainTests.Hub.Action, PresentationAction<LongModifierChainTests.Alert>
> {
  fileprivate static var c22: Self {
    Self(LongModifierChainTests.Hub.Action.c22) { if case .c22(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<
  LongModifierChainTests.Hub.Action, StackAction<LongModifierChainTests.Route, Never>
> {
  fileprivate static var c23: Self {
    Self(LongModifierChainTests.Hub.Action.c23) { if case .c23(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<LongModifierChainTests.Deck.State, LongModifierChainTests.Counter.State> {
  static var deckCounter: Self {
    Self(LongModifierChainTests.Deck.State.counter) {
      if case .counter(let s) = $0 { s } else { nil }
    }
  }
}

extension CaseKey<LongModifierChainTests.Deck.State, LongModifierChainTests.Alert> {
  static var deckAlert: Self {
    Self(LongModifierChainTests.Deck.State.alert) { if case .alert(let s) = $0 { s } else { nil } }
  }
}

extension CaseKey<LongModifierChainTests.Deck.Action, LongModifierChainTests.Counter.Action> {
  static var deckCounter: Self {
    Self(LongModifierChainTests.Deck.Action.counter) {
      if case .counter(let a) = $0 { a } else { nil }
    }
  }
}

extension CaseKey<LongModifierChainTests.Deck.Action, LongModifierChainTests.Alert> {
  static var deckAlert: Self {
    Self(LongModifierChainTests.Deck.Action.alert) { if case .alert(let a) = $0 { a } else { nil } }
  }
}
