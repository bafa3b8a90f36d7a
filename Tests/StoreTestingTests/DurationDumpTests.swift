import Store
import StoreTesting
import Testing

/// A value holding a delay.
private struct Timing: Equatable {
  var delay: Duration
}

/// A `Duration` prints its description, which goes through a `Double`: two durations that
/// differ below its precision printed the same, and a diff of them said that both print the
/// same. One whose description does not give it back prints its exact components too.
@Suite struct DurationDumpTests {
  @Test func aDurationItsDescriptionGivesBackPrintsOnlyIt() {
    #expect(StateDump.render(Duration.seconds(2)) == "2.0 seconds")
    #expect(StateDump.render(Duration.seconds(1.1)) == "1.1 seconds")
    #expect(StateDump.render(Duration.milliseconds(250)) == "0.25 seconds")
  }

  @Test func aDurationItsDescriptionRoundsPrintsItsComponents() {
    #expect(
      StateDump.render(Duration.milliseconds(1100))
        == "1.1 seconds (seconds: 1, attoseconds: 100000000000000000)")
    #expect(
      StateDump.render(Duration(secondsComponent: 1, attosecondsComponent: 1))
        == "1.0 seconds (seconds: 1, attoseconds: 1)")
    // The largest durations, whose count of seconds `.seconds(_:)` cannot take back.
    #expect(
      StateDump.render(Duration(secondsComponent: .max, attosecondsComponent: 0)).hasSuffix(
        "(seconds: 9223372036854775807, attoseconds: 0)"))
    #expect(
      StateDump.render(Duration(secondsComponent: .min, attosecondsComponent: 0)).hasSuffix(
        "(seconds: -9223372036854775808, attoseconds: 0)"))
    #expect(
      StateDump.render(Duration.milliseconds(-1100))
        == "-1.1 seconds (seconds: -1, attoseconds: -100000000000000000)")
  }

  @Test func durationsThatDifferBelowDoublePrecisionDiff() {
    #expect(
      StateDiff.diff(
        expected: Timing(delay: .seconds(1.1)), actual: Timing(delay: .milliseconds(1100))) == """
            Timing(
          -   delay: 1.1 seconds
          +   delay: 1.1 seconds (seconds: 1, attoseconds: 100000000000000000)
            )
          """)
  }
}
