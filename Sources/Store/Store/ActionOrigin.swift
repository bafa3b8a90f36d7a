/// Where an action a store processes came from.
public enum ActionOrigin: String, Sendable, Hashable, Codable {
  /// Sent through ``Store/send(_:)``: a user's tap, a screen's lifecycle, a test.
  case user
  /// Fed back by an effect: a `.send` effect, or an action sent from a `.run` operation.
  case effect
}
