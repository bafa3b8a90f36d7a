import Effects
import Store

extension TestStore {
  /// Checks one step's state change against the test's assertion and reports any mismatch.
  func checkState(
    before: State,
    after: State,
    assert: ((inout State) throws -> Void)?,
    step: @autoclosure () -> String,
    action: Action,
    warned: Bool,
    at location: TestLocation
  ) {
    // Non-exhaustive, a step without a closure asserts nothing: the expected state is the
    // actual one, which can differ from itself only through a NaN in it.
    guard exhaustivity == .on || assert != nil else { return }
    var expected = exhaustivity == .on ? before : after
    if let assert {
      do {
        try assert(&expected)
      } catch {
        // A `#require` that failed recorded its own failure, at its line, before it threw:
        // reported again here, the step failed twice, the second time naming the error's
        // innards (`ExpectationFailedError(expectation: …)`).
        if !wasRecordedByItsThrower(error) {
          reportFailure("The assertion closure of \(step()) threw: \(error)", at: location)
        }
        return
      }
    }
    if expected != after {
      // Non-exhaustive, the expected state is the actual one with what the closure set: a
      // NaN it left alone (equal to nothing, an equal copy or itself included) matches the
      // same NaN, the rest as `==` compares it.
      if exhaustivity == .off, areEqualDespiteNaN(expected, after) { return }
      guard
        let difference = StateDiff.diff(
          expected: expected, actual: after, changeLimit: diffChangeLimit)
      else {
        let isUnasserted = exhaustivity == .on && assert == nil
        reportFailure(
          Self.printsTheSame(step: step(), after: after, isUnasserted: isUnasserted),
          at: location)
        return
      }
      let headline =
        exhaustivity == .on && assert == nil
        ? "The state changed after \(step()), but no assertion closure was given."
        : "The state after \(step()) differs from the expected state."
      // An action for a child that changed nothing, where the test expected a change, and
      // raised no warning (an action for a row that is not there does): the operator that
      // hands it on may be missing.
      let unrouted =
        if !warned, let route = Messages.childRoute(of: action), before == after {
          Messages.unroutedChildAction(route: route)
        } else {
          ""
        }
      // Non-exhaustive, the closure ran on the state after the step: one that changes a value
      // by what it is counts the step's change twice. Told whenever the step changed the
      // state, as a reminder: running the closure again on the state before, to see whether
      // that matches, could trap (`$0.rows[id: 3]!` for a row the step added).
      let relative = exhaustivity == .off && assert != nil && before != after
      let reminder = relative ? Messages.relativeChange : ""
      reportFailure(
        """
        \(headline) (- expected, + actual)
        \(difference)\(Self.hint(for: difference))\(unrouted)\(reminder)
        """,
        at: location
      )
    } else if exhaustivity == .on, assert != nil, before == after {
      reportFailure(
        """
        Expected the state to change after \(step()), but it did not change. If no change is \
        expected, leave out the assertion closure.
        """,
        at: location
      )
    }
  }

  /// The failure for states that `==` tells apart but that print the same. A state not equal
  /// to itself (a NaN in it, or an `==` that is not reflexive) is named as such: no expected
  /// state can ever match it, whatever the step changed.
  ///
  /// - Parameters:
  ///   - step: The step's name, such as `send(Feature.Action.tapped)`.
  ///   - after: The state after the step.
  ///   - isUnasserted: Whether the state was expected not to change, as no assertion closure
  ///     was given.
  static func printsTheSame(step: String, after: State, isUnasserted: Bool) -> String {
    guard after == after else {
      return """
        The state after \(step) is not equal to itself (a NaN?), so no expected state can \
        match it, although it prints the same as the expected state. A floating-point NaN is \
        never equal to anything, itself included; an `==` that is not reflexive does the same. \
        Keep NaN out of the state (store an optional, or compare with a tolerance in a custom \
        `==`).
        """
    }
    let headline =
      isUnasserted
      ? "The state changed after \(step), but no assertion closure was given"
      : "The state after \(step) differs from the expected state"
    return """
      \(headline), although both print the same: they differ in something the dump does not \
      show (deeper than it goes, or a value whose description hides the difference, such as \
      an object compared by identity). `==` says they differ.
      """
  }

