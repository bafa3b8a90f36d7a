import Foundation

/// Where the demo writes: its report to standard output, problems and progress to standard
/// error. Progress is shown only on a terminal; piped output stays plain.
@MainActor
final class Output {
  let isTerminal = isatty(STDERR_FILENO) == 1
  private var hasProgress = false

  func line(_ text: String) {
    clearProgress()
    FileHandle.standardOutput.write(Data((text + "\n").utf8))
  }

  func error(_ text: String) {
    clearProgress()
    FileHandle.standardError.write(Data((text + "\n").utf8))
  }

  /// Rewrites one status line in place; does nothing unless standard error is a terminal.
  func progress(_ text: String) {
    guard isTerminal else { return }
    hasProgress = true
    FileHandle.standardError.write(Data("\r\u{1B}[2K\(text)".utf8))
  }

  func clearProgress() {
    guard hasProgress else { return }
    hasProgress = false
    FileHandle.standardError.write(Data("\r\u{1B}[2K".utf8))
  }
}
