#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// One action of a replayed log: where it was, what it was, and the state around it.
public struct ReplayStep<State, Action> {
  /// The action's sequence number.
  public var sequence: Int
  /// The line of the log it was on.
  public var line: Int
  /// Whether a user or an effect sent it.
  public var origin: ActionOrigin
  /// When it happened, in seconds, as recorded.
  public var time: Double
  /// The action.
  public var action: Action
  /// The state before the action.
  public var stateBefore: State {
    didSet { replayed.before = nil }
  }
  /// The state after the action.
  public var stateAfter: State {
    didSet { replayed.after = nil }
  }
  /// Where the replay keeps its states' encodings, and which of them are this step's.
  var replayed = ReplayedStates()
}

/// A replay step's way to its replay's encodings of its states (see ``ReplayStep/stateChanges``).
struct ReplayedStates: Sendable {
  /// The replay's encodings; `nil` for a step made by hand.
  var encodings: ReplayEncodings?
  /// The sequence number of the action that left `stateBefore`, while it is the state the
  /// replay gave.
  var before: Int?
  /// The step's own sequence number, while `stateAfter` is the state the replay gave.
  var after: Int?
}

/// What a replay found.
public struct ReplayReport<State> {
  /// The state after the last replayed action.
  public var finalState: State
  /// How many actions were replayed.
  public var actionCount: Int
  /// How many checkpoints matched.
  public var checkpointsVerified: Int
  /// Whether the log ended with its final checkpoint (a log cut short by a crash does not,
  /// nor one whose recording stopped because an action or state could not be written), as
  /// far as the replay read: one that `until` stopped before the end of the log (see
  /// ``stoppedAfter``) is not complete, even when it read a final checkpoint (a line after
  /// that one is damage it did not read).
  public var isComplete: Bool
  /// The sequence number the replay stopped after, when it stopped before the end of the
  /// log because of `until`: the last action it replayed, or 0 when it replayed none (an
  /// `until` below 1, in a log that holds actions).
  public var stoppedAfter: Int?
  /// The last action the recording wrote, when the log ends with a line marking the
  /// recording as stopped (an action or a state it could not write; see
  /// ``ActionLogRecorder``): the session went on, but the log holds nothing after it.
  public var recordingStoppedAfter: Int?
  /// Problems that did not stop the replay, each naming its line: a last line cut short; a
  /// log that ends without its final checkpoint; a recording that stopped, with its reason
  /// (see ``ActionLogRecorder``); with `until`, a damaged line after the
  /// stop, which was not read further, or a last line cut short there that was, or may have
  /// been, the checkpoint of the action it stopped after, which is then not checked; or a
  /// runtime warning a reducer raised (an action for a child that is not there, say).
  ///
  /// Warnings that can repeat on every line (a reducer's runtime warning, a secret in plain
  /// text) are listed up to ``maximumListedWarnings`` and then only counted, in
  /// ``unlistedWarningCount``, so that memory stays bounded however long the log; the others
  /// happen once and are always listed.
  public var warnings: [String]
  /// How many warnings past the first ``maximumListedWarnings`` were counted and not listed.
  public var unlistedWarningCount = 0

  /// How many warnings that can repeat on every line ``warnings`` lists: 100.
  public static var maximumListedWarnings: Int { 100 }

  /// Ends the report of a replay that `until` stopped after action `sequence`, in `state`,
  /// before the end of the log: it did not reach the end, so the log is not said to be
  /// complete, even when a final checkpoint came before the line it stopped at (a log with
  /// lines after its final checkpoint does not end with it).
  mutating func stop(after sequence: Int, in state: State) {
    stoppedAfter = sequence
    isComplete = false
    finalState = state
  }

  /// Lists `warning`, or counts it once ``maximumListedWarnings`` are listed.
  mutating func noteRepeatable(_ warning: @autoclosure () -> String) {
    if warnings.count < Self.maximumListedWarnings {
      warnings.append(warning())
    } else {
      unlistedWarningCount += 1
    }
  }
}

extension ReplayStep: Sendable where State: Sendable, Action: Sendable {}

extension ReplayReport: Sendable where State: Sendable {}

/// Replays an action log through a feature's reducer, without running effects (their
/// results are in the log), and checks every checkpoint.
///
/// The log is read as a stream: memory stays constant however long it is.
///
/// ```swift
/// let replayer = ActionLogReplayer(feature: "App") { App(...) }
/// let report = try replayer.replay(path: "session.jsonl") { step in
///   print(step.sequence, step.action)
/// }
/// ```
public struct ActionLogReplayer<R: Reducer> where R.State: Codable, R.Action: Codable {
  private let feature: String
  private let schemaVersion: String
  private let makeReducer: () -> R

  /// Creates a replayer.
  ///
  /// - Parameters:
  ///   - feature: The feature name the log must have been recorded for.
  ///   - schemaVersion: The schema version the recording used.
  ///   - reducer: Makes the reducer to replay through, with the same deterministic
  ///     dependencies (id generators) the recording used.
  public init(feature: String, schemaVersion: String = "1", reducer: @escaping () -> R) {
    self.feature = feature
    self.schemaVersion = schemaVersion
    self.makeReducer = reducer
  }

