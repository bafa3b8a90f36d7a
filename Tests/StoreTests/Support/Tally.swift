import Effects
import Store

/// A small Codable feature for action-log tests: a count, a list, a secret, and an effect.
struct Tally: Reducer {
  struct State: Equatable, Codable {
    var count = 0
    var names: [String] = []
    var pin: Secret<String> = ""
  }
  enum Action: Equatable, Codable, Sendable {
    case add(Int)
    case named(String)
    case pinChanged(Secret<String>)
    case doubleTapped
    case doubled(Int)
  }
  /// Makes a reducer whose `add` behaves differently, to show drift.
  var addFactor = 1

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .add(let amount):
      state.count += amount * addFactor
    case .named(let name):
      state.names.append(name)
    case .pinChanged(let pin):
      state.pin = pin
    case .doubleTapped:
      return .send(.doubled(state.count * 2))
    case .doubled(let value):
      state.count = value
    }
    return .none
  }
}

/// A deterministic random source, so random sessions reproduce.
struct SeededGenerator: RandomNumberGenerator {
  var state: UInt64
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
