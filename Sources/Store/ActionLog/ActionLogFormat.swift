#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The JSON Lines action-log format: its name, version, and the lines it is made of.
///
/// A log is a header line, then one line per action, with a checkpoint line every
/// ``ActionLogHeader/checkpointInterval`` actions and one at the end; or, when the recorder
/// could not write an action or a state (or, in the demo's `record`, the session it recorded
/// failed), a line saying that the recording stopped and why.
/// See the format reference in the documentation catalog for a log written by hand.
public enum ActionLogFormat {
  /// The value of the header's `format` field.
  public static let name = "swift-unidirectional-store.action-log"
  /// The format version this library writes and reads.
  public static let version = 1
  /// The longest line a reader accepts, in bytes, not counting its newline or a carriage
  /// return that ends it (a CRLF copy of a log, or its last line cut after the carriage
  /// return).
  public static let maximumLineLength = 8 * 1024 * 1024
}

/// The first line of an action log.
public struct ActionLogHeader<State: Codable>: Codable {
  /// Always `"header"`.
  public var kind = "header"
  /// Always ``ActionLogFormat/name``.
  public var format: String
  /// The format version.
  public var version: Int
  /// The name of the root feature whose actions the log holds.
  public var feature: String
  /// A fingerprint of the state and action types, so a log is not replayed against types
  /// that changed shape.
  public var schema: String
  /// How many actions pass between checkpoints.
  public var checkpointInterval: Int
  /// The state before the first action.
  public var initialState: State
}

extension ActionLogHeader: Sendable where State: Sendable {}

/// One line after the header: an action, a checkpoint, or the mark of a recording stopped.
///
/// A struct rather than an enum with the action as a payload: taking a generic payload out
/// of an enum case looks up the payload's tuple metadata at run time, on every line of a
/// replay.
struct ActionLogLine<Action: Decodable>: Decodable {
  /// What only one kind of line has.
  var kind: ActionLogLineKind
  /// The action's sequence number, or for a checkpoint or a stop the action it follows.
  var sequence: Int
  /// The action, on an action line; nil on a checkpoint.
  var action: Action?
  /// Whether the action was sent knowing that the element it is for may be gone (an
  /// action line's `elementMayBeGone`): a replay then does not report it missing, as the
  /// store did not.
  var elementMayBeGone = false

  init(kind: ActionLogLineKind, sequence: Int, action: Action?) {
    self.kind = kind
    self.sequence = sequence
    self.action = action
  }

  init(from decoder: any Decoder) throws {
    // The keys are not nested in this generic type: a nested enum would be generic too, and
    // every line would look up `KeyedDecodingContainer`'s metadata for this `Action` again.
    let container = try decoder.container(keyedBy: ActionLogLineKey.self)
    // An optional Boolean field (`final`, `elementMayBeGone`): `false` when the line leaves
    // it out. Written `null`, it is refused as any value but `true` or `false` is, where
    // `decodeIfPresent` read it as left out.
    func mark(_ key: ActionLogLineKey) throws -> Bool {
      guard container.contains(key) else { return false }
      return try container.decode(Bool.self, forKey: key)
    }
    // The optional `time`: `0` when the line leaves it out; `null` is refused, as for a mark.
    func time() throws -> Double {
      guard container.contains(.time) else { return 0 }
      return try container.decode(Double.self, forKey: .time)
    }
    let kind = try container.decode(String.self, forKey: .kind)
    switch kind {
    case "action":
      sequence = try container.decode(Int.self, forKey: .seq)
      self.kind = .action(
        time: try time(),
        origin: try Self.origin(in: container)
      )
      action = try container.decode(Action.self, forKey: .action)
      elementMayBeGone = try mark(.elementMayBeGone)
    case "checkpoint":
      let digest = try container.decode(String.self, forKey: .digest)
      // A digest no replay could produce is a damaged line, not a divergence.
      guard StateDigest.isWellFormed(digest) else {
        throw DecodingError.dataCorruptedError(
          forKey: .digest,
          in: container,
          debugDescription:
            "\(LogText.quoted(digest)) is not a digest: expected 16 lowercase hexadecimal digits."
        )
      }
      sequence = try container.decode(Int.self, forKey: .seq)
      self.kind = .checkpoint(
        digest: digest,
        isFinal: try mark(.final)
      )
      action = nil
    case "stopped":
      sequence = try container.decode(Int.self, forKey: .seq)
      self.kind = .stopped(reason: try container.decode(String.self, forKey: .reason))
      action = nil
    default:
      throw DecodingError.dataCorruptedError(
        forKey: .kind,
        in: container,
        debugDescription: """
          Unknown line kind \(LogText.quoted(kind)); expected "action", "checkpoint" or "stopped".
          """
      )
    }
  }
}

extension ActionLogLine {
  /// The `origin` field, refused with the values it may have, which `ActionOrigin`'s own
  /// decoding does not name.
  private static func origin(in container: KeyedDecodingContainer<ActionLogLineKey>) throws
    -> ActionOrigin
  {
    let text = try container.decode(String.self, forKey: .origin)
    guard let origin = ActionOrigin(rawValue: text) else {
      throw DecodingError.dataCorruptedError(
        forKey: .origin,
        in: container,
        debugDescription: """
          \(LogText.quoted(text)) is not an origin: expected "user" or "effect".
          """
      )
    }
    return origin
  }
}

/// The kind of a line after the header, with the fields only that kind has.
enum ActionLogLineKind {
  case action(time: Double, origin: ActionOrigin)
  case checkpoint(digest: String, isFinal: Bool)
  /// The recorder stopped after the action `sequence`, for `reason`.
  case stopped(reason: String)
}

/// The keys of a log line (see ``ActionLogLine``).
enum ActionLogLineKey: String, CodingKey {
  case kind, seq, time, origin, action, digest, final, reason, elementMayBeGone
}

/// An action line, as written.
struct ActionLine<Action: Encodable>: Encodable {
  var kind = "action"
  var seq: Int
  var time: Double
  var origin: ActionOrigin
  var action: Action
  /// `true` on an action sent knowing that the element it is for may be gone (a row's
  /// screen-task end sent after the row left a filtered view it was scoped through): the
  /// store did not report its element missing, and a replay does not either. Left out
  /// otherwise.
  var elementMayBeGone: Bool?
}

/// A checkpoint line, as written, without its state: the recorder adds the state's
/// canonical JSON (see ``CanonicalJSON``) as the last field, `state`.
struct CheckpointLine: Encodable {
  var kind = "checkpoint"
  var seq: Int
  var digest: String
  var final: Bool?
}

/// The line that ends a recording the recorder could not go on with, as written.
struct StopLine: Encodable {
  var kind = "stopped"
  /// The last action written.
  var seq: Int
  /// What could not be written, and why.
  var reason: String
}

/// The canonical JSON encoding the log uses: sorted keys, so that equal states encode, and
/// digest, alike.
func makeLogEncoder() -> JSONEncoder {
  let encoder = JSONEncoder()
  encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
  return encoder
}
