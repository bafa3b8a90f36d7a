import Foundation

extension Process {
  /// Stops this process (`SIGSTOP`) the moment the file at `path` holds at least `bytes`
  /// bytes, watching the file from a thread of its own; returns whether it stopped the
  /// process, `false` when the process ended first.
  ///
  /// A stopped recording writes nothing more but still runs and holds its log's lock, until
  /// the test kills it. The wait is on a thread of its own because a loop on `Task.yield()`
  /// came back late in a full run that started every test at once: minutes after the log
  /// reached its size, by when a `demo record --sessions 100000` had written 76 MB, which the
  /// test then replayed (the demo took 32% of that run's CPU, against 0.5% with 8 tests at
  /// a time). The watcher polls the file's size without sleeping, yielding its thread between
  /// checks; the recording reaches the sizes used here within a second.
  ///
  /// - Parameters:
  ///   - path: The file the process writes.
  ///   - bytes: The size at which to stop the process.
  /// - Returns: Whether the process was stopped while still running.
  func stop(whenFileAt path: String, reaches bytes: Int) async -> Bool {
    let process = UncheckedProcess(process: self)
    return await withCheckedContinuation { continuation in
      Thread {
        let pid = process.process.processIdentifier
        while process.process.isRunning {
          var info = stat()
          if stat(path, &info) == 0, info.st_size >= bytes {
            kill(pid, SIGSTOP)
            continuation.resume(returning: process.process.isRunning)
            return
          }
          sched_yield()
        }
        continuation.resume(returning: false)
      }.start()
    }
  }
}

/// A process handed to the watching thread: `Process` is not `Sendable` on every platform,
/// and the thread only reads its identifier and whether it runs, which `Process` guards.
private struct UncheckedProcess: @unchecked Sendable {
  let process: Process
}
