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

/// Rows whose effects note that their operation started: what the work of a removed row must
/// never do.
struct Starts: Reducer {
  struct State: Equatable {
    var rows: IdentifiedArrayOf<Item> = []
  }
  struct Item: Equatable, Identifiable, Sendable {
    let id: Int
  }
  enum Action: Sendable, Equatable {
    case rows(IdentifiedAction<Int, ItemAction>)
    case remove(Int)
  }
  enum ItemAction: Sendable, Equatable {
    case work
    /// Reports to the parent, which removes the row, then works.
    case reportThenWork
    case done
    case deleteMe
  }

  let started: Collected<String>

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .remove(let id), .rows(.element(let id, .deleteMe)):
        state.rows.remove(id: id)
      case .rows:
        break
      }
      return .none
    }
    .forEach(\.rows, action: .startsRows) {
      Reduce<Item, ItemAction> { [started] state, action in
        let work = Effect<ItemAction>.run { [id = state.id] send in
          started.append("row \(id)")
          send(.done)
        }
        switch action {
        case .work: return work
        case .reportThenWork: return .concatenate(.send(.deleteMe), work)
        case .done, .deleteMe: return .none
        }
      }
    }
  }
}

extension CaseKey<Starts.Action, IdentifiedAction<Int, Starts.ItemAction>> {
  static var startsRows: Self {
    Self(Starts.Action.rows) { if case .rows(let a) = $0 { a } else { nil } }
  }
}

/// An effect whose lifetime ended before its task first ran (identity trial).
@MainActor
@Suite struct CancelledBeforeStartTests {
  /// The work of a row removed by the next action started all the same, up to its first
  /// check for cancellation: a request for a row that was gone.
  @Test func aRowRemovedBeforeItsEffectStartsNeverRunsIt() {
    let started = Collected<String>()
    let harness = Harness(
      initialState: Starts.State(rows: [Starts.Item(id: 1), Starts.Item(id: 2)]),
      reducer: Starts(started: started))
    harness.store.send(.rows(.element(id: 1, action: .work)))
    harness.store.send(.rows(.element(id: 2, action: .work)))
    harness.store.send(.remove(1))
    harness.settle()
    #expect(started.values == ["row 2"])
    #expect(harness.core.runtime.runningCount == 0)
  }

  /// A row that reports to its parent and then works: the parent removed it in answer to the
  /// report, and the work, queued behind the report, started anyway.
  @Test func workQueuedBehindARowsReportDoesNotStartOnceTheParentRemovedTheRow() {
    let started = Collected<String>()
    let harness = Harness(
      initialState: Starts.State(rows: [Starts.Item(id: 1), Starts.Item(id: 2)]),
      reducer: Starts(started: started))
    harness.send(.rows(.element(id: 1, action: .reportThenWork)))
    #expect(harness.state.rows.ids == [2])
    #expect(started.values == [])
    #expect(harness.core.runtime.runningCount == 0)
  }
}