  /// Replays the log at `path`.
  ///
  /// - Parameters:
  ///   - path: The log.
  ///   - until: The last sequence number to replay: the replay stops before the first action
  ///     after it (its checkpoints are still checked, and a line marking the recording as
  ///     stopped after it still read), and the rest of the log is not read.
  ///   - step: Called after each action, in order. An error it throws stops the replay and
  ///     is thrown on as it is.
  /// - Returns: What the replay found.
  /// - Throws: ``ActionLogError`` naming the line and the problem: a bad header, a schema
  ///   that does not match, a malformed line, a sequence out of order, or a checkpoint that
  ///   does not match; or what `step` threw.
  public func replay(
    path: String,
    until: Int? = nil,
    step: (ReplayStep<R.State, R.Action>) throws -> Void = { _ in }
  ) throws -> ReplayReport<R.State> {
    let reader = try LineReader(path: path, limit: ActionLogFormat.maximumLineLength)
    let decoder = JSONDecoder()
    // Told of every secret that decodes from a value instead of the placeholder.
    let plainTextSecrets = PlainTextSecrets()
    decoder.userInfo[PlainTextSecrets.key] = plainTextSecrets
    let encoder = makeLogEncoder()
    var (state, headerLine) = try readHeader(reader, decoder)
    let reducer = makeReducer()
    var report = ReplayReport(
      finalState: state,
      actionCount: 0,
      checkpointsVerified: 0,
      isComplete: false,
      stoppedAfter: nil,
      recordingStoppedAfter: nil,
      warnings: []
    )
    Self.warnOfPlainTextSecrets(
      plainTextSecrets, in: "Line \(headerLine) (the header's initial state)", &report)
    var sequence = 0
    var lastLine = headerLine
    // The last checkpoint that matched (the header before any), where a divergence's
    // explanation starts.
    var lastMatch = (sequence: 0, line: headerLine)
    // The line marking the recording as stopped: nothing may follow it.
    var stopLine: Int?
    var scanner = DuplicateKeyScanner()
    // The states' encodings, shared by the steps and the checkpoints.
    let encodings = ReplayEncodings()
    while let next = try reader.next() {
      let bytes: Data
      let number: Int
      switch next {
      case .complete(let line, let lineNumber):
        (bytes, number) = (line, lineNumber)
      case .truncated(let line, let lineNumber):
        // A last line without its newline was cut off while being written, unless it is
        // whole JSON: then it is an ordinary line, decoded (and reported) as any other.
        let isWholeJSON = JSONValue.reading(line, { _ in true }) != nil
        if !isWholeJSON, !Self.isBlank(line), let until, sequence >= until {
          // Cut off past the step asked for: the replay got there, and says so if the line
          // was, or may have been, one it needed (that action's checkpoint).
          if let warning = Self.cutLineWarning(line, lineNumber, after: sequence, decoder) {
            report.warnings.append(warning)
          }
          report.stop(after: sequence, in: state)
          return report
        }
        if !isWholeJSON, report.isComplete || stopLine != nil, !Self.isBlank(line) {
          // The recorder writes nothing after the final checkpoint, so a partial line there
          // is not a recording cut short: the log was damaged after it was finished.
          throw ActionLogError.malformedLine(
            line: lineNumber,
            reason: """
              an incomplete line (no newline, not whole JSON) after \(Self.end(stopLine)): the \
              recorder writes nothing after it, so the log was damaged after it was finished.
              """
          )
        }
        guard isWholeJSON || Self.isBlank(line) else {
          let cut = Self.cutOff(line, isFirstLine: false)
          if let damage = cut.damage {
            // Text no recorder leaves when cut off: the log was damaged, not cut short.
            throw ActionLogError.malformedLine(
              line: lineNumber,
              reason: """
                invalid JSON: \(damage). It is the last line and has no newline, but it is \
                not a line cut short (a recording cut off while writing a line leaves the \
                start of a JSON object), so the log was damaged.
                """)
          }
          report.warnings.append(
            """
            Line \(lineNumber): incomplete (the recording was cut off while writing it); \
            replayed the \(lineNumber - 1) complete lines before it.\
            \(Self.zeroBytesEnding(cut.zeroBytes))
            """
          )
          report.finalState = state
          return report
        }
        (bytes, number) = (line, lineNumber)
      case .tooLong(let lineNumber):
        if let until, sequence >= until {
          // Past the step asked for, as for a line that is not a log line: the replay got there.
          report.warnings.append(
            """
            Line \(lineNumber): longer than the limit of \(ActionLogFormat.maximumLineLength) \
            bytes; the replay stopped before it, after action \(sequence) as asked, without \
            reading it, or knowing whether it was that action's checkpoint.
            """
          )
          report.stop(after: sequence, in: state)
          return report
        }
        throw ActionLogError.lineTooLong(line: lineNumber, limit: ActionLogFormat.maximumLineLength)
      }
      if Self.isBlank(bytes) { continue }
      // The last line that holds something: where the log is said to end.
      lastLine = number
      if let until, sequence >= until {
        switch Self.kind(of: bytes, after: sequence, decoder) {
        case .ofThisAction:
          break
        case .other:
          // Past the step asked for, only its own checkpoints are read: the rest of the log
          // is not, so a damaged line after it does not stop the replay from getting there.
          report.stop(after: sequence, in: state)
          return report
        case .unreadable:
          report.warnings.append(
            """
            Line \(number): not a log line; \(Self.stoppedBeforeUnknown(after: sequence))
            """
          )
          report.stop(after: sequence, in: state)
          return report
        }
      }
      if stopLine != nil {
        throw ActionLogError.malformedLine(
          line: number,
          reason: """
            a line after \(Self.end(stopLine)): the recorder writes nothing after it, so the \
            log was damaged after it was written.
            """)
      }
      if let problem = Self.encodingProblem(in: bytes, isFirstLine: false)
        ?? scanner.firstProblem(in: bytes).map({ "\($0)" })
      {
        throw ActionLogError.malformedLine(line: number, reason: problem)
      }
      let line: ActionLogLine<R.Action>
      if !scanner.holdsRoundableNumber,
        let plain = Self.plainActionLine(bytes, decoder, plainTextSecrets)
      {
        line = plain
      } else {
        line = try decodeLine(bytes, number: number, headerLine: headerLine, decoder)
      }
      if scanner.holdsRoundableNumber,
        let problem = Self.roundedInteger(
          in: bytes, decoding: { _ = try decoder.decode(ActionLogLine<R.Action>.self, from: $0) })
      {
        throw ActionLogError.malformedLine(line: number, reason: problem)
      }
      Self.warnOfPlainTextSecrets(
        plainTextSecrets, in: "Line \(number) (action \(line.sequence))", &report)
      switch line.kind {
      case .action(let time, let origin):
        guard let action = line.action else {
          // `ActionLogLine` decodes an action for every action line; this is not reached.
          throw ActionLogError.malformedLine(
            line: number, reason: "an action line without its action.")
        }
        let found = line.sequence
        guard found == sequence + 1 else {
          throw ActionLogError.sequenceOutOfOrder(
            line: number, found: found, expected: sequence + 1)
        }
        if report.isComplete {
          throw ActionLogError.malformedLine(
            line: number, reason: "an action follows the final checkpoint.")
        }
        sequence = found
        let before = state
        // Effects do not run in a replay (the actions they fed back are in the log), but the
        // warnings they carry, such as an action for a child that is not there, are reported.
        // Such a warning quotes the action, which is text from the log: cut as the log's text
        // is, each string in it and the whole.
        // An action the store sent knowing that its element may be gone (a row's end sent
        // after the row left a filtered view) reported no missing element: nor does a replay.
        reducer.reduce(into: &state, action: action).forEachWarning(
          skippingMissingChild: line.elementMayBeGone
        ) { message, site in
          report.noteRepeatable(
            """
            Line \(number) (action \(sequence)): \
            \(LogText.escaped(LogText.cuttingQuotes(in: message), limit: Self.maximumWarningLength)) \
            (\(site))
            """)
        }
        report.actionCount = sequence
        try step(
          ReplayStep(
            sequence: sequence, line: number, origin: origin, time: time, action: action,
            stateBefore: before, stateAfter: state,
            replayed: ReplayedStates(encodings: encodings, before: sequence - 1, after: sequence)
          )
        )
      case .checkpoint(let digest, let isFinal):
        let found = line.sequence
        // After the final checkpoint, a checkpoint of the same action (written twice) is
        // checked like the first.
        guard found == sequence else {
          throw ActionLogError.sequenceOutOfOrder(line: number, found: found, expected: sequence)
        }
        let since = Divergence(
          path: path, checkpoint: found, line: number, lastMatch: lastMatch, headerLine: headerLine,
          warnings: report.warnings, unlistedWarnings: report.unlistedWarningCount,
          canReread: reader.isRegularFile)
        let canonical: Data
        if let kept = encodings.json(after: sequence) {
          // A step's `stateChanges` encoded it already. (An encoding made here is not kept:
          // a replay whose steps did not ask for this one will not ask for it next.)
          canonical = kept
        } else {
          let json: Data
          do {
            json = try encoder.encode(state)
          } catch {
            // The recording encoded its state here, or it would have stopped: the replay
            // reached another one.
            throw since.error(
              [
                """
                the replayed state cannot be encoded: \
                \(LineFailure.unencodable(error, encoding: state, at: "state").reason)
                """
              ], replayer: self)
          }
          canonical = CanonicalJSON.canonical(json, of: state, encoder: encoder)
        }
        guard StateDigest.of(canonical) == digest else {
          let (differences, isDigestAlone) = Self.differences(
            recordedLine: bytes, replayed: canonical, of: state, encoder: encoder)
          throw since.error(differences, replayer: self, isDigestAlone: isDigestAlone)
        }
        lastMatch = (found, number)
        report.checkpointsVerified += 1
        if isFinal { report.isComplete = true }
      case .stopped(let reason):
        guard line.sequence == sequence else {
          throw ActionLogError.sequenceOutOfOrder(
            line: number, found: line.sequence, expected: sequence)
        }
        if report.isComplete {
          throw ActionLogError.malformedLine(
            line: number, reason: "a recording marked as stopped after its final checkpoint.")
        }
        stopLine = number
        report.recordingStoppedAfter = sequence
        report.warnings.append(
          "Line \(number): the recording stopped after action \(sequence): \(LogText.escaped(reason, limit: 500))"
        )
      }
    }
    if !report.isComplete, stopLine == nil {
      report.warnings.append(
        """
        Line \(lastLine): the log ends there, after action \(sequence), without its final \
        checkpoint: the recording was cut short, or is still being written.
        """
      )
    }
    report.finalState = state
    return report
  }

