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
/// append-only, created owner-only, and written a whole line at a time, so a crash loses at
/// most the line being written.
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
      // Leave no headless file behind: a replay would call it empty.
      file.delete()
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
  ///   - path: Where to create the log; an existing file is replaced.
  ///   - feature: The root feature's name, written in the header and checked on replay.
  ///   - schemaVersion: Mixed into the schema fingerprint: change it when the action types
  ///     change shape, since the fingerprint cannot see enum cases.
  ///   - checkpointInterval: How many actions pass between checkpoints; at least 1.
  ///   - time: The time of each action, in seconds; by default since recording started.
  /// - Returns: The recorder. Keep it, and call ``ActionLogRecorder/finish()`` at the end.
  /// - Throws: ``ActionLogError`` if this is a scoped store, `checkpointInterval` is below 1,
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
    root.recordAction = { [weak recorder] action, origin in
      recorder?.record(action, origin: origin)
    }
    return recorder
  }
}
