import Effects
import Foundation
import Store
import StoreTesting
import Testing

/// What the end of a test cancels still answers for itself: an effect that throws another
/// error once cancelled raises a runtime warning, which fails the test whether `finish()` or
/// `skipInFlightEffects()` cancelled it; and an effect that ignores the cancellation of
/// `skipInFlightEffects()` is still reported by `finish()`. `finish()` passed both silently
/// before (a bug hunt of the test store). A store released without `finish()` cannot see
/// such a warning: it comes on the main actor after the release (`finish()`'s doc says so).
@MainActor
@Suite struct CancelledAtTheEndTests {
  struct SaveInterrupted: Error, CustomStringConvertible {
    var description: String { "SaveInterrupted(half written)" }
  }
  struct Offline: Error, CustomStringConvertible {
    var description: String { "Offline()" }
  }

  struct Feature: Reducer {
    struct State: Equatable {}
    enum Action: Equatable, Sendable {
      case save
      case saved
      case hang
      case load
      case retry(Int)
    }
    let clock: TestClock
    let gate: Gate

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .save:
        return .run { [clock] send in
          do { try await clock.sleep(for: .seconds(5)) } catch { throw SaveInterrupted() }
          send(.saved)
        }
      case .saved:
        return .none
      case .hang:
        // Ignores cancellation: it ends only when the test opens the gate (the suite's
        // `Gate`, in TestStoreFailureTests).
        return .run { [gate] _ in await gate.wait() }
      case .load:
        // A handler that backs off and then retries, without looking at cancellation.
        return .run { _ in
          throw Offline()
        } catch: { [clock] _, send in
          try? await clock.sleep(for: .seconds(1))
          for attempt in 1...20 { send(.retry(attempt)) }
        }
      case .retry:
        return .none
      }
    }
  }

  let clock = TestClock()
  let gate = Gate()
  let messages = Messages()

  func makeStore() -> TestStore<Feature.State, Feature.Action> {
    TestStore(initialState: Feature.State()) { Feature(clock: clock, gate: gate) }
  }

  var interrupted: String {
    """
    An effect started by action CancelledAtTheEndTests.Feature.Action.save threw an error after \
    it was cancelled: SaveInterrupted(half written).
    """
  }

  @Test func aWarningRaisedWhenFinishCancelsAnEffectFailsTheTest() async {
    let store = makeStore()
    store.exhaustivity = .off
    await store.send(.save)
    await withKnownIssue {
      await store.finish()
    } matching: {
      messages.capture($0)
    }
    #expect(messages.all.count == 1)
    #expect(messages.last.contains(interrupted), "\(messages.all)")
  }

  @Test func skipInFlightEffectsReportsAWarningItsCancellationRaised() async {
    let store = makeStore()
    await store.send(.save)
    await withKnownIssue {
      await store.skipInFlightEffects()
    } matching: {
      messages.capture($0)
    }
    #expect(messages.all.count == 1)
    #expect(messages.last.contains(interrupted), "\(messages.all)")
    await store.finish()
  }

  /// A `catch:` handler that backs off and sends once `skipInFlightEffects()` cancelled it
  /// fails the test, as its warnings would show in the app: one for the first action, one
  /// with the count of the rest.
  @Test func skipInFlightEffectsReportsWhatACatchHandlerSendsOnceCancelled() async {
    let store = makeStore()
    await store.send(.load)
    await withKnownIssue {
      await store.skipInFlightEffects()
    } matching: {
      messages.capture($0)
    }
    #expect(messages.all.count == 2, "\(messages.all)")
    #expect(messages.all.first?.contains("The action `catch:` made of it, ") == true)
    #expect(messages.all.first?.contains(".retry(1)") == true, "\(messages.all)")
    let count = "Its `catch:` handler sent 19 more actions after the first that was dropped"
    #expect(messages.last.contains(count), "\(messages.all)")
    await store.finish()
  }

  @Test func anEffectThatIgnoresSkipInFlightEffectsIsReportedByFinish() async {
    let store = makeStore()
    store.timeout = .milliseconds(50)
    await store.send(.hang)
    await store.skipInFlightEffects()
    await withKnownIssue {
      await store.finish()
    } matching: {
      messages.capture($0)
    }
    #expect(messages.all.count == 1)
    #expect(
      messages.last.contains(
        "The test cancelled one of them (a task's `cancel()`, or `skipInFlightEffects()`), and it does not end"
      ), "\(messages.all)")
    gate.open()
  }

  /// An effect that does end once skipped is not reported.
  @Test func anEffectThatEndsWhenSkippedIsNotReported() async {
    let store = makeStore()
    await store.send(.hang)
    await store.skipInFlightEffects()
    gate.open()
    await store.finish()
  }
}