  /// The line a log ends with: the one that marks the recording as stopped, or else the
  /// final checkpoint.
  /// A line after the header, decoded whole, or refused naming the line and why.
  private func decodeLine(
    _ bytes: Data, number: Int, headerLine: Int, _ decoder: JSONDecoder
  ) throws -> ActionLogLine<R.Action> {
    do {
      return try decoder.decode(ActionLogLine<R.Action>.self, from: bytes)
    } catch {
      if (try? decoder.decode(LineProbe.self, from: bytes))?.kind == "header" {
        throw ActionLogError.malformedLine(
          line: number,
          reason: """
            a second header: a log holds one header, at its first line (line \(headerLine) \
            here). Two logs joined into one file do not replay as one.
            """)
      }
      throw ActionLogError.malformedLine(
        line: number,
        reason: Self.explain(error, in: bytes) {
          _ = try decoder.decode(ActionLogLine<R.Action>.self, from: $0)
        })
    }
  }

  /// An action line as the recorder writes it, its `kind`, `seq`, `time` and `origin` read
  /// by ``PlainActionLine`` and its action decoded from the action's value alone; `nil` for
  /// any other line, for one whose action does not decode alone, and for one that holds a
  /// secret in plain text (whose warning names its place from the line's root): the caller
  /// decodes those whole, and says why it refuses a line.
  ///
  /// About a third faster than decoding the whole line: `JSONDecoder` spends about as long on
  /// the line's keyed container and its four other fields as on a small action. The one
  /// difference a decoded action can show is its `Decoder`'s `codingPath`, which starts at the
  /// action (`[]`) rather than at the line (`["action"]`): only a type that keeps or branches
  /// on the path it is decoded at can tell, and a checkpoint then reports the state it
  /// reaches.
  private static func plainActionLine(
    _ bytes: Data, _ decoder: JSONDecoder, _ plainTextSecrets: PlainTextSecrets
  ) -> ActionLogLine<R.Action>? {
    guard !PlainActionLine.isDisabled,
      let fields = bytes.withUnsafeBytes({ PlainActionLine.fields(of: $0) })
    else { return nil }
    let start = bytes.startIndex
    let value = bytes[(start + fields.action.lowerBound)..<(start + fields.action.upperBound)]
    let action = try? decoder.decode(R.Action.self, from: value)
    // A secret in plain text is named at its place in the line, which the whole decode
    // notes; a failed decode's notes would be named twice.
    guard plainTextSecrets.takeFound().isEmpty, let action else { return nil }
    return ActionLogLine(
      kind: .action(time: fields.time, origin: fields.origin), sequence: fields.sequence,
      action: action)
  }

