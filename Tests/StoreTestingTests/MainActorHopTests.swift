import Effects
import Store
import Testing

@testable import StoreTesting

/// A client call that leaves the main actor: under a test store it runs on the store's
/// executor, and its caller on the main actor resumes behind the test. (It reads something
/// of its task: a body with nothing to do was run without leaving the main actor.)
private nonisolated func fetchPage(_ page: Int) async -> Int {
  withUnsafeCurrentTask { $0 == nil ? 0 : 1 }
}

/// A feature whose effects run on the main actor and call a client many times.
private struct Pager: Reducer {
  struct State: Equatable {
    var pages = 0
    var ticks = 0
  }

  enum Action: Sendable, Equatable {
    /// Loads `pages` pages one after the other, then waits a second before it reports.
    case load(pages: Int)
    case loaded(Int)
    /// Every second, refreshes through `hops` client calls, then ticks.
    case poll(hops: Int)
    case ticked
    /// Calls the client until cancelled: never waits on anything the test controls.
    case spin
  }

  var clock = TestClock()

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .load(let pages):
      return .run { @MainActor [clock] send in
        var loaded = 0
        for page in 0..<pages { loaded += await fetchPage(page) }
        try await clock.sleep(for: .seconds(1))
        send(.loaded(loaded))
      }
    case .loaded(let pages):
      state.pages = pages
      return .none
    case .poll(let hops):
      return .run { @MainActor [clock] send in
        while true {
          try await clock.sleep(for: .seconds(1))
          for page in 0..<hops { _ = await fetchPage(page) }
          send(.ticked)
        }
      }
    case .ticked:
      state.ticks += 1
      return .none
    case .spin:
      return .run { @MainActor _ in
        while !Task.isCancelled { _ = await fetchPage(0) }
      }
    }
  }
}

/// Effects isolated to the main actor that hop off it and back many times before they pause
/// (flakiness trial: the store gave them 64 turns of the main actor, and a test of an effect
/// that loaded 64 pages before its sleep failed every time, saying the effect was asleep
/// until the clock advanced, right after the test advanced it).
@MainActor
@Suite struct MainActorHopTests {
  let messages = Messages()

  @Test func aMainActorEffectThatLoadsManyPagesReachesItsSleepBeforeSendReturns() async {
    let pager = Pager()
    let store = TestStore(initialState: Pager.State()) { pager }
    await store.send(.load(pages: 300))
    #expect(pager.clock.sleeperCount == 1)
    await pager.clock.advance(by: .seconds(1))
    await store.receive(.loaded(300)) { $0.pages = 300 }
    await store.finish()
  }

  @Test func aPollWokenByTheClockRunsToItsNextSleepBeforeTheClockMovesOn() async {
    let pager = Pager()
    let store = TestStore(initialState: Pager.State()) { pager }
    let polling = await store.send(.poll(hops: 200))
    await pager.clock.advance(by: .seconds(3))
    await store.receive(.ticked) { $0.ticks = 1 }
    await store.receive(.ticked) { $0.ticks = 2 }
    await store.receive(.ticked) { $0.ticks = 3 }
    polling.cancel()
    await store.finish()
  }

  /// One that never pauses is reported once, and the test goes on.
  @Test func aMainActorEffectThatNeverPausesIsReportedAndTheTestGoesOn() async {
    let store = TestStore(initialState: Pager.State()) { Pager() }
    await withKnownIssue {
      let spinning = await store.send(.spin)
      spinning.cancel()
      await store.finish()
    } matching: {
      messages.capture($0)
    }
    #expect(messages.all.count == 1, "\(messages.all)")
    #expect(
      messages.last.hasPrefix(
        "Runtime warning: Effects on the main actor kept working through 10000 turns of the "
          + "main actor without coming to a pause, so the store stopped waiting for them for "
          + "now. Running:\n  • an effect started by Pager.Action.spin (created at "
          + "StoreTestingTests/MainActorHopTests.swift:"),
      "\(messages.all)")
  }
}
