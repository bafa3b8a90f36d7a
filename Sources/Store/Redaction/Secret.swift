import Effects

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
/// What follows from the value never being written:
/// - A reducer that branches on a secret's value (`guard !state.pin.value.isEmpty`) replays
///   differently from the recording, since the replay has an empty secret: pass the value to
///   an effect, and let the reducer act on what the effect sends back.
/// - Secrets in a `Set`, or as dictionary keys, all decode to one empty secret, so such a
///   collection shrinks in a replay: keep secrets out of hashed collections in recorded state.
/// - A log still shows that an action carrying a secret happened, and when: an action per
///   keystroke in a password field tells the password's length and typing rhythm. Send the
///   secret once, when it is used (a submit), where that matters.
/// - Only values that can be made from a string literal (`String`, say) are `Codable` as a
///   secret: a decoded placeholder must give an empty value. Wrap a PIN or a card number as a
///   `Secret<String>`.
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
  ///
  /// - Parameter encoder: The encoder.
  /// - Throws: What the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(Self.placeholder)
  }

  /// Decodes the placeholder as an empty secret: what was encoded is only the placeholder.
  ///
  /// Any other value (written by hand, or by an encoder other than this type's) is kept
  /// rather than dropped, and an action-log replay warns that its log holds a secret in plain
  /// text.
  ///
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError.typeMismatch` naming this type when the value is neither the
  ///   placeholder nor a `Value`; it does not quote the value, nor `Value`'s own error.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if let text = try? container.decode(String.self), text == Self.placeholder {
      self.init("")
      return
    }
    let value: Value
    do {
      value = try container.decode(Value.self)
    } catch {
      // Neither the value found nor the error about it (which may quote it) is passed on:
      // where a secret goes, what a log holds may be the secret, written in by hand.
      throw DecodingError.typeMismatch(
        Self.self,
        DecodingError.Context(
          codingPath: decoder.codingPath,
          debugDescription: """
            Expected the placeholder "\(Self.placeholder)" or a secret's value (a \(Value.self)); \
            what was found is not shown, as it may be the secret.
            """))
    }
    (decoder.userInfo[PlainTextSecrets.key] as? PlainTextSecrets)?.found(at: decoder.codingPath)
    self.init(value)
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

/// Where a decoder (a replay's) is told of secrets that decoded from a value other than the
/// placeholder: a log that holds a secret in plain text.
package final class PlainTextSecrets: Sendable {
  /// The key under which a decoder's `userInfo` holds the collector.
  package static let key = CodingUserInfoKey(
    rawValue: "org.swift-unidirectional-store.plainTextSecrets")!

  private let paths = Locked<[String]>([])

  package init() {}

  /// Notes a secret found in plain text at `codingPath`.
  func found(at codingPath: [any CodingKey]) {
    // Cut as a message cuts a place: a key of a million characters makes a short warning.
    let path = LogText.place(codingPath)
    paths.withLock { $0.append(path) }
  }

  /// The paths noted since the last call, emptied.
  package func takeFound() -> [String] {
    paths.withLock { found in
      defer { found = [] }
      return found
    }
  }
}
