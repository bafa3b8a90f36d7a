import AccountFeature
import AppFeature
import CartFeature
import Effects
import Foundation
import Store

/// The sample app as the demo records and replays it.
enum SampleApp {
  nonisolated static let feature = "AppFeature"

  /// A replayer for the app. Replay runs no effects, so the clients are never called (the
  /// checkout client refuses every order, the authentication client is the unconfigured one,
  /// which would fail loudly). The reducers do call `makeID` (a tap that makes an item's id
  /// or an order's key), but the value they make only goes into an effect's action, which
  /// replay drops: the log's next action carries the id recorded. Replay needs no actor: any
  /// thread may make one and replay with it.
  nonisolated static var replayer: ActionLogReplayer<AppFeature> {
    ActionLogReplayer(feature: feature) {
      AppFeature(
        checkout: .failing(with: CheckoutError.serviceUnavailable),
        authentication: .unconfigured,
        makeID: .incrementing(),
        clock: ImmediateClock()
      )
    }
  }

  /// The app running against simulated services: an immediate clock, counting ids, and
  /// effects run on a manual executor that the script settles after each action, so every
  /// recording of the script is the same, line for line.
  @MainActor static func liveStore() -> (
    store: StoreOf<AppFeature>, settle: () -> Void, clock: ImmediateClock
  ) {
    let clock = ImmediateClock()
    let core = RootCore(
      initialState: AppFeature.State(),
      reducer: AppFeature(
        checkout: .live(clock: clock, delay: .seconds(1), makeID: .incrementing()),
        authentication: .simulated(clock: clock),
        makeID: .incrementing(),
        clock: clock
      ),
      executor: ManualTaskExecutor()
    )
    return (Store(core: core), core.runEffectsUntilIdle, clock)
  }
}

/// `demo record [--out FILE] [--sessions N]`: runs the scripted session, `N` times in a
/// row, and records it.
struct RecordCommand {
  var path = "session.jsonl"
  var sessions = 1
  /// The most sessions `--sessions` takes: 100,000 make a log of about 800 MB (8 KB each), and
  /// a count past that ran on until the disk was full (one near `Int.max` for ever).
  static let maximumSessions = 100_000
  /// The session to record, once per session: ``Script/run(_:settle:)``; tests put one that
  /// fails in its place.
  var script: @MainActor (StoreOf<AppFeature>, _ settle: () -> Void) throws -> Void = Script.run

  static func parse(_ arguments: [String]) throws -> RecordCommand {
    var command = RecordCommand()
    var remaining = arguments[...]
    var seen = SeenOptions(usage: Usage.record)
    while let argument = remaining.popFirst() {
      switch argument {
      case "-h", "--help":
        throw HelpRequested(text: Usage.record)
      case "--out":
        try seen.note(argument)
        guard let value = remaining.popFirst() else {
          throw UsageError(message: "--out needs a FILE.", usage: Usage.record)
        }
        guard !value.hasPrefix("-") else {
          // An option forgotten its value, more likely than a file named so.
          throw UsageError(
            message: """
              --out needs a FILE, and \(LogText.quoted(value)) starts with "-", as options do: \
              to record to a file whose name starts with "-", write it as \
              \(LogText.quoted("./" + value)).
              """, usage: Usage.record)
        }
        command.path = value
      case "--sessions":
        try seen.note(argument)
        command.sessions = try OptionValue.number(
          remaining.popFirst(), for: argument, atLeast: 1, atMost: maximumSessions,
          else: "--sessions needs a count of sessions", usage: Usage.record)
      case "--":
        // Ends the options, as in the other commands; record takes no FILE after it.
        if let extra = remaining.first { throw unexpected(extra) }
      case _ where argument.hasPrefix("-"):
        throw UsageError(
          message: "unknown option \(LogText.quoted(argument)).", usage: Usage.record)
      default:
        throw unexpected(argument)
      }
    }
    return command
  }

  /// The error for an argument `record` does not take: a FILE, most likely, given as
  /// `replay` and `verify` take theirs.
  private static func unexpected(_ argument: String) -> UsageError {
    UsageError(
      message: "unexpected argument \(LogText.quoted(argument)): record writes to --out FILE.",
      usage: Usage.record)
  }

