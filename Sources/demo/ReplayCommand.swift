import AppFeature
import Foundation
import Store

/// `demo replay FILE [--until N] [--quiet]`, and the no-argument sample replay.
struct ReplayCommand {
  var path: String
  var until: Int?
  var isQuiet: Bool

  static func parse(_ arguments: [String]) throws -> ReplayCommand {
    var until: Int?
    var isQuiet = false
    let path = try FileArguments.parse(arguments, usage: Usage.replay) { option, remaining in
      switch option {
      case "--quiet":
        isQuiet = true
      case "--until":
        until = try OptionValue.number(
          remaining.popFirst(), for: option, atLeast: 0,
          else: "--until needs a sequence number", usage: Usage.replay)
      default:
        return false
      }
      return true
    }
    return ReplayCommand(path: path, until: until, isQuiet: isQuiet)
  }

  func run(output: Output) -> Int32 {
    let timeline = Timeline(output: output, isQuiet: isQuiet)
    do {
      let report = try SampleApp.replayer.replay(path: path, until: until) { step in
        timeline.show(step)
      }
      output.clearProgress()
      Failure.show(report.warnings, unlisted: report.unlistedWarningCount, in: path, output: output)
      let end =
        if let stop = report.stoppedAfter {
          "stopped after #\(stop)"
        } else if let stop = report.recordingStoppedAfter {
          "the recording stopped after #\(stop) (see the warning above)"
        } else if report.isComplete {
          "the log is complete"
        } else {
          "the log has no final checkpoint"
        }
      output.line(
        """
        Replayed \(report.actionCount) action(s); \(report.checkpointsVerified) checkpoint(s) \
        matched; \(end).
        """
      )
      return 0
    } catch {
      return Failure.report(error, in: path, output: output)
    }
  }
}

/// `demo verify FILE [--complete]`.
struct VerifyCommand {
  var path: String
  /// Whether a log that does not end with its final checkpoint (a recording that stopped or
  /// was cut short), or that verified nothing, fails with exit code 3.
  var requiresComplete = false

  static func parse(_ arguments: [String]) throws -> VerifyCommand {
    var requiresComplete = false
    let path = try FileArguments.parse(arguments, usage: Usage.verify) { option, _ in
      guard option == "--complete" else { return false }
      requiresComplete = true
      return true
    }
    return VerifyCommand(path: path, requiresComplete: requiresComplete)
  }

  /// The exit code of a log that replayed without a mismatch: 3 when it is incomplete and
  /// `--complete` asked for a whole log, 0 otherwise.
  private func success(isWhole: Bool) -> Int32 {
    requiresComplete && !isWhole ? 3 : 0
  }

  func run(output: Output) -> Int32 {
    let timeline = Timeline(output: output, isQuiet: true)
    do {
      let report = try SampleApp.replayer.replay(path: path) { timeline.show($0) }
      output.clearProgress()
      Failure.show(report.warnings, unlisted: report.unlistedWarningCount, in: path, output: output)
      // How the log ends, when it does not end with its final checkpoint.
      let end: String
      if let stop = report.recordingStoppedAfter {
        end = """
           The recording stopped after action \(stop) (see the warning above): the log holds \
          nothing after it, so the rest of the session is not verified.
          """
      } else if report.isComplete {
        end = ""
      } else {
        // Actions after a last checkpoint only when the log holds both.
        let unverified =
          report.actionCount == 0 || report.checkpointsVerified == 0
          ? "" : ", and the actions after its last checkpoint are not verified"
        end = """
           The log has no final checkpoint: the recording was cut short (or is still being \
          written)\(unverified).
          """
      }
      guard report.checkpointsVerified > 0 else {
        let what =
          report.actionCount == 0
          ? "the log holds only its header (no action, no checkpoint)"
          : "the log has no checkpoint to compare; replayed \(report.actionCount) action(s)"
        let opening =
          requiresComplete ? "Not complete: nothing was verified" : "OK, but nothing was verified"
        output.line("\(opening): \(what).\(end)")
        return success(isWhole: false)
      }
      // Under --complete, a log that is not whole fails (exit code 3): its line does not open
      // with "OK" then.
      let opening = success(isWhole: report.isComplete) == 0 ? "OK" : "Not complete"
      output.line(
        """
        \(opening): all \(report.checkpointsVerified) checkpoint(s) matched over \
        \(report.actionCount) action(s).\(end)
        """
      )
      return success(isWhole: report.isComplete)
    } catch {
      return Failure.report(error, in: path, output: output)
    }
  }
}

/// A command line of options and one FILE, as `replay` and `verify` take it.
enum FileArguments {
  /// The FILE `arguments` name. Each option goes to `option` first, with the arguments after
  /// it (to take a value from): it returns `false` for an option it does not know, which is
  /// refused by name. An option given twice is refused; `-h` and `--help` ask for `usage`;
  /// after `--`, every argument is FILE, even one that starts with "-".
  static func parse(
    _ arguments: [String], usage: String,
    option: (String, inout ArraySlice<String>) throws -> Bool
  ) throws -> String {
    var path: String?
    var remaining = arguments[...]
    var seen = SeenOptions(usage: usage)
    var isOptionsEnd = false
    while let argument = remaining.popFirst() {
      if !isOptionsEnd, argument.hasPrefix("-") {
        switch argument {
        case "--": isOptionsEnd = true
        case "-h", "--help": throw HelpRequested(text: usage)
        default:
          guard try option(argument, &remaining) else {
            throw UsageError(message: "unknown option \(LogText.quoted(argument)).", usage: usage)
          }
          // Noted once known: an unknown option given twice is unknown, not repeated.
          try seen.note(argument)
        }
        continue
      }
      guard path == nil else {
        throw UsageError(message: "unexpected argument \(LogText.quoted(argument)).", usage: usage)
      }
      path = argument
    }
    guard let path else { throw UsageError(message: "missing FILE.", usage: usage) }
    return path
  }
}

/// A `--help` flag: print the command's usage and exit with 0.
struct HelpRequested: Error {
  var text: String
}

enum Failure {
  /// Prints a replay's warnings, naming the log.
  static func show(_ warnings: [String], unlisted: Int, in path: String, output: Output) {
    let path = LogText.escaped(path)
    for warning in warnings { output.error("warning: \(path): \(warning)") }
    if unlisted > 0 {
      output.error("warning: \(path): and \(unlisted) more warning(s) like those, not listed")
    }
  }

  /// Prints a replay error, naming the log when the error does not; returns 1 for a
  /// divergence, 2 for anything else.
  static func report(_ error: any Error, in path: String, output: Output) -> Int32 {
    output.clearProgress()
    if let help = error as? HelpRequested {
      output.line(help.text)
      return 0
    }
    switch error as? ActionLogError {
    case .cannotRead?, .cannotWrite?: output.error("demo: \(error)")
    default: output.error("demo: \(LogText.escaped(path)): \(error)")
    }
    if case .diverged? = error as? ActionLogError { return 1 }
    return 2
  }
}
