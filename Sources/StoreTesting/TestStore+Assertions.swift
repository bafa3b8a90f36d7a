import Effects
import Store

extension TestStore {
  /// Checks one step's state change against the test's assertion and reports any mismatch.
  func checkState(
    before: State,
    after: State,
    assert: ((inout State) throws -> Void)?,
    step: @autoclosure () -> String,
    at location: TestLocation
  ) {
    var expected = exhaustivity == .on ? before : after
    if let assert {
      do {
        try assert(&expected)
      } catch {
        reportFailure("The assertion closure of \(step()) threw: \(error)", at: location)
        return
      }
    }
    if expected != after {
      let difference =
        StateDiff.diff(expected: expected, actual: after)
          ?? """
          The states print the same: they differ in something the dump does not show (deeper \
          than it goes, or a value whose description hides the difference). `==` says they \
          differ.
          """
      let headline =
        exhaustivity == .on && assert == nil
        ? "The state changed after \(step()), but no assertion closure was given."
        : "The state after \(step()) differs from the expected state."
      reportFailure(
        "\(headline) (- expected, + actual)\n\(difference)\(Self.hint(for: difference))",
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

  /// Advice for a diff whose only changed lines are a stack's next id: the expected stack was
  /// most likely assigned anew (`$0.path = StackState()`) instead of changed as the reducer
  /// changed it, so it would number its next push differently.
  static func hint(for difference: String) -> String {
    let changed = difference.split(separator: "\n").filter {
      $0.hasPrefix("-") || $0.hasPrefix("+")
    }
    let onlyNextIDs =
      !changed.isEmpty
      && changed.allSatisfy { $0.dropFirst().drop(while: \.isWhitespace).hasPrefix("nextID: ") }
    guard onlyNextIDs else { return "" }
    return """

      Only a next id differs. A StackState is equal to another only if its next push would \
      get the same id: change the expected stack as the reducer did (`$0.path.pop(from: id)`, \
      `$0.path.append(screen)`) instead of assigning a new one.
      """
  }

  /// Settles effect work and waits, up to the timeout, until `isDone` holds.
  ///
  /// - Returns: Whether `isDone` held in time.
  func settle(until isDone: () -> Bool, timeout: Duration) async -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: timeout)
    while true {
      let generation = signal.generation
      await settleIncludingMainActor()
      if isDone() { return true }
      let isIdle =
        runtime.runningCount == 0 && !executor.hasWork && runtime.inbox.isEmpty
      if isIdle { return false }
      let remaining = clock.now.duration(to: deadline)
      if remaining <= .zero { return false }
      _ = await signal.wait(after: generation, timeout: remaining)
    }
  }
}
