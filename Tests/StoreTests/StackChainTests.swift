import Effects
import Testing

@testable import Store

/// A body that chains 16 `navigationStack`s compiles, and an action reaches a screen of the
/// last one.
///
/// `navigationStack`'s result named the reducer it modifies twice in its type, so that the
/// type doubled at each link: 15 links crashed the Swift 6.3 compiler ("possible
/// non-terminating type substitution"), 18 failed with "opaque type defines the opaque type in
/// terms of itself" (large-state adversary trial). Now the reducer appears once.
@MainActor
@Suite struct StackChainTests {
  struct Screen: Reducer {
    struct State: Equatable, Sendable {
      var count = 0
    }
    enum Action: Equatable, Sendable { case increment }
    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      state.count += 1
      return .none
    }
  }

  struct Hub: Reducer {
    struct State: Equatable, Sendable {
      var s0 = StackState<Screen.State>()
      var s1 = StackState<Screen.State>()
      var s2 = StackState<Screen.State>()
      var s3 = StackState<Screen.State>()
      var s4 = StackState<Screen.State>()
      var s5 = StackState<Screen.State>()
      var s6 = StackState<Screen.State>()
      var s7 = StackState<Screen.State>()
      var s8 = StackState<Screen.State>()
      var s9 = StackState<Screen.State>()
      var s10 = StackState<Screen.State>()
      var s11 = StackState<Screen.State>()
      var s12 = StackState<Screen.State>()
      var s13 = StackState<Screen.State>()
      var s14 = StackState<Screen.State>()
      var s15 = StackState<Screen.State>()
    }
    enum Action: Equatable, Sendable {
      case s0(StackAction<Screen.State, Screen.Action>)
      case s1(StackAction<Screen.State, Screen.Action>)
      case s2(StackAction<Screen.State, Screen.Action>)
      case s3(StackAction<Screen.State, Screen.Action>)
      case s4(StackAction<Screen.State, Screen.Action>)
      case s5(StackAction<Screen.State, Screen.Action>)
      case s6(StackAction<Screen.State, Screen.Action>)
      case s7(StackAction<Screen.State, Screen.Action>)
      case s8(StackAction<Screen.State, Screen.Action>)
      case s9(StackAction<Screen.State, Screen.Action>)
      case s10(StackAction<Screen.State, Screen.Action>)
      case s11(StackAction<Screen.State, Screen.Action>)
      case s12(StackAction<Screen.State, Screen.Action>)
      case s13(StackAction<Screen.State, Screen.Action>)
      case s14(StackAction<Screen.State, Screen.Action>)
      case s15(StackAction<Screen.State, Screen.Action>)
    }
    var body: some Reducer<State, Action> {
      EmptyReducer()
        .navigationStack(\.s0, action: .s0) { Screen() }
        .navigationStack(\.s1, action: .s1) { Screen() }
        .navigationStack(\.s2, action: .s2) { Screen() }
        .navigationStack(\.s3, action: .s3) { Screen() }
        .navigationStack(\.s4, action: .s4) { Screen() }
        .navigationStack(\.s5, action: .s5) { Screen() }
        .navigationStack(\.s6, action: .s6) { Screen() }
        .navigationStack(\.s7, action: .s7) { Screen() }
        .navigationStack(\.s8, action: .s8) { Screen() }
        .navigationStack(\.s9, action: .s9) { Screen() }
        .navigationStack(\.s10, action: .s10) { Screen() }
        .navigationStack(\.s11, action: .s11) { Screen() }
        .navigationStack(\.s12, action: .s12) { Screen() }
        .navigationStack(\.s13, action: .s13) { Screen() }
        .navigationStack(\.s14, action: .s14) { Screen() }
        .navigationStack(\.s15, action: .s15) { Screen() }
    }
  }

  @Test func anActionReachesAScreenOfTheLastOfSixteenStacks() {
    let store = Store(initialState: Hub.State()) { Hub() }
    store.send(.s15(.push(id: StackElementID(rawValue: 0), state: Screen.State())))
    store.send(.s15(.element(id: StackElementID(rawValue: 0), action: .increment)))
    #expect(store.s15[id: StackElementID(rawValue: 0)]?.count == 1)
    #expect(store.s0.isEmpty)
  }
}

extension CaseKey<
  StackChainTests.Hub.Action,
  StackAction<StackChainTests.Screen.State, StackChainTests.Screen.Action>
> {
  static var s0: Self {
    Self(StackChainTests.Hub.Action.s0) { if case .s0(let a) = $0 { a } else { nil } }
  }
  static var s1: Self {
    Self(StackChainTests.Hub.Action.s1) { if case .s1(let a) = $0 { a } else { nil } }
  }
  static var s2: Self {
    Self(StackChainTests.Hub.Action.s2) { if case .s2(let a) = $0 { a } else { nil } }
  }
  static var s3: Self {
    Self(StackChainTests.Hub.Action.s3) { if case .s3(let a) = $0 { a } else { nil } }
  }
  static var s4: Self {
    Self(StackChainTests.Hub.Action.s4) { if case .s4(let a) = $0 { a } else { nil } }
  }
  static var s5: Self {
    Self(StackChainTests.Hub.Action.s5) { if case .s5(let a) = $0 { a } else { nil } }
  }
  static var s6: Self {
    Self(StackChainTests.Hub.Action.s6) { if case .s6(let a) = $0 { a } else { nil } }
  }
  static var s7: Self {
    Self(StackChainTests.Hub.Action.s7) { if case .s7(let a) = $0 { a } else { nil } }
  }
  static var s8: Self {
    Self(StackChainTests.Hub.Action.s8) { if case .s8(let a) = $0 { a } else { nil } }
  }
  static var s9: Self {
    Self(StackChainTests.Hub.Action.s9) { if case .s9(let a) = $0 { a } else { nil } }
  }
  static var s10: Self {
    Self(StackChainTests.Hub.Action.s10) { if case .s10(let a) = $0 { a } else { nil } }
  }
  static var s11: Self {
    Self(StackChainTests.Hub.Action.s11) { if case .s11(let a) = $0 { a } else { nil } }
  }
  static var s12: Self {
    Self(StackChainTests.Hub.Action.s12) { if case .s12(let a) = $0 { a } else { nil } }
  }
  static var s13: Self {
    Self(StackChainTests.Hub.Action.s13) { if case .s13(let a) = $0 { a } else { nil } }
  }
  static var s14: Self {
    Self(StackChainTests.Hub.Action.s14) { if case .s14(let a) = $0 { a } else { nil } }
  }
  static var s15: Self {
    Self(StackChainTests.Hub.Action.s15) { if case .s15(let a) = $0 { a } else { nil } }
  }
}
