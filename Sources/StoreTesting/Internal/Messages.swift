import Effects
import Store

/// The texts of test store failures, kept together so they read alike.
enum Messages {
  /// `lines` as a bulleted list, one per line.
  ///
  /// A run of equal lines shows once, with its count (`Action.tick (3600 times)`), and past
  /// `limit` bullets the rest are counted, not listed: a timer left running for an hour of
  /// test time listed 3,600 lines, and `clock.run()` over one 100,000 (2 MB of failure).
  static func bulleted(_ lines: [String], limit: Int = 20) -> String {
    var runs: [(line: String, count: Int)] = []
    for line in lines {
      if let last = runs.last, last.line == line {
        runs[runs.count - 1].count += 1
      } else {
        runs.append((line, 1))
      }
    }
    let shown = runs.prefix(limit).map { run in
      run.count == 1 ? "  • \(run.line)" : "  • \(run.line) (\(run.count) times)"
    }
    let rest = runs.dropFirst(limit).reduce(0) { $0 + $1.count }
    let more = rest == 0 ? [] : ["  … and \(rest) more"]
    return (shown + more).joined(separator: "\n")
  }

  /// `count` and `noun`, made plural unless `count` is 1: "1 effect", "2 effects".
  static func counted(_ count: Int, _ noun: String) -> String {
    "\(count) \(noun)\(count == 1 ? "" : "s")"
  }

  /// An action described for a failure message, with a description longer than a few lines
  /// worth (a long string in its payload) cut short, saying how many characters were left out.
  static func action(_ action: any Sendable) -> String {
    TextElision.single(Effects.describe(action), limit: 1_000)
  }

  /// A step's name for a headline, such as `send(List.Action.rows(.element(id: 3, action:
  /// .toggled)))`, with an action longer than a line cut short, to its first 100 characters
  /// (enough for the cases it is nested in): the diff below the headline shows what changed,
  /// and the test's source the whole action.
  static func step(_ kind: String, _ action: some Sendable) -> String {
    // With a count of what was left out, as other messages cut text (a bare "…" read as the
    // action's own text). `single` keeps `changedEnds` (80) fewer characters than its limit.
    "\(kind)(\(TextElision.single(Effects.describe(action), limit: 180)))"
  }

  /// A runtime warning as a test failure: where it was raised, and what it says.
  static func warning(_ warning: RuntimeWarning) -> String {
    // A warning the library raises on its own account has no line to point at.
    guard warning.line > 0 else { return "Runtime warning: \(warning.message)" }
    return "Runtime warning at \(warning.fileID):\(warning.line): \(warning.message)"
  }

  /// The running effects, a line each. A concatenation waiting for its current part is left
  /// out while that part is listed: it is the same effect, and the part names where it was
  /// created.
  static func describeRunning(_ records: [EffectRecord]) -> [String] {
    listed(records).map(describe)
  }

  /// The records of `records` a failure lists, as ``describeRunning(_:)`` does: the parts of
  /// concatenations rather than the sequences that drive them, when any part runs.
  static func listed(_ records: [EffectRecord]) -> [EffectRecord] {
    let parts = records.filter { $0.kind != .sequence }
    return parts.isEmpty ? records : parts
  }

  /// The failure for a received action that `==` tells apart from the expected one, though
  /// both print the same: one not equal to itself (a NaN in its payload) can never be
  /// received by value; otherwise they differ in something the dump does not show.
  static func unexpectedActionPrintingTheSame<Action: Equatable & Sendable>(_ actual: Action)
    -> String
  {
    guard actual == actual else {
      return """
        Received \(action(actual)), which is not equal to itself (a NaN?), so no expected \
        action can match it, although it prints the same as the expected one. A \
        floating-point NaN is never equal to anything, itself included. Receive it by its case \
        (a CaseKey) or with a predicate.
        """
    }
    return """
      Received an unexpected action, although both print the same: `==` tells them apart in \
      something the dump does not show (deeper than it goes, or a value whose description \
      hides the difference, such as an object compared by identity). Received: \
      \(action(actual))
      """
  }

