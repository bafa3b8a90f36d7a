#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The JSON Lines action-log format: its name, version, and the lines it is made of.
///
/// A log is a header line, then one line per action, with a checkpoint line every
/// ``ActionLogHeader/checkpointInterval`` actions and one at the end. See the format
/// reference in the documentation catalog for a log written by hand.
public enum ActionLogFormat {
  /// The value of the header's `format` field.
  public static let name = "swift-unidirectional-store.action-log"
  /// The format version this library writes and reads.
  public static let version = 1
  /// The longest line a reader accepts, in bytes.
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

/// One line after the header.
enum ActionLogLine<Action: Decodable>: Decodable {
  case action(sequence: Int, time: Double, origin: ActionOrigin, action: Action)
  case checkpoint(sequence: Int, digest: String, isFinal: Bool)

  enum CodingKeys: String, CodingKey {
    case kind, seq, time, origin, action, digest, final
  }

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let kind = try container.decode(String.self, forKey: .kind)
    switch kind {
    case "action":
      self = .action(
        sequence: try container.decode(Int.self, forKey: .seq),
        time: try container.decodeIfPresent(Double.self, forKey: .time) ?? 0,
        origin: try container.decode(ActionOrigin.self, forKey: .origin),
        action: try container.decode(Action.self, forKey: .action)
      )
    case "checkpoint":
      let digest = try container.decode(String.self, forKey: .digest)
      // A digest no replay could produce is a damaged line, not a divergence.
      guard StateDigest.isWellFormed(digest) else {
        throw DecodingError.dataCorruptedError(
          forKey: .digest,
          in: container,
          debugDescription:
            "\"\(digest)\" is not a digest: expected 16 lowercase hexadecimal digits."
        )
      }
      self = .checkpoint(
        sequence: try container.decode(Int.self, forKey: .seq),
        digest: digest,
        isFinal: try container.decodeIfPresent(Bool.self, forKey: .final) ?? false
      )
    default:
      throw DecodingError.dataCorruptedError(
        forKey: .kind,
        in: container,
        debugDescription: "Unknown line kind \"\(kind)\"; expected \"action\" or \"checkpoint\"."
      )
    }
  }
}

/// An action line, as written.
struct ActionLine<Action: Encodable>: Encodable {
  var kind = "action"
  var seq: Int
  var time: Double
  var origin: ActionOrigin
  var action: Action
}

/// A checkpoint line, as written.
struct CheckpointLine<State: Encodable>: Encodable {
  var kind = "checkpoint"
  var seq: Int
  var digest: String
  var final: Bool?
  var state: State?
}

/// The canonical JSON encoding the log uses: sorted keys, so that equal states encode, and
/// digest, alike.
func makeLogEncoder() -> JSONEncoder {
  let encoder = JSONEncoder()
  encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
  return encoder
}
