#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Makes identifiers for new values, injected into features so tests can predict them.
///
/// A feature that creates identified values takes a generator in its initializer rather than
/// calling `UUID()`: the app passes ``live``, tests pass ``incrementing(from:)-(UInt64)`` and
/// know that the first id is `00000000-0000-0000-0000-000000000000`, the next `…0001`, and so
/// on.
///
/// ```swift
/// struct Cart: Reducer {
///   let makeID: UUIDGenerator
///   // case .addTapped: state.items.append(Item(id: makeID(), name: "New item"))
/// }
/// ```
public struct UUIDGenerator: Sendable {
  private let generate: @Sendable () -> UUID

  /// Creates a generator that calls `generate` for each id.
  ///
  /// - Parameter generate: Returns the next id.
  public init(_ generate: @escaping @Sendable () -> UUID) {
    self.generate = generate
  }

  /// Returns the next id.
  public func callAsFunction() -> UUID {
    generate()
  }

  /// Random, unique ids: what an app uses.
  public static let live = UUIDGenerator { UUID() }

  /// Ids counting up from `start`, written as the low digits of a UUID.
  ///
  /// Each call to this function returns a new generator that starts again at `start`. Start
  /// above the ids a test's fixtures already use (`UUID(counting: 0)`, say), so that new ids
  /// never collide with them.
  ///
  /// - Parameter start: The first id's number; zero by default. It must be below 2^48, the
  ///   numbers a UUID's last twelve hex digits spell (see `UUID(counting:)`);
  ///   past that, the ids start again from zero.
  /// - Returns: A generator of `UUID(counting: start)`, `UUID(counting: start + 1)`, …:
  ///   `00000000-0000-0000-0000-000000000000`, `…0001`, `…0002`, … from zero.
  public static func incrementing(from start: UInt64 = 0) -> UUIDGenerator {
    precondition(
      start < 1 << 48,
      "UUIDGenerator.incrementing(from: \(start)): the start must be below 2^48, the numbers a "
        + "UUID's last twelve hex digits spell.")
    let counter = Locked<UInt64>(start)
    return UUIDGenerator {
      let value = counter.withLock { value in
        defer { value &+= 1 }
        return value
      }
      return UUID(counting: value)
    }
  }

  /// A generator of incrementing ids from an `Int`: `incrementing(from: count)` for a count
  /// kept as an `Int`; see ``incrementing(from:)-(UInt64)``.
  ///
  /// - Parameter start: The first id's number: not negative, and below 2^48.
  /// - Returns: A generator of `UUID(counting: start)`, `UUID(counting: start + 1)`, ….
  public static func incrementing(from start: Int) -> UUIDGenerator {
    precondition(
      start >= 0, "UUIDGenerator.incrementing(from: \(start)): the start must not be negative.")
    return incrementing(from: UInt64(start))
  }

  /// The same id every time, for tests that need one fixed value.
  ///
  /// - Parameter id: The id to return.
  /// - Returns: A generator that always returns `id`.
  public static func constant(_ id: UUID) -> UUIDGenerator {
    UUIDGenerator { id }
  }
}

extension UUID {
  /// The UUID whose last twelve hex digits spell `value`, as
  /// ``UUIDGenerator/incrementing(from:)-(UInt64)`` makes them: `UUID(counting: 1)` is
  /// `00000000-0000-0000-0000-000000000001`.
  ///
  /// - Parameter value: The number to spell, of any integer type (`UUID(counting: index)` for
  ///   an `Int` index); only the low 48 bits of its two's complement are used.
  public init(counting value: some BinaryInteger) {
    let value = UInt64(truncatingIfNeeded: value)
    var bytes: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    withUnsafeMutableBytes(of: &bytes) { buffer in
      for index in 0..<6 {
        buffer[15 - index] = UInt8(truncatingIfNeeded: value >> (8 * UInt64(index)))
      }
    }
    self.init(uuid: bytes)
  }

  /// The number this UUID spells if ``init(counting:)`` could have made it (its first twenty
  /// hex digits are zeros, as no random UUID's are); `nil` otherwise.
  package var countedValue: UInt64? {
    withUnsafeBytes(of: uuid) { bytes in
      guard bytes[0..<10].allSatisfy({ $0 == 0 }) else { return nil }
      return bytes[10..<16].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
    }
  }

  /// The UUID as a test writes it in a message: `UUID(counting: 100)` for one a counting
  /// generator made, its hex digits otherwise (`00000000-0000-0000-0000-000000000064` reads
  /// as nothing a test wrote).
  package var testDescription: String {
    countedValue.map { "UUID(counting: \($0))" } ?? uuidString
  }
}

/// An id as a test writes it, for a message: a UUID that a counting generator could have made
/// as `UUID(counting: 3)`, a string quoted and escaped as a literal (`""`, `"a\nb"`, with
/// invisible characters and spaces other than U+0020 escaped, as an action's string payload
/// is written: `"\u{A0}"`; cut after 120 characters), any other value as it describes
/// itself. Bare, an empty string id read "the element with id  of", and one with a line
/// break split the line.
///
/// - Parameter id: The id.
/// - Returns: Its text.
@usableFromInline
package func describeID(_ id: some Hashable) -> String {
  if let uuid = id as? UUID { return uuid.testDescription }
  // Spaces other than U+0020 escaped too, as an action's payload escapes them: a no-break
  // space id read as one of a space.
  if let string = id as? String { return EscapedText.quoted(string, escapingSpaces: true) }
  if let string = id as? Substring { return EscapedText.quoted(string, escapingSpaces: true) }
  return "\(id)"
}

/// For a message about an id that is already present: when a counting generator could have
/// made it, a sentence saying how that happens in a test (the generator counts from 0, and a
/// fixture already holds `UUID(counting: 0)`), and how to start it above the fixtures;
/// otherwise nothing.
///
/// - Parameter id: The id found twice.
/// - Returns: The sentence, with a leading space, or an empty string.
@usableFromInline
package func countedIDHint(_ id: some Hashable) -> String {
  guard let counted = (id as? UUID)?.countedValue else { return "" }
  return """
     If a UUIDGenerator.incrementing() made it, the generator counted from below ids already \
    present (a fixture's UUID(counting: \(counted)), say): start it above them, with \
    UUIDGenerator.incrementing(from:).
    """
}
