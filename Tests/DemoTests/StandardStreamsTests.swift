import Foundation
import Store
import Testing

@testable import demo

/// The demo run as a program, with its standard streams and its log where a shell can put
/// them: a pipe whose reader left, a closed descriptor, the log on standard output, and two
/// recordings of one file (log adversary trial).
@MainActor
@Suite final class StandardStreamsTests {
  let directory = FileManager.default.temporaryDirectory
    .appendingPathComponent("demo-streams-\(UUID().uuidString)")

  init() throws {
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  }

  deinit { try? FileManager.default.removeItem(at: directory) }

  func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

  /// What a process wrote to standard error through `errors`, once it has ended (`end`).
  static func waitForExit(_ end: ProcessEnd, readingErrorsFrom errors: Pipe) async -> String {
    let handle = errors.fileHandleForReading
    let data = await offTheCooperativePool { handle.readDataToEndOfFile() }
    await end.wait()
    return String(decoding: data, as: UTF8.self)
  }

  /// `demo replay sample | head -1`: the first write after the reader left killed the demo
  /// with `SIGPIPE`, so its exit code was lost.
  @Test func aReaderThatLeavesDoesNotKillTheDemo() async throws {
    let demo = try #require(KilledRecordingTests.demoExecutable, "build the demo first")
    let output = Pipe()
    let errors = Pipe()
    let process = Process()
    process.executableURL = demo
    process.arguments = ["replay", DemoTests.samplePath]
    process.standardOutput = output
    process.standardError = errors
    // The only reader goes before the demo writes anything.
    try output.fileHandleForReading.close()
    let end = try process.start()
    let messages = await Self.waitForExit(end, readingErrorsFrom: errors)
    #expect(process.terminationReason == .exit)
    #expect(process.terminationStatus == 0)
    #expect(messages.contains("cannot write to standard output"), "\(messages)")
  }

  /// Whether this process, and so the demo it runs (built alike), runs under
  /// ThreadSanitizer: its runtime is linked in.
  nonisolated static var isThreadSanitized: Bool {
    dlsym(dlopen(nil, RTLD_NOW), "__tsan_init") != nil
  }

