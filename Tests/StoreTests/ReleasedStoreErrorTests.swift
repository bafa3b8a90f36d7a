import Effects
import Testing

@testable import Store

/// An effect's error reaches its store through the store's queue, which nobody drains once
/// the store is gone: an error thrown after the release (a save that fails once its screen's
/// store was let go), or thrown before it and not yet taken, was lost without a word, where
/// the same error while the store lives is a runtime warning (a bug hunt of the effects).
@MainActor
@Suite struct ReleasedStoreErrorTests {
  struct SaveFailed: Error, CustomStringConvertible {
    var description: String { "SaveFailed(disk full)" }
  }

  struct Saver: Reducer {
    struct State: Equatable {}
    enum Action: Equatable, Sendable {
      case saveAfterGate
      case saveNow
      case saved
    }
    let gate: Gate

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .saveAfterGate:
        // Ignores cancellation until the gate opens, then fails.
        return .run { [gate] send in
          await gate.wait()
          throw SaveFailed()
        }
      case .saveNow:
        return .run { _ in throw SaveFailed() }
      case .saved:
        return .none
      }
    }
  }

  let gate = Gate()
  let log = WarningLog()

  @Test func anErrorThrownAfterTheStoreIsReleasedIsAWarning() {
    var harness: Harness<Saver>? = Harness(
      initialState: Saver.State(), warnings: log.handler, reducer: Saver(gate: gate))
    let executor = harness!.executor
    harness?.send(.saveAfterGate)
    harness = nil
    gate.open()
    executor.runUntilIdle()
    #expect(log.messages.count == 1)
    #expect(
      log.messages.first?.hasPrefix(
        """
        An effect started by action ReleasedStoreErrorTests.Saver.Action.saveAfterGate threw an \
        error after it was cancelled: SaveFailed(disk full).
        """) == true, "\(log.messages)")
  }

  @Test func anErrorNotYetTakenWhenTheStoreIsReleasedIsAWarning() {
    var harness: Harness<Saver>? = Harness(
      initialState: Saver.State(), warnings: log.handler, reducer: Saver(gate: gate))
    let executor = harness!.executor
    // Sent without settling: the effect runs, and its error waits in the store's queue.
    harness?.store.send(.saveNow)
    executor.runUntilIdle()
    #expect(log.messages.isEmpty)
    harness = nil
    #expect(log.messages.count == 1)
    #expect(
      log.messages.first?.hasPrefix(
        """
        An effect started by action ReleasedStoreErrorTests.Saver.Action.saveNow threw an error \
        that no catch action handles: SaveFailed(disk full).
        """) == true, "\(log.messages)")
  }

  /// Control: while the store lives, the same error is the same warning.
  @Test func anErrorWhileTheStoreLivesIsAWarning() {
    let harness = Harness(
      initialState: Saver.State(), warnings: log.handler, reducer: Saver(gate: gate))
    harness.send(.saveNow)
    #expect(log.messages.count == 1)
    #expect(log.messages.first?.contains("that no catch action handles") == true)
  }
}
