/// How strictly a ``TestStore`` checks a test.
public enum Exhaustivity: Sendable, Hashable {
  /// Every state change must be asserted, every action an effect feeds back must be received
  /// in order, and no effect may be running when the test ends. The default.
  case on
  /// Assertion closures are checked against the actual state, and only what they set must
  /// match, and a step without one checks nothing. A closure runs on the state after the
  /// step, so it sets values (`$0.count = 2`); one that changes a value by what it is
  /// (`$0.count += 1`) counts the step's change twice and fails, and a failing step that
  /// changed the state reminds of it. Where `==` finds the expected and the
  /// actual state unequal, a step with a closure still matches when both are equal field by
  /// field, a NaN taken as equal to a NaN (in an array or a dictionary too): read through
  /// `Mirror`, each field compared by its own `==`, an object that is not `Equatable` by
  /// identity. What that walk cannot read whole (a value with a mirror of its own, a set
  /// holding the NaN) fails the step as before. Actions that
  /// were not received, and effects still running, are allowed (each `send` drops the
  /// received actions not yet asserted). For integration tests that care about the outcome,
  /// not every step.
  ///
  /// The mode can change in the middle of a test: a step is checked in the mode in force when
  /// it runs, and `finish()` checks what is left in the mode in force then. Actions that the
  /// effects of a non-exhaustive step fed back are still waiting when the mode is turned back
  /// on: the next exhaustive step fails on them unless the test receives them or calls
  /// ``TestStore/skipReceivedActions(fileID:filePath:line:column:)`` first.
  case off
}