  /// The steps by which a parent's reducer hands `action` on to a child, outermost first, each
  /// a case with the operator that hands it on: "`.tiles` (`.forEach(\\.…, action: .tiles)`)",
  /// or "`.board` (a `Scope`, `ifLet` or `ifCaseLet`)" for a case that carries another action.
  /// `nil` unless the action is for a child: for a row, a stack's screen or a presented child
  /// (an `IdentifiedAction`, a stack's `.element`, a `.presented`) somewhere down its cases.
  ///
  /// - Complexity: A mirror of each case on the way down, 32 at most.
  static func childRoute(of action: Any) -> [String]? {
    var value = action
    var steps: [String] = []
    // How many steps lead to the last case a collection, stack or presentation hands on:
    // cases after it may be a child's own (`.delegate(.saved)`), not a step.
    var routedSteps = 0
    for _ in 0..<32 {
      let mirror = Mirror(reflecting: value)
      guard mirror.displayStyle == .enum, let payload = mirror.children.first,
        let label = payload.label
      else { break }
      if let addressed = payload.value as? any ChildAddressedAction {
        // A push, a pop or a dismissal is the parent's operator's own: nothing to hand on.
        guard let routing = addressed.routingOperator else { return nil }
        steps.append("`.\(label)` (`.\(routing)(\\.…, action: .\(label))`)")
        routedSteps = steps.count
        // Into the child's action: the `action` of `element(id:action:)`, or `presented`'s.
        let child = Mirror(reflecting: payload.value).children.first?.value
        guard let child else { break }
        let fields = Mirror(reflecting: child)
        if fields.displayStyle == .tuple {
          guard let inner = fields.children.first(where: { $0.label == "action" }) else { break }
          value = inner.value
        } else {
          value = child
        }
        continue
      }
      guard Mirror(reflecting: payload.value).displayStyle == .enum else { break }
      steps.append("`.\(label)` (a `Scope`, `ifLet` or `ifCaseLet`)")
      value = payload.value
    }
    return routedSteps == 0 ? nil : Array(steps.prefix(routedSteps))
  }

  /// For an action for a child that changed nothing where the test expected a change (or
  /// changed nothing and started no effect, before a `receive` that found nothing): that
  /// either the child does nothing here, or a parent's body lacks the operator that hands it
  /// on at one of `route`'s steps (``childRoute(of:)``).
  ///
  /// - Parameters:
  ///   - route: The steps from the parent to the child.
  ///   - lead: What the action did, which the hint starts with.
  static func unroutedChildAction(
    route: [String], lead: String = "The action changed nothing"
  ) -> String {
    let steps = route.count == 1 ? "this step" : "one of these steps"
    return """

      \(lead), and it is for a child. Either the child's reducer does nothing here, or a \
      parent's body does not hand it on at \(steps), so that no reducer sees it (and nothing \
      warns): \(route.joined(separator: ", then ")).
      """
  }

  /// For a non-exhaustive step whose assertion closure does not match and which changed the
  /// state: the closure ran on the state after the step, so one that changes a value by what
  /// it is counts the step's change twice.
  static let relativeChange = """

    With exhaustivity off, the closure runs on the state after the step: if it changes a \
    value by what it is (`$0.count += 1`, `$0.items.append(item)`), that counts the step's \
    change twice, so set the value it should have instead (`$0.count = 3`).
    """

  /// For a `receive` that found nothing: the effects the test ended with a task's
  /// `cancel()` since such a failure last named them, of which one may be what would have
  /// sent the action, and how to keep such work running. Empty when there are none.
  static func cancelledEarlier(_ cancels: [TaskCancel]) -> String {
    guard !cancels.isEmpty else { return "" }
    let lines = cancels.map { cancel in
      """
      `cancel()` at \(cancel.location.fileID):\(cancel.location.line), of the task of \
      \(cancel.action), ended:
      \(bulleted(cancel.effects).split(separator: "\n").map { "  " + $0 }.joined(separator: "\n"))
      """
    }
    return """

      The test cancelled effects earlier, and one of them may be what would have sent it:
      \(bulleted(lines, limit: 4))
      Work that must outlive the screen whose task started it (a save its actions set off, \
      say) is returned with `.outlivingSendersTask()`: cancelling the task leaves it running.
      """
  }

  static func describe(_ record: EffectRecord) -> String {
    let site = record.site.map { " (created at \($0))" } ?? ""
    switch record.kind {
    case .task:
      // Waiting in vain for an effect that sleeps on a test clock: the clock must move.
      let asleep = record.testClockWaits.first.map {
        $0 > .zero ? ", asleep until a test clock advances \($0)" : ", waking on a test clock"
      }
      return "an effect started by \(Effects.describe(record.origin))\(site)\(asleep ?? "")"
    case .sequence:
      return "an effect started by \(Effects.describe(record.origin))\(site)"
    case .timer:
      // Only a window that holds an effect back is listed.
      let closing = record.testClockWaits.first.map {
        $0 > .zero ? ", closing when a test clock advances \($0)" : ", closing on a test clock"
      }
      let heldBack = record.heldBackOrigin.map { "the effect of \(Effects.describe($0))" }
      return """
        a throttle window opened by \(Effects.describe(record.origin)), holding back \
        \(heldBack ?? "the next effect")\(closing ?? "")
        """
    }
  }

  /// When the test's task is cancelled: a line saying that the wait for `what` was cut short
  /// by the cancellation. Empty otherwise.
  static func cancellationNote(waitingFor what: String) -> String {
    guard Task.isCancelled else { return "" }
    return "\nThe test's task was cancelled, so the store stopped waiting for \(what)."
  }

