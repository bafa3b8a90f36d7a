#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The local path a file URL names, or `nil` for a URL of another scheme.
func localPath(of url: URL) -> String? {
  url.isFileURL ? url.path : nil
}

extension Store where State: Codable, Action: Codable {
  /// Starts recording every action this store processes to a log at the file URL `url`.
  ///
  /// The same as ``recordActions(to:feature:schemaVersion:checkpointInterval:time:)-(String,_,_,_,_)``
  /// with `url`'s path, for a log whose place comes from `FileManager` or a document picker:
  ///
  /// ```swift
  /// let logs = FileManager.default.temporaryDirectory
  /// let recorder = try store.recordActions(
  ///   to: logs.appendingPathComponent("session.jsonl"), feature: "App")
  /// ```
  ///
  /// - Parameters:
  ///   - url: Where to create the log: a file URL (`file://`), whose path is written as the
  ///     path form says.
  ///   - feature: The root feature's name, written in the header and checked on replay.
  ///   - schemaVersion: Mixed into the schema fingerprint: change it when the action types
  ///     change shape.
  ///   - checkpointInterval: How many actions pass between checkpoints; at least 1.
  ///   - time: The time of each action, in seconds; by default since recording started.
  /// - Returns: The recorder. Keep it, and call ``ActionLogRecorder/finish()`` at the end.
  /// - Throws: ``ActionLogError/cannotWrite(path:reason:)`` naming the URL if it is not a file
  ///   URL (nothing is written anywhere); otherwise what the path form throws.
  public func recordActions(
    to url: URL,
    feature: String,
    schemaVersion: String = "1",
    checkpointInterval: Int = 100,
    time: (() -> Double)? = nil
  ) throws(ActionLogError) -> ActionLogRecorder<State, Action> {
    guard let path = localPath(of: url) else {
      throw .cannotWrite(
        path: url.absoluteString,
        reason: notAFileURL(url))
    }
    return try recordActions(
      to: path,
      feature: feature,
      schemaVersion: schemaVersion,
      checkpointInterval: checkpointInterval,
      time: time
    )
  }
}

extension Store {
  /// Recording needs a `Codable` state and action: this stands in for
  /// `recordActions(to:feature:schemaVersion:checkpointInterval:time:)` with a URL when they
  /// are not, so that the compiler says so.
  ///
  /// - Parameters:
  ///   - url: Where to create the log.
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
    to url: URL,
    feature: String,
    schemaVersion: String = "1",
    checkpointInterval: Int = 100,
    time: (() -> Double)? = nil
  ) throws(ActionLogError) -> Never {
    fatalError("unavailable")
  }
}

extension ActionLogReplayer {
  /// Replays the log at the file URL `url`.
  ///
  /// The same as ``replay(path:until:step:)`` with `url`'s path.
  ///
  /// - Parameters:
  ///   - url: The log: a file URL (`file://`).
  ///   - until: The last sequence number to replay: the replay stops before the first action
  ///     after it, and the rest of the log is not read.
  ///   - step: Called after each action, in order. An error it throws stops the replay and
  ///     is thrown on as it is.
  /// - Returns: What the replay found.
  /// - Throws: ``ActionLogError/cannotRead(path:reason:)`` naming the URL if it is not a file
  ///   URL; otherwise what the path form throws.
  public func replay(
    url: URL,
    until: Int? = nil,
    step: (ReplayStep<R.State, R.Action>) throws -> Void = { _ in }
  ) throws -> ReplayReport<R.State> {
    guard let path = localPath(of: url) else {
      throw ActionLogError.cannotRead(
        path: url.absoluteString,
        reason: notAFileURL(url))
    }
    return try replay(path: path, until: until, step: step)
  }
}

/// Why `url` names no file, for an error's message.
private func notAFileURL(_ url: URL) -> String {
  let kind = url.scheme.map { "a `\($0)` URL" } ?? "a URL without a scheme"
  return """
    it is \(kind), and a log is a local file: give a file URL \
    (URL(fileURLWithPath:) makes one from a path)
    """
}
