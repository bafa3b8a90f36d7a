import Foundation
import Store

/// `demo`: records and replays action logs of the sample app.
///
/// Exit codes: 0 success, 1 a replay diverged from a checkpoint, 2 bad input or usage, 3 a
/// log `verify --complete` finds incomplete.
@main
@MainActor
struct Demo {
  static func main() async {
    prepareStandardStreams()
    // A process may be started with no arguments at all, not even its name (`execve` allows
    // it on macOS).
    let arguments = (1..<max(1, Int(CommandLine.argc))).compactMap {
      CommandLine.unsafeArgv[$0].map { UnsafePointer($0) }
    }
    exit(await run(cArguments: arguments, output: Output()))
  }

  /// Runs the command that `arguments`, as the process was given them, name, and returns the
  /// exit code; usage error 2 for an argument that is not UTF-8 text.
  ///
  /// `CommandLine.arguments` reads the bytes of an argument that are not UTF-8 (a file name
  /// in Latin-1) as U+FFFD: as a path, the argument would name another file, which `record`
  /// would create, or overwrite.
  static func run(cArguments arguments: [UnsafePointer<CChar>], output: Output) async -> Int32 {
    var decoded: [String] = []
    for (index, argument) in arguments.enumerated() {
      guard let text = String(validatingCString: argument) else {
        let bytes = UnsafeRawBufferPointer(start: argument, count: strlen(argument))
        let shown = LogText.quoted(String(decoding: bytes, as: UTF8.self))
        output.error(
          """
          demo: argument \(index + 1), \(shown), holds bytes that are not UTF-8 text (shown as \
          U+FFFD): as a path it would name another file. Give the file a name in UTF-8.
          \(Usage.main)
          """
        )
        return 2
      }
      decoded.append(text)
    }
    return await run(decoded, output: output)
  }

  /// Makes the standard streams safe to write before anything is opened.
  ///
  /// A write to a pipe whose reader has gone (`demo replay log | head -1`) fails with `EPIPE`,
  /// which ``Output`` reports, instead of killing the process with `SIGPIPE`: the exit code
  /// still tells the outcome. Likewise a write past the file-size limit (`ulimit -f`) fails
  /// with `EFBIG`, which the recorder reports as it reports a full disk, instead of killing
  /// the process with `SIGXFSZ` mid-line. A standard descriptor the caller closed (`demo record >&-`) is
  /// opened on `/dev/null`: otherwise the first file opened, the log, would take its number,
  /// and the report printed to it would land in the log.
  static func prepareStandardStreams() {
    signal(SIGPIPE, SIG_IGN)
    signal(SIGXFSZ, SIG_IGN)
    for descriptor in STDIN_FILENO...STDERR_FILENO where fcntl(descriptor, F_GETFD) == -1 {
      // `open` takes the lowest free number: this one, as those below it are open.
      _ = open("/dev/null", descriptor == STDIN_FILENO ? O_RDONLY : O_WRONLY)
    }
  }

  /// Runs the command `arguments` name and returns the exit code; tests call it directly.
  static func run(_ arguments: [String], output: Output) async -> Int32 {
    do {
      return try await dispatch(arguments, output: output)
    } catch let help as HelpRequested {
      output.line(help.text)
      return 0
    } catch let error as UsageError {
      output.error("demo: \(error.message)\n\(error.usage)")
      return 2
    } catch {
      output.error("demo: \(error)")
      return 2
    }
  }

  /// Runs the command `arguments` name. A `--` before the command ends `demo`'s own options,
  /// as it ends a command's: the word after it is the command, even one that starts with "-"
  /// (so `demo -- --help` names no command), and what follows that word is the command's
  /// (`demo -- replay -- -odd-name.jsonl`). `demo --` alone is `demo`.
  private static func dispatch(_ arguments: [String], output: Output) async throws -> Int32 {
    let isOptionsEnd = arguments.first == "--"
    let arguments = isOptionsEnd ? Array(arguments.dropFirst()) : arguments
    guard let command = arguments.first else {
      guard let sample = bundledSamplePath() else {
        output.error(
          """
          demo: the bundled sample log is missing: it is looked for in the resource bundle \
          next to the executable (\(resourceBundleName)), where `swift build` puts it. Pass a \
          log to `demo replay FILE` instead.
          """
        )
        return 2
      }
      output.line("Replaying the bundled sample session (\(sample)).")
      output.line("Run `demo --help` to record, replay and verify your own logs.\n")
      return ReplayCommand(path: sample, until: nil, isQuiet: false).run(output: output)
    }
    let rest = Array(arguments.dropFirst())
    switch command {
    case "record": return try RecordCommand.parse(rest).run(output: output)
    case "replay": return try ReplayCommand.parse(rest).run(output: output)
    case "verify": return try VerifyCommand.parse(rest).run(output: output)
    case "--help" where !isOptionsEnd, "-h" where !isOptionsEnd, "help":
      output.line(try Usage.help(for: rest))
      return 0
    default:
      throw Usage.unknown(command, isOption: !isOptionsEnd && command.hasPrefix("-"))
    }
  }
}

/// A command line that cannot be run, with the usage to show.
struct UsageError: Error {
  var message: String
  var usage: String
}

/// The options a command line has given so far: an option given twice is a mistake whichever
/// was meant, so it is refused rather than one of them picked.
struct SeenOptions {
  private var seen: Set<String> = []
  let usage: String

  init(usage: String) {
    self.usage = usage
  }

