import Effects

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Writes every action a store processes to a JSON Lines log, as it happens.
///
/// No line is longer than ``ActionLogFormat/maximumLineLength``: a checkpoint of a state that
/// large keeps only its digest, and an action or initial state that large stops the
/// recording with an error.
///
/// Start one with ``Store/recordActions(to:feature:schemaVersion:checkpointInterval:time:)``.
/// Each action is written as soon as it has been reduced, in order, with its origin; a
/// checkpoint (a digest of the state, and the state itself) follows every
/// `checkpointInterval` actions, and ``finish()`` writes the last one. The file is
/// append-only and written a whole line at a time, so a crash loses at most the line being
/// written. A new file is created owner-only; an existing one is truncated and keeps its mode.
///
/// A store feeds one recorder at a time, and holds it weakly: keep the recorder for as long
/// as the recording lasts. Released before ``finish()``, it stops recording, and the store
/// reports a runtime warning at the next action.
///
/// Secrets never reach the log: wrap them in ``Secret`` in state and actions.
@MainActor
public final class ActionLogRecorder<State: Codable, Action: Codable & Sendable> {
  private let file: LogFile
  private let encoder = makeLogEncoder()
  private let checkpointInterval: Int
  private let time: () -> Double
  private let readState: @MainActor () -> State
  private var sequence = 0
  /// The longest line to write: ``ActionLogFormat/maximumLineLength``, lowered by tests.
  var lineLimit = ActionLogFormat.maximumLineLength
  private var isFinished = false
  /// What the store knows of this recording, which outlives the recorder.
  let link: RecordingLink
  /// The first error met while writing, if any; recording stops at it.
  public private(set) var error: ActionLogError?

  /// The path of the log.
  public var path: String { file.path }
  /// How many actions have been written.
  public var actionCount: Int { sequence }

  init(
    path: String,
    feature: String,
    schema: String,
    initialState: State,
    checkpointInterval: Int,
    time: @escaping () -> Double,
    readState: @escaping @MainActor () -> State
  ) throws(ActionLogError) {
    guard checkpointInterval > 0 else {
      throw .cannotWrite(
        path: path, reason: "checkpointInterval must be at least 1, not \(checkpointInterval)")
    }
    file = try LogFile(creating: path)
    link = RecordingLink(path: path)
    self.checkpointInterval = checkpointInterval
    self.time = time
    self.readState = readState
    let header = ActionLogHeader(
      format: ActionLogFormat.name,
      version: ActionLogFormat.version,
      feature: feature,
      schema: schema,
      checkpointInterval: checkpointInterval,
      initialState: initialState
    )
    do {
      try write(header)
    } catch {
      // Leave no headless file behind (a replay would call it empty), unless it was there
      // before: a device such as /dev/full, or a file someone else made, is not the log's.
      file.deleteIfCreated()
      throw error
    }
  }

  /// Records one reduced action; called by the store.
  func record(_ action: Action, origin: ActionOrigin) {
    guard !isFinished, error == nil else { return }
    do {
      try write(ActionLine(seq: sequence + 1, time: time(), origin: origin, action: action))
      sequence += 1
      if sequence % checkpointInterval == 0 { try writeCheckpoint(isFinal: false) }
    } catch {
      self.error = error
    }
  }

  /// Writes the final checkpoint and stops recording.
  ///
  /// - Throws: The first error met while recording or now.
  public func finish() throws(ActionLogError) {
    guard !isFinished else { return }
    isFinished = true
    link.isFinished = true
    if let error { throw error }
    try writeCheckpoint(isFinal: true)
  }

  private func writeCheckpoint(isFinal: Bool) throws(ActionLogError) {
    let state = readState()
    let json: Data
    do {
      json = try encoder.encode(state)
    } catch {
      throw .cannotWrite(path: file.path, reason: "the state could not be encoded: \(error)")
    }
    var line = CheckpointLine(
      seq: sequence,
      digest: StateDigest.of(CanonicalJSON.canonical(json, of: state, encoder: encoder)),
      final: isFinal ? true : nil,
      state: Optional(state)
    )
    // A state too large for one line is left out: the digest alone still verifies the replay
    // (only the list of differing fields is lost). The state's own encoding, already made for
    // the digest, tells most of the time without encoding the line twice.
    if json.count >= lineLimit { line.state = nil }
    var bytes = try encode(line)
    if bytes.count > lineLimit, line.state != nil {
      line.state = nil
      bytes = try encode(line)
    }
    try write(bytes: bytes)
  }

  private func write(_ line: some Encodable) throws(ActionLogError) {
    try write(bytes: try encode(line))
  }

