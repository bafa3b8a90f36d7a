import Effects
import Store

/// A feature for action-log tests whose actions and state hold doubles, which JSON cannot
/// always hold, and a dictionary keyed by strings.
struct Gauge: Reducer {
  struct Reading: Equatable, Codable, Sendable {
    var name: String
    var value: Double
  }
  enum Sensor: Equatable, Codable, Sendable {
    case reading(Reading)
  }
  struct State: Equatable, Codable {
    var level = 0.0
    var readings: [String: Double] = [:]
  }
  enum Action: Equatable, Codable, Sendable {
    case set(Double)
    case moved(to: Double)
    case sensor(Sensor)
    case read(String, Double)
    case invalidated
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .set(let level), .moved(to: let level): state.level = level
    case .sensor(.reading(let reading)): state.readings[reading.name] = reading.value
    case .read(let name, let value): state.readings[name] = value
    case .invalidated: state.level = .nan
    }
    return .none
  }
}
