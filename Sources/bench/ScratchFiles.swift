import Foundation

/// The action logs scenarios 7 and 39 write to the temporary directory (80 MB for the
/// replay), removed when their scenario ends, when the run is interrupted (Control-C, `kill`,
/// a closed terminal), and, for a run killed where no process can clean up (`kill -9`), by
/// the next run.
///
/// A `defer` alone does not run when a signal ends the process, so an interrupted run used to
/// leave its log behind. The signal handler is a C function that only calls async-signal-safe
/// functions (`unlink`, `signal`, `raise`) and runs on the thread the signal interrupts: a
/// handler on a dispatch queue removed the file while the scenario went on reading it, which
/// then stopped on a missing file before the signal ended the process.
enum ScratchFiles {
  /// The prefixes of the files' names; each name is a prefix, the process id and `.jsonl`.
  /// Named after the package, so that the sweep of leftovers cannot take another tool's
  /// `bench-….jsonl` in a shared temporary directory.
  static let prefixes = [
    "swift-unidirectional-store-bench-", "swift-unidirectional-store-bench-timeline-",
  ]

  /// The signals after which the files are removed before the process ends as the signal
  /// would end it.
  private static let signals = [SIGINT, SIGTERM, SIGHUP]

  /// Whether the first file was made (the leftovers removed, the handlers installed).
  @MainActor private static var started = false

  /// A new file's path in the temporary directory, named `prefix`, this process's id and
  /// `.jsonl`, removed if a signal ends the process before ``remove(_:)`` does.
  ///
  /// The first call removes the files earlier runs left behind (see
  /// ``removeLeftovers(in:)``) and installs the signal handlers. Call it on the main actor:
  /// the scenarios run there.
  @MainActor
  static func make(prefix: String) -> String {
    guard let slot = prefixes.firstIndex(of: prefix) else {
      preconditionFailure("bench: no scratch file is named \(prefix)")
    }
    let directory = FileManager.default.temporaryDirectory
    let path =
      directory
      .appendingPathComponent("\(prefix)\(ProcessInfo.processInfo.processIdentifier).jsonl").path
    if !started {
      started = true
      removeLeftovers(in: directory)
      // Made now, not lazily in the handler, where its allocation would not be safe.
      _ = scratchPaths.count
      for number in signals { handle(number) }
    }
    scratchPaths.set(slot, to: path)
    return path
  }

  /// Removes the file at `path`, made by ``make(prefix:)``.
  @MainActor
  static func remove(_ path: String) {
    // The file first: a signal between the two then finds a path whose file is gone, not a
    // file whose path it no longer knows.
    try? FileManager.default.removeItem(atPath: path)
    for slot in prefixes.indices { scratchPaths.clear(slot, ifItIs: path) }
  }

  /// Installs the handler of signal `number`, unless the signal is ignored: a run started
  /// with `nohup`, or in the background by a script, goes on through a hang-up or an
  /// interrupt as it was told to.
  private static func handle(_ number: Int32) {
    let previous = signal(number, removeScratchFilesAndReraise)
    if unsafeBitCast(previous, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self) {
      signal(number, SIG_IGN)
    }
  }

  /// Removes the scratch files in `directory` whose process no longer runs: what a run killed
  /// with `SIGKILL`, or by a crash, left behind. Only regular files named as this program
  /// names them are removed, never a directory or a link.
  static func removeLeftovers(in directory: URL) {
    let manager = FileManager.default
    let names = (try? manager.contentsOfDirectory(atPath: directory.path)) ?? []
    for name in names {
      guard let pid = processID(inName: name), pid != getpid(), !isRunning(pid) else { continue }
      let path = directory.appendingPathComponent(name).path
      guard
        (try? manager.attributesOfItem(atPath: path)[.type] as? FileAttributeType) == .typeRegular
      else { continue }
      try? manager.removeItem(atPath: path)
    }
  }

  /// The process id in a scratch file's name, or nil when `name` is not a scratch file's.
  static func processID(inName name: String) -> pid_t? {
    guard name.hasSuffix(".jsonl") else { return nil }
    // The longest prefix first: "bench-" is also the start of "bench-timeline-".
    for prefix in prefixes.sorted(by: { $0.count > $1.count }) where name.hasPrefix(prefix) {
      let digits = name.dropFirst(prefix.count).dropLast(".jsonl".count)
      guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else {
        return nil
      }
      return pid_t(digits)
    }
    return nil
  }

  /// Whether a process with id `pid` exists (one of another user's counts: its file is not
  /// this user's to remove anyway).
  private static func isRunning(_ pid: pid_t) -> Bool {
    kill(pid, 0) == 0 || errno == EPERM
  }
}

/// The scratch files' paths as C strings, one slot per prefix, where the signal handler reads
/// them without allocating, locking or touching Swift's reference counts.
private let scratchPaths = ScratchPathSlots(count: ScratchFiles.prefixes.count)

/// Fixed slots of C strings, written on the main actor and read by the signal handler. A slot's
/// string is never freed once the handler may read it (one string per slot per run, at most
/// a few per process): freeing it could pull it from under a handler that interrupted a write.
private struct ScratchPathSlots: @unchecked Sendable {
  /// The slots; nil where no file is in use.
  let base: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>
  /// How many slots there are.
  let count: Int

  init(count: Int) {
    self.count = count
    base = .allocate(capacity: count)
    base.initialize(repeating: nil, count: count)
  }

  /// Puts `path` in slot `slot`.
  func set(_ slot: Int, to path: String) {
    base[slot] = strdup(path)
  }

  /// Empties slot `slot` if it holds `path`.
  func clear(_ slot: Int, ifItIs path: String) {
    guard let current = base[slot], String(cString: current) == path else { return }
    base[slot] = nil
  }
}

/// The handler of `SIGINT`, `SIGTERM` and `SIGHUP`: unlinks the scratch files in use, then
/// ends the process as the signal would have (its status says which signal).
private func removeScratchFilesAndReraise(_ number: Int32) {
  for slot in 0..<scratchPaths.count {
    if let path = scratchPaths.base[slot] { unlink(path) }
  }
  signal(number, SIG_DFL)
  raise(number)
}
