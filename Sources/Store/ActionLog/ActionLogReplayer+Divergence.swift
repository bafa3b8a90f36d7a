import Effects

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Where a replay diverged, and what it had found by then: what an explanation of the
/// divergence starts from.
struct Divergence {
  /// The log.
  var path: String
  /// The sequence number of the checkpoint that does not match.
  var checkpoint: Int
  /// Its line.
  var line: Int
  /// The last checkpoint that matched, or the header (sequence 0) when none did.
  var lastMatch: (sequence: Int, line: Int)
  /// The replay's warnings so far.
  var warnings: [String]

  /// The error for the divergence: `differences` (what differs in the state), then the
  /// actions since the last matching checkpoint that do not round-trip, and which actions
  /// those were.
  func error<Feature>(_ differences: [String], replayer: ActionLogReplayer<Feature>)
    -> ActionLogError
  {
    let (problems, actions, withSecrets) = ActionLogReplayer<Feature>.roundTripProblems(
      path: path, lines: (lastMatch.line + 1)..<line)
    let start =
      lastMatch.sequence == 0
      ? "the header (line \(lastMatch.line))"
      : "the last matching checkpoint (after action \(lastMatch.sequence), line \(lastMatch.line))"
    var range: String
    if let actions {
      range = """
        since \(start), action\(actions.count == 1
          ? " \(actions.lowerBound) was" : "s \(actions.lowerBound) to \(actions.upperBound) were") \
        replayed (lines \(lastMatch.line + 1) to \(line - 1))
        """
      if problems.isEmpty {
        range += """
          , and \(actions.count == 1 ? "it decodes" : "each decodes") to what was recorded: \
          look at what the reducer (or a dependency) does with \(actions.count == 1 ? "it" : "them")
          """
      }
      if !withSecrets.isEmpty {
        let numbers = LogText.list(withSecrets.map(String.init), limit: 5)
        let named =
          withSecrets.count == 1 ? "action \(numbers) carried" : "actions \(numbers) carried"
        range += """
          ; \(named) a Secret, which a log holds only as "\(Secret<String>.placeholder)" and a \
          replay decodes as empty: a reducer that reads a secret's value (rather than passing \
          it to an effect) replays differently
          """
      }
    } else {
      range = "no action was replayed since \(start)"
    }
    return .diverged(
      sequence: checkpoint, line: line, differences: differences + problems + [range],
      warnings: warnings)
  }
}

extension ActionLogReplayer {
  /// The actions on `lines` of the log whose recorded JSON is not what the action they
  /// decode to encodes as (in canonical form): the replay reduced another action than was
  /// recorded. At most five are named. Also the first and last sequence numbers of the
  /// actions on those lines, and those of the actions that carried a ``Secret`` (whose
  /// placeholder decodes as an empty secret).
  ///
  /// The log is read again from its start: only a divergence pays for this.
  static func roundTripProblems(path: String, lines: Range<Int>) -> (
    problems: [String], actions: ClosedRange<Int>?, withSecrets: [Int]
  ) {
    guard let reader = try? LineReader(path: path, limit: ActionLogFormat.maximumLineLength)
    else { return ([], nil, []) }
    let placeholder = Array("\"\(Secret<String>.placeholder)\"".utf8)
    var withSecrets: [Int] = []
    let decoder = JSONDecoder()
    let encoder = makeLogEncoder()
    var problems: [String] = []
    var unnamed = 0
    var first: Int?
    var last: Int?
    while case .complete(let bytes, let number)? = try? reader.next(), number < lines.upperBound {
      guard number >= lines.lowerBound,
        let line = try? decoder.decode(ActionLogLine<R.Action>.self, from: bytes),
        let action = line.action
      else { continue }
      first = first ?? line.sequence
      last = line.sequence
      guard let recordedJSON = JSONField.bytes(of: "action", in: bytes) else { continue }
      if [UInt8](recordedJSON).firstRange(of: placeholder) != nil {
        withSecrets.append(line.sequence)
      }
      guard
        let encoded = try? encoder.encode(action),
        let decoded = JSONValue(
          parsing: CanonicalJSON.canonical(encoded, of: action, encoder: encoder)),
        let written = JSONValue(
          parsing: CanonicalJSON.canonical(recordedJSON, of: action, encoder: encoder))
      else { continue }
      // A secret the log held in plain text (the replay warned of it) is neither quoted nor
      // taken for a difference.
      let recorded = written.maskingSecrets(as: decoded)
      guard recorded != decoded
      else { continue }
      guard problems.count < 5 else {
        unnamed += 1
        continue
      }
      let changes = recorded.differences(to: decoded).joined(separator: "; ")
      problems.append(
        """
        action \(line.sequence) on line \(number) does not round-trip: recorded \
        \(recorded.rendered(limit: 120)), decoded as \(describeShortly(action)), which is \
        recorded as \(decoded.rendered(limit: 120)) (\(changes)); the replay reduced what it \
        decoded
        """)
    }
    if unnamed > 0 {
      problems.append("and \(unnamed) more action(s) that do not round-trip")
    }
    guard let first, let last else { return (problems, nil, withSecrets) }
    return (problems, first...last, withSecrets)
  }

  /// An action as a message names it, shortened.
  private static func describeShortly(_ action: R.Action) -> String {
    let text = Effects.describe(action)
    return text.count > 120 ? String(text.prefix(119)) + "…" : text
  }
}

/// A field of a JSON object, as its bytes.
enum JSONField {
  /// The bytes of the value of the top-level field `key` of the JSON object `line`, as
  /// written; `nil` when the line is not an object, or has no such field.
  static func bytes(of key: String, in line: Data) -> Data? {
    let bytes = [UInt8](line)
    var parser = RawJSONParser(bytes: bytes)
    guard let root = parser.parse(), root.kind == .object else { return nil }
    let quoted = Array("\"\(key)\"".utf8)
    guard let position = root.keys.firstIndex(where: { bytes[$0].elementsEqual(quoted) }) else {
      return nil
    }
    let value = root.children[position]
    return Data(bytes[value.start..<value.end])
  }
}
