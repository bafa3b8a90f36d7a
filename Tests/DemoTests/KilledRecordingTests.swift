import Foundation
import Store
import Testing

@testable import demo

/// A recording process killed mid-write leaves a log whose complete lines all replay.
///
/// Not on the main actor: nothing here needs it, and in a full ThreadSanitizer run, where most
/// tests take turns on it, each hop back to it waited minutes.
@Suite struct KilledRecordingTests {
  /// The `demo` executable, built beside this test bundle.
  static var demoExecutable: URL? {
    // On Linux the test bundle is the program; on macOS a runner from the toolchain loads it,
    // so its place is asked of a class it holds.
    let program = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    let bundle = Bundle(for: BundleMarker.self).bundleURL.deletingLastPathComponent()
    for candidate in [program, program.deletingLastPathComponent(), bundle] {
      let url = candidate.appendingPathComponent("demo")
      if FileManager.default.isExecutableFile(atPath: url.path) { return url }
    }
    return nil
  }

  @Test func aRecordingKilledMidWayReplaysEveryCompleteLine() async throws {
    let demo = try #require(Self.demoExecutable, "build the demo first: swift build")
    let log = FileManager.default.temporaryDirectory
      .appendingPathComponent("killed-\(UUID().uuidString).jsonl")
    defer { try? FileManager.default.removeItem(at: log) }
    let process = Process()
    process.executableURL = demo
    process.arguments = ["record", "--out", log.path, "--sessions", "100000"]
    process.standardOutput = FileHandle.nullDevice
    let end = try process.start()
    // Once the recording is well under way (a condition, not a duration), it is stopped
    // wherever it is, perhaps in the middle of a line, and killed without warning, as a crash
    // would.
    let stopped = await process.stop(whenFileAt: log.path, reaches: 200_000)
    #expect(stopped, "the recording should still be running when it is killed")
    kill(process.processIdentifier, SIGKILL)
    await end.wait()
    #expect(process.terminationReason == .uncaughtSignal)

    let report = try SampleApp.replayer.replay(path: log.path)
    let lines = try String(contentsOf: log, encoding: .utf8)
    let completeActions = lines.split(separator: "\n", omittingEmptySubsequences: false)
      .dropLast()
      .filter { $0.contains(#""kind":"action""#) }.count
    #expect(report.actionCount == completeActions)
    #expect(report.actionCount > 100)
    #expect(!report.isComplete, "a killed recording has no final checkpoint")
  }
}

/// A class of this test bundle's, for `Bundle(for:)`.
private final class BundleMarker {}
