/// Why recording or replaying an action log failed. Each case names where and what.
public enum ActionLogError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The log file could not be created or written. `path` is the path given (for a file URL,
  /// the path it names), or the URL given when it names no local file (without its user,
  /// password, query or fragment).
  case cannotWrite(path: String, reason: String)
  /// The log file could not be opened. `path` is the path given (for a file URL, the path it
  /// names), or the URL given when it names no local file (without its user, password, query
  /// or fragment).
  case cannotRead(path: String, reason: String)
  /// The file holds no header: no line at all, or only blank lines.
  case empty
  /// The first line is not a valid header.
  case badHeader(line: Int, reason: String)
  /// The header's format version is not one this library reads. `line` is the header's
  /// line: the first that is not blank.
  case unsupportedVersion(line: Int, found: Int, supported: Int)
  /// The log was recorded for another feature, as the header on `line` says.
  case featureMismatch(line: Int, log: String, expected: String)
  /// The log was recorded against types of another shape, as the header on `line` says.
  case schemaMismatch(line: Int, log: String, current: String)
  /// A line is not valid JSON, or not a valid log line.
  case malformedLine(line: Int, reason: String)
  /// A line is longer than `limit` (``ActionLogFormat/maximumLineLength``). The reader stops
  /// as soon as the limit is passed, so the line's full length is not known.
  case lineTooLong(line: Int, limit: Int)
  /// A sequence number is not the one expected: an action's must be one more than the last
  /// action's, a checkpoint's the same as the last action's.
  case sequenceOutOfOrder(line: Int, found: Int, expected: Int)
  /// A checkpoint does not match the replayed state.
  ///
  /// `differences` says how: what differs between the checkpoint's state and the replayed
  /// one, the actions since the last matching checkpoint that do not decode to what was
  /// recorded (a value that does not round-trip through its `Codable` conformance, such as
  /// `.some(nil)` of an `Int??`), and which actions were replayed since that checkpoint.
  /// `warnings` holds what the replay noted before it diverged, as
  /// ``ReplayReport/warnings`` would have (an action for a child that was not there, say),
  /// which often explains the divergence.
  case diverged(sequence: Int, line: Int, differences: [String], warnings: [String])

  /// The error, naming the line and the problem.
  ///
  /// Text from the log is escaped as in a Swift string literal (`\u{1B}`, `\n`): the values
  /// a reason quotes are escaped where it quotes them, and whatever else a reason holds, such
  /// as a `Codable` conformance's own error naming a value, is escaped here, so that a log
  /// cannot send escape sequences to a terminal or start a line of the message.
  public var description: String {
    switch self {
    // The path quoted whole: an empty one, or one with spaces or a colon, reads plainly.
    case .cannotWrite(let path, let reason):
      "Cannot write the log at \(LogText.quoted(path, limit: .max)): \(LogText.escaped(reason))."
    case .cannotRead(let path, let reason):
      "Cannot read the log at \(LogText.quoted(path, limit: .max)): \(LogText.escaped(reason))."
    case .empty: "The log is empty: expected a header line."
    case .badHeader(let line, let reason):
      "Line \(line): not a valid log header: \(LogText.escaped(reason))"
    case .unsupportedVersion(let line, let found, let supported):
      "Line \(line): the log's format version is \(found); this reader supports version \(supported)."
    case .featureMismatch(let line, let log, let expected):
      """
      Line \(line): the log was recorded for feature \(LogText.quoted(log)), not \
      \(LogText.quoted(expected)).
      """
    case .schemaMismatch(let line, let log, let current):
      """
      Line \(line): the log's schema fingerprint \(LogText.quoted(log)) does not match the \
      current types' fingerprint \(LogText.quoted(current)): the state or action types changed \
      since it was recorded.
      """
    case .malformedLine(let line, let reason): "Line \(line): \(LogText.escaped(reason))"
    case .lineTooLong(let line, let limit):
      "Line \(line): longer than the limit of \(limit) bytes; the log was not read past it."
    case .sequenceOutOfOrder(let line, let found, let expected):
      "Line \(line): sequence number \(found) where \(expected) was expected."
    case .diverged(let sequence, let line, let differences, let warnings):
      """
      Line \(line): the replay diverged at checkpoint \(sequence):
      \(differences.map { "  \(LogText.escaped($0))" }.joined(separator: "\n"))
      """
        + (warnings.isEmpty
          ? ""
          : "\nWarnings before it:\n"
            + warnings.map { "  \(LogText.escaped($0))" }.joined(separator: "\n"))
    }
  }
}
