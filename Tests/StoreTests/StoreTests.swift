import Effects
import Observation
import Testing

@testable import Store

@MainActor
@Suite struct StoreTests {
  struct Chain: Reducer {
    struct State: Equatable {
      var log: [Int] = []
      var count = 0
    }
    enum Action: Sendable, Equatable {
      case step(Int)
      case countdown(Int)
    }
    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      switch action {
      case .step(let n):
        state.log.append(n)
        // Each step fans out to two more, breadth first, up to 7.
        guard n < 4 else { return .none }
        return .merge(.send(.step(2 * n)), .send(.step(2 * n + 1)))
      case .countdown(let n):
        state.count += 1
        return n == 0 ? .none : .send(.countdown(n - 1))
      }
    }
  }

  @Test func actionsSentWhileReducingAreProcessedInOrderBeforeSendReturns() {
    let store = Store(initialState: Chain.State()) { Chain() }
    store.send(.step(1))
    #expect(store.log == [1, 2, 3, 4, 5, 6, 7])
  }

  @Test func aMillionSynchronousActionsRunInConstantStack() {
    let store = Store(initialState: Chain.State()) { Chain() }
    store.send(.countdown(999_999))
    #expect(store.count == 1_000_000)
  }

  @Test func sendReturnsAHandleThatIsIdleWhenNoEffectStarted() async {
    let store = Store(initialState: Chain.State()) { Chain() }
    let task = store.send(.countdown(3))
    #expect(!task.isRunning)
    #expect(!task.isCancelled)
    await task.finish()
  }

  @Test func finishWaitsForEffectsAndTheEffectsTheirActionsStart() async {
    let store = Store(initialState: LogFeature.State()) {
      LogFeature { name in
        switch name {
        case "outer":
          return .run { send in
            await Task.yield()
            send(.record("outer ran"))
            send(.start("inner"))
          }
        case "inner":
          return .run { send in
            await Task.yield()
            send(.record("inner ran"))
          }
        default:
          return .none
        }
      }
    }
    await store.send(.start("outer")).finish()
    #expect(store.log == ["start outer", "outer ran", "start inner", "inner ran"])
  }

  @Test func cancellingTheHandleCancelsItsEffectsAndDropsTheirActions() async {
    let clock = TestClock()
    let cancelled = Flag()
    let harness = Harness(
      initialState: LogFeature.State(),
      reducer: LogFeature { _ in
        .run { send in
          await withTaskCancellationHandler {
            try? await clock.sleep(for: .seconds(1))
            send(.record("after sleep"))
          } onCancel: {
            cancelled.set()
          }
        }
      }
    )
    let task = harness.send(.start("a"))
    #expect(task.isRunning)
    task.cancel()
    #expect(cancelled.isSet)
    #expect(task.isCancelled)
    harness.settle()
    await task.finish()
    #expect(harness.state.log == ["start a"])
    #expect(harness.core.runtime.runningCount == 0)
  }

  // A regression would hang on the gates: the time limit turns that into a failure. It is
  // generous because main-actor tests queue behind each other: under the thread sanitizer, a
  // full parallel run kept this one waiting for the main actor for 90 to 120 seconds.
  @Test(.timeLimit(.minutes(30))) func cancellingTheAwaitingTaskCancelsTheEffects() async {
    let clock = TestClock()
    let started = Gate()
    let cancelled = Gate()
    let store = Store(initialState: LogFeature.State()) {
      LogFeature { _ in
        .run { _ in
          started.open()
          try await withTaskCancellationHandler {
            try await clock.sleep(for: .seconds(60))
          } onCancel: {
            cancelled.open()
          }
        }
      }
    }
    let screen = Task {
      let task = store.send(.start("screen"))
      await task.finish()
      return task
    }
    // The screen's task sent the action and awaits its effect, which started: cancel it now,
    // as SwiftUI cancels a screen's task while it waits.
    let didStart = await started.waitUnlessCancelled()
    #expect(didStart)
    screen.cancel()
    // The effect sees its cancellation. (A test whose time limit runs out stops waiting.)
    let wasCancelled = await cancelled.waitUnlessCancelled()
    #expect(wasCancelled)
    guard wasCancelled else { return }
    // `finish()` returns once it has cancelled the effects, without waiting for them to wind
    // down (as documented).
    let task = await screen.value
    #expect(task.isCancelled)
  }

  @Test func releasingTheStoreCancelsEveryEffectItStarted() async {
    let clock = TestClock()
    let cancellations = Locked(0)
    var harness: Harness<LogFeature>? = Harness(
      initialState: LogFeature.State(),
      reducer: LogFeature { _ in
        .run { _ in
          try await withTaskCancellationHandler {
            try await clock.sleep(for: .seconds(60))
          } onCancel: {
            cancellations.withLock { $0 += 1 }
          }
        }
      }
    )
    harness?.send(.start("a"))
    harness?.send(.start("b"))
    #expect(clock.sleeperCount == 2)
    weak let core = harness?.core
    harness = nil
    #expect(core == nil)
    #expect(cancellations.withLock { $0 } == 2)
    #expect(clock.sleeperCount == 0)
  }

  @Test(.timeLimit(.minutes(30)))
  func releasingAStoreMadeThroughThePublicInitializerCancelsItsEffects() async {
    let clock = TestClock()
    let started = Flag()
    let cancelled = Flag()
    var store: StoreOf<LogFeature>? = Store(initialState: LogFeature.State()) {
      LogFeature { _ in
        .run { _ in
          started.set()
          try await withTaskCancellationHandler {
            try await clock.sleep(for: .seconds(60))
          } onCancel: {
            cancelled.set()
          }
        }
      }
    }
    let task = store?.send(.start("a"))
    weak let released = store
    store = nil
    #expect(released == nil)
    // The effect's task runs on the global executor: either it had not started, and never
    // runs its operation, or its cancellation handler ran. Either way it ends.
    await task?.finish()
    #expect(task?.isCancelled == true)
    #expect(!started.isSet || cancelled.isSet)
    #expect(clock.sleeperCount == 0)
  }

  @Test func releasingAStoreEndsTheTasksOfItsRunningEffects() async {
    let clock = TestClock()
    var store: StoreOf<LogFeature>? = Store(initialState: LogFeature.State()) {
      LogFeature { name in
        let sleep = Effect<LogFeature.Action>.run { _ in try await clock.sleep(for: .seconds(60)) }
        return name == "plain" ? sleep : .concatenate(sleep, .send(.record("after \(name)")))
      }
    }
    let plain = store?.send(.start("plain"))
    let parts = store?.send(.start("parts"))
    #expect(plain?.isRunning == true)
    store = nil
    // Nobody is left to report the effects finished: their tasks end with the store, or
    // `finish()` would wait for good.
    for task in [plain, parts] {
      #expect(task?.isRunning == false)
      #expect(task?.isCancelled == true)
      // (Only when cancelled, so that a regression fails here rather than hangs.)
      if task?.isCancelled == true { await task?.finish() }
    }
  }

  /// Scoping a store into a collection or a stack made its core keep a hook that held, through
  /// what reads the collection, the core itself: released, the store left its core and its
  /// effects running for good, and `finish()` on their tasks never returned (lifetime trial).
  @Test(arguments: ["rows", "stack", "rows of a row"])
  func releasingAStoreWhoseCollectionWasScopedEndsItsEffects(scoped: String) async {
    let clock = TestClock()
    var state = Todos.State()
    state.rows.append(Row.State(id: 1))
    var store: StoreOf<Todos>? = Store(initialState: state) { Todos(clock: clock) }
    var row: StoreOf<Row>?
    switch scoped {
    case "rows": _ = store?.scope(state: \.rows, action: .rows)
    case "stack": _ = store?.scope(state: \.path, action: .path)
    default: row = store?.scope(state: \.rows, action: .rows)[id: 1]
    }
    let task = store?.send(.rows(.element(id: 1, action: .loadTapped)))
    #expect(task?.isRunning == true)
    weak let released = store
    store = nil
    #expect(released == nil)
    if row != nil {
      // The row's store keeps the root: the effect runs until it is let go too.
      #expect(task?.isRunning == true)
      row = nil
    }
    #expect(task?.isCancelled == true)
    // (Only when cancelled, so that a regression fails here rather than hangs.)
    if task?.isCancelled == true { await task?.finish() }
  }

  /// A collection of element stores is a store scoped from the root, as far as the root's
  /// lifetime goes: held, even empty (a stack with no screen pushed), it keeps the root's
  /// effects running once the store is released, until it is let go too, as the `Store`
  /// documentation says.
  @Test func aHeldCollectionOfStoresKeepsTheRootsEffectsRunningEvenWhenEmpty() async {
    let clock = TestClock()
    var state = Todos.State()
    state.rows.append(Row.State(id: 1))
    var store: StoreOf<Todos>? = Store(initialState: state) { Todos(clock: clock) }
    var screens = store?.scope(state: \.path, action: .path)
    #expect(screens?.isEmpty == true)
    let task = store?.send(.rows(.element(id: 1, action: .loadTapped)))
    store = nil
    // The store object is gone, but the collection holds what runs its effects.
    #expect(task?.isRunning == true)
    screens = nil
    #expect(task?.isCancelled == true)
    // (Only when cancelled, so that a regression fails here rather than hangs.)
    if task?.isCancelled == true { await task?.finish() }
  }

  @Test func aThrownErrorBecomesTheCatchAction() {
    let harness = Harness(
      initialState: LogFeature.State(),
      reducer: LogFeature { _ in
        .run { _ in
          throw Boom()
        } catch: {
          .fail("\($0)")
        }
      }
    )
    harness.send(.start("a"))
    #expect(harness.state.log == ["start a", "failed: boom"])
  }

  @Test func anUncaughtErrorIsAWarningNamingTheActionAndTheStoreKeepsWorking() {
    let warnings = WarningLog()
    let harness = Harness(
      initialState: LogFeature.State(),
      warnings: warnings.handler,
      reducer: LogFeature { _ in .run { _ in throw Boom() } }
    )
    harness.send(.start("a"))
    #expect(warnings.all.count == 1)
    let warning = warnings.all.first
    #expect(warning?.message.contains(#"start("a")"#) == true)
    #expect(warning?.message.contains("boom") == true)
    #expect(warning?.fileID == "StoreTests/StoreTests.swift")
    harness.send(.record("still working"))
    #expect(harness.state.log == ["start a", "still working"])
  }

  @Test func readingStateIsTrackedByObservation() {
    let store = Store(initialState: Chain.State()) { Chain() }
    let fired = Locked(0)
    withObservationTracking {
      _ = store.count
    } onChange: {
      fired.withLock { $0 += 1 }
    }
    store.send(.countdown(0))
    #expect(fired.withLock { $0 } == 1)
  }

  @Test func effectActionsAreMarkedWithTheirOrigin() {
    let harness = Harness(
      initialState: LogFeature.State(),
      reducer: LogFeature { _ in .merge(.send(.record("sync")), .run { $0(.record("async")) }) }
    )
    harness.send(.start("a"))
    #expect(harness.processed.map(\.origin) == [.user, .effect, .effect])
  }
}
