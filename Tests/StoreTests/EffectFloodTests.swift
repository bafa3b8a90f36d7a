import Effects
import Synchronization
import Testing

@testable import Store

/// An effect that keeps sending: each `.ping` it delivers makes the reducer send the next one
/// through the effect's `Send` at once, as a stream that never pauses would, until `limit`.
struct Pinger: Reducer {
  struct State: Equatable { var pings = 0 }
  enum Action: Sendable, Equatable { case start, ping }
  /// The running effect's `Send`, kept to send from the reducer.
  final class Outlet: Sendable {
    let send = Mutex<Send<Action>?>(nil)
  }
  let outlet: Outlet
  let limit: Int

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .start:
      return .run { [outlet] send in
        outlet.send.withLock { $0 = send }
        send(.ping)
        try await Task.sleep(for: .seconds(3_600))
      }
    case .ping:
      state.pings += 1
      if state.pings < limit { outlet.send.withLock { $0 }?(.ping) }
      return .none
    }
  }
}

/// Many tasks of one effect, each sending a burst of actions at once.
struct Burst: Reducer {
  struct State: Equatable { var received = 0 }
  enum Action: Sendable, Equatable { case start(tasks: Int, each: Int), received }
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .start(let tasks, let each):
      return .run { send in
        await withTaskGroup(of: Void.self) { group in
          for _ in 0..<tasks {
            group.addTask { for _ in 0..<each { send(.received) } }
          }
        }
      }
    case .received:
      state.received += 1
      return .none
    }
  }
}

@MainActor
@Suite struct EffectFloodTests {
  /// A backlog far larger than one turn's batch (1,024) is reduced in full, over several
  /// turns: none of the actions is lost.
  @Test func aBacklogLargerThanOneBatchIsReducedInFull() async {
    let store = Store(initialState: Burst.State()) { Burst() }
    await store.send(.start(tasks: 16, each: 2_000)).finish()
    #expect(store.received == 32_000)
  }

  /// Actions that arrive while a live store reduces what an effect sent are reduced in a
  /// later turn of the main actor, after what else it has to do, not in the same one: an
  /// effect that never pauses cannot keep the main actor to itself. (The store drained until
  /// its inbox stayed empty: a stream sending from other threads without pause froze the
  /// main actor for seconds, or for good, and the code that would cancel it never ran.)
  @Test func anEffectThatNeverPausesLeavesTheMainActorTurnsForOthers() async {
    let limit = 100_000
    let store = Store(initialState: Pinger.State()) {
      Pinger(outlet: Pinger.Outlet(), limit: limit)
    }
    let task = store.send(.start)
    var turns = 0
    while store.pings == 0 && turns < 1_000 {
      await Task.yield()
      turns += 1
    }
    for _ in 0..<10 { await Task.yield() }
    #expect(store.pings > 0)
    #expect(store.pings < limit, "the pings took the main actor's every turn until the last")
    task.cancel()
    await task.finish()
  }
}
