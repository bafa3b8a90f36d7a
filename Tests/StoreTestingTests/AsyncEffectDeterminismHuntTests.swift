import Dispatch
import Effects
import Store
import Testing

@testable import StoreTesting

/// A feature whose `.go` starts the effect a test gives it; each `.got(text)` an effect feeds
/// back is kept in the state.
private struct Lab: Reducer {
  struct State: Equatable { var got: [String] = [] }
  enum Action: Equatable, Sendable {
    case go
    case got(String)
  }
  let clock: TestClock
  let effect: @Sendable (TestClock) -> Effect<Action>

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .go: return effect(clock)
    case .got(let text):
      state.got.append(text)
      return .none
    }
  }
}

/// A dependency that is a default actor.
private actor Counter {
  var count = 0
  func next() -> Int {
    count += 1
    return count
  }
}

/// Effects that await the ways real code does, each run many times in a row: those the test
/// store runs (on its executor: yields, task groups, `async let`, streams fed by the effect,
/// default actors, test clock sleeps in child tasks) send the same actions, in the same
/// order, by the time `send` returns, on every run; those it cannot run (a `Task.detached`, a
/// `DispatchQueue`, a continuation resumed elsewhere) are waited for by `receive` and
/// `finish()`, and end the same way every run.
@MainActor
@Suite(.timeLimit(.minutes(30))) struct AsyncEffectDeterminismHuntTests {
  static let runs = 200

  /// Runs `scenario` `runs` times and returns the distinct outcomes it gave.
  private func outcomes(
    runs: Int = Self.runs, _ effect: @escaping @Sendable (TestClock) -> Effect<Lab.Action>,
    _ scenario: (TestStore<Lab.State, Lab.Action>, TestClock) async -> [String]
  ) async -> Set<[String]> {
    var seen: Set<[String]> = []
    for _ in 0..<runs {
      let clock = TestClock()
      let store = TestStore(initialState: Lab.State()) { Lab(clock: clock, effect: effect) }
      store.exhaustivity = .off
      seen.insert(await scenario(store, clock))
      await store.finish()
    }
    return seen
  }

  /// What arrived by the time `send` returned.
  private func sent(_ store: TestStore<Lab.State, Lab.Action>, _: TestClock) async -> [String] {
    await store.send(.go)
    return store.unreceivedActions.map { action in
      guard case .got(let text) = action else { return "?" }
      return text
    }
  }

  // MARK: - Work the test store runs

  @Test func interleavedYieldLoops() async {
    let seen = await outcomes(
      { _ in
        .merge(
          .run { send in
            for i in 0..<5 {
              send(.got("a\(i)"))
              for _ in 0..<(i + 1) { await Task.yield() }
            }
          },
          .run { send in
            for i in 0..<5 {
              send(.got("b\(i)"))
              await Task.yield()
            }
          })
      }, sent)
    #expect(seen.count == 1, "\(seen)")
    #expect(seen.first?.count == 10)
  }

  @Test func taskGroupChildren() async {
    let seen = await outcomes(
      { _ in
        .run { send in
          await withTaskGroup(of: String.self) { group in
            for i in 0..<4 {
              group.addTask {
                for _ in 0..<(4 - i) { await Task.yield() }
                return "child\(i)"
              }
            }
            for await name in group { send(.got(name)) }
          }
        }
      }, sent)
    #expect(seen.count == 1, "\(seen)")
    #expect(seen.first?.count == 4)
  }

  @Test func throwingTaskGroupChildren() async {
    struct Boom: Error {}
    let seen = await outcomes(
      { _ in
        .run { send in
          do {
            try await withThrowingTaskGroup(of: String.self) { group in
              for i in 0..<4 {
                group.addTask {
                  for _ in 0..<(i % 2 == 0 ? 3 : 1) { await Task.yield() }
                  if i == 3 { throw Boom() }
                  return "child\(i)"
                }
              }
              for try await name in group { send(.got(name)) }
            }
          } catch {
            send(.got("threw"))
          }
        }
      }, sent)
    #expect(seen.count == 1, "\(seen)")
    #expect(seen.first?.last == "threw")
  }

  @Test func asyncLet() async {
    let seen = await outcomes(
      { _ in
        .run { send in
          async let first: String = {
            for _ in 0..<3 { await Task.yield() }
            send(.got("first"))
            return "1"
          }()
          async let second: String = {
            await Task.yield()
            send(.got("second"))
            return "2"
          }()
          let both = await first + second
          send(.got(both))
        }
      }, sent)
    #expect(seen.count == 1, "\(seen)")
    #expect(seen.first?.last == "12")
  }

  @Test func aStreamTheEffectFeedsItself() async {
    let seen = await outcomes(
      { _ in
        .run { send in
          let (stream, input) = AsyncStream.makeStream(of: Int.self)
          await withTaskGroup(of: Void.self) { group in
            group.addTask {
              for i in 0..<5 {
                input.yield(i)
                await Task.yield()
              }
              input.finish()
            }
            for await i in stream { send(.got("\(i)")) }
          }
        }
      }, sent)
    #expect(seen == [["0", "1", "2", "3", "4"]])
  }

  @Test func aDefaultActorDependency() async {
    let seen = await outcomes(
      { _ in
        let counter = Counter()
        return .merge(
          .run { send in
            for _ in 0..<3 { send(.got("a\(await counter.next())")) }
          },
          .run { send in
            for _ in 0..<3 { send(.got("b\(await counter.next())")) }
          })
      }, sent)
    #expect(seen.count == 1, "\(seen)")
    #expect(seen.first?.count == 6)
  }

  @Test func aTestClockSleepInATaskGroupChild() async {
    let seen = await outcomes(
      { clock in
        .run { send in
          await withTaskGroup(of: String.self) { group in
            group.addTask {
              try? await clock.sleep(for: .seconds(1))
              return "slept"
            }
            group.addTask { "fast" }
            for await name in group { send(.got(name)) }
          }
        }
      }
    ) { store, clock in
      var result = await sent(store, clock)
      await clock.advance(by: .seconds(1))
      result.append(contentsOf: store.unreceivedActions.map { "\($0)" })
      return result
    }
    #expect(seen.count == 1, "\(seen)")
  }

  @Test func testClockSleepsInTaskGroupChildrenWokenByOneAdvance() async {
    let seen = await outcomes(
      { clock in
        .run { send in
          await withTaskGroup(of: String.self) { group in
            for (name, seconds) in [("c", 3), ("a", 1), ("b", 2), ("a2", 1)] {
              group.addTask {
                try? await clock.sleep(for: .seconds(seconds))
                return name
              }
            }
            for await name in group { send(.got(name)) }
          }
        }
      }
    ) { store, clock in
      var result = await sent(store, clock)
      await clock.advance(by: .seconds(3))
      result.append(contentsOf: store.unreceivedActions.map { "\($0)" })
      return result
    }
    #expect(seen.count == 1, "\(seen)")
    #expect(seen.first?.count == 4)
  }

  /// An actor dependency that sleeps on the test clock inside its method: two effects enter
  /// it (reentrancy), and one advance wakes both.
  @Test func aDefaultActorThatSleepsOnTheTestClock() async {
    actor Slow {
      var log: [String] = []
      func work(_ name: String, _ clock: TestClock, _ seconds: Int) async -> String {
        log.append("in \(name)")
        try? await clock.sleep(for: .seconds(seconds))
        log.append("out \(name)")
        return log.joined(separator: ",")
      }
    }
    let seen = await outcomes(
      { clock in
        let slow = Slow()
        return .merge(
          .run { send in send(.got(await slow.work("a", clock, 2))) },
          .run { send in send(.got(await slow.work("b", clock, 1))) })
      }
    ) { store, clock in
      var result = await sent(store, clock)
      await clock.advance(by: .seconds(2))
      result.append(contentsOf: store.unreceivedActions.map { "\($0)" })
      return result
    }
    #expect(seen.count == 1, "\(seen)")
  }

  /// A cancellation handler that resumes a continuation, cancelled by an action.
  @Test func aCancellationHandlerResumingAContinuation() async {
    final class Box: Sendable {
      let continuation = Locked<CheckedContinuation<String, Never>?>(nil)
    }
    let seen = await outcomes(
      { _ in
        .run { send in
          let box = Box()
          let value = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
              box.continuation.withLock { $0 = continuation }
            }
          } onCancel: {
            box.continuation.withLock { $0?.resume(returning: "cancelled") }
          }
          send(.got(value))
        }
        .cancellable(id: "wait", cancelInFlight: true)
      }
    ) { store, clock in
      var result = await sent(store, clock)
      await store.send(.go)
      result.append(contentsOf: store.unreceivedActions.map { "\($0)" })
      // The second waits on its continuation, which `finish()` would wait for in real time.
      await store.skipInFlightEffects()
      return result
    }
    #expect(seen.count == 1, "\(seen)")
  }

  // MARK: - Work the test store does not run

  /// Sends `.go`, then receives `count` actions, waiting for each: what they were.
  private func received(
    _ count: Int
  ) -> (TestStore<Lab.State, Lab.Action>, TestClock) async -> [String] {
    { store, _ in
      await store.send(.go)
      for _ in 0..<count {
        await store.receive({ _ in true }, timeout: .seconds(30))
      }
      return store.state.got
    }
  }

  @Test func aStreamFedFromADetachedTask() async {
    let seen = await outcomes(
      { _ in
        .run { send in
          let (stream, input) = AsyncStream.makeStream(of: Int.self)
          Task.detached {
            for i in 0..<3 { input.yield(i) }
            input.finish()
          }
          for await i in stream { send(.got("\(i)")) }
        }
      }, received(3))
    #expect(seen == [["0", "1", "2"]])
  }

  @Test func aStreamFedFromADispatchQueue() async {
    let seen = await outcomes(
      { _ in
        .run { send in
          let (stream, input) = AsyncStream.makeStream(of: Int.self)
          DispatchQueue.global().async {
            for i in 0..<3 { input.yield(i) }
            input.finish()
          }
          for await i in stream { send(.got("\(i)")) }
        }
      }, received(3))
    #expect(seen == [["0", "1", "2"]])
  }

  @Test func aContinuationResumedFromADispatchQueue() async {
    let seen = await outcomes(
      { _ in
        .run { send in
          let value = await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: "queue") }
          }
          send(.got(value))
          send(.got("after"))
        }
      }, received(2))
    #expect(seen == [["queue", "after"]])
  }

  @Test func aContinuationResumedFromAnotherTask() async {
    let seen = await outcomes(
      { _ in
        .run { send in
          let value = await withCheckedContinuation { continuation in
            Task { continuation.resume(returning: "task") }
          }
          send(.got(value))
          send(.got("after"))
        }
      }, received(2))
    #expect(seen == [["task", "after"]])
  }

  @Test func detachedWorkAwaited() async {
    let seen = await outcomes(
      { _ in
        .run { send in
          let value = await Task.detached { (0..<100).reduce(0, +) }.value
          send(.got("\(value)"))
          let other = await Task { "unstructured" }.value
          send(.got(other))
        }
      }, received(2))
    #expect(seen == [["4950", "unstructured"]])
  }

  // MARK: - What a wait in vain for such work says

  /// A client that answers through a callback, which the test calls when it chooses (from a
  /// `DispatchQueue`, as a system API would).
  final class Callback: Sendable {
    private let pending = Locked<(@Sendable (String) -> Void)?>(nil)
    func load(_ done: @escaping @Sendable (String) -> Void) { pending.withLock { $0 = done } }
    func answer(_ value: String) {
      let done = pending.withLock { $0 }
      DispatchQueue.global().async { done?(value) }
    }
  }

  /// The store's hint for an effect that waits on something other than a test clock, given
  /// whether the feature holds a test clock (the usual feature does): it held one, and the
  /// failure said only that nothing arrived in time, though the same effect in a feature with
  /// no clock got the hint, and the function's own doc promised it.
  @Test(arguments: [true, false])
  func aWaitInVainOnWorkElsewhereSaysItIsWaitedForInRealTime(holdsClock: Bool) async {
    struct Loader: Reducer {
      struct State: Equatable { var value = "" }
      enum Action: Equatable, Sendable {
        case load
        case loaded(String)
      }
      let clock: TestClock?
      let client: Callback

      func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .load:
          return .run { [client] send in
            let value = await withCheckedContinuation { continuation in
              client.load { continuation.resume(returning: $0) }
            }
            send(.loaded(value))
          }
        case .loaded(let value):
          state.value = value
          return .none
        }
      }
    }
    let messages = Messages()
    let client = Callback()
    let store = TestStore(initialState: Loader.State()) {
      Loader(clock: holdsClock ? TestClock() : nil, client: client)
    }
    await store.send(.load)
    await withKnownIssue {
      await store.receive(.loaded("ok"), timeout: .milliseconds(10)) { $0.value = "ok" }
    } matching: {
      messages.capture($0)
    }
    #expect(
      messages.last.contains(
        "If an effect waits on a stream or a continuation that the test drives"),
      "\(messages.last)")
    #expect(
      messages.last.contains(
        """
        Work on another thread (a `DispatchQueue`, a `Task.detached`, an actor with an \
        executor of its own) is waited for in real time, up to the timeout: make the mock \
        answer from what the test drives, or pass a longer `timeout:`.
        """), "\(messages.last)")
    // The sleep of a task the store does not run is named when the store sees the clock.
    #expect(
      messages.last.contains("If it waits for a task the test store does not run") == !holdsClock)
    await withKnownIssue {
      await store.finish(timeout: .milliseconds(10))
    } matching: {
      messages.capture($0)
    }
    #expect(messages.last.hasPrefix("1 effect still running at the end of the test:"))
    #expect(messages.last.contains("is waited for in real time"), "\(messages.last)")
    client.answer("late")
  }
}