  private static func end(_ stopLine: Int?) -> String {
    stopLine.map { "line \($0), which marks the recording as stopped" } ?? "the final checkpoint"
  }

  /// How a last line without its newline, not whole JSON, came to be: what is wrong with it
  /// if it is not the start of a line of the log (a recorder cut off while writing one
  /// leaves that: the start of a JSON object, as far as it got), and how many zero bytes end
  /// it. Those are left out of the check: after a crash, a file's end can read as zeros, when
  /// its new size reached the disk and its data did not. The file's first line may start
  /// with a byte order mark (`isFirstLine`), or with as much of one as was written.
  ///
  /// - Complexity: O(*n*) for a line of *n* bytes.
  static func cutOff(_ line: Data, isFirstLine: Bool) -> (damage: String?, zeroBytes: Int) {
    let text = line.withUnsafeBytes { bytes in
      let end = (bytes.lastIndex { $0 != 0 } ?? -1) + 1
      return Data(bytes[..<end])
    }
    let zeroBytes = line.count - text.count
    // After the byte order mark a first line may start with.
    let mark: [UInt8] = [0xEF, 0xBB, 0xBF]
    if isFirstLine, !text.isEmpty, mark.starts(with: text) { return (nil, zeroBytes) }
    let bom = isFirstLine && text.starts(with: mark) ? 3 : 0
    // Blank but for its zeros, or the start of an object: the check says whether the rest
    // could go on.
    guard let first = text.dropFirst(bom).first(where: { !JSONGrammar.isSpace($0) }) else {
      return (nil, zeroBytes)
    }
    if first != UInt8(ascii: "{") {
      let found = JSONCheck.shown(first)
      return ("a log line is a JSON object, and this one starts with \(found)", zeroBytes)
    }
    let check = JSONCheck.check(text, allowingLoneSurrogates: true)
    guard let problem = check.problem, !check.endsTooSoon else { return (nil, zeroBytes) }
    return (problem, zeroBytes)
  }

  /// Why a header that is the start of a header, with no newline, and holds a zero byte or
  /// the start of a character was refused: the recording was cut off while writing it.
  static func cutHeader(zeroBytes: Int) -> String {
    """
    the header is incomplete: it has no newline at its end, and what it holds could begin \
    a header: the recording was cut off while writing its header.\(zeroBytesEnding(zeroBytes))
    """
  }

  /// The sentence that says a cut line ends in `count` zero bytes, with its leading space;
  /// empty for none.
  static func zeroBytesEnding(_ count: Int) -> String {
    guard count > 0 else { return "" }
    return """
       It ends in \(count) zero bytes, as a file can after a crash, when its size reached \
      the disk before its data.
      """
  }

  /// A sentence for the message about a line that is not JSON and holds a carriage return
  /// right before a `{`: lines that end in a carriage return alone (as classic Mac OS ended
  /// them), which a reader of lines ended by newlines reads as one line. Empty otherwise.
  static func lineEndingHint(_ line: Data) -> String {
    let joined = line.withUnsafeBytes { bytes in
      bytes.indices.dropLast().contains {
        bytes[$0] == UInt8(ascii: "\r") && bytes[$0 + 1] == UInt8(ascii: "{")
      }
    }
    guard joined else { return "" }
    return """
       The line holds a carriage return followed by "{": its lines seem to end in carriage \
      returns alone, and a log's lines end in a newline (LF, with or without a carriage \
      return before it).
      """
  }

  /// `line` without the byte order mark it starts with, if it does: a file's first line may
  /// hold one and nothing else, and is then blank.
  static func droppingByteOrderMark(_ line: Data) -> Data {
    line.starts(with: [0xEF, 0xBB, 0xBF]) ? line.dropFirst(3) : line
  }

  private static func isBlank(_ line: Data) -> Bool {
    // Through the bytes: `Data`'s own iteration costs more than the test, on every line.
    line.withUnsafeBytes { bytes in
      bytes.allSatisfy {
        $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") || $0 == UInt8(ascii: "\r")
      }
    }
  }

