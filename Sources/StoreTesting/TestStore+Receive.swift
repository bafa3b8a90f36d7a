import Effects
import Store

extension TestStore where Action: Equatable {
  /// Asserts that the next action an effect fed back is `expected`, and how it changed the
  /// state.
  ///
  /// Waits for the action when it has not arrived yet: effect work on the test executor runs
  /// at once, and work elsewhere is waited for up to `timeout`. It fails at once when every
  /// effect still running is asleep on a `TestClock`: only the test can wake those, by
  /// advancing the clock, and it is waiting here.
  ///
  /// - Parameters:
  ///   - expected: The action the store should have received.
  ///   - timeout: How long to wait for work outside the test executor; ``timeout`` by default.
  ///   - assert: Changes the expected state to match the state after the action.
  ///   - fileID: The file of the call, where failures are reported.
  ///   - filePath: The path of the file of the call.
  ///   - line: The line of the call.
  ///   - column: The column of the call.
  public func receive(
    _ expected: Action,
    timeout: Duration? = nil,
    assert: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    await receive(
      description: Messages.action(expected),
      matching: { $0 == expected },
      mismatch: { actual in
        guard
          let difference = StateDiff.diff(
            expected: expected, actual: actual, changeLimit: diffChangeLimit)
        else { return Messages.unexpectedActionPrintingTheSame(actual) }
        return "Received an unexpected action. (- expected, + received)\n\(difference)"
      },
      timeout: timeout,
      assert: assert,
      at: TestLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    )
  }
}

extension TestStore {
  /// Asserts that the next action an effect fed back satisfies `isMatching`, and how it
  /// changed the state.
  ///
  /// - Parameters:
  ///   - isMatching: Whether an action is the one expected.
  ///   - timeout: How long to wait for work outside the test executor; ``timeout`` by default.
  ///   - assert: Changes the expected state to match the state after the action.
  ///   - fileID: The file of the call, where failures are reported.
  ///   - filePath: The path of the file of the call.
  ///   - line: The line of the call.
  ///   - column: The column of the call.
  public func receive(
    _ isMatching: (Action) -> Bool,
    timeout: Duration? = nil,
    assert: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    await receive(
      description: "an action matching the predicate",
      matching: isMatching,
      mismatch: { "Received \(Messages.action($0)), which does not match the predicate." },
      timeout: timeout,
      assert: assert,
      at: TestLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    )
  }

  /// Asserts that the next action an effect fed back is of the case `actionCase`, and how it
  /// changed the state.
  ///
  /// ```swift
  /// await store.receive(.searchResponse) { $0.results = ["Ada"] }  // a CaseKey
  /// ```
  ///
  /// - Parameters:
  ///   - actionCase: The case the action should be.
  ///   - timeout: How long to wait for work outside the test executor; ``timeout`` by default.
  ///   - assert: Changes the expected state to match the state after the action.
  ///   - fileID: The file of the call, where failures are reported.
  ///   - filePath: The path of the file of the call.
  ///   - line: The line of the call.
  ///   - column: The column of the call.
  public func receive<Value>(
    _ actionCase: CaseKey<Action, Value>,
    timeout: Duration? = nil,
    assert: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    await receive(
      description: CaseName.expectedAction(actionCase),
      matching: { actionCase.extract($0) != nil },
      mismatch: { CaseName.mismatch(received: Messages.action($0), key: actionCase) },
      timeout: timeout,
      assert: assert,
      at: TestLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    )
  }

  /// A `receive` as the failures that name it as a step say it: what it expected, and where.
  static func receiveStep(_ description: String, at location: TestLocation) -> String {
    "`receive` of \(description) at \(location.fileID):\(location.line)"
  }