  /// Advice for a diff whose only changed lines are a stack's next id, or its next id and
  /// the ids of screens that are otherwise the same: the expected stack was most likely
  /// assigned anew (`$0.path = StackState()`) instead of changed as the reducer changed it, so
  /// it numbers its screens and its next push differently.
  static func hint(for difference: String) -> String {
    let lines = difference.split(separator: "\n")
    let changedLines = lines.indices.filter { lines[$0].hasPrefix("-") || lines[$0].hasPrefix("+") }
    guard !changedLines.isEmpty else { return "" }
    let changed = changedLines.map { lines[$0] }
    let content = changed.map { $0.dropFirst().drop(while: \.isWhitespace) }
    let openers = openers(of: lines)
    // Whether the line at `index` is a property of a stack: the nearest line above it that
    // is indented less opens a `StackState` (a feature's own `nextID` is not a stack's).
    func isInStack(_ index: Int) -> Bool {
      guard let opener = openers[index] else { return false }
      return lines[opener].contains("StackState<")
    }
    // A stack's next id, among the changed lines; a screen's own `nextID` is its content.
    let isStackNextID = zip(changedLines, content).map { index, text in
      text.hasPrefix("nextID: ") && isInStack(index)
    }
    if isStackNextID.allSatisfy({ $0 }) {
      return """

        Only a next id differs (`nextID`, a stack's `nextElementID`). A StackState is equal \
        to another only if its next push would get the same id: change the expected stack as \
        the reducer did (`$0.path.pop(from: id)`, `$0.path.append(screen)`) instead of \
        assigning a new one.
        """
    }
    if let reordered = orderHint(lines: lines, changedLines: changedLines, openers: openers) {
      return reordered
    }
    // The screens' lines without their ids, removed and inserted: the same, in order. A
    // screen whose state spans lines shows its first line under its id, and the rest as they
    // are.
    func screens(_ sign: Character) -> (lines: [Substring], screenCount: Int) {
      var lines: [Substring] = []
      var screenCount = 0
      for ((line, text), isNextID) in zip(zip(changed, content), isStackNextID)
      where line.first == sign {
        if isNextID { continue }
        if text.hasPrefix("[id: #"), let end = text.firstIndex(of: "]") {
          screenCount += 1
          lines.append(text[end...])
        } else {
          lines.append(text)
        }
      }
      return (lines, screenCount)
    }
    let removed = screens("-")
    let inserted = screens("+")
    guard removed.screenCount > 0, removed == inserted else { return "" }
    return """

      Only the stack's ids differ: its screens are the same, but the reducer pushed them with \
      other ids (each push takes the stack's next id, never one used before). Change the \
      expected stack as the reducer did (`$0.path.pop(from: id)`, `$0.path.append(screen)`) \
      instead of assigning a new one.
      """
  }

  /// Advice for a diff that only moves rows of one identified collection: every change is a
  /// whole row (`[id: …]` and the lines under it) removed at one place and the same row, line
  /// for line, inserted at another. The state holds them in another order than the expected
  /// state (a sort, or a response's order). Without it, a moved row shows as removed and added
  /// back, the same field for field.
  ///
  /// No advice when changes were left out of the diff (it cannot see them), when any line
  /// changed in place (a field of a row that did not move), for rows of different
  /// collections, or for a stack's screens (`[id: #…]`), which have advice of their own.
  ///
  /// - Parameters:
  ///   - lines: The lines of the diff.
  ///   - changedLines: The indices of the lines marked `-` or `+`, in order.
  ///   - openers: Each line's opener, as ``openers(of:)`` finds them.
  static func orderHint(lines: [Substring], changedLines: [Int], openers: [Int?]) -> String? {
    guard !lines.contains(where: { $0.contains(" left out)") }) else { return nil }
    func content(_ index: Int) -> Substring {
      lines[index].dropFirst().drop(while: \.isWhitespace)
    }
    // Each changed line belongs to the block of the row it lies in: a changed `[id: …]` line,
    // the changed lines of the same sign below it, indented deeper, and the line that closes
    // it, at its own depth.
    var blocks: [(sign: Character, opener: Int?, text: String)] = []
    var index = 0
    while index < changedLines.count {
      let head = changedLines[index]
      let sign = lines[head].first ?? " "
      guard content(head).hasPrefix("[id: "), !content(head).hasPrefix("[id: #") else {
        return nil
      }
      let depth = indentation(lines[head])
      var text = String(content(head))
      var next = index + 1
      while next < changedLines.count, changedLines[next] == changedLines[next - 1] + 1,
        lines[changedLines[next]].first == sign
      {
        let line = changedLines[next]
        let closes =
          indentation(lines[line]) == depth
          && (content(line).hasPrefix(")") || content(line).hasPrefix("]"))
        guard indentation(lines[line]) > depth || closes else { break }
        text += "\n" + content(line)
        next += 1
        if closes { break }
      }
      blocks.append((sign, openers[head], text))
      index = next
    }
    let removed = blocks.filter { $0.sign == "-" }.map(\.text).sorted()
    let inserted = blocks.filter { $0.sign == "+" }.map(\.text).sorted()
    guard !removed.isEmpty, removed == inserted else { return nil }
    let openers = Set(blocks.map(\.opener))
    guard openers.count == 1, let only = openers.first, let opener = only else { return nil }
    let name = content(opener).prefix { $0 != ":" }
    let path = name.isEmpty || name.contains(" ") ? "the collection" : "`\(name)`"
    return """

      Only the order differs: \(path) holds the same elements on both sides, at other \
      positions. The state has them in the order the `+` lines show (a reducer's sort or \
      move, or a response that listed them in that order): write the expected elements in \
      that order, or move them the same way (`sort(by:)`, `move(fromOffsets:toOffset:)`, \
      `swapAt(_:_:)`).
      """
  }

