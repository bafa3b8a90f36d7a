import Effects
import Testing

@testable import Store

@MainActor
@Suite struct EffectCancellationTests {
  let clock = TestClock()

  /// Each `start(name)` sleeps a second, then records "<name> done", cancellable under `id`.
  nonisolated func feature(id: @escaping @Sendable (String) -> String, cancelInFlight: Bool)
    -> LogFeature
  {
    LogFeature { [clock] name in
      .run { send in
        try await clock.sleep(for: .seconds(1))
        send(.record("\(name) done"))
      }
      .cancellable(id: id(name), cancelInFlight: cancelInFlight)
    }
  }

  /// Effects cancelled together wake, to clean up, in the order they started, whatever the
  /// process's hash seed: by id, by the end of their lifetime, and with the store's task.
  @Test(arguments: ["id", "lifetime", "task"])
  func effectsCancelledTogetherWakeInTheOrderTheyStarted(by: String) {
    let cleanups = Locked<[String]>([])
    let harness = Harness(
      initialState: LogFeature.State(),
      reducer: LogFeature { [clock] name in
        if name == "end" { return .endLifetime(of: "screen") }
        guard name == "many" else { return .none }
        let runs = (0..<24).map { index in
          Effect<LogFeature.Action>.run { _ in
            defer { cleanups.withLock { $0.append("\(index)") } }
            try await clock.sleep(for: .seconds(1))
          }
          .cancellable(id: "work")
        }
        return by == "lifetime" ? .merge(runs).scoped(to: "screen", token: nil) : .merge(runs)
      }
    )
    let task = harness.send(.start("many"))
    #expect(clock.sleeperCount == 24)
    switch by {
    case "id": harness.send(.stop("work"))
    case "lifetime": harness.send(.start("end"))
    default: task.cancel()
    }
    harness.settle()
    #expect(cleanups.withLock { $0 } == (0..<24).map { "\($0)" })
  }

  @Test func cancelInFlightCancelsThePreviousEffectWithTheSameID() async {
    let harness = Harness(
      initialState: LogFeature.State(),
      reducer: feature(id: { _ in "search" }, cancelInFlight: true)
    )
    harness.send(.start("a"))
    harness.send(.start("b"))
    #expect(clock.sleeperCount == 1)
    await clock.advance(by: .seconds(1))
    #expect(harness.state.log == ["start a", "start b", "b done"])
  }

  @Test func withoutCancelInFlightBothRun() async {
    let harness = Harness(
      initialState: LogFeature.State(),
      reducer: feature(id: { _ in "search" }, cancelInFlight: false)
    )
    harness.send(.start("a"))
    harness.send(.start("b"))
    await clock.advance(by: .seconds(1))
    #expect(harness.state.log == ["start a", "start b", "a done", "b done"])
  }

  @Test func cancelByIDCancelsOnlyThatID() async {
    let harness = Harness(
      initialState: LogFeature.State(),
      reducer: feature(id: { $0 }, cancelInFlight: false)
    )
    harness.send(.start("a"))
    harness.send(.start("b"))
    harness.send(.stop("a"))
    await clock.advance(by: .seconds(1))
    #expect(harness.state.log == ["start a", "start b", "stop a", "b done"])
  }

  @Test func anActionSentBeforeCancellationButNotYetReducedIsDropped() async {
    let gate = Gate()
    let harness = Harness(
      initialState: LogFeature.State(),
      reducer: LogFeature { name in
        .run { send in
          send(.record("early"))
          await gate.wait()
          send(.record("late"))
        }
        .cancellable(id: name)
      }
    )
    _ = harness.store.send(.start("a"))
    harness.executor.runUntilIdle()  // the effect sends "early", then parks
    _ = harness.store.send(.stop("a"))
    gate.open()
    harness.settle()
    #expect(harness.state.log == ["start a", "stop a"])
  }

  @Test func sameIDInTwoIdentitiesDoesNotCollide() async {
    // Two "rows" use the same cancellation id; scoping by identity keeps them apart.
    let harness = Harness(
      initialState: LogFeature.State(),
      reducer: LogFeature { [clock] name in
        if name.hasPrefix("cancel ") {
          return Effect.cancel(id: "load").scoped(to: String(name.dropFirst(7)))
        }
        return Effect.run { send in
          try await clock.sleep(for: .seconds(1))
          send(.record("\(name) loaded"))
        }
        .cancellable(id: "load")
        .scoped(to: name)
      }
    )
    harness.send(.start("row1"))
    harness.send(.start("row2"))
    harness.send(.start("cancel row1"))
    await clock.advance(by: .seconds(1))
    #expect(harness.state.log == ["start row1", "start row2", "start cancel row1", "row2 loaded"])
  }

  @Test func endingALifetimeCancelsItsEffectsAndNestedOnes() async {
    let harness = Harness(
      initialState: LogFeature.State(),
      reducer: LogFeature { [clock] name in
        switch name {
        case "end parent": return .endLifetime(of: "parent")
        default:
          let run = Effect<LogFeature.Action>.run { send in
            try await clock.sleep(for: .seconds(1))
            send(.record("\(name) done"))
          }
          return name == "nested"
            ? run.scoped(to: "child").scoped(to: "parent")
            : run.scoped(to: name)
        }
      }
    )
    harness.send(.start("nested"))
    harness.send(.start("parent"))
    harness.send(.start("other"))
    harness.send(.start("end parent"))
    await clock.advance(by: .seconds(1))
    #expect(
      harness.state.log == [
        "start nested", "start parent", "start other", "start end parent", "other done",
      ]
    )
  }

  @Test func idsOfDifferentTypesWithEqualValuesDoNotCollide() {
    #expect(EffectID(1) != EffectID(Int64(1)))
    #expect(EffectID(1) == EffectID(1))
    #expect(EffectID(EffectID("a")) == EffectID("a"))
  }
}