  private func encode(_ line: some Encodable) throws(ActionLogError) -> Data {
    do {
      return try encoder.encode(line)
    } catch {
      throw .cannotWrite(path: file.path, reason: "a line could not be encoded: \(error)")
    }
  }

  private func write(bytes: Data) throws(ActionLogError) {
    guard bytes.count <= lineLimit else {
      throw .cannotWrite(
        path: file.path,
        reason: """
          a line of \(bytes.count) bytes is longer than the \(lineLimit) a replay reads
          """
      )
    }
    try file.write(line: Array(bytes))
  }
}

extension Store where State: Codable, Action: Codable {
  /// Starts recording every action this store processes to a log at `path`.
  ///
  /// Call it on a root store (the one created with a reducer), before sending the actions to
  /// record; its current state becomes the log's initial state.
  ///
  /// ```swift
  /// let recorder = try store.recordActions(to: "session.jsonl", feature: "App")
  /// // ... the session ...
  /// try recorder.finish()
  /// ```
  ///
  /// - Parameters:
  ///   - path: Where to create the log, owner-only. An existing file is truncated and
  ///     written in place, keeping its mode; it is never deleted, even if the header cannot
  ///     be written.
  ///   - feature: The root feature's name, written in the header and checked on replay.
  ///   - schemaVersion: Mixed into the schema fingerprint: change it when the action types
  ///     change shape, since the fingerprint cannot see enum cases.
  ///   - checkpointInterval: How many actions pass between checkpoints; at least 1.
  ///   - time: The time of each action, in seconds; by default since recording started.
  /// - Returns: The recorder. Keep it, and call ``ActionLogRecorder/finish()`` at the end: a
  ///   recorder released before `finish()` stops recording, and the next action the store
  ///   processes reports a runtime warning saying so.
  /// - Throws: ``ActionLogError`` if this is a scoped store, the store already records to
  ///   another log (finish that recorder first), `checkpointInterval` is below 1,
  ///   the initial state cannot be encoded or its line is too long, or the file cannot be
  ///   written.
  public func recordActions(
    to path: String,
    feature: String,
    schemaVersion: String = "1",
    checkpointInterval: Int = 100,
    time: (() -> Double)? = nil
  ) throws(ActionLogError) -> ActionLogRecorder<State, Action> {
    guard let root = core as? any RootStoreCore<State, Action> else {
      throw .cannotWrite(path: path, reason: "only a root store can record its actions")
    }
    // One recorder at a time: a second would take the actions from the first, whose log
    // would end without them.
    if let previous = root.recording as? RecordingLink, previous.isRecording {
      throw .cannotWrite(
        path: path,
        reason: """
          this store already records its actions to \(previous.path); call finish() on that \
          recorder first
          """)
    }
    let started = ContinuousClock.now
    let recorder = try ActionLogRecorder<State, Action>(
      path: path,
      feature: feature,
      schema: SchemaFingerprint.of(
        state: root.untrackedState,
        action: Action.self,
        version: schemaVersion
      ),
      initialState: root.untrackedState,
      checkpointInterval: checkpointInterval,
      time: time ?? {
        let elapsed = started.duration(to: .now).components
        return Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
      },
      readState: { root.untrackedState }
    )
    let link = recorder.link
    link.recorder = recorder
    root.recording = link
    let warnings = root.runtime.warnings
    root.recordAction = { [weak recorder] action, origin in
      if let recorder {
        recorder.record(action, origin: origin)
      } else if !link.isFinished, !link.reportedRelease {
        link.reportedRelease = true
        warnings(
          RuntimeWarning(
            message: """
              The ActionLogRecorder writing \(link.path) was released before its finish(): \
              \(describe(action)) and the actions after it are not recorded, and the log has \
              no final checkpoint. Keep the recorder while recording, and call finish() at \
              the end.
              """,
            fileID: "Store", line: 0))
      }
    }
    return recorder
  }
}

/// What a store knows of the recording it feeds: where it goes, and whether it is over. It
/// outlives the recorder, which the store holds weakly, so that the store can tell a recorder
/// that finished from one released too early.
@MainActor
final class RecordingLink {
  /// The log's path.
  let path: String
  /// The recorder, while someone holds it.
  weak var recorder: AnyObject?
  /// Whether the recorder finished.
  var isFinished = false
  /// Whether the store has warned that the recorder was released before finishing.
  var reportedRelease = false

  init(path: String) {
    self.path = path
  }

  /// Whether actions still go to this recording.
  var isRecording: Bool { !isFinished && recorder != nil }
}
