import Effects

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Writes every action a store processes to a JSON Lines log, as it happens.
///
/// Start one with ``Store/recordActions(to:feature:schemaVersion:checkpointInterval:time:)-(String,_,_,_,_)``.
/// Each action is written just before it is reduced, in order, with its origin (so an action
/// that crashes the reducer is the log's last line); a checkpoint (a digest of the state, and
/// the state itself) follows every `checkpointInterval` actions, once the last of them is
/// reduced, and ``finish()`` writes the last one. The file is
/// append-only and written a whole line at a time, so a crash loses at most the line being
/// written. A new file is created owner-only; an existing one is truncated and keeps its mode.
///
/// No line is longer than ``ActionLogFormat/maximumLineLength``: a checkpoint of a state that
/// large keeps only its digest.
///
/// ## When recording stops
///
/// An action or a state that cannot be written stops the recording: one that does not encode
/// (a `Double` that is NaN or infinite has no JSON form), or encodes as text that is not
/// JSON (a `Decimal` that is NaN, which `JSONEncoder` writes as a bare `NaN`), an action
/// whose line would be longer than the limit, or a write that fails (a full disk). Then the
/// recorder:
///
/// - reports a runtime warning at once, naming the action's sequence number and value, the
///   place in it that could not be written, and what to do;
/// - writes a last line marking the recording as stopped, with the same reason, so that a
///   replay says "the recording stopped after action N: …" rather than calling the log cut
///   short (if the file cannot be written at all, this line is lost too);
/// - records nothing more: the action that failed and every later one are not written, and
///   ``actionCount`` counts only the actions that were. ``error`` holds the reason, and
///   ``finish()`` throws it (a final checkpoint that cannot be written is thrown by
///   ``finish()`` itself, with no warning);
/// - lets go of its store and its file: a new recording can start on the store, to the same
///   path too, before ``finish()`` is called on this one, which still throws the error.
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
  /// The store's state now; `nil` once the store is gone (the recorder does not keep it, or
  /// its effects, alive).
  private let readState: @MainActor () -> State?
  private var sequence = 0
  /// The action recorded last, while the checkpoint due after it is not written yet.
  private var checkpointAction: Action?
  /// The last checkpoint written: the action it follows, and its digest.
  private var lastCheckpoint: (sequence: Int, digest: String)?
  /// The longest line to write: ``ActionLogFormat/maximumLineLength``, lowered by tests.
  var lineLimit = ActionLogFormat.maximumLineLength
  private var isFinished = false
  /// Whether the log ends with the line marking the recording as stopped.
  private var isStopMarked = false
  /// What the store knows of this recording, which outlives the recorder.
  let link: RecordingLink
  /// Where to report that the recording stopped.
  private let warnings: RuntimeWarningHandler
  /// The error that stopped the recording, if any: no action after it is written.
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
    warnings: RuntimeWarningHandler,
    readState: @escaping @MainActor () -> State?
  ) throws(ActionLogError) {
    guard checkpointInterval > 0 else {
      throw .cannotWrite(
        path: path, reason: "checkpointInterval must be at least 1, not \(checkpointInterval)")
    }
    let header = ActionLogHeader(
      format: ActionLogFormat.name,
      version: ActionLogFormat.version,
      feature: feature,
      schema: schema,
      checkpointInterval: checkpointInterval,
      initialState: initialState
    )
    // Encoded and checked before the file is opened, which truncates it: a header that cannot
    // be written (a NaN in the initial state, a state too long for one line) leaves the file
    // that was there, the last session's log, as it was.
    let headerBytes: Data
    do throws(LineFailure) {
      headerBytes = try Self.encode(header, with: encoder)
      try Self.checkLength(of: headerBytes, limit: ActionLogFormat.maximumLineLength)
    } catch {
      throw .cannotWrite(path: path, reason: "the header could not be written: \(error.reason)")
    }
    // Read back as a replay reads it: a state its own decoder refuses (a value the app built
    // that its `init(from:)` does not take back) makes a log no replay can start.
    do {
      _ = try JSONDecoder().decode(ActionLogHeader<State>.self, from: headerBytes)
    } catch {
      let reason = ActionLogReplayer<UnreadHeader<State, Action>>.explain(error, in: headerBytes) {
        _ = try JSONDecoder().decode(ActionLogHeader<State>.self, from: $0)
      }
      throw .cannotWrite(
        path: path,
        reason: """
          the initial state does not decode from the header written for it, so no replay \
          could read the log: \(reason)
          """)
    }
    file = try LogFile(creating: path)
    link = RecordingLink(path: path)
    self.checkpointInterval = checkpointInterval
    self.time = time
    self.warnings = warnings
    self.readState = readState
    do {
      try write(bytes: headerBytes)
    } catch {
      // Leave no headless file behind (a replay would call it empty), unless it was there
      // before: a device such as /dev/full, or a file someone else made, is not the log's.
      file.deleteIfCreated()
      throw .cannotWrite(path: path, reason: "the header could not be written: \(error.reason)")
    }
  }

  /// Records one action about to be reduced; called by the store, which then calls
  /// ``writeDueCheckpoint()`` once the action is reduced, when this returns `true`.
  ///
  /// Written before the reducer runs, so that an action that crashes it is the log's last
  /// line, and its replay crashes the same way.
  ///
  /// - Parameter elementMayBeGone: Whether the action was sent knowing that the element it
  ///   is for may be gone, so that the store reports no missing element for it: the line
  ///   says so, and a replay does not report one either.
  /// - Returns: Whether a checkpoint is due after this action.
  func record(_ action: Action, origin: ActionOrigin, elementMayBeGone: Bool = false) -> Bool {
    guard !isFinished, error == nil else { return false }
    let next = sequence + 1
    do throws(LineFailure) {
      let now = time()
      // Named as the time closure's doing: the action is not to blame.
      guard now.isFinite else { throw LineFailure.unwritableTime(now) }
      try write(
        ActionLine(
          seq: next, time: now, origin: origin, action: action,
          elementMayBeGone: elementMayBeGone ? true : nil))
    } catch {
      stop(because: "action \(next), \(Self.describe(action)), could not be written", error)
      return false
    }
    sequence = next
    guard sequence % checkpointInterval == 0 else { return false }
    checkpointAction = action
    return true
  }

  /// Writes the checkpoint due after the action just reduced; called by the store.
  func writeDueCheckpoint() {
    guard !isFinished, error == nil, let action = checkpointAction else { return }
    checkpointAction = nil
    do {
      try writeCheckpoint(isFinal: false)
    } catch {
      stop(
        because: """
          the checkpoint after action \(sequence), \(Self.describe(action)), could not be \
          written
          """, error)
    }
  }

  /// Writes the final checkpoint and stops recording.
  ///
  /// Call it while the store lives: the final checkpoint holds the store's state. The
  /// recorder does not keep the store alive; once the store is gone, the log ends with a
  /// line saying the store was released, and this throws. (Unless the last action's periodic
  /// checkpoint was the last line written: the final checkpoint then repeats its digest, which
  /// needs no state, and the log ends whole.)
  ///
  /// Calling it again does nothing more, and throws the same error, if any.
  ///
  /// - Throws: The error that stopped the recording earlier, or the one met writing the
  ///   final checkpoint (the log then ends with a line saying so), or
  ///   ``ActionLogError/cannotWrite(path:reason:)`` when the file was removed or replaced
  ///   while it was being written: what was recorded went to a file that the path no
  ///   longer names.
  public func finish() throws(ActionLogError) {
    guard !isFinished else {
      if let error { throw error }
      return
    }
    isFinished = true
    link.isFinished = true
    // Nothing is written after this call: another recorder may take the file.
    defer { file.release() }
    if let error { throw error }
    do {
      if let last = lastCheckpoint, last.sequence == sequence {
        // The checkpoint of the last action was just written, state and all: the final one
        // repeats only its digest (the state has not changed since, as no action came).
        try write(CheckpointLine(seq: sequence, digest: last.digest, final: true))
      } else {
        try writeCheckpoint(isFinal: true)
      }
    } catch {
      // Thrown to the caller, who asked: no runtime warning.
      throw stop(
        because: "the final checkpoint, after action \(sequence), could not be written", error,
        warns: false)
    }
    if let reason = file.goneReason() {
      let error = ActionLogError.cannotWrite(
        path: file.path,
        reason: """
          \(reason) while it was being written: the \(sequence) action(s) recorded and the \
          final checkpoint went to a file that this path no longer names. Record to a path \
          that nothing else removes or replaces until finish()
          """)
      self.error = error
      throw error
    }
  }

  /// Ends the recording of a session that failed (a script that threw): writes a checkpoint
  /// of the state now, unless the last action's was just written, so that a replay verifies
  /// every action recorded; then, in place of the final checkpoint, a line marking the
  /// recording as stopped, with `reason`, so that a replay says "the recording stopped after
  /// action N: …" rather than calling the log cut short, or whole. Reports no runtime
  /// warning: the caller reports the failure. Nothing is written after it; ``error`` holds
  /// the stop, and ``finish()`` throws it.
  ///
  /// - Parameter reason: Why the session failed, such as `the scripted session failed: …`.
  /// - Returns: `nil` when the log ends so; otherwise why not: the error that stopped the
  ///   recording before, the one met writing these lines, or that ``finish()`` was called.
  package func stop(because reason: String) -> ActionLogError? {
    defer {
      isFinished = true
      link.isFinished = true
      file.release()
    }
    guard !isFinished, error == nil else {
      return error ?? .cannotWrite(path: file.path, reason: "the recording had finished")
    }
    do throws(LineFailure) {
      if sequence > 0, lastCheckpoint?.sequence != sequence { try writeCheckpoint(isFinal: false) }
    } catch {
      return stop(
        because: "the checkpoint after action \(sequence) could not be written", error,
        warns: false)
    }
    let stopped = stop(because: reason, nil, warns: false)
    return isStopMarked ? nil : stopped
  }

  /// Stops recording: marks the log as stopped with the reason, keeps the error, and reports
  /// it as a runtime warning (unless `warns` is false).
  ///
  /// - Parameters:
  ///   - what: What could not be written, such as `action 3, Tally.Action.add(1), could not be written`.
  ///   - failure: Why, when `what` does not say.
  ///   - warns: Whether to report a runtime warning.
  /// - Returns: The error, also kept in ``error``.
  @discardableResult
  private func stop(because what: String, _ failure: LineFailure?, warns: Bool = true)
    -> ActionLogError
  {
    // Bounded, so that the line saying so fits in any line limit.
    let reason = Self.cut(failure.map { "\(what): \($0.reason)" } ?? what, to: 2000)
    let isMarked = (try? write(StopLine(seq: sequence, reason: reason))) != nil
    isStopMarked = isMarked
    let error = ActionLogError.cannotWrite(
      path: file.path, reason: "recording stopped after action \(sequence): \(reason)")
    self.error = error
    // Nothing more is written: the store may start another recording, to this file too.
    link.isStopped = true
    file.release()
    guard warns else { return error }
    let held = sequence == 0 ? "The log holds no action" : "The log holds actions 1 to \(sequence)"
    warnings(
      RuntimeWarning(
        message: """
          The ActionLogRecorder writing \(file.path) stopped recording: \(reason). \(held) \
          and no later one; \(isMarked
            ? "it ends with a line saying why"
            : "the line saying why could not be written either, so it just ends"), and \
          finish() throws this error.
          """,
        fileID: "Store", line: 0))
    return error
  }

  /// An action as messages name it, shortened: an action too large for a line is too
  /// large for a message.
  fileprivate static func describe(_ action: Action) -> String {
    cut(Effects.describe(action), to: 200)
  }

  /// `text`, or at most its first `limit - 1` Unicode scalars and an ellipsis if it has more
  /// than `limit`. Counted in scalars, not characters: one character can hold any number of
  /// them (a letter under four million combining accents is one character of 8 MiB).
  ///
  /// The cut falls between characters, not inside one (a letter and the accent on it), unless
  /// the text's first character is longer than the limit, and before an escape it would split
  /// (`\u{20` of `\u{200B}`, the backslash of `\"`), which would read as another character,
  /// or as none.
  static func cut(_ text: String, to limit: Int) -> String {
    let scalars = text.unicodeScalars
    guard
      let end = scalars.index(scalars.startIndex, offsetBy: limit - 1, limitedBy: scalars.endIndex),
      scalars.index(end, offsetBy: 2, limitedBy: scalars.endIndex) != nil
    else { return text }
    // Whether a character goes on past the cut is told by the scalar after it: it does if
    // the last character of the text up to that scalar begins before it.
    let window = String(scalars[...end])
    let last = window.index(before: window.endIndex)
    let goesOn = window.unicodeScalars.index(after: last) != window.endIndex
    var head =
      goesOn && last > window.startIndex
      ? String(window[..<last]) : String(window.unicodeScalars.dropLast())
    EscapedText.dropPartialEscape(from: &head)
    return head + "…"
  }

  private func writeCheckpoint(isFinal: Bool) throws(LineFailure) {
    guard let state = readState() else {
      throw LineFailure(
        reason: """
          the store was released before it, so its state is gone: keep the store until the \
          recorder finishes
          """)
    }
    let json: Data
    do {
      json = try encoder.encode(state)
    } catch {
      throw .unencodable(error, encoding: state, at: "state")
    }
    if let offset = NonJSONToken.firstOffset(in: json) {
      throw .notJSON(json, at: offset, prefix: "state")
    }
    let canonical = CanonicalJSON.canonical(json, of: state, encoder: encoder)
    let digest = StateDigest.of(canonical)
    var bytes = try encode(
      CheckpointLine(seq: sequence, digest: digest, final: isFinal ? true : nil))
    // The state goes in as the canonical bytes the digest was taken of, so that the line
    // shows sets and dictionaries in the order the digest sees them, not in their iteration
    // order, and is not encoded twice. `state` sorts after every other key: it goes last.
    // A state too large for one line is left out: the digest alone still verifies the replay
    // (only the list of differing fields is lost).
    let field = Data(#","state":"#.utf8)
    if bytes.count + field.count + canonical.count <= lineLimit {
      bytes.removeLast()  // the closing brace
      bytes += field
      bytes += canonical
      bytes.append(UInt8(ascii: "}"))
    }
    try write(bytes: bytes)
    lastCheckpoint = (sequence, digest)
  }

  private func write(_ line: some Encodable) throws(LineFailure) {
    try write(bytes: try encode(line))
  }

  private func encode(_ line: some Encodable) throws(LineFailure) -> Data {
    try Self.encode(line, with: encoder)
  }

  /// `line`, encoded by `encoder`, refused if it is not JSON.
  private static func encode(_ line: some Encodable, with encoder: JSONEncoder)
    throws(LineFailure) -> Data
  {
    let bytes: Data
    do {
      bytes = try encoder.encode(line)
    } catch {
      throw .unencodable(error, encoding: line)
    }
    // What JSONEncoder writes but no reader takes (a Decimal NaN) would make the log
    // unreadable from this line on: refused like a Double NaN, which JSONEncoder refuses.
    if let offset = NonJSONToken.firstOffset(in: bytes) {
      throw .notJSON(bytes, at: offset)
    }
    return bytes
  }

  /// Refuses a line of `bytes` longer than `limit`.
  private static func checkLength(of bytes: Data, limit: Int) throws(LineFailure) {
    guard bytes.count <= limit else {
      throw .tooLong(bytes: bytes.count, limit: limit)
    }
  }

  private func write(bytes: Data) throws(LineFailure) {
    try Self.checkLength(of: bytes, limit: lineLimit)
    do {
      try file.write(line: Array(bytes))
    } catch {
      guard case .cannotWrite(_, let reason) = error else {
        throw LineFailure(reason: "writing its line failed: \(error)")
      }
      throw LineFailure(reason: "writing its line failed: \(reason)")
    }
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
  ///     be written. A header that cannot be encoded (a NaN in the initial state), is too
  ///     long for one line, or whose initial state does not decode back is found before the
  ///     file is opened: the file is then left as it was. A file another recorder in this
  ///     process is writing (by any path), or
  ///     that a recorder in another process holds locked (`flock(2)`), is refused, untouched,
  ///     until that recorder finishes or goes away. A named pipe (FIFO) is written once a
  ///     process reads it: one that no process reads is refused at once, rather than waited
  ///     on.
  ///   - feature: The root feature's name, written in the header and checked on replay.
  ///   - schemaVersion: Mixed into the schema fingerprint: change it when the action types
  ///     change shape, since the fingerprint cannot see inside enums or collections.
  ///   - checkpointInterval: How many actions pass between checkpoints; at least 1. A
  ///     checkpoint encodes the whole state, canonicalizes and digests it, on the main actor,
  ///     during the action it follows: 6 to 9 us per row of a list (a performance trial:
  ///     11 ms for a state of 1,000 rows, 86 ms for 10,000, 0.64 s for 100,000). For a large
  ///     state, pass a larger interval; the actions between checkpoints cost what the state's
  ///     size does not change.
  ///   - time: The time of each action, in seconds; by default since recording started.
  /// - Returns: The recorder. Keep it, and call ``ActionLogRecorder/finish()`` at the end: a
  ///   recorder released before `finish()` stops recording, and the next action the store
  ///   processes reports a runtime warning saying so.
  /// - Throws: ``ActionLogError`` if this is a scoped store, the store already records to
  ///   another log (finish that recorder first; one that stopped on an error no longer
  ///   counts), another recorder writes this file, `checkpointInterval` is below 1,
  ///   the initial state cannot be encoded as JSON (nor can a `Decimal` that is NaN), its
  ///   line is too long, or it does not decode back (its `init(from:)` refuses a value the
  ///   app built, so no replay could start), or the file cannot be written.
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
      warnings: root.runtime.warnings,
      // Weakly: a recorder kept after its store (to show the log's path, say) kept the store's
      // root, its state and its running effects alive (leak adversary trial).
      readState: { [weak root] in root?.untrackedState }
    )
    let link = recorder.link
    link.recorder = recorder
    root.recording = link
    let warnings = root.runtime.warnings
    root.recordCheckpoint = { [weak recorder] in recorder?.writeDueCheckpoint() }
    root.recordAction = { [weak recorder, weak root] action, origin in
      if let recorder {
        // Asked as the action is about to be reduced: whether it was sent knowing that its
        // element may be gone (a row's end leaving a filtered view).
        return recorder.record(
          action, origin: origin,
          elementMayBeGone: root?.runtime.quietsMissingChild?() == true)
      } else if !link.isFinished, !link.isStopped, !link.reportedRelease {
        // A recorder that stopped was warned of then; its release is not news.
        link.reportedRelease = true
        warnings(
          RuntimeWarning(
            message: """
              The ActionLogRecorder writing \(link.path) was released before its finish(): \
              \(ActionLogRecorder<State, Action>.describe(action)) and the actions after it are \
              not recorded, and the log has \
              no final checkpoint. Keep the recorder while recording, and call finish() at \
              the end.
              """,
            fileID: "Store", line: 0))
      }
      return false
    }
    return recorder
  }
}