  /// `(ulimit -f 10; demo record --out x.jsonl --sessions 3)`: the first write past the
  /// limit killed the demo with `SIGXFSZ` (exit 153, no message, the log cut mid-line). It now
  /// fails as on a full disk: exit 2, the reason said, whole lines in the log.
  @Test(
    .disabled(
      if: StandardStreamsTests.isThreadSanitized,
      "ThreadSanitizer's runtime itself dies (SIGBUS, exit 66) under a file-size limit"))
  func aFileSizeLimitFailsTheRecordingWithAMessageNotASignal() async throws {
    let demo = try #require(KilledRecordingTests.demoExecutable, "build the demo first")
    let log = path("limited.jsonl")
    let messages = path("limited-errors.txt")
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(
      &actions, STDERR_FILENO, messages, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    // `SIGXFSZ` as a shell gets it by default, whatever this process does with it (a test
    // that runs the demo in this process may ignore it, and an ignored or blocked signal is
    // inherited).
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var signals = sigset_t()
    sigemptyset(&signals)
    posix_spawnattr_setsigmask(&attributes, &signals)
    sigaddset(&signals, SIGXFSZ)
    posix_spawnattr_setsigdefault(&attributes, &signals)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
    let arguments = [
      "/bin/sh", "-c", #"ulimit -f 10 && exec "$0" record --out "$1" --sessions 3"#, demo.path,
      log,
    ]
    var argv = arguments.map { strdup($0) } + [nil]
    defer { for argument in argv { free(argument) } }
    var pid = pid_t()
    try #require(posix_spawn(&pid, "/bin/sh", &actions, &attributes, &argv, environ) == 0)
    let status = await offTheCooperativePool { [pid] in
      var status: Int32 = 0
      _ = waitpid(pid, &status, 0)
      return status
    }
    // Exited (the low seven bits, the signal, are zero) with 2.
    #expect(status & 0x7F == 0, "killed by signal \(status & 0x7F)")
    #expect(status >> 8 == 2, "exit status \(status)")
    let said = try String(contentsOfFile: messages, encoding: .utf8)
    #expect(said.contains("demo: Cannot write the log at"), "\(said)")
    #expect(said.contains("File too large"), "\(said)")
    let written = try Data(contentsOf: URL(fileURLWithPath: log))
    #expect(written.last == UInt8(ascii: "\n"), "the log ends mid-line")
  }

  /// `demo record --out x.jsonl >&-`: the log took descriptor 1, and the summary was written
  /// into it, after its final checkpoint.
  @Test func aClosedStandardOutputDoesNotSendTheSummaryIntoTheLog() async throws {
    let demo = try #require(KilledRecordingTests.demoExecutable, "build the demo first")
    let log = path("closed-stdout.jsonl")
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addclose(&actions, STDOUT_FILENO)
    let arguments = [demo.path, "record", "--out", log]
    var argv = arguments.map { strdup($0) } + [nil]
    defer { for argument in argv { free(argument) } }
    var pid = pid_t()
    try #require(posix_spawn(&pid, demo.path, &actions, nil, &argv, environ) == 0)
    let status = await offTheCooperativePool { [pid] in
      var status: Int32 = 0
      _ = waitpid(pid, &status, 0)
      return status
    }
    #expect(status == 0, "exit status \(status)")
    let report = try SampleApp.replayer.replay(path: log)
    #expect(report.isComplete)
    #expect(report.actionCount == 37)
  }

  /// `demo record --out /dev/stdout > x.jsonl`: the summary ended the log.
  @Test func aLogRecordedToStandardOutputGetsItsSummaryOnStandardError() async throws {
    let demo = try #require(KilledRecordingTests.demoExecutable, "build the demo first")
    let log = path("stdout.jsonl")
    try #require(FileManager.default.createFile(atPath: log, contents: nil))
    let errors = Pipe()
    let process = Process()
    process.executableURL = demo
    process.arguments = ["record", "--out", "/dev/stdout"]
    process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
    process.standardError = errors
    let end = try process.start()
    let messages = await Self.waitForExit(end, readingErrorsFrom: errors)
    #expect(process.terminationStatus == 0)
    #expect(messages.contains("Recorded 37 actions to /dev/stdout."), "\(messages)")
    #expect(try SampleApp.replayer.replay(path: log).isComplete)
  }

  /// Two `demo record` processes writing one file both succeeded, and the log was garbage.
  @Test func aSecondProcessRecordingTheSameFileIsRefusedAndTruncatesNothing() async throws {
    let demo = try #require(KilledRecordingTests.demoExecutable, "build the demo first")
    let log = path("shared.jsonl")
    let first = Process()
    first.executableURL = demo
    first.arguments = ["record", "--out", log, "--sessions", "100000"]
    first.standardOutput = FileHandle.nullDevice
    let end = try first.start()
    // Foundation reaps the process once it is killed; waiting is only for what comes after.
    defer { if first.isRunning { kill(first.processIdentifier, SIGKILL) } }
    // Once lines are there, the first recording holds the file (a condition, not a
    // duration); stopped, it holds it without writing more.
    let stopped = await first.stop(whenFileAt: log, reaches: 10_000)
    try #require(stopped, "the first recording should still be running")
    let output = Output(capturing: true)
    #expect(await Demo.run(["record", "--out", log], output: output) == 2)
    let message = output.captured?.first ?? ""
    #expect(message.contains("another process is recording to this file"), "\(message)")
    kill(first.processIdentifier, SIGKILL)
    await end.wait()
    let report = try SampleApp.replayer.replay(path: log)
    #expect(report.actionCount > 37, "the second recording truncated the first one's log")
  }
}