  @MainActor
  func run(output: Output) throws -> Int32 {
    let (store, settle, clock) = SampleApp.liveStore()
    let recorder = try store.recordActions(
      to: path, feature: SampleApp.feature, checkpointInterval: 10,
      time: { Double(clock.now.offset.components.seconds) })
    for session in 1...sessions {
      do {
        try script(store, settle)
      } catch {
        // The log ends with a checkpoint of the state the session failed in and a line saying
        // why it stops there, not as if cut short (nor as a whole session).
        return failed(error, inSession: session, recorder: recorder, output: output)
      }
    }
    try recorder.finish()
    let summary = "Recorded \(recorder.actionCount) actions to \(LogText.escaped(path))."
    // Recorded to standard output (`--out /dev/stdout`), the summary would end the log.
    if Self.isStandardOutput(path) { output.error(summary) } else { output.line(summary) }
    return 0
  }

  /// Stops `recorder` on the error the scripted session threw, and reports both; returns 2.
  /// The error is printed as a replay shows the log's stop line: control characters
  /// escaped, and cut to 2,000 characters.
  @MainActor
  private func failed(
    _ error: any Error, inSession session: Int,
    recorder: ActionLogRecorder<AppFeature.State, AppFeature.Action>, output: Output
  ) -> Int32 {
    let count = recorder.actionCount
    let which = sessions > 1 ? "session \(session) of \(sessions)" : "the session"
    // The log's stop line holds the error as it is (the recorder cuts it, and a replay
    // escapes it); the terminal gets it escaped and cut the same way.
    let reason = LogText.escaped("\(error)", limit: 2000)
    let log =
      if let problem = recorder.stop(because: "the scripted session failed: \(error)") {
        "The log could not say so: \(problem)"
      } else if count == 0 {
        """
        The log at \(LogText.escaped(path)) holds no action, and a last line saying that the \
        recording stopped, and why.
        """
      } else {
        """
        The log at \(LogText.escaped(path)) holds the \(count) action(s) recorded, a \
        checkpoint of the state the session failed in, and a last line saying that the \
        recording stopped, and why.
        """
      }
    output.error("demo: \(which) failed after action \(count): \(reason)\n\(log)")
    return 2
  }

  /// Whether `path` is the file standard output writes to.
  private static func isStandardOutput(_ path: String) -> Bool {
    var file = stat()
    var standardOutput = stat()
    return stat(path, &file) == 0 && fstat(STDOUT_FILENO, &standardOutput) == 0
      && file.st_dev == standardOutput.st_dev && file.st_ino == standardOutput.st_ino
  }
}

/// The scripted session: sign in, fill the cart, edit an item through its screen, rename
/// the cart, remove an item, check out, and leave.
///
/// A session after the first starts where the last one left the app, signed in and in the
/// background: it signs out (which resets the cart) and comes back to the foreground first,
/// so that it signs in, renames and leaves again rather than being ignored. The first
/// session sends neither, so one session records the same log as before they were added.
enum Script {
  @MainActor
  static func run(_ store: StoreOf<AppFeature>, settle: () -> Void) throws {
    func send(_ action: AppFeature.Action) {
      store.send(action)
      settle()
    }
    if store.account.isSignedIn { send(.account(.signOutTapped)) }
    if store.account.lifecycle.scenePhase != .active {
      send(.account(.lifecycle(.scenePhaseChanged(.active))))
    }
    send(.account(.lifecycle(.taskStarted)))
    send(.account(.usernameChanged("ada")))
    send(.account(.passwordChanged("secret")))
    send(.account(.signInTapped))
    for name in ["Tea", "Milk", "Bread"] {
      send(.cart(.addItemTapped(name: name)))
    }
    let ids = store.cart.items.ids.suffix(3)
    guard ids.count == 3 else { throw ScriptError.unexpected("three items in the cart") }
    let (tea, bread) = (ids[ids.startIndex], ids[ids.startIndex + 2])
    send(.cart(.rowTapped(tea)))
    send(.cart(.items(.element(id: tea, action: .quantityStepped(by: 1)))))
    send(.cart(.items(.element(id: tea, action: .noteChanged("green, loose leaf")))))
    send(.cart(.path(.popFrom(id: store.cart.path.ids[0]))))
    send(.cart(.editTitleTapped))
    send(.cart(.titleEditor(.presented(.draftChanged("Groceries")))))
    send(.cart(.titleEditor(.presented(.saveTapped))))
    send(.cart(.items(.element(id: bread, action: .removeTapped))))
    send(.cart(.checkoutTapped))
    send(.cart(.alertDismissed))
    send(.account(.lifecycle(.scenePhaseChanged(.background))))
    send(.account(.lifecycle(.taskEnded)))
  }
}

enum ScriptError: Error, CustomStringConvertible {
  case unexpected(String)
  var description: String {
    switch self {
    case .unexpected(let what): "the scripted session expected \(what)."
    }
  }
}
