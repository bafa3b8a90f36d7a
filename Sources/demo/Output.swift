import Foundation

/// Where the demo writes: its report to standard output, problems and progress to standard
/// error. Progress is shown only on a terminal; piped output stays plain. A stream that
/// cannot be written (closed, or a full disk) loses the text, but does not stop the demo.
@MainActor
final class Output {
  let isTerminal = isatty(STDERR_FILENO) == 1
  private var hasProgress = false

  func line(_ text: String) {
    clearProgress()
    write(text + "\n", to: .standardOutput)
  }

  func error(_ text: String) {
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

  // `FileHandle.write(_:)` stops the program when the write fails; this throwing form does not.
  private func write(_ text: String, to handle: FileHandle) {
    try? handle.write(contentsOf: Data(text.utf8))
  }
}
