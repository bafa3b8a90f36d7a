import Effects
import Foundation
import Testing

@testable import Store

/// Recording to, and replaying from, a file URL: the place `FileManager` and document pickers
/// give. A URL that names no local file is refused, naming it, before anything is written.
@MainActor
@Suite struct ActionLogURLTests {
  let directory = TemporaryDirectory("action-log-url-tests")

  var replayer: ActionLogReplayer<Tally> { ActionLogReplayer(feature: "Tally") { Tally() } }

  /// The refusal to record `store`'s actions to `url`: the path it names, its reason and the
  /// error; `nil`, with an issue recorded, if recording was not refused with `cannotWrite`.
  func refusalToRecord(to url: URL, in store: StoreOf<Tally>) -> (
    path: String, reason: String, error: ActionLogError
  )? {
    let refusal = #expect(throws: ActionLogError.self) {
      try store.recordActions(to: url, feature: "Tally")
    }
    guard let refusal, case .cannotWrite(let path, let reason) = refusal else {
      Issue.record("expected cannotWrite, got \(String(describing: refusal))")
      return nil
    }
    return (path, reason, refusal)
  }

  /// A name with a space, which a file URL holds percent-encoded: the file is made at the
  /// path, not at the encoding.
  @Test func aLogRecordedToAFileURLReplaysFromIt() throws {
    let url = directory.appendingPathComponent("a session.jsonl")
    #expect(url.absoluteString.hasSuffix("a%20session.jsonl"))
    let store = Store(initialState: Tally.State()) { Tally() }
    let recorder = try store.recordActions(
      to: url, feature: "Tally", checkpointInterval: 2, time: { 0.5 })
    store.send(.add(3))
    store.send(.named("Ada"))
    store.send(.doubleTapped)
    try recorder.finish()

    #expect(recorder.path == directory.path("a session.jsonl"))
    #expect(FileManager.default.fileExists(atPath: directory.path("a session.jsonl")))
    let report = try replayer.replay(url: url)
    #expect(report.finalState == store.state)
    #expect(report.actionCount == 4)
    #expect(report.isComplete)
    // The same log read through its path reports the same.
    let byPath = try replayer.replay(path: url.path)
    #expect(byPath.finalState == report.finalState)
    #expect(byPath.checkpointsVerified == report.checkpointsVerified)
  }

  @Test func replayingFromAURLStopsWhereAsked() throws {
    let url = directory.appendingPathComponent("until.jsonl")
    let store = Store(initialState: Tally.State()) { Tally() }
    let recorder = try store.recordActions(to: url, feature: "Tally", time: { 0.5 })
    for amount in 1...5 { store.send(.add(amount)) }
    try recorder.finish()

    var steps: [Int] = []
    let report = try replayer.replay(url: url, until: 2) { steps.append($0.sequence) }
    #expect(steps == [1, 2])
    #expect(report.stoppedAfter == 2)
    #expect(report.finalState.count == 3)
  }

  /// A relative file URL is read against its base, as `FileManager` reads it.
  @Test func aRelativeFileURLRecordsBesideItsBase() throws {
    // The base is a directory's URL (ending in `/`): against a file's, the name would replace
    // the base's last component, as RFC 3986 resolves it.
    let base = URL(fileURLWithPath: directory.url.path, isDirectory: true)
    let url = URL(fileURLWithPath: "relative.jsonl", relativeTo: base)
    let store = Store(initialState: Tally.State()) { Tally() }
    let recorder = try store.recordActions(to: url, feature: "Tally")
    store.send(.add(2))
    try recorder.finish()
    #expect(recorder.path == directory.path("relative.jsonl"))
    #expect(try replayer.replay(url: url).finalState.count == 2)
  }

  @Test(arguments: [
    (
      "https://example.com/session.jsonl", "https://example.com/session.jsonl",
      "a URL with the `https` scheme"
    ),
    ("logs/session.jsonl", "logs/session.jsonl", "a URL without a scheme"),
    ("ftp://example.com/session.jsonl", "ftp://example.com/session.jsonl", "the `ftp` scheme"),
    (
      "https://ada:hunter2@example.com/session.jsonl?token=s3cret#top",
      "https://example.com/session.jsonl", "a URL with the `https` scheme"
    ),
    ("file://server/share/session.jsonl", "file://server/share/session.jsonl", "the host server"),
  ])
  func aURLThatNamesNoLocalFileIsRefusedNamingIt(address: String, named: String, problem: String)
    throws
  {
    let url = try #require(URL(string: address))
    let store = Store(initialState: Tally.State()) { Tally() }
    guard case let (path, reason, refusal)? = refusalToRecord(to: url, in: store) else { return }
    #expect(path == named)
    #expect(reason.contains(problem), "\(reason)")
    #expect(reason.contains("URL(fileURLWithPath:)"), "\(reason)")
    // Neither the password nor the token is said.
    #expect(!"\(refusal)".contains("hunter2") && !"\(refusal)".contains("s3cret"))

    // Nothing was started: the store records to a file URL at once.
    let file = directory.appendingPathComponent("after-refusal.jsonl")
    let recorder = try store.recordActions(to: file, feature: "Tally")
    store.send(.add(1))
    try recorder.finish()
    #expect(try replayer.replay(url: file).actionCount == 1)

    let unread = #expect(throws: ActionLogError.self) { try replayer.replay(url: url) }
    guard case .cannotRead(let readPath, let readReason) = unread else {
      Issue.record("expected cannotRead, got \(String(describing: unread))")
      return
    }
    #expect(readPath == named)
    #expect(readReason == reason)
  }

  /// `file:///…/log.jsonl/` asks for a directory: refused, where the path alone would have
  /// made the file `log.jsonl`; so is one ending in `/.`. An existing directory's URL written
  /// without a trailing `/` is refused by the path form, naming the directory's path.
  @Test func aFileURLNamingADirectoryIsRefused() throws {
    let url = URL(fileURLWithPath: directory.path("log.jsonl"), isDirectory: true)
    let reason = "it names a directory, and a log is a file"
    let store = Store(initialState: Tally.State()) { Tally() }
    #expect(throws: ActionLogError.cannotWrite(path: url.absoluteString, reason: reason)) {
      try store.recordActions(to: url, feature: "Tally")
    }
    #expect(!FileManager.default.fileExists(atPath: directory.path("log.jsonl")))
    #expect(throws: ActionLogError.cannotRead(path: url.absoluteString, reason: reason)) {
      try replayer.replay(url: url)
    }
    let dot = try #require(URL(string: directory.url.absoluteString + "/."))
    #expect(throws: ActionLogError.cannotWrite(path: dot.absoluteString, reason: reason)) {
      try store.recordActions(to: dot, feature: "Tally")
    }

    let bare = URL(filePath: directory.url.path, directoryHint: .notDirectory)
    #expect(!bare.hasDirectoryPath)
    let unwritten = #expect(throws: ActionLogError.self) {
      try store.recordActions(to: bare, feature: "Tally")
    }
    guard case .cannotWrite(let path, _) = unwritten else {
      Issue.record("expected cannotWrite, got \(String(describing: unwritten))")
      return
    }
    #expect(path == directory.url.path)
    let readReason = "it is a directory, not a log file"
    #expect(throws: ActionLogError.cannotRead(path: path, reason: readReason)) {
      try replayer.replay(url: bare)
    }
  }

  /// The path is decoded as `FileManager` decodes it: `%2F` names a file with `%2F` in its
  /// name, not a folder; and `localhost` is this machine, in any case.
  @Test(arguments: ["", "localhost", "LocalHost"])
  func aFileURLsPathIsTheOneFileManagerReads(host: String) throws {
    let address = "file://\(host)\(directory.url.path)/a%2Fb.jsonl"
    let url = try #require(URL(string: address))
    let store = Store(initialState: Tally.State()) { Tally() }
    let recorder = try store.recordActions(to: url, feature: "Tally")
    store.send(.add(5))
    try recorder.finish()
    #expect(recorder.path == directory.path("a%2Fb.jsonl"))
    #expect(FileManager.default.fileExists(atPath: url.path))
    #expect(!FileManager.default.fileExists(atPath: directory.path("a")))
    #expect(try replayer.replay(url: url).finalState.count == 5)
  }

  /// An escape that does not decode to UTF-8 leaves no path: refused, naming the URL.
  @Test func aFileURLWhosePathDoesNotDecodeIsRefusedNamingIt() throws {
    let url = try #require(URL(string: "file://\(directory.url.path)/a%FFb.jsonl"))
    let store = Store(initialState: Tally.State()) { Tally() }
    guard case let (path, reason, _)? = refusalToRecord(to: url, in: store) else { return }
    #expect(path == url.absoluteString)
    #expect(reason.contains("does not decode"), "\(reason)")
  }

  /// A NUL character ends a path where the system reads it: `a\0b` would have been `a`.
  @Test func aPathHoldingANULCharacterIsRefused() throws {
    let path = directory.path("log.jsonl") + "\0.txt"
    let reason = "the path holds a NUL character, which ends a path where the system reads it"
    let store = Store(initialState: Tally.State()) { Tally() }
    #expect(throws: ActionLogError.cannotWrite(path: path, reason: reason)) {
      try store.recordActions(to: path, feature: "Tally")
    }
    #expect(!FileManager.default.fileExists(atPath: directory.path("log.jsonl")))
    #expect(throws: ActionLogError.cannotRead(path: path, reason: reason)) {
      try replayer.replay(path: path)
    }
  }
}
