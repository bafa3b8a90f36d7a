import Effects
import Foundation
import Testing

@testable import Store

/// A file one recorder writes is not another's in the same process.
@MainActor
@Suite final class LogFileTests {
  let directory = TemporaryDirectory("log-file-tests")

  @Test func aSecondRecorderForTheSameFileIsRefusedUntilTheFirstFinishes() throws {
    let file = directory.appendingPathComponent("shared.jsonl").path
    let alias = directory.appendingPathComponent("alias.jsonl").path
    try FileManager.default.createSymbolicLink(atPath: alias, withDestinationPath: file)
    let first = Store(initialState: Ledger.State()) { Ledger() }
    let second = Store(initialState: Ledger.State()) { Ledger() }
    let recorder = try first.recordActions(to: file, feature: "Ledger", time: { 0 })
    first.send(.setBig(1))
    for path in [file, alias] {
      #expect {
        try second.recordActions(to: path, feature: "Ledger")
      } throws: { error in
        error as? ActionLogError
          == .cannotWrite(
            path: path,
            reason: """
              another ActionLogRecorder in this process is writing this file; finish that \
              recorder first, or record to another path
              """)
      }
    }
    first.send(.setBig(2))
    try recorder.finish()
    // The first log is whole: refusing did not truncate it.
    let report = try ActionLogReplayer(feature: "Ledger") { Ledger() }.replay(path: file)
    #expect(report.isComplete && report.actionCount == 2)
    // Finished, the file may be recorded again.
    let again = try second.recordActions(to: alias, feature: "Ledger", time: { 0 })
    second.send(.setBig(3))
    try again.finish()
    #expect(
      try ActionLogReplayer(feature: "Ledger") { Ledger() }.replay(path: file).actionCount == 1)
  }

  @Test func aRecorderReleasedWithoutFinishingLetsTheFileGo() throws {
    let file = directory.appendingPathComponent("released.jsonl").path
    let store = Store(initialState: Ledger.State()) { Ledger() }
    do {
      _ = try store.recordActions(to: file, feature: "Ledger")
    }
    let other = Store(initialState: Ledger.State()) { Ledger() }
    let recorder = try other.recordActions(to: file, feature: "Ledger")
    try recorder.finish()
  }

  /// Whether the file is still at its path is asked of the path as the working directory
  /// made it when the file was opened: a relative path is resolved then, so a process that
  /// moves to another directory is not told its log is gone.
  @Test func aFileOpenedByARelativePathIsFoundWhereItWasOpened() throws {
    let file = directory.path("relative.jsonl")
    let levels = FileManager.default.currentDirectoryPath.split(separator: "/").count
    let relative = String(repeating: "../", count: levels) + file.dropFirst()
    let log = try LogFile(creating: relative)
    #expect(log.path == relative)
    #expect(log.absolutePath.hasPrefix("/"))
    #expect(log.goneReason() == nil)
    try FileManager.default.removeItem(atPath: file)
    #expect(log.goneReason() == "the file was moved or removed")
  }
}
