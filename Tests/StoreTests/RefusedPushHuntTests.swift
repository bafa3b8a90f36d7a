import Effects
import Testing

@testable import Store

/// A push the stack refuses changes nothing and reaches no reducer, as a pop of a screen that
/// is gone does: not the parent, nor a reducer after the `navigationStack` in a block, nor an
/// ancestor. It is still reported, and the screen that holds its id keeps its effects.
@MainActor
@Suite struct RefusedPushHuntTests {
  typealias Child = CompositionHuntTests.Child
  typealias Feature = SiblingOfOperatorsHuntTests.Feature
  typealias Root = SiblingOfOperatorsHuntTests.Root

  let clock = TestClock()
  let screen = StackElementID(rawValue: 0)

  /// A stack holding one screen, id 0, whose load is under way.
  func loadingScreen() -> Feature.State {
    var state = Feature.State()
    state.path.append(Child.State(id: 1))
    return state
  }

  @Test func aPushOfAnIDGivenOutAlreadyReachesNoReducerAndTheScreenLoadsOn() async {
    let warnings = WarningLog()
    let harness = Harness(
      initialState: loadingScreen(), warnings: warnings.handler, reducer: Feature(clock: clock))
    harness.send(.path(.element(id: screen, action: .load)))
    #expect(clock.sleeperCount == 1)
    let before = harness.state
    harness.send(.path(.push(id: screen, state: Child.State(id: 2))))
    #expect(harness.state == before, "nothing pushed, and the reducer beside saw nothing")
    #expect(warnings.messages.count == 1, "\(warnings.messages)")
    #expect(
      warnings.messages.first?.hasPrefix("A .push action of a ") == true
        && warnings.messages.first?.hasSuffix("Nothing was pushed.") == true,
      "the message alone, without the pushed state: \(warnings.messages)")
    #expect(clock.sleeperCount == 1, "the screen with that id still loads")
    await clock.advance(by: .seconds(1))
    harness.settle()
    #expect(harness.state.path[id: screen]?.loads == 1)
    // A push with the next id reaches the reducer beside, as before.
    let next = StackElementID(rawValue: 1)
    harness.send(.path(.push(id: next, state: Child.State(id: 2))))
    #expect(harness.state.path.ids == [screen, next])
    #expect(harness.state.seen.last == .path(.push(id: next, state: Child.State(id: 2))))
  }

  @Test func aPushOfAnIDTooLargeReachesNoReducer() {
    let warnings = WarningLog()
    let harness = Harness(
      initialState: Feature.State(), warnings: warnings.handler, reducer: Feature(clock: clock))
    harness.send(.path(.push(id: StackElementID(rawValue: .max), state: Child.State(id: 2))))
    #expect(harness.state == Feature.State())
    #expect(warnings.messages.count == 1, "\(warnings.messages)")
  }

  @Test func aRefusedPushDoesNotReachAnAncestorAndTheScreenLoadsOn() async {
    let warnings = WarningLog()
    var state = Root.State()
    state.feature = loadingScreen()
    let harness = Harness(
      initialState: state, warnings: warnings.handler, reducer: Root(clock: clock))
    harness.send(.feature(.path(.element(id: screen, action: .load))))
    let before = harness.state
    harness.send(.feature(.path(.push(id: screen, state: Child.State(id: 2)))))
    #expect(harness.state == before, "the ancestor's reducer did not run")
    #expect(warnings.messages.count == 1, "\(warnings.messages)")
    await clock.advance(by: .seconds(1))
    harness.settle()
    #expect(harness.state.feature.path[id: screen]?.loads == 1)
  }

  /// A replay, which runs reducers without starting effects, reports the refusal as the store
  /// does.
  @Test func aReplayReportsARefusedPush() {
    var state = loadingScreen()
    var reported: [String] = []
    Feature(clock: clock).reduce(
      into: &state, action: .path(.push(id: screen, state: Child.State(id: 2)))
    ).forEachWarning { message, _ in reported.append(message) }
    #expect(reported.count == 1)
    #expect(reported.first?.contains("Nothing was pushed") == true)
    #expect(state == loadingScreen())
  }
}