  func receive(
    description: @autoclosure () -> String,
    matching: (Action) -> Bool,
    mismatch: (Action) -> String,
    timeout: Duration?,
    assert: ((inout State) throws -> Void)?,
    at location: TestLocation
  ) async {
    let timeout = timeout ?? self.timeout
    let isExhaustive = exhaustivity == .on
    // Whether it matches or fails, this receive settles what earlier sends dropped; what
    // earlier receives skipped is kept until a receive fails, which names it if it matches.
    let earlierDrops = droppedBy
    droppedBy = earlierDrops.filter(\.isReceive)
    // Effects asleep on a test clock stay asleep however long the store waits: only the test
    // advances the clock, and it is waiting here.
    var arrived = await settle(
      until: { isExhaustive ? !received.isEmpty : received.contains { matching($0.action) } },
      timeout: timeout,
      stopAtTestClocks: true
    )
    // Non-exhaustive, where the first match lies: looked for once more, and taken as found
    // only if found then, for a predicate that answers otherwise when asked again (one that
    // counts its calls) stopped the program when the match it had found was gone.
    let firstMatch = isExhaustive ? nil : received.firstIndex { matching($0.action) }
    if !isExhaustive, firstMatch == nil { arrived = false }
    let warned = reportWarnings(at: location)
    guard arrived else {
      let running = runtime.runningWork
      // Non-exhaustive, actions that do not match may have arrived, listed below: none that
      // matches did.
      let nothing = isExhaustive || received.isEmpty ? "nothing" : "nothing that matches"
      let why =
        if Task.isCancelled {
          "the test's task was cancelled, and the store stopped waiting before it arrived"
        } else if isWaitingOnlyForTestClocks {
          """
          \(nothing) arrived, and every effect still running is asleep on a test clock, which \
          only the test can advance, so none can arrive until it does
          """
        } else {
          "\(nothing) arrived within \(timeout)"
        }
      // With no effect running, the store did not wait: nothing could arrive.
      let headline =
        running.isEmpty
        ? """
        Expected to receive \(description()), but \(nothing) arrived, and no effect is running, \
        so none can arrive.
        """
        : """
        Expected to receive \(description()), but \(why). Effects still running:
        \(Messages.bulleted(Messages.describeRunning(running)))\(
          Messages.sleepsOffTestExecutors(
            on: testClocks, realClocks: realClocks, running: running))\(
          Messages.sharedClocks(testClocks))
        """
      let skipped =
        isExhaustive || received.isEmpty
        ? ""
        : "\nReceived but not matching:\n\(Messages.bulleted(received.map { Messages.action($0.action) }))"
      // The steps that dropped an action this receive would have matched.
      droppedBy = []
      let droppers = earlierDrops.compactMap { drop -> Messages.Dropper? in
        let matches = drop.actions.filter(matching)
        return matches.isEmpty
          ? nil
          : Messages.Dropper(
            step: drop.step, isReceive: drop.isReceive, isFailedReceive: drop.isFailedReceive,
            matches: matches.map { Messages.action($0) }
          )
      }
      let dropped = isExhaustive || droppers.isEmpty ? "" : "\n" + Messages.dropped(by: droppers)
      // Effects the test cancelled earlier may be what would have sent it: named once.
      let cancelled = Messages.cancelledEarlier(cancels)
      cancels = []
      // With nothing running, a child's action that did nothing may be why.
      let inert = running.isEmpty ? inertChildSend : ""
      inertChildSend = ""
      reportFailure(
        headline + skipped + dropped + cancelled + inert,
        at: location
      )
      if !isExhaustive {
        // Dropped unasserted, as a `send` drops them: the state they left is the one the
        // next step starts from, should the test turn exhaustivity back on. A later receive
        // that waits for one of them names this step, as it names a receive that skipped.
        if !received.isEmpty {
          let step = Self.receiveStep(description(), at: location)
          noteDrop(
            Drop(
              step: step, isReceive: true, isFailedReceive: true,
              actions: received.map(\.action)))
        }
        removeAllReceived()
        baseline = root.untrackedState
      }
      return
    }
    // The state the matched action was reduced on: what the step changed is told from it, not
    // from the state before the actions it skipped (a reminder of changes made by what a value
    // is, for a step that changed nothing but followed one that did).
    var before = baseline
    if let match = firstMatch {
      if match > 0 { before = received[match - 1].state }
      // The actions before the first match are dropped unasserted.
      let skipped = (0..<match).map { _ in removeReceived(at: 0).action }
      if !skipped.isEmpty {
        let step = Self.receiveStep(description(), at: location)
        noteDrop(Drop(step: step, isReceive: true, actions: skipped))
      }
    }
    let next = removeReceived(at: 0)
    guard matching(next.action) else {
      // The expected action may just be later in line (two receives swapped): say so.
      var order = ""
      if let later = received.firstIndex(where: { matching($0.action) }) {
        let arrived = [next.action] + received.prefix(later + 1).map(\.action)
        order = """

          The expected action was received too, after this one. The actions arrived in this \
          order; receive them in it:
          \(Messages.bulleted(arrived.map { Messages.action($0) }))
          """
      }
      // A receive after a swapped one fails for the swap, most likely.
      let follows =
        swappedReceive.map { earlier in
          """

          This may follow from the `receive` at \(earlier.fileID):\(earlier.line), which failed \
          because the actions arrived in another order: put the receives in the order they \
          arrived, and this one may pass.
          """
        } ?? ""
      swappedReceive = order.isEmpty ? nil : location
      reportFailure(mismatch(next.action) + order + follows, at: location)
      baseline = next.state
      return
    }
    swappedReceive = nil
    checkState(
      before: before,
      after: next.state,
      assert: assert,
      step: Messages.step("receive", next.action),
      action: next.action,
      warned: warned,
      at: location
    )
    baseline = next.state
  }
}

extension TestStore {
  /// Receiving an action by value needs an `Equatable` action type: this stands in for
  /// `receive(_:)` by value when the action type is not, so that the compiler says so, rather
  /// than trying the action as a `CaseKey` and reporting that the key type has no member of
  /// the case's name.
  ///
  /// - Parameters:
  ///   - expected: The action the store should have received.
  ///   - timeout: How long to wait for work outside the test executor.
  ///   - assert: Changes the expected state to match the state after the action.
  ///   - fileID: The file of the call.
  ///   - filePath: The path of the file of the call.
  ///   - line: The line of the call.
  ///   - column: The column of the call.
  @available(
    *, unavailable,
    message: """
      receiving an action by value needs an Equatable action type: make the feature's Action \
      Equatable, or receive it by its case (a CaseKey) or a predicate
      """
  )
  public func receive(
    _ expected: Action,
    timeout: Duration? = nil,
    assert: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    fatalError("unavailable")
  }
}
