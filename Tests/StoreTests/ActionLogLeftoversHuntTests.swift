import Effects
import Foundation
import Testing

@testable import Store

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What the earlier recorder hunts left in recording and replaying action logs.
@MainActor
@Suite final class ActionLogLeftoversHuntTests {
  let directory = TemporaryDirectory("action-log-leftovers-hunt-tests")

  // MARK: - What the log's path names

  /// A Unix-domain socket at the path: `open` refuses it (`ENXIO`), which read "No such
  /// device or address", as if nothing were there. It is named now.
  @Test func aSocketIsRefusedNamingIt() throws {
    let path = directory.path("log.sock")
    let socketDescriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    try #require(socketDescriptor >= 0)
    defer { close(socketDescriptor) }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    let bytes = Array(path.utf8)
    try #require(bytes.count < MemoryLayout.size(ofValue: address.sun_path))
    withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(socketDescriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
    try #require(bound == 0)
    #expect(
      throws: ActionLogError.cannotWrite(
        path: path, reason: "it is a socket, which cannot be opened as a file; record to a file")
    ) {
      _ = try LogFile(creating: path)
    }
  }

  // MARK: - A recorder that stopped

  /// A recorder that stopped on an error (an action it could not write) held its store, and
  /// its file, until `finish()`: a new recording was refused as a second one. It lets go of
  /// both now; its `finish()` still throws the error.
  @Test func aStoppedRecorderLetsANewRecordingStartOnItsStoreAndFile() throws {
    let warnings = WarningLog()
    let store = RuntimeWarningHandler.$current.withValue(warnings.handler) {
      Store(initialState: Gauge.State()) { Gauge() }
    }
    let file = directory.path("gauge.jsonl")
    let first = try store.recordActions(to: file, feature: "Gauge", time: { 0 })
    store.send(.set(1))
    store.send(.set(.infinity))
    let error = try #require(first.error)
    #expect(warnings.messages.count == 1)
    // Reduced, not recorded: the state can be written again.
    store.send(.set(0))

    // The same store, the same path: the session is recorded again.
    let second = try store.recordActions(to: file, feature: "Gauge", time: { 0 })
    store.send(.set(2))
    store.send(.set(3))
    try second.finish()
    #expect(throws: error) { try first.finish() }
    #expect(first.actionCount == 1)

    let report = try ActionLogReplayer(feature: "Gauge") { Gauge() }.replay(path: file)
    #expect(report.isComplete)
    #expect(report.actionCount == 2)
    #expect(report.finalState.level == 3)
    #expect(warnings.messages.count == 1, "\(warnings.messages)")
  }

  /// A recorder that is recording still holds its store: a second recording is refused.
  @Test func aRecorderThatRecordsStillHoldsItsStore() throws {
    let store = Store(initialState: Gauge.State()) { Gauge() }
    let first = try store.recordActions(to: directory.path("a.jsonl"), feature: "Gauge")
    store.send(.set(1))
    #expect {
      try store.recordActions(to: self.directory.path("b.jsonl"), feature: "Gauge")
    } throws: { error in
      "\(error)".contains("already records its actions to \(self.directory.path("a.jsonl"))")
    }
    try first.finish()
  }

}