  private enum LineKind {
    case ofThisAction, other, unreadable
  }

  /// How a replay asked to stop after action `sequence` says it stopped before a line it
  /// could not read, which may have been that action's checkpoint.
  private static func stoppedBeforeUnknown(after sequence: Int) -> String {
    """
    the replay stopped before it, after action \(sequence) as asked, without knowing whether \
    it was that action's checkpoint.
    """
  }

  /// The warning for a last line cut off as it was written (no newline, not whole JSON, not
  /// blank) that a replay asked to stop after action `sequence` reached, or `nil` when the
  /// line is of another kind or action, which the replay does not read (an action line):
  /// the line was, or may have been, that action's checkpoint, or the line marking the
  /// recording as stopped after it, which the replay reads and could not. Text no recorder
  /// leaves when cut off is said to be no log line, as a damaged line there is.
  private static func cutLineWarning(
    _ line: Data, _ number: Int, after sequence: Int, _ decoder: JSONDecoder
  ) -> String? {
    let cut = cutOff(line, isFirstLine: false)
    if let damage = cut.damage {
      return """
        Line \(number): not a log line (invalid JSON: \(damage)); \
        \(stoppedBeforeUnknown(after: sequence))
        """
    }
    let incomplete = "Line \(number): incomplete (the recording was cut off while writing it)"
    let zeros = zeroBytesEnding(cut.zeroBytes)
    switch kind(ofCut: line, after: sequence, decoder) {
    case .other:
      return nil
    case .checkpoint:
      return """
        \(incomplete): it is the checkpoint of action \(sequence), which could not be read, so \
        that checkpoint was not checked; the replay stopped after action \(sequence), as \
        asked.\(zeros)
        """
    case .stopLine:
      return """
        \(incomplete): it is the line marking the recording as stopped after action \
        \(sequence), which could not be read; the replay stopped after action \(sequence), as \
        asked.\(zeros)
        """
    case .unknown:
      return """
        \(incomplete); \(stoppedBeforeUnknown(after: sequence))\(zeros)
        """
    }
  }

  private enum CutLineKind {
    case checkpoint, stopLine, other, unknown
  }

  /// What the start of a line cut off as it was written says it is, from the fields of its
  /// object written whole, and from a cut key or `kind` that can begin only one name: a
  /// checkpoint, or the line marking the recording as stopped (one of action `sequence`,
  /// unless its `seq` says otherwise), a line of another kind or action (an action line has
  /// `action`, `origin` and `time` fields), or unknown (cut before it says).
  ///
  /// - Complexity: O(*n*) for a line of *n* bytes.
  private static func kind(ofCut line: Data, after sequence: Int, _ decoder: JSONDecoder)
    -> CutLineKind
  {
    let bytes = [UInt8](line)
    // Zero bytes after the cut are no part of it (see `cutOff(_:isFirstLine:)`).
    let end = (bytes.lastIndex { $0 != 0 } ?? -1) + 1
    let text = bytes[..<end]
    var index = 0
    func skipSpace() {
      while index < end, JSONGrammar.isSpace(text[index]) { index += 1 }
    }
    // Whether the unterminated string that starts at `start` can begin none of `names`.
    func beginsNone(of names: [String], from start: Int) -> Bool {
      guard let partial = String(bytes: text[(start + 1)...], encoding: .utf8),
        !partial.contains("\\")
      else { return false }
      return !names.contains { $0.hasPrefix(partial) }
    }
    let actionKeys = ["action", "origin", "time"]
    skipSpace()
    guard index < end, text[index] == UInt8(ascii: "{") else { return .unknown }
    index += 1
    var found = CutLineKind.unknown
    while true {
      skipSpace()
      guard index < end, text[index] == UInt8(ascii: "\"") else { break }
      guard let keyEnd = JSONGrammar.endOfString(in: text, from: index) else {
        let otherKeys = ["digest", "final", "kind", "reason", "seq", "state"]
        if beginsNone(of: otherKeys, from: index), !beginsNone(of: actionKeys, from: index) {
          return .other
        }
        break
      }
      guard case .string(let key)? = JSONValue(parsing: Data(text[index..<keyEnd])) else { break }
      if actionKeys.contains(key) { return .other }
      switch key {
      case "digest", "final", "state": found = .checkpoint
      case "reason": found = .stopLine
      default: break
      }
      index = keyEnd
      skipSpace()
      guard index < end, text[index] == UInt8(ascii: ":") else { break }
      index += 1
      skipSpace()
      guard index < end else { break }
      let valueEnd = JSONGrammar.endOfValue(
        in: text, from: index, nestingLimit: JSONCheck.maximumDepth)
      // A number or a literal may go on past the cut: whole only if something follows it.
      let isScalar =
        text[index] != UInt8(ascii: "\"") && text[index] != UInt8(ascii: "{")
        && text[index] != UInt8(ascii: "[")
      guard let valueEnd, !isScalar || valueEnd < end else {
        if key == "kind", text[index] == UInt8(ascii: "\""),
          beginsNone(of: ["checkpoint", "stopped"], from: index)
        {
          return .other
        }
        break
      }
      let value = Data(text[index..<valueEnd])
      if key == "kind" {
        guard case .string(let name)? = JSONValue(parsing: value) else { return .unknown }
        switch name {
        case "checkpoint": found = .checkpoint
        case "stopped": found = .stopLine
        default: return .other
        }
      } else if key == "seq" {
        guard let seq = try? decoder.decode(Int.self, from: value) else { return .unknown }
        if seq != sequence { return .other }
      }
      index = valueEnd
      skipSpace()
      guard index < end, text[index] == UInt8(ascii: ",") else { break }
      index += 1
    }
    return found
  }

