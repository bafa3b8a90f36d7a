import Effects
import Store
import StoreTesting
import Testing

/// A feature that throttles what each action sends, keeping the latest.
private struct Scroller: Reducer {
  struct State: Equatable { var shown = 0 }
  enum Action: Equatable, Sendable {
    case scrolled(Int)
    case shown(Int)
  }
  let clock: TestClock

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .scrolled(let offset):
      return .send(.shown(offset)).throttle(
        id: "scroll", for: .seconds(5), clock: clock, latest: true)
    case .shown(let offset):
      state.shown = offset
      return .none
    }
  }
}

/// A throttle window a test store lists as still running names the effect it holds back,
/// the latest kept: it said 'holding back the next effect', though the window knew which,
/// and a test that sent several could not tell which one would run (the effects hunt).
@MainActor
@Suite struct ThrottleWindowListingTests {
  let clock = TestClock()
  let messages = Messages()

  @Test func aWindowLeftRunningNamesTheEffectItHoldsBack() async {
    let store = TestStore(initialState: Scroller.State()) { Scroller(clock: clock) }
    await store.send(.scrolled(1))
    await store.receive(.shown(1)) { $0.shown = 1 }
    await store.send(.scrolled(2))
    await store.send(.scrolled(3))
    await withKnownIssue {
      await store.finish()
    } matching: {
      messages.capture($0)
    }
    let named = messages.last.contains(
      """
      a throttle window opened by Scroller.Action.scrolled(1), holding back the effect of \
      Scroller.Action.scrolled(3), closing when a test clock advances 5.0 seconds
      """)
    #expect(named, "\(messages.last)")
  }

  /// A task's `cancel()` does not close a window its action opened (the window belongs to no
  /// task): the window left holding another action's effect was said to be one the test
  /// cancelled and that "does not end", as if it ignored cancellation.
  @Test func aWindowTheCancelledTaskOpenedIsNotSaidToIgnoreTheCancellation() async {
    let store = TestStore(initialState: Scroller.State()) { Scroller(clock: clock) }
    let opener = await store.send(.scrolled(1))
    await store.receive(.shown(1)) { $0.shown = 1 }
    await store.send(.scrolled(2))
    opener.cancel()
    await withKnownIssue {
      await store.finish()
    } matching: {
      messages.capture($0)
    }
    #expect(
      messages.last.contains("holding back the effect of Scroller.Action.scrolled(2)"),
      "\(messages.last)")
    #expect(!messages.last.contains("The test cancelled"), "\(messages.last)")
  }

  /// The window still closes when its time is up, and runs the effect it held back: a
  /// `receive` that waits for it is not told that the test's `cancel()` ended it.
  @Test func aWindowTheCancelledTaskOpenedStillRunsTheEffectItHeldBack() async {
    let store = TestStore(initialState: Scroller.State()) { Scroller(clock: clock) }
    let opener = await store.send(.scrolled(1))
    await store.receive(.shown(1)) { $0.shown = 1 }
    await store.send(.scrolled(2))
    opener.cancel()
    await withKnownIssue {
      await store.receive(.shown(2)) { $0.shown = 2 }
    } matching: {
      messages.capture($0)
    }
    #expect(!messages.last.contains("The test cancelled effects earlier"), "\(messages.last)")
    await clock.advance(by: .seconds(5))
    await store.receive(.shown(2)) { $0.shown = 2 }
    await store.finish()
  }
}