  /// Effect work that ran `jobs` jobs without a pause, while `running` ran.
  static func endlessWork(jobs: Int, running: [EffectRecord]) -> String {
    """
    Effects ran \(jobs) jobs without coming to a pause, so the store stopped running them \
    for now. Running:
    \(bulleted(describeSpinning(running)))
    An effect that loops on `Task.yield()`, or polls something, never waits on anything \
    the test controls. Make it wait (on a test clock's sleep, or an `AsyncStream` the test \
    feeds), or cancel it: the store runs it for a while at each later step, so that it can \
    see a cancellation and end.
    """
  }

  /// The effects among `running` that may be the one that never pauses.
  private static func describeSpinning(_ running: [EffectRecord]) -> [String] {
    // The effect that spins is awake: those asleep on a test clock are not it.
    let awake = running.filter { $0.testClockWaits.isEmpty }
    let lines = describeRunning(awake.isEmpty ? running : awake)
    // Its record may be between two states when the limit is hit (seen once in a loaded run).
    return lines.isEmpty ? ["an effect the store could not name at that moment"] : lines
  }

  static func endlessMainActorWork(rounds: Int, running: [EffectRecord]) -> String {
    """
    Effects on the main actor kept working through \(rounds) turns of the main actor \
    without coming to a pause, so the store stopped waiting for them for now. Running:
    \(bulleted(describeSpinning(running)))
    An effect that loops on the main actor (awaiting a client, or `Task.yield()`, at each \
    turn) never waits on anything the test controls. Make it wait (on a test clock's \
    sleep, or an `AsyncStream` the test feeds), or cancel it.
    """
  }

  /// For effects still running at the end of a test that the test cancelled with a task's
  /// `cancel()` (`count` of them): a line saying they ignore cancellation; empty for none.
  static func ignoresCancellation(_ count: Int) -> String {
    guard count > 0 else { return "" }
    let them = count == 1 ? "it" : "them"
    let they = count == 1 ? "it does" : "they do"
    return """

      The test cancelled \(count == 1 ? "one of them" : "\(count) of them") (a task's \
      `cancel()`, or `skipInFlightEffects()`), and \(they) not end: an effect that ignores \
      cancellation keeps running in the app after its screen goes away. Let \(them) see the cancellation (a cancellable \
      sleep, `try Task.checkCancellation()`, `Task.isCancelled`).
      """
  }

  static func stillRunning(_ records: [EffectRecord]) -> String {
    let lines = describeRunning(records)
    // Spoken of as one, or as several: "cancel it" under three effects read as a slip.
    let (it, its, itDoes) =
      lines.count == 1 ? ("it", "its", "it does") : ("them", "their", "they do")
    return """
      \(counted(lines.count, "effect")) still running at the end of the test:
      \(bulleted(lines))
      Effects must finish or be cancelled before a test ends. Cancel \(it) from the feature \
      (for example when \(its) screen goes away), advance the test clock past \(it), or call \
      `await store.skipInFlightEffects()` if \(itDoes) not matter to this test.
      """
  }

  /// For a wait in vain while effects run: the sleeps on `clocks` (the test clocks the feature
  /// holds) of tasks that no test store runs, which the test may have advanced the clock
  /// before. When no such sleep is known and an effect waits on something other than a test
  /// clock: the real clocks the feature holds (`realClocks`, where they are), which the
  /// test cannot advance, or else a paragraph saying what to look for: a stream or
  /// continuation the test drives, a task the store does not run that sleeps on a test clock
  /// (only when the feature holds none the store can see), and work on another thread, which
  /// is waited for in real time. Empty when none applies.
  static func sleepsOffTestExecutors(
    on clocks: [TestClock], realClocks: [String], running: [EffectRecord]
  ) -> String {
    let offTestExecutors = clocks.compactMap { clock -> (now: String, until: [String])? in
      let deadlines = clock.sleepsOffTestExecutors
      return deadlines.isEmpty ? nil : ("\(clock.now)", deadlines.map(\.description))
    }
    let advice = """
      reach its sleep after the test advanced the clock, and that advance wakes nothing. Wait \
      for its sleep before each advance: `await clock.waitForSleepers()`, then \
      `await clock.advance(by: ...)`.
      """
    guard offTestExecutors.isEmpty else {
      let count = offTestExecutors.reduce(0) { $0 + $1.until.count }
      let lines = offTestExecutors.map {
        "until \($0.until.joined(separator: ", ")) (the clock is at \($0.now))"
      }
      return """

        \(counted(count, "sleep")) on a TestClock of the feature \(count == 1 ? "is" : "are") in \
        a task the test store does not run (a `Task {}` or `Task.detached` in an effect or a \
        dependency), asleep
        \(bulleted(lines))
        Such a task runs on the global executor, not the test store's, so it can \(advice)
        """
    }
    let waitsElsewhere = running.contains { $0.kind == .task && $0.testClockWaits.isEmpty }
    guard waitsElsewhere else { return "" }
    if !realClocks.isEmpty {
      let holds = realClocks.count == 1 ? "a real clock" : "real clocks"
      return """

        The feature holds \(holds), which the test cannot advance:
        \(bulleted(realClocks))
        An effect asleep on one wakes in real time, if at all before the test gives up. Give \
        the feature a TestClock in the test (`let clock = TestClock()`, passed where the app \
        passes a ContinuousClock), and advance it: `await clock.advance(by: ...)`.
        """
    }
    let stream = """
      If an effect waits on a stream or a continuation that the test drives (an `AsyncStream` \
      a stub client returns, a callback), yield to it, finish it or cancel the effect before \
      this step.
      """
    // A sleep of such a task on a TestClock the feature holds is named above; with no test
    // clock in sight, the store cannot see one, so the line says to look for it.
    let unseenSleep = """
      If it waits for a task the test store does not run (a `Task {}` or `Task.detached` in an \
      effect or a dependency) that sleeps on a TestClock, that task can \(advice)
      """
    let elsewhere = """
      Work on another thread (a `DispatchQueue`, a `Task.detached`, an actor with an executor \
      of its own) is waited for in real time, up to the timeout: make the mock answer from \
      what the test drives, or pass a longer `timeout:`.
      """
    return "\n"
      + ([stream] + (clocks.isEmpty ? [unseenSleep] : []) + [elsewhere]).joined(separator: " ")
  }