/// A reducer that is never run: the type that names the replay's decoding messages for a
/// header the recorder reads back.
private struct UnreadHeader<State: Codable, Action: Codable & Sendable>: Reducer {
  func reduce(into state: inout State, action: Action) -> Effect<Action> { .none }
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
  /// Whether the recorder stopped on an error: it writes nothing more, finished or not.
  var isStopped = false
  /// Whether the store has warned that the recorder was released before finishing.
  var reportedRelease = false

  init(path: String) {
    self.path = path
  }

  /// Whether actions still go to this recording.
  var isRecording: Bool { !isFinished && !isStopped && recorder != nil }
}

extension Store {
  /// Recording needs a `Codable` state and action: this stands in for
  /// `recordActions(to:feature:schemaVersion:checkpointInterval:time:)` when they are not, so
  /// that the compiler says so, rather than that the store has no member of that name (the
  /// store's dynamic member lookup hid the missing conformance).
  ///
  /// - Parameters:
  ///   - path: Where to create the log.
  ///   - feature: The root feature's name.
  ///   - schemaVersion: Mixed into the schema fingerprint.
  ///   - checkpointInterval: How many actions pass between checkpoints.
  ///   - time: The time of each action, in seconds.
  @available(
    *, unavailable,
    message: """
      recording actions needs a Codable state and action: make the feature's State and Action, \
      and every type they hold, Codable
      """
  )
  public func recordActions(
    to path: String,
    feature: String,
    schemaVersion: String = "1",
    checkpointInterval: Int = 100,
    time: (() -> Double)? = nil
  ) throws(ActionLogError) -> Never {
    fatalError("unavailable")
  }
}
