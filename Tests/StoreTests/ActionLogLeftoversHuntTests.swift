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
}
