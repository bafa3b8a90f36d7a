import Effects
import Foundation

/// Runs blocking work (reading a pipe to its end, `waitpid` for a child spawned directly,
/// watching a file) on a thread of its own: on the main actor or the cooperative pool (two
/// threads on a 2-core machine), it held up every other test's work for as long as the demo
/// ran, seconds under ThreadSanitizer.
func offTheCooperativePool<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
  await withCheckedContinuation { continuation in
    Thread { continuation.resume(returning: work()) }.start()
  }
}

extension Process {
  /// Starts this process (`run()`), with a termination handler set first, and returns its
  /// end, for a test to await.
  ///
  /// Not `waitUntilExit()`: it runs the calling thread's run loop until the process ends. On
  /// the main actor, that is the main thread's run loop, which runs the jobs queued for the
  /// main actor: other tests' main-actor work ran inside the waiting test's, out of turn, and
  /// the waiting test came back only when that work let it (1,305 s in a full
  /// ThreadSanitizer run for a test that takes 1.7 s alone; that run took 24 minutes, and
  /// 7.5 once no test waited so and this one left the main actor). On a thread of its own,
  /// it polls without pause, since that run loop has nothing to wait on. The handler is set
  /// before the process starts, so that an end is never missed; it replaces any handler set
  /// before.
  func start() throws -> ProcessEnd {
    let end = ProcessEnd()
    terminationHandler = { _ in end.arrived() }
    try run()
    end.started(processIdentifier)
    return end
  }

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
    await offTheCooperativePool { [self] in
      while isRunning {
        var info = stat()
        if stat(path, &info) == 0, info.st_size >= bytes {
          kill(processIdentifier, SIGSTOP)
          return isRunning
        }
        sched_yield()
      }
      return false
    }
  }
}

/// The end of a process started with `Process.start()`, told by its termination handler.
final class ProcessEnd: Sendable {
  private enum State {
    /// Started (its id known once `run()` returned), with the tasks waiting for its end.
    case running(id: pid_t?, waiting: [CheckedContinuation<Void, Never>])
    case ended
  }

  private let state = Locked(State.running(id: nil, waiting: []))

  /// Suspends until the process has ended (at once if it has), without a thread of its own.
  ///
  /// A cancelled wait (a test's time limit) kills the process (`SIGKILL`) and goes on
  /// waiting for its end, which then comes at once: a child that never ends cannot hold the
  /// run.
  func wait() async {
    await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        let ended = state.withLock { state in
          guard case .running(let id, var waiting) = state else { return true }
          waiting.append(continuation)
          state = .running(id: id, waiting: waiting)
          return false
        }
        if ended { continuation.resume() }
      }
    } onCancel: {
      let id = state.withLock { state -> pid_t? in
        guard case .running(let id, _) = state else { return nil }
        return id
      }
      if let id { kill(id, SIGKILL) }
    }
  }

  /// Called once `run()` returned: the process's id, for a cancelled wait to kill.
  fileprivate func started(_ id: pid_t) {
    state.withLock { state in
      guard case .running(_, let waiting) = state else { return }
      state = .running(id: id, waiting: waiting)
    }
  }

  /// Called by the termination handler: resumes every waiting task.
  fileprivate func arrived() {
    let waiting = state.withLock { state in
      guard case .running(_, let waiting) = state else {
        return [CheckedContinuation<Void, Never>]()
      }
      state = .ended
      return waiting
    }
    for continuation in waiting { continuation.resume() }
  }
}
