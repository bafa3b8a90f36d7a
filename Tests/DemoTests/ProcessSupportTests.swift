import Foundation
import Testing

/// The process helpers the demo tests rely on.
@Suite struct ProcessSupportTests {
  /// A wait whose task is cancelled (as a time limit cancels a test) kills the process and
  /// returns once it has ended, so a child that never ends cannot hold the run.
  @Test func aCancelledWaitKillsTheProcessAndReturns() async throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sleep")
    process.arguments = ["600"]
    let end = try process.start()
    let waiting = Task { await end.wait() }
    waiting.cancel()
    await waiting.value
    #expect(!process.isRunning)
    #expect(process.terminationReason == .uncaughtSignal)
    #expect(process.terminationStatus == SIGKILL)
  }

  /// A process that ended before anyone waited is seen as ended, by any number of waits.
  @Test func aWaitAfterTheEndReturnsAtOnce() async throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", "exit 3"]
    let end = try process.start()
    await end.wait()
    await end.wait()
    #expect(process.terminationReason == .exit)
    #expect(process.terminationStatus == 3)
  }
}