  /// Whether `line` is a checkpoint of action `sequence`, or the line marking the recording as
  /// stopped after it, from its `kind` and `seq` alone: a replay that stops after that action
  /// still reads it (the stop line ends the log, and says why).
  private static func kind(of line: Data, after sequence: Int, _ decoder: JSONDecoder)
    -> LineKind
  {
    guard let probe = try? decoder.decode(LineProbe.self, from: line) else { return .unreadable }
    guard probe.seq == sequence, probe.kind == "checkpoint" || probe.kind == "stopped" else {
      return .other
    }
    return .ofThisAction
  }

  /// Why a first line that is not a header is not one, when it is a line of another kind:
  /// the header is missing (deleted, or the file holds only the end of a log).
  private static func missingHeader(_ line: Data, _ decoder: JSONDecoder) -> String? {
    let names = [
      "action": "an action line", "checkpoint": "a checkpoint line", "stopped": "a stop line",
    ]
    guard let probe = try? decoder.decode(LineProbe.self, from: line), let name = names[probe.kind]
    else { return nil }
    return """
      the first line is \(name), and the header is missing: a log starts with a header line \
      (kind "header"), which holds its format, feature and initial state.
      """
  }

  /// Adds a warning for the secrets `secrets` was told of since it was last asked: `place`
  /// holds them in plain text. The replay goes on with the values; the log should not have
  /// them.
  private static func warnOfPlainTextSecrets(
    _ secrets: PlainTextSecrets, in place: String, _ report: inout ReplayReport<R.State>
  ) {
    let paths = secrets.takeFound()
    guard !paths.isEmpty else { return }
    let named = LogText.list(paths.map { $0.isEmpty ? "the value" : "`\($0)`" }, limit: 3)
    report.noteRepeatable(
      """
      \(place): a Secret holds a value instead of the placeholder \
      "\(Secret<String>.placeholder)" (\(LogText.escaped(named))): the log holds a secret in \
      plain text, which the recorder never writes (a line written or edited by hand?). The \
      replay used the value.
      """)
  }

  /// Why `line` is not UTF-8 as a log is written, where `JSONDecoder` would read it anyway:
  /// it takes a line in UTF-16 or UTF-32 (whose ASCII characters each come with NUL bytes)
  /// for JSON in that encoding, skipping the checks a log's lines get, reads invalid UTF-8
  /// in the value of a field no type reads, and skips a byte order mark at the start of any
  /// line. Only the log's first line may start with one.
  ///
  /// - Complexity: O(*n*) for a line of *n* bytes, through `memchr` and ``UTF8Check``.
  static func encodingProblem(in line: Data, isFirstLine: Bool) -> String? {
    let nul = line.withUnsafeBytes { raw -> Int? in
      guard let base = raw.baseAddress, let found = memchr(base, 0, raw.count) else { return nil }
      return base.distance(to: UnsafeRawPointer(found))
    }
    if let nul {
      return """
        a NUL byte at column \(nul + 1): a log is UTF-8 text, and this line is not (UTF-16 or \
        UTF-32, whose characters come with NUL bytes, or damaged bytes).
        """
    }
    if let invalid = line.withUnsafeBytes({ UTF8Check.firstInvalidOffset(in: $0) }) {
      // In a string, as it nearly always is, the strict check names the string's place.
      if let problem = JSONCheck.check(line).problem, problem.hasPrefix("invalid UTF-8") {
        return "invalid JSON: \(problem)."
      }
      return """
        invalid UTF-8 at column \(invalid + 1): a log is UTF-8 text, and this line holds bytes \
        that are not (damaged bytes, or text in another encoding, such as Latin-1).
        """
    }
    // The first byte alone first: nearly every line starts with "{".
    if !isFirstLine, line.first == 0xEF, line.starts(with: [0xEF, 0xBB, 0xBF]) {
      return """
        a byte order mark (U+FEFF) at column 1: only a log's first line may start with one (two \
        files joined into one?).
        """
    }
    return nil
  }

