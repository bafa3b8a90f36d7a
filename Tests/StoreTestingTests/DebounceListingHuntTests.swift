import Effects
import Store
import StoreTesting
import Testing

/// A feature whose `.typed` returns the effect the test gives it.
private struct Typist: Reducer {
  struct State: Equatable { var found: [String] = [] }
  enum Action: Equatable, Sendable {
    case typed(String)
    case found(String)
  }
  let effect: @Sendable (String) -> Effect<Action>

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .typed(let query):
      return effect(query)
    case .found(let query):
      state.found.append(query)
      return .none
    }
  }
}

/// `debounce(id:for:clock:fileID:line:)` says its call is "named while the effect waits (in a
/// test's report of the effects still running, say)": no test looked at that report.
@MainActor
@Suite struct DebounceListingHuntTests {
  let clock = TestClock()
  let messages = Messages()

  @Test func aWaitingDebounceIsListedWithItsCallAndHowFarTheClockMustMove() async {
    let line: UInt = #line + 3
    let store = TestStore(initialState: Typist.State()) {
      Typist { [clock] query in
        Effect.send(.found(query)).debounce(id: "search", for: .seconds(1), clock: clock)
      }
    }
    await store.send(.typed("a"))
    await clock.advance(by: .milliseconds(400))
    await withKnownIssue {
      await store.finish()
    } matching: {
      messages.capture($0)
    }
    let listed = messages.last.contains(
      """
      an effect started by Typist.Action.typed("a") (created at \(#fileID):\(line)), asleep \
      until a test clock advances 0.6 seconds
      """)
    #expect(listed, "\(messages.last)")
  }

  /// Only the last of a burst is listed: the earlier ones were cancelled.
  @Test func onlyTheLastDebounceOfABurstIsListed() async {
    let store = TestStore(initialState: Typist.State()) {
      Typist { [clock] query in
        Effect.send(.found(query)).debounce(id: "search", for: .seconds(1), clock: clock)
      }
    }
    await store.send(.typed("a"))
    await store.send(.typed("ab"))
    await withKnownIssue {
      await store.finish()
    } matching: {
      messages.capture($0)
    }
    #expect(messages.last.contains("1 effect still running"), "\(messages.last)")
    #expect(messages.last.contains("Typist.Action.typed(\"ab\")"), "\(messages.last)")
    #expect(!messages.last.contains("Typist.Action.typed(\"a\")"), "\(messages.last)")
  }
}