  /// Notes `argument`; throws if it is an option given before.
  mutating func note(_ argument: String) throws(UsageError) {
    guard argument.hasPrefix("--"), argument != "--help" else { return }
    guard seen.insert(argument).inserted else {
      throw UsageError(message: "\(argument) is given twice.", usage: usage)
    }
  }
}

/// The value an option is given.
enum OptionValue {
  /// `value` read as a whole number from `minimum` to `maximum`, or a usage error that says
  /// what is wrong with it: `problem` when it is missing; when it is given, `problem`, what a
  /// number the option takes is, and the value, quoted (`--until needs a sequence number, a
  /// whole number from 0 up: "abc" is not one.`); that it is too large, with the largest the
  /// option takes, when it is above `maximum` or all digits (after a "+", as `Int(_:)` takes
  /// them) but does not fit an `Int` (which `Int(_:)` does not tell apart from text that is
  /// not a number).
  static func number(
    _ value: String?, for option: String, atLeast minimum: Int, atMost maximum: Int = .max,
    else problem: String, usage: String
  ) throws(UsageError) -> Int {
    guard let value, let number = Int(value), number >= minimum, number <= maximum else {
      guard let value else { throw UsageError(message: problem + ".", usage: usage) }
      let digits = value.utf8.first == UInt8(ascii: "+") ? value.utf8.dropFirst() : value.utf8[...]
      if Int(value).map({ $0 > maximum })
        ?? (!digits.isEmpty && digits.allSatisfy({ (0x30...0x39).contains($0) }))
      {
        throw UsageError(
          message: "\(option) \(value) is too large: the largest is \(maximum).", usage: usage)
      }
      throw UsageError(
        message: """
          \(problem), a whole number from \(minimum) up: \(LogText.quoted(value)) is not one.
          """, usage: usage)
    }
    return number
  }
}

enum Usage {
  /// What `help` (or `--help`, `-h`) shows: the main usage, or with a command after it, that
  /// command's (`demo help replay`, as `demo replay --help`); anything else after it is
  /// refused, as every argument a command does not take is, but a request for help (`demo
  /// help replay --help`, which asks for the same thing twice). Help on help (`demo help
  /// help`, `demo help --help`) is the main usage. A `--` among them ends help's options, as
  /// it ends every command's: `demo help -- replay` is `demo help replay`.
  static func help(for arguments: [String]) throws(UsageError) -> String {
    var arguments = arguments
    if let end = arguments.firstIndex(of: "--") { arguments.remove(at: end) }
    guard let topic = arguments.first else { return main }
    let usage: String
    switch topic {
    case "record": usage = record
    case "replay": usage = replay
    case "verify": usage = verify
    case "help", "--help", "-h": usage = main
    default: throw unknown(topic)
    }
    if let extra = arguments.dropFirst().first(where: { !["help", "--help", "-h"].contains($0) }) {
      throw UsageError(message: "unexpected argument \(LogText.quoted(extra)).", usage: usage)
    }
    return usage
  }

  /// The error for a word where a command goes that names none: an option (`demo --version`;
  /// none is taken there but help and `--`), or an unknown command. `isOption` says which, when
  /// the word's first character does not (after `--`, a word that starts with "-" is a
  /// command's place).
  static func unknown(_ word: String, isOption: Bool? = nil) -> UsageError {
    let kind = (isOption ?? word.hasPrefix("-")) ? "option" : "command"
    return UsageError(message: "unknown \(kind) \(LogText.quoted(word)).", usage: main)
  }

  static let main = """
    USAGE: demo [<command>]

    With no command, replays the bundled sample session and prints its timeline.

    COMMANDS:
      record [--out FILE] [--sessions N]   Run a scripted session against simulated
                                           services and record its action log.
      replay FILE [--until N] [--quiet]    Replay a log and print its timeline.
      verify FILE [--complete]             Replay a log and check every checkpoint.

    Run `demo <command> --help` for a command's options. `--` ends the options, before
    the command or after it: `demo replay -- -odd-name.jsonl`.
    Exit codes: 0 success, 1 a replay diverged from a checkpoint, 2 bad input or usage,
    3 (verify --complete) a log that does not end with its final checkpoint or has no
    checkpoint to check.
    """

  static let record = """
    USAGE: demo record [--out FILE] [--sessions N]

    Runs a scripted session of the sample app (sign-in, cart edits, navigation,
    checkout) live against simulated services, and records every action to FILE.

    OPTIONS:
      --out FILE      Where to write the log (default: session.jsonl). Overwritten if present.
      --sessions N    Run the script N times in a row, for a long log (default: 1;
                      at most 100000, a log of about 800 MB).
      -h, --help      Show this help.
    """

  static let replay = """
    USAGE: demo replay FILE [--until N] [--quiet]

    Replays an action log through the app's reducers, without running effects, and
    prints each step: its number, origin, action, and what changed in the state.

    OPTIONS:
      --until N     Stop after sequence number N.
      --quiet       Print only the summary.
      -h, --help    Show this help.
    """

  static let verify = """
    USAGE: demo verify FILE [--complete]

    Replays an action log and reports whether every checkpoint matched.
    Exits with 1 at the first checkpoint that differs, naming it and what differs.

    OPTIONS:
      --complete    Also exit with 3 when the log does not end with its final checkpoint
                    (the recording stopped or was cut short) or has no checkpoint to check:
                    for a script that must see the whole session verified.
      -h, --help    Show this help.
    """
}
