import Foundation

/// Where the demo writes: its report to standard output, problems and progress to standard
/// error. Progress is shown only on a terminal; piped output stays plain. When standard
/// output cannot be written (closed, or a full disk), the report is lost, which standard error
/// says once, but the demo goes on: its exit code still tells the outcome.
@MainActor
final class Output {
  let isTerminal = isatty(STDERR_FILENO) == 1
  private var hasProgress = false
  private var lostReport = false
  /// Every report line and error printed, in order, when made with `capturing: true` (for
  /// tests); `nil` otherwise.
  private(set) var captured: [String]?

  init(capturing: Bool = false) {
    captured = capturing ? [] : nil
  }

  func line(_ text: String) {
    captured?.append(text)
    clearProgress()
    guard !lostReport else { return }
    do {
      try FileHandle.standardOutput.write(contentsOf: Data((text + "\n").utf8))
    } catch {
      lostReport = true
      self.error(
        "demo: cannot write to standard output (\(Self.reason(error))); the report is lost.")
    }
  }

  func error(_ text: String) {
    captured?.append(text)
    clearProgress()
    write(text + "\n", to: .standardError)
  }

  /// Rewrites one status line in place; does nothing unless standard error is a terminal.
  func progress(_ text: String) {
    guard isTerminal else { return }
    hasProgress = true
    write("\r\u{1B}[2K\(text)", to: .standardError)
  }

  func clearProgress() {
    guard hasProgress else { return }
    hasProgress = false
    write("\r\u{1B}[2K", to: .standardError)
  }

  /// Why a write failed, in words: the system's message for a POSIX error (`No space left
  /// on device`), not the error's whole dump.
  static func reason(_ error: any Error) -> String {
    let error = error as NSError
    if error.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(error.code))) }
    if let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError,
      underlying.domain == NSPOSIXErrorDomain
    {
      return String(cString: strerror(Int32(underlying.code)))
    }
    return error.localizedDescription
  }

  // `FileHandle.write(_:)` stops the program when the write fails; this throwing form does not.
  private func write(_ text: String, to handle: FileHandle) {
    try? handle.write(contentsOf: Data(text.utf8))
  }
}
