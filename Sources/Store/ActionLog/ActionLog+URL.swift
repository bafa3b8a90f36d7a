#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The local path the file URL `url` names. A URL that names none is refused with
/// `refusal(url, reason)`, the URL named without its user, password, query or fragment (which
/// may hold credentials or tokens): a URL of another scheme (or none), a file on another host
/// (`file://server/...`, whose path alone would name a file here), one written as a
/// directory's (a path ending in `/`, `.` or `..`), or no path at all (an escape that is not
/// UTF-8, such as `%FF`). A directory's URL written without those (`file:///tmp`) is left to
/// the path form, which refuses a directory naming its path.
///
/// The path is decoded as `FileManager` decodes it: `%20` is a space, but `%2F` and `%00` stay
/// as they are written, since a `/` or a NUL cannot be part of a file's name.
private func localPath(
  of url: URL, refusal: (_ url: String, _ reason: String) -> ActionLogError
) throws(ActionLogError) -> String {
  func refused(_ reason: String) -> ActionLogError {
    var named = URLComponents(url: url, resolvingAgainstBaseURL: true)
    named?.user = nil
    named?.password = nil
    named?.query = nil
    named?.fragment = nil
    return refusal(
      named?.string ?? url.scheme.map { "a URL with the `\($0)` scheme" } ?? "a URL", reason)
  }
  let fileURLHint = "(URL(fileURLWithPath:) makes one from a path)"
  guard url.isFileURL else {
    let kind = url.scheme.map { "a URL with the `\($0)` scheme" } ?? "a URL without a scheme"
    throw refused("it is \(kind), and a log is a local file: give a file URL \(fileURLHint)")
  }
  if let host = url.host(percentEncoded: false), !host.isEmpty,
    host.lowercased() != "localhost"
  {
    throw refused(
      """
      it names a file on the host \(host), and a log is a local file: give a file URL \
      without a host \(fileURLHint)
      """)
  }
  guard !url.hasDirectoryPath else { throw refused("it names a directory, and a log is a file") }
  let path = url.path
  guard !path.isEmpty else {
    throw refused("its path does not decode to a file's path (an escape that is not UTF-8?)")
  }
  return path
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
  ///   - url: Where to create the log: a file URL (`file://`) of this machine, naming a file,
  ///     not a directory. What happens to a file already there, or one another recorder
  ///     writes, is as for the path form's `path`.
  ///   - feature: The root feature's name, written in the header and checked on replay.
  ///   - schemaVersion: Mixed into the schema fingerprint: change it when the action types
  ///     change shape.
  ///   - checkpointInterval: How many actions pass between checkpoints; at least 1.
  ///   - time: The time of each action, in seconds; by default since recording started.
  /// - Returns: The recorder. Keep it, and call ``ActionLogRecorder/finish()`` at the end.
  /// - Throws: ``ActionLogError/cannotWrite(path:reason:)`` naming the URL (without its user,
  ///   password, query or fragment) if it is not a file URL, names a file on another host, is
  ///   written as a directory's (its path ending in `/`, `.` or `..`), or has no path: nothing
  ///   is written anywhere then. Otherwise what the path form throws, naming the path (for a
  ///   directory's URL written without a trailing `/`, that the path is a directory).
  public func recordActions(
    to url: URL,
    feature: String,
    schemaVersion: String = "1",
    checkpointInterval: Int = 100,
    time: (() -> Double)? = nil
  ) throws(ActionLogError) -> ActionLogRecorder<State, Action> {
    try recordActions(
      to: localPath(of: url, refusal: ActionLogError.cannotWrite),
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
  /// The same as ``replay(path:until:step:)`` with `url`'s path. (Recording overloads
  /// `recordActions(to:)` by type, where the label reads as a place; replaying keeps the
  /// label that says what is given, as `replay(path:)` does.)
  ///
  /// - Parameters:
  ///   - url: The log: a file URL (`file://`) of this machine.
  ///   - until: The last sequence number to replay: the replay stops before the first action
  ///     after it (its checkpoints are still checked), and the rest of the log is not read.
  ///   - step: Called after each action, in order. An error it throws stops the replay and
  ///     is thrown on as it is.
  /// - Returns: What the replay found.
  /// - Throws: ``ActionLogError/cannotRead(path:reason:)`` naming the URL (without its user,
  ///   password, query or fragment) if it is not a file URL, names a file on another host, is
  ///   written as a directory's (its path ending in `/`, `.` or `..`), or has no path.
  ///   Otherwise what the path form throws, naming the path (for a directory's URL written
  ///   without a trailing `/`, that the path is a directory).
  public func replay(
    url: URL,
    until: Int? = nil,
    step: (ReplayStep<R.State, R.Action>) throws -> Void = { _ in }
  ) throws -> ReplayReport<R.State> {
    try replay(
      path: localPath(of: url, refusal: ActionLogError.cannotRead), until: until, step: step)
  }
}
