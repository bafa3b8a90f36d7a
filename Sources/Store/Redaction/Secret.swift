/// A value that must never reach a log, a dump or a test failure message: a password typed
/// into a form, say.
///
/// Wrap secrets in state and actions with `Secret`. Its `description` and its encoded form
/// are a fixed placeholder, so an action log of a sign-in holds `"<redacted>"` where the
/// password was, and a state diff shows `<redacted>` (when only secrets differ, numbered by
/// equality, `<redacted #1>` against `<redacted #2>`, to show which one). Decoding a
/// placeholder gives an empty secret: a replay cannot recover what was never written. Compare
/// secrets with `==` in tests; read ``value`` only where the secret is used, such as the call
/// that sends it.
///
/// Tokens and other credentials should not be in state at all: keep them inside the client
/// that uses them.
public struct Secret<Value: Sendable & Equatable>: Sendable, Equatable {
  /// The secret itself.
  public var value: Value

  /// Wraps a secret.
  ///
  /// - Parameter value: The secret.
  public init(_ value: Value) {
    self.value = value
  }
}

extension Secret: Hashable where Value: Hashable {}

/// A value that hides its content but can say whether another value holds the same: test
/// diffs number such values by equality, so two secrets that differ show as different
/// without showing what they hold.
package protocol RedactedValue {
  /// Whether `other` is a value of the same type holding the same content.
  func holdsTheSame(as other: Any) -> Bool
}

extension Secret: RedactedValue {
  package func holdsTheSame(as other: Any) -> Bool {
    (other as? Self)?.value == value
  }
}

extension Secret: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
  /// The placeholder `<redacted>`, never the value.
  public var description: String { "<redacted>" }

  /// The placeholder `Secret(<redacted>)`, never the value.
  public var debugDescription: String { "Secret(<redacted>)" }

  /// A mirror with no children, so dumps and diffs cannot reach the value.
  public var customMirror: Mirror {
    Mirror(self, children: [], displayStyle: .struct)
  }
}

extension Secret: Codable where Value: Codable & ExpressibleByStringLiteral {
  /// Encodes the placeholder `"<redacted>"`, never the value.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(Self.placeholder)
  }

  /// Decodes an empty secret: what was encoded is only the placeholder.
  public init(from decoder: any Decoder) throws {
    _ = try decoder.singleValueContainer().decode(String.self)
    self.init("")
  }

  /// What a secret encodes as.
  public static var placeholder: String { "<redacted>" }
}

extension Secret: ExpressibleByStringLiteral, ExpressibleByUnicodeScalarLiteral,
  ExpressibleByExtendedGraphemeClusterLiteral
where Value == String {
  /// Creates a secret from a literal.
  ///
  /// - Parameter value: The secret.
  public init(stringLiteral value: String) {
    self.init(value)
  }
}
