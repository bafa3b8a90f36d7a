#if os(Linux) && EXIT_TESTS
  import Effects
  import Foundation
  import Glibc
  import Testing

  @testable import Store

  /// A line whose write fails midway (the file reaches a size limit, as a log does on a full
  /// disk) is taken back, so the log still ends with whole lines: the line saying why the
  /// recording stopped, or a later line, never runs on from half a line.
  @Suite struct ActionLogPartialLineTests {
    /// Where the child process writes its log: an exit test's body cannot capture a path, so
    /// the name carries the test process's id, which the child finds as its parent's. (A
    /// fixed name was shared by test runs of two checkouts at once, and one removed the
    /// other's log.)
    static func path(ofTestProcess process: pid_t) -> String {
      FileManager.default.temporaryDirectory
        .appendingPathComponent("action-log-partial-line-tests-\(process).jsonl").path
    }

    @Test func aLineCutShortByAFullDiskIsTakenBack() async throws {
      let path = Self.path(ofTestProcess: getpid())
      try? FileManager.default.removeItem(atPath: path)
      defer { try? FileManager.default.removeItem(atPath: path) }
      await #expect(processExitsWith: .success) {
        // Past the limit, a write fails with EFBIG instead of the signal ending the process.
        signal(SIGXFSZ, SIG_IGN)
        var limit = rlimit(rlim_cur: 4_000, rlim_max: 4_000)
        guard setrlimit(__rlimit_resource_t(RLIMIT_FSIZE.rawValue), &limit) == 0 else { exit(2) }
        try await MainActor.run {
          let store = Store(initialState: Gauge.State()) { Gauge() }
          let recorder = try store.recordActions(
            to: ActionLogPartialLineTests.path(ofTestProcess: getppid()), feature: "Gauge",
            checkpointInterval: 1_000,
            time: { 0 })
          // Lines of different lengths: one of them straddles the limit.
          for index in 0..<200 { store.send(.read(String(repeating: "x", count: index % 7), 1)) }
          guard recorder.error != nil else { exit(3) }
        }
      }
      let text = try String(contentsOfFile: path, encoding: .utf8)
      #expect(text.hasSuffix("\n"))
      for line in text.split(separator: "\n") {
        #expect((try? JSONSerialization.jsonObject(with: Data(line.utf8))) != nil, "\(line)")
      }
      let report = try ActionLogReplayer(feature: "Gauge") { Gauge() }.replay(path: path)
      #expect(report.actionCount > 0)
      #expect(!report.isComplete)
    }
  }
#endif