  /// For each line of a diff, the index of the nearest line above it that is indented less:
  /// the line that opens the container it lies in; `nil` for a line with none above it.
  ///
  /// Found in one pass, with the lines still open kept on a stack. Looking back from each line
  /// took time in the square of the diff's length: a whole diff (`diffChangeLimit` set to
  /// `nil`) of a thousand rows replaced by others, whose lines all look back to the list's
  /// opening line, took 15 seconds to advise on, and of 4,000 rows almost four minutes.
  ///
  /// - Complexity: O(*n*) for *n* lines; each line is read once.
  static func openers<Lines: RandomAccessCollection<Substring>>(of lines: Lines) -> [Int?]
  where Lines.Index == Int {
    var openers: [Int?] = []
    openers.reserveCapacity(lines.count)
    // The lines that can still open a later one, each indented deeper than the one below it.
    var open: [(index: Int, depth: Int)] = []
    for index in lines.indices {
      let depth = indentation(lines[index])
      while let last = open.last, last.depth >= depth { open.removeLast() }
      openers.append(open.last?.index)
      open.append((index, depth))
    }
    return openers
  }

  /// How deep a line of a diff lies: the spaces after its sign (`-`, `+` or a space).
  static func indentation(_ line: Substring) -> Int {
    line.dropFirst().prefix { $0 == " " }.count
  }

  /// Settles effect work and waits, up to the timeout, until `isDone` holds.
  ///
  /// - Parameters:
  ///   - isDone: What to wait for.
  ///   - timeout: How long to wait, in real time, for work the store cannot run itself.
  ///   - stopAtTestClocks: Whether to stop waiting, too, once every effect still at work
  ///     sleeps on a test clock: then only the test can move them on.
  /// - Returns: Whether `isDone` held in time.
  func settle(
    until isDone: () -> Bool, timeout: Duration, stopAtTestClocks: Bool = false
  ) async -> Bool {
    let clock = ContinuousClock()
    // A timeout of a century or more waits as long as it takes: `now` plus a timeout near
    // `Duration`'s limit (`Duration(attoseconds: .max)`, to say "forever") would overflow.
    let deadline = timeout < .seconds(3_155_760_000) ? clock.now.advanced(by: timeout) : nil
    while true {
      let generation = signal.generation
      await settleIncludingMainActor()
      if isDone() { return true }
      let isIdle =
        runtime.runningWork.isEmpty && !executor.hasWork && runtime.inbox.isEmpty
      if isIdle { return false }
      if stopAtTestClocks && isWaitingOnlyForTestClocks { return false }
      // A cancelled test (past its time limit, say) stops waiting: its sleeps would end at
      // once, and the loop would spin until the deadline.
      if Task.isCancelled { return false }
      let remaining = deadline.map { clock.now.duration(to: $0) } ?? EventSignal.longestWait
      if remaining <= .zero { return false }
      _ = await signal.wait(after: generation, timeout: remaining)
    }
  }

  /// Whether every effect still at work sleeps on a test clock that must advance to wake it,
  /// and nothing else is left to run: no job on the test executor, no action sent.
  ///
  /// A concatenation waiting for its part, or an effect a throttle window holds back, is
  /// judged by what it waits for, which is listed too. Only the effect's own task counts: a
  /// child task asleep on a test clock (a timeout raced against work elsewhere) does not stop
  /// the effect from ending, so an effect whose own task waits for its children is waited
  /// for. One whose own task sleeps on a test clock is taken for asleep, whatever its child
  /// tasks do.
  var isWaitingOnlyForTestClocks: Bool {
    guard !executor.hasWork, runtime.inbox.isEmpty else { return false }
    let waiting = runtime.runningWork.filter { $0.kind != .sequence }
    return !waiting.isEmpty
      && waiting.allSatisfy { record in
        // A cancelled effect is ending, wherever its task resumes.
        guard !record.isCancelled else { return false }
        let waits = record.ownTaskTestClockWaits
        // A deadline that has passed is a sleeper waking now.
        return !waits.isEmpty && waits.allSatisfy { $0 > .zero }
      }
  }
}
