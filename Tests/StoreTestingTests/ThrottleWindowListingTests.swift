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
}
