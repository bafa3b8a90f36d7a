import Effects
import Store

struct Counter: Reducer, Sendable {
  struct State: Equatable {
    var count = 0
  }
  enum Action: Sendable, Equatable {
    case incrementTapped
    case decrementTapped
    case delayedIncrementTapped
  }
  var clock: any Clock<Duration> = ImmediateClock()

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .incrementTapped:
      state.count += 1
      return .none
    case .decrementTapped:
      state.count -= 1
      return .none
    case .delayedIncrementTapped:
      return .run { [clock] send in
        try await clock.sleep(for: .seconds(1))
        send(.incrementTapped)
      }
    }
  }
}

struct Pair: Reducer {
  struct State: Equatable {
    var left = Counter.State()
    var right = Counter.State()
    var log: [String] = []
  }
  enum Action: Sendable, Equatable {
    case left(Counter.Action)
    case right(Counter.Action)
    case resetTapped
  }
  var clock: any Clock<Duration> = ImmediateClock()

  var body: some Reducer<State, Action> {
    Scope(state: \.left, action: .left) { Counter(clock: clock) }
    Scope(state: \.right, action: .right) { Counter(clock: clock) }
    Reduce { state, action in
      state.log.append("\(action)")
      if case .resetTapped = action {
        state.left.count = 0
        state.right.count = 0
      }
      return .none
    }
  }
}

extension CaseKey<Pair.Action, Counter.Action> {
  static var left: Self {
    Self(Pair.Action.left) { if case .left(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<Pair.Action, Counter.Action> {
  static var right: Self {
    Self(Pair.Action.right) { if case .right(let a) = $0 { a } else { nil } }
  }
}