  /// A step that dropped received actions a `receive` was waiting for, in non-exhaustive mode.
  struct Dropper {
    /// The step, such as `` `send(Feature.Action.noop)` ``.
    var step: String
    /// Whether the step is a `receive`, which skipped actions before its match.
    var isReceive: Bool
    /// Whether the step is a `receive` that failed, which dropped every received action.
    var isFailedReceive = false
    /// The dropped actions that the `receive` would have matched, described.
    var matches: [String]
  }

  /// In non-exhaustive mode: the steps that dropped actions a `receive` was waiting for.
  static func dropped(by steps: [Dropper]) -> String {
    let hasReceives = steps.contains(where: \.isReceive)
    let rule =
      if steps.contains(where: \.isFailedReceive) {
        """
        each `send` drops the received actions not yet asserted, each `receive` skips those \
        that arrived before the one it matches, and a `receive` that fails drops them all
        """
      } else if hasReceives {
        """
        each `send` drops the received actions not yet asserted, and each `receive` skips those \
        that arrived before the one it matches
        """
      } else {
        "each `send` drops the received actions not yet asserted"
      }
    let lines = steps.map {
      let verb = $0.isFailedReceive ? "failed and dropped" : $0.isReceive ? "skipped" : "dropped"
      return "\($0.step), which \(verb) " + $0.matches.joined(separator: ", ")
    }
    let advice =
      hasReceives
      ? "Receive them in the order they arrive, and before sending the next action."
      : "Receive them before sending the next action."
    return """
      In non-exhaustive mode, \(rule); matching ones were dropped by:
      \(bulleted(lines))
      \(advice)
      """
  }

  /// A note for a failure about what effects did: the feature's test clock is held by other
  /// live test stores too, as a clock shared between tests (a global, a `static let`) is, or
  /// one an earlier store of the same test still holds, so their advances wake this store's
  /// effects and this store's wake theirs. Empty otherwise.
  static func sharedClocks(_ clocks: [TestClock]) -> String {
    let others = clocks.map { $0.storeCount - 1 }.max() ?? 0
    guard others > 0 else { return "" }
    return """

      The feature's TestClock is held by \(counted(others, "other live test store")) too, and \
      a clock moves for every store that holds it: each store's advances wake the others' \
      effects. If the clock is shared between tests that run at the same time (a global, or a \
      `static let`), give each test a clock of its own; if the other store is an earlier one of \
      this test, release it first (a store holds its clock until it is released).
      """
  }

  /// An exhaustive test that never checked the dismissal its feature asked for.
  static func uncheckedDismissal(by origin: String) -> String {
    """
    The feature asked to be dismissed (\(origin) returned `.dismiss`), and the test did not \
    check it: a presenting parent would close the feature there. State it with \
    `#expect(store.isDismissed)` after that step. (If nothing presents this feature, as for \
    an app's root, its `.dismiss` closes nothing, and a live store warns.)
    """
  }

  static func unreceived(_ actions: [String], context: String) -> String {
    """
    \(context) \(counted(actions.count, "received action")) not yet asserted:
    \(bulleted(actions))
    Assert each with `await store.receive(...)`, or call `store.skipReceivedActions()`.
    """
  }
}