  /// The initial state, and the number of the header's line.
  private func readHeader(_ reader: LineReader, _ decoder: JSONDecoder) throws -> (R.State, Int) {
    // Blank lines before the header are skipped, as they are everywhere else.
    var bytes = Data()
    var headerLine = 0
    // Whether the header has no newline: the last line of the file, maybe cut off.
    var isUnended = false
    repeat {
      guard let next = try reader.next() else { throw ActionLogError.empty }
      switch next {
      case .complete(let line, let number):
        (bytes, headerLine, isUnended) = (line, number, false)
      case .truncated(let line, let number):
        (bytes, headerLine, isUnended) = (line, number, true)
      case .tooLong(let number):
        throw ActionLogError.lineTooLong(line: number, limit: ActionLogFormat.maximumLineLength)
      }
    } while Self.isBlank(headerLine == 1 ? Self.droppingByteOrderMark(bytes) : bytes)
    var scanner = DuplicateKeyScanner()
    // A byte order mark is the file's first bytes, or not one a log may hold.
    if let problem = Self.encodingProblem(in: bytes, isFirstLine: headerLine == 1)
      ?? scanner.firstProblem(in: bytes).map({ "\($0)" })
    {
      // A header cut off as it was written can end in zero bytes (after a crash) or inside
      // a character: said as such, not as the text's encoding, as for any other line.
      if isUnended, JSONValue.reading(bytes, { _ in true }) == nil {
        let cut = Self.cutOff(bytes, isFirstLine: headerLine == 1)
        if cut.damage == nil {
          throw ActionLogError.badHeader(
            line: headerLine, reason: Self.cutHeader(zeroBytes: cut.zeroBytes))
        }
      }
      throw ActionLogError.badHeader(
        line: headerLine, reason: problem + Self.lineEndingHint(bytes))
    }
    // What the format and version are first: another version's other fields may differ.
    let version: VersionProbe
    do {
      version = try decoder.decode(VersionProbe.self, from: bytes)
    } catch {
      if let missing = Self.missingHeader(bytes, decoder) {
        throw ActionLogError.badHeader(line: headerLine, reason: missing)
      }
      var reason = Self.explain(error, in: bytes) {
        _ = try decoder.decode(VersionProbe.self, from: $0)
      }
      if isUnended, JSONCheck.check(bytes).problem != nil,
        Self.cutOff(bytes, isFirstLine: headerLine == 1).damage == nil
      {
        reason += """
           The line has no newline at its end: the recording may have been cut off while \
          writing its header.
          """
      }
      reason += Self.lineEndingHint(bytes)
      throw ActionLogError.badHeader(line: headerLine, reason: reason)
    }
    try Self.refuseRoundedInteger(in: bytes, headerLine, if: scanner.holdsRoundableNumber) {
      _ = try decoder.decode(VersionProbe.self, from: $0)
    }
    guard version.kind == "header" else {
      throw ActionLogError.badHeader(
        line: headerLine,
        reason: Self.missingHeader(bytes, decoder)
          ?? "expected kind \"header\", found \(LogText.quoted(version.kind))."
      )
    }
    guard version.format == ActionLogFormat.name else {
      throw ActionLogError.badHeader(
        line: headerLine,
        reason: """
          expected format "\(ActionLogFormat.name)", found \(LogText.quoted(version.format)): \
          not an action log, or one of another library.
          """
      )
    }
    guard version.version == ActionLogFormat.version else {
      throw ActionLogError.unsupportedVersion(
        line: headerLine, found: version.version, supported: ActionLogFormat.version)
    }
    let probe: HeaderProbe
    do {
      probe = try decoder.decode(HeaderProbe.self, from: bytes)
    } catch {
      throw ActionLogError.badHeader(
        line: headerLine,
        reason: Self.explain(error, in: bytes) {
          _ = try decoder.decode(HeaderProbe.self, from: $0)
        })
    }
    try Self.refuseRoundedInteger(in: bytes, headerLine, if: scanner.holdsRoundableNumber) {
      _ = try decoder.decode(HeaderProbe.self, from: $0)
    }
    guard probe.feature == feature else {
      throw ActionLogError.featureMismatch(
        line: headerLine, log: probe.feature, expected: feature)
    }
    guard let interval = probe.checkpointInterval, interval > 0 else {
      throw ActionLogError.badHeader(
        line: headerLine,
        reason: probe.checkpointInterval.map { "checkpointInterval must be at least 1, not \($0)." }
          ?? #"no "checkpointInterval" number: the field is missing, or null."#
      )
    }
    let header: ActionLogHeader<R.State>
    do {
      header = try decoder.decode(ActionLogHeader<R.State>.self, from: bytes)
    } catch {
      // The header's fields were read above, so this is the initial state.
      let explained = Self.explain(error, in: bytes) {
        _ = try decoder.decode(ActionLogHeader<R.State>.self, from: $0)
      }
      if JSONCheck.check(bytes).problem != nil {
        // Not JSON at all there: damage, whatever the types.
        throw ActionLogError.badHeader(line: headerLine, reason: explained)
      }
      // No state at all (no field, or `null`): not a type that changed, as other fields
      // the header lacks.
      let noState =
        switch error as? DecodingError {
        case .keyNotFound(let key, let context)?:
          context.codingPath.isEmpty && key.stringValue == "initialState"
        case .valueNotFound(_, let context)?:
          context.codingPath.map(\.stringValue) == ["initialState"]
        default: false
        }
      if noState {
        throw ActionLogError.badHeader(
          line: headerLine,
          reason: """
            no "initialState": the field is missing, or null, so the header holds no state to \
            replay the actions from.
            """)
      }
      if case .dataCorrupted? = error as? DecodingError {
        // Its shape decoded, but a value in it is invalid (a duplicate id, say). The
        // explanation's own full stop gives way to the one after the parenthesis.
        let sentence = explained.hasSuffix(".") ? String(explained.dropLast()) : explained
        throw ActionLogError.badHeader(
          line: headerLine,
          reason: """
            the initial state is invalid: \(sentence) (a damaged log, or \
            a value whose type changed since the recording, such as a renamed enum case).
            """
        )
      }
      // A key or a type the current state does not have. The types may have changed, or
      // the log been damaged: without a state, the current fingerprint cannot tell which.
      throw ActionLogError.badHeader(
        line: headerLine,
        reason: """
          the initial state does not decode with the current types (they changed since the \
          recording, or the log is damaged): \(explained)
          """
      )
    }
    try Self.refuseRoundedInteger(in: bytes, headerLine, if: scanner.holdsRoundableNumber) {
      _ = try decoder.decode(ActionLogHeader<R.State>.self, from: $0)
    }
    let current = SchemaFingerprint.of(
      state: header.initialState,
      action: R.Action.self,
      version: schemaVersion
    )
    // Not a fingerprint at all (a fingerprint is a digest of the types' shape): damage or a
    // hand-written header, not types that changed.
    guard StateDigest.isWellFormed(probe.schema) else {
      throw ActionLogError.badHeader(
        line: headerLine,
        reason: """
          the schema fingerprint \(LogText.quoted(probe.schema)) is not one: a fingerprint is 16 \
          lowercase hexadecimal digits, and the current types' is \(LogText.quoted(current)).
          """)
    }
    guard probe.schema == current else {
      throw ActionLogError.schemaMismatch(
        line: headerLine, log: probe.schema, current: current)
    }
    return (header.initialState, headerLine)
  }

