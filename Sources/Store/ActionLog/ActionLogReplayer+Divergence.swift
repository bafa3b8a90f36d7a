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
  /// The header's line. A checkpoint of action 0 (of the initial state) that matched is
  /// another line of sequence 0: the header is told from it by its line.
  var headerLine: Int
  /// The replay's warnings so far, as listed.
  var warnings: [String]
  /// How many more warnings the replay counted without listing them.
  var unlistedWarnings: Int
  /// Whether the log can be read again from its start (a regular file; not a pipe or a
  /// FIFO, whose lines were given once).
  var canReread: Bool

  /// The error for the divergence: `differences` (what differs in the state), then the
  /// actions since the last matching checkpoint that do not round-trip, and which actions
  /// those were.
  ///
  /// - Parameter isDigestAlone: Whether the checkpoint's state is the replayed state and
  ///   only its digest differs: the checkpoint was changed, not the replay, and nothing is
  ///   said of the actions before it.
  func error<Feature>(
    _ differences: [String], replayer: ActionLogReplayer<Feature>, isDigestAlone: Bool = false
  ) -> ActionLogError {
    let warnings =
      unlistedWarnings == 0
      ? warnings : warnings + ["and \(unlistedWarnings) more warning(s), not listed"]
    guard !isDigestAlone else {
      return .diverged(
        sequence: checkpoint, line: line, differences: differences, warnings: warnings)
    }
    let isFromHeader = lastMatch.line == headerLine
    let start =
      isFromHeader
      ? "the header (line \(lastMatch.line))"
      : "the last matching checkpoint (after action \(lastMatch.sequence), line \(lastMatch.line))"
    guard canReread else {
      // Its actions are numbered in order, and were checked to be: they are known without
      // reading them again.
      let range =
        checkpoint == lastMatch.sequence
        ? "no action was replayed since \(start)"
        : """
        since \(start), \(Self.actions(lastMatch.sequence + 1...checkpoint)) replayed \
        (\(Self.lines(lastMatch.line + 1, to: line - 1))); the log is not a regular file (a pipe, \
        say) and cannot be read again to check that they decode to what was recorded
        """
      return .diverged(
        sequence: checkpoint, line: line, differences: differences + [range], warnings: warnings)
    }
    // From the header, the state replayed from may itself differ from the one recorded.
    let (problems, actions, withSecrets) = ActionLogReplayer<Feature>.roundTripProblems(
      path: path, lines: (lastMatch.line + 1)..<line,
      header: isFromHeader ? lastMatch.line : nil)
    var range: String
    if let actions {
      range = """
        since \(start), \(Self.actions(actions)) replayed (\(Self.lines(lastMatch.line + 1, to: line - 1)))
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

  /// "line 4" or "lines 4 to 12".
  private static func lines(_ first: Int, to last: Int) -> String {
    last > first ? "lines \(first) to \(last)" : "line \(first)"
  }

  /// "action 3 was" or "actions 3 to 9 were".
  private static func actions(_ numbers: ClosedRange<Int>) -> String {
    numbers.count == 1
      ? "action \(numbers.lowerBound) was"
      : "actions \(numbers.lowerBound) to \(numbers.upperBound) were"
  }
}

extension ActionLogReplayer {
  /// The actions on `lines` of the log whose recorded JSON is not what the action they
  /// decode to encodes as (in canonical form): the replay reduced another action than was
  /// recorded. At most five are named, after the header on line `header`, when given, if its
  /// initial state does not round-trip either: the replay started from another state than
  /// was recorded. Also the first and last sequence numbers of the actions on those lines,
  /// and those of the actions that carried a ``Secret`` (whose placeholder decodes as an
  /// empty secret).
  ///
  /// The log is read again from its start: only a divergence pays for this.
  static func roundTripProblems(path: String, lines: Range<Int>, header: Int? = nil) -> (
    problems: [String], actions: ClosedRange<Int>?, withSecrets: [Int]
  ) {
    guard let reader = try? LineReader(path: path, limit: ActionLogFormat.maximumLineLength)
    else { return ([], nil, []) }
    let placeholder = Array("\"\(Secret<String>.placeholder)\"".utf8)
    var withSecrets: [Int] = []
    let decoder = JSONDecoder()
    let encoder = makeLogEncoder()
    var problems: [String] = []
    // The actions named so far: the header's problem, if any, is not one of the five.
    var named = 0
    var unnamed = 0
    var first: Int?
    var last: Int?
    while case .complete(let bytes, let number)? = try? reader.next(), number < lines.upperBound {
      if number == header {
        // The file's first line may start with a byte order mark, which is no part of its JSON.
        let bytes = number == 1 ? droppingByteOrderMark(bytes) : bytes
        if let problem = initialStateProblem(in: bytes, line: number, decoder, encoder) {
          problems.append(problem)
        }
        continue
      }
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
      guard let encoded = try? encoder.encode(action),
        let mismatch = RoundTripMismatch(
          written: CanonicalJSON.canonical(recordedJSON, of: action, encoder: encoder),
          reencoded: CanonicalJSON.canonical(encoded, of: action, encoder: encoder))
      else { continue }
      guard named < 5 else {
        unnamed += 1
        continue
      }
      named += 1
      problems.append(
        """
        action \(line.sequence) on line \(number) does not round-trip: recorded \
        \(mismatch.recorded), decoded as \(describeShortly(action)), which is recorded as \
        \(mismatch.reencoded) (\(mismatch.changes.joined(separator: "; "))); the replay \
        reduced what it decoded
        """)
    }
    if unnamed > 0 {
      problems.append("and \(unnamed) more action(s) that do not round-trip")
    }
    guard let first, let last else { return (problems, nil, withSecrets) }
    return (problems, first...last, withSecrets)
  }

  /// Why the header `bytes`, on line `line`, gave the replay another state to start from than
  /// was recorded: its initial state decodes to a value that encodes otherwise (in canonical
  /// form), such as `.some(nil)` of an `Int??`, written `null` and decoded as `nil`. `nil`
  /// when it round-trips, or cannot be read.
  private static func initialStateProblem(
    in bytes: Data, line: Int, _ decoder: JSONDecoder, _ encoder: JSONEncoder
  ) -> String? {
    guard let header = try? decoder.decode(ActionLogHeader<R.State>.self, from: bytes),
      let recordedJSON = JSONField.bytes(of: "initialState", in: bytes),
      let encoded = try? encoder.encode(header.initialState),
      let mismatch = RoundTripMismatch(
        written: CanonicalJSON.canonical(recordedJSON, of: header.initialState, encoder: encoder),
        reencoded: CanonicalJSON.canonical(encoded, of: header.initialState, encoder: encoder))
    else { return nil }
    let more = mismatch.unlisted == 0 ? "" : "; and \(mismatch.unlisted) more"
    return """
      the initial state in the header on line \(line) does not round-trip: what it decodes \
      to is recorded otherwise (\(mismatch.changes.joined(separator: "; "))\(more)); the \
      replay started from what it decoded, not from the state recorded (a value its Codable \
      conformance does not decode as it encodes, such as .some(nil) of an Int??, written null \
      and decoded as nil)
      """
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
    guard let position = root.keys.firstIndex(where: { isKey(bytes[$0], key, spelled: quoted) })
    else {
      return nil
    }
    let value = root.children[position]
    return Data(bytes[value.start..<value.end])
  }

  /// Whether the key `written` (with its quotes, as in the line) is `key`, as `JSONDecoder`
  /// reads keys: its escapes decoded (`"\u0061ction"` is `action`), compared as Swift strings.
  /// `spelled` is `key` as the log's encoder writes it, with its quotes: a key written so
  /// matches on its bytes alone, as nearly every key does.
  static func isKey(_ written: ArraySlice<UInt8>, _ key: String, spelled: [UInt8]) -> Bool {
    if written.elementsEqual(spelled) { return true }
    guard written.contains(where: { $0 == UInt8(ascii: "\\") || $0 >= 0x80 }),
      case .string(let decoded)? = JSONValue(parsing: Data(written))
    else { return false }
    return decoded == key
  }
}
