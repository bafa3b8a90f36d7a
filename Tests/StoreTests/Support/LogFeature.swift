import Effects
import Store

/// A reducer whose state records every action it sees, and whose effects come from the test.
struct LogFeature: Reducer {
  struct State: Equatable {
    var log: [String] = []
  }

  enum Action: Sendable, Equatable {
    case start(String)
    case record(String)
    case fail(String)
    case stop(String)
  }

  let effects: @Sendable (String) -> Effect<Action>

  init(effects: @escaping @Sendable (String) -> Effect<Action> = { _ in .none }) {
    self.effects = effects
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .start(let name):
      state.log.append("start \(name)")
      return effects(name)
    case .record(let entry):
      state.log.append(entry)
      return .none
    case .fail(let message):
      state.log.append("failed: \(message)")
      return .none
    case .stop(let name):
      state.log.append("stop \(name)")
      return .cancel(id: name)
    }
  }
}

struct Boom: Error, CustomStringConvertible {
  var description: String { "boom" }
}