  /// Throws ``ActionLogError/badHeader(line:reason:)`` when the header `bytes`, on line
  /// `line`, has a number that `decode` reads into an integer field as a whole number it is
  /// not; looked for only when `isFlagged` (the repeated-key scan saw a number that may be).
  private static func refuseRoundedInteger(
    in bytes: Data, _ line: Int, if isFlagged: Bool, decoding decode: (Data) throws -> Void
  ) throws {
    guard isFlagged, let problem = roundedInteger(in: bytes, decoding: decode) else { return }
    throw ActionLogError.badHeader(line: line, reason: problem)
  }

  /// What differs between the recorded checkpoint's state and the replayed one (`replayed`,
  /// in canonical form, the encoding of `state`), field by field, read from the JSON as
  /// recorded: decoding it first would hide a value that does not round-trip. The recorded
  /// state is put in canonical order where the replayed state has its sets. At most
  /// ``maximumDifferences`` are listed, and a last line counts the rest.
  ///
  /// `isDigestAlone`: whether the states are the same and only the digest differs.
  private static func differences(
    recordedLine: Data, replayed: Data, of state: R.State, encoder: JSONEncoder
  ) -> (lines: [String], isDigestAlone: Bool) {
    if let offset = NonJSONToken.firstOffset(in: replayed) {
      return (
        [
          """
          the replayed state cannot be encoded: \
          \(LineFailure.notJSON(replayed, at: offset, prefix: "state").reason)
          """
        ], false
      )
    }
    guard let recordedJSON = JSONField.bytes(of: "state", in: recordedLine) else {
      return (["the state's digest differs (the checkpoint has no state to compare)"], false)
    }
    let canonical = CanonicalJSON.canonical(recordedJSON, of: state, encoder: encoder)
    // The recorded state decoded and encoded again: a secret it holds in plain text is the
    // placeholder there, in its own place, which the replayed state may not have (an element
    // it has not, another enum case).
    let redacted = (try? JSONDecoder().decode(R.State.self, from: recordedJSON))
      .flatMap { decoded in
        (try? encoder.encode(decoded)).map {
          CanonicalJSON.canonical($0, of: decoded, encoder: encoder)
        }
      }
    return StackRoom.run(reading: canonical, replayed, redacted ?? Data()) {
      differences(
        recorded: canonical, asWritten: recordedJSON, redacted: redacted, replayed: replayed)
    }
  }

  /// The lines of ``differences(recordedLine:replayed:of:encoder:)`` once the recorded state
  /// is in canonical form: the comparison, which reads JSON only. `redacted` is the recorded
  /// state decoded and encoded again, when it decodes: the placeholder wherever it holds a
  /// secret.
  private static func differences(
    recorded canonical: Data, asWritten recordedJSON: Data, redacted: Data?, replayed: Data
  ) -> (lines: [String], isDigestAlone: Bool) {
    guard let recorded = JSONValue(parsing: canonical) else {
      let problem = JSONCheck.check(recordedJSON).problem.map { ": invalid JSON: \($0)" } ?? ""
      return (
        [
          """
          the state's digest differs; the checkpoint's state is present but could not be read \
          to compare\(problem).
          """
        ], false
      )
    }
    guard let current = JSONValue(parsing: replayed) else {
      return (
        ["the state's digest differs; the replayed state could not be read to compare."], false
      )
    }
    // A secret the checkpoint holds in plain text (written by hand: the recorder writes the
    // placeholder) is neither quoted nor a difference the replay made. It is masked where the
    // checkpoint's own state, decoded, holds a secret: not where the replayed state holds the
    // placeholder, which a string the reducer made of a secret ("\(pin)") is too. A state
    // that does not decode is masked as the replayed state, and what it holds where the
    // replayed state has nothing is not shown.
    let masked =
      redacted.flatMap { JSONValue(parsing: $0) }.map { recorded.maskingSecrets(as: $0) }
      ?? recorded.maskingSecrets(as: current, hidingUnmatched: true)
    let (changes, unlisted) = masked.differences(to: current, limit: maximumDifferences)
    guard changes.isEmpty else {
      let more = unlisted == 0 ? [] : ["and \(unlisted) more field(s) differ"]
      return (changes.map { "recorded → replayed: \($0)" } + more, false)
    }
    return (
      [
        """
        the checkpoint's state is the replayed state, but its digest is not that state's: \
        the checkpoint was changed after it was recorded, or written by another encoder
        """
      ], true
    )
  }

  /// How many characters of a reducer's runtime warning a replay's warning quotes, once its
  /// strings are cut: a warning that describes an action of many values is cut too.
  static var maximumWarningLength: Int { 1_000 }

  /// How many of the fields that differ at a checkpoint a divergence names.
  static var maximumDifferences: Int { 20 }
}

/// The header's fields that do not depend on the feature's types.
private struct VersionProbe: Decodable {
  var kind: String
  var format: String
  var version: Int
}

/// The header's fields of this version, read without the initial state.
private struct HeaderProbe: Decodable {
  var feature: String
  var schema: String
  // Optional here, so that its absence is reported by name.
  var checkpointInterval: Int?
}

/// What kind of line a line is, read without its action.
private struct LineProbe: Decodable {
  var kind: String
  var seq: Int?
}
