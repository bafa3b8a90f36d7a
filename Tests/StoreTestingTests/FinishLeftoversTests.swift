import Effects
import Store
import StoreTesting
import Testing

/// An effect that throws another error once cancelled, isolated to the main actor or not.
struct LateThrowingEffect: Reducer {
  struct State: Equatable {}
  enum Action: Equatable, Sendable { case startOnMainActor, startAnywhere }
  struct Oops: Error, CustomStringConvertible { var description: String { "Oops" } }
  let clock: TestClock

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .startOnMainActor:
      .run { @MainActor [clock] _ in
        do { try await clock.sleep(for: .seconds(10)) } catch { throw Oops() }
      }
    case .startAnywhere:
      .run { [clock] _ in
        do { try await clock.sleep(for: .seconds(10)) } catch { throw Oops() }
      }
    }
  }
}

/// A feature whose action feeds back another that changes the state.
private struct Bumper: Reducer {
  struct State: Equatable { var count = 0 }
  enum Action: Equatable, Sendable { case start, bump, noop }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .start: return .send(.bump)
    case .bump:
      state.count += 1
      return .none
    case .noop: return .none
    }
  }
}

/// A concatenation whose first part ignores cancellation.
private struct StubbornSequence: Reducer {
  struct State: Equatable {}
  enum Action: Equatable, Sendable { case start }
  let gate: Gate

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    .concatenate(.run { [gate] _ in await gate.wait() }, .run { _ in })
  }
}

/// What `finish()` cancels or drops is reported once, correctly, and not charged to later
/// steps (a hunt of the test store: each of these went wrong).
@MainActor
@Suite struct FinishLeftoversTests {
  let messages = Messages()
  let clock = TestClock()

  /// `finish()` fails the test with the warnings its cancellation raises; one raised by an
  /// effect isolated to the main actor came after `finish()` returned, and was lost.
  @Test(
    arguments: [LateThrowingEffect.Action.startAnywhere, .startOnMainActor],
    [Exhaustivity.on, .off])
  func finishReportsTheErrorAnEffectThrowsOnceCancelled(
    action: LateThrowingEffect.Action, exhaustivity: Exhaustivity
  ) async {
    await withKnownIssue {
      let store = TestStore(initialState: LateThrowingEffect.State()) {
        LateThrowingEffect(clock: clock)
      }
      store.exhaustivity = exhaustivity
      await store.send(action)
      await store.finish()
    } matching: {
      messages.capture($0)
    }
    let warnings = messages.all.filter {
      $0.contains("threw an error after it was cancelled: Oops")
    }
    #expect(warnings.count == 1, "\(messages.all)")
  }

  /// The actions `finish()` reported as not received changed the state; the next step
  /// starts from that state, as after a `send` that drops them.
  @Test func aStepAfterFinishIsNotChargedWithWhatTheUnreceivedActionsChanged() async {
    let store = TestStore(initialState: Bumper.State()) { Bumper() }
    await store.send(.start)
    await withKnownIssue {
      await store.finish()
    } matching: {
      messages.capture($0)
    }
    #expect(messages.all.count == 1)
    #expect(messages.last.contains("The test ended with"))
    await store.send(.noop)
    await store.finish()
    #expect(messages.all.count == 1, "\(messages.all)")
  }

  /// The same for a non-exhaustive `receive` that found nothing and dropped what was
  /// received, before the test turned exhaustivity back on.
  @Test func aStepAfterAFailedNonExhaustiveReceiveIsNotChargedEither() async {
    let store = TestStore(initialState: Bumper.State()) { Bumper() }
    store.exhaustivity = .off
    await store.send(.start)
    await withKnownIssue {
      await store.receive(.noop)
    } matching: {
      messages.capture($0)
    }
    #expect(messages.all.count == 1)
    store.exhaustivity = .on
    await store.send(.noop)
    await store.finish()
    #expect(messages.all.count == 1, "\(messages.all)")
  }

  /// A concatenation is listed once, by its running part: the count of those the test
  /// cancelled counts the same entries (it said 2 of a list of 1).
  @Test func aCancelledConcatenationIsCountedOnce() async {
    let gate = Gate()
    let store = TestStore(initialState: StubbornSequence.State()) { StubbornSequence(gate: gate) }
    store.timeout = .milliseconds(50)
    let task = await store.send(.start)
    task.cancel()
    await withKnownIssue {
      await store.finish()
    } matching: {
      messages.capture($0)
    }
    gate.open()
    #expect(messages.last.contains("1 effect still running at the end of the test"))
    #expect(messages.last.contains("The test cancelled one of them"), "\(messages.last)")
  }
}
