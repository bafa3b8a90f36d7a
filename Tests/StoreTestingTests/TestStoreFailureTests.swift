import Effects
import Store
import StoreTesting
import Testing

/// Every failure a test store reports, each proved to be reported as a test issue, with the
/// text it carries.
@MainActor
@Suite struct TestStoreFailureTests {
  let clock = TestClock()
  let messages = Messages()

  func makeStore() -> TestStoreOf<Profile> {
    let store = TestStore(initialState: Profile.State()) {
      Profile(load: { "Ada" }, clock: clock)
    }
    store.timeout = .milliseconds(50)
    return store
  }

  @Test func aLongActionIsCutShortInTheHeadline() async {
    let store = makeStore()
    let city = String(repeating: "Llanfairpwllgwyngyll", count: 10)
    await withKnownIssue {
      await store.send(.moveTapped(city)) { $0.user.address.city = "Nice" }
    } matching: {
      messages.capture($0)
    }
    let headline = messages.last.prefix { $0 != "\n" }
    // Its first 100 characters, enough for the cases an action is nested in (it kept 40).
    let shown = "Profile.Action.moveTapped(\"\(city)".prefix(100)
    #expect(headline.hasPrefix("The state after send(\(shown)…["), "\(headline)")
    #expect(headline.contains(" characters]…) differs from the expected state."), "\(headline)")
    #expect(headline.count < 200)
    // The diff below still shows the whole value.
    #expect(messages.last.contains("+       city: \"\(city)\""))
  }

  @Test func aWrongExpectedStateFails() async {
    let store = makeStore()
    await withKnownIssue {
      await store.send(.moveTapped("Lyon")) { $0.user.address.city = "Nice" }
    } matching: {
      messages.capture($0)
    }
    // Only the changed field and the path to it; unchanged siblings are collapsed.
    #expect(
      messages.last == """
        The state after send(Profile.Action.moveTapped("Lyon")) differs from the expected state. \
        (- expected, + actual)
          Profile.State(
            user: Profile.User(
              … (1 unchanged)
              address: Profile.Address(
        -       city: "Nice"
        +       city: "Lyon"
                … (1 unchanged)
              )
              … (1 unchanged)
            )
            … (3 unchanged)
          )
        """
    )
    #expect(!messages.last.contains("Rue de Rivoli"))
  }

  /// A stack asserted by assigning a new one differs only in its next id: the failure says
  /// how to assert it instead.
  @Test func aStackAssignedAnewInTheAssertionGetsAHint() async {
    let store = TestStore(initialState: PushingStack<Int>.State()) { PushingStack<Int>() }
    await store.send(.push(7)) { $0.path.append(7) }
    await withKnownIssue {
      await store.send(.popAll) { $0.path = StackState() }
    } matching: {
      messages.capture($0)
    }
    #expect(messages.last.contains("-     nextID: 0\n+     nextID: 1"))
    #expect(messages.last.hasSuffix("instead of assigning a new one."))
    // Asserted as the reducer changed it, it passes.
    await store.send(.push(8)) { $0.path.append(8) }
    await store.send(.popAll) { $0.path.removeAll() }
    // A stack assigned anew after a pop and a push differs in its screens' ids too, and gets
    // the same hint (a new-user trial got none).
    await withKnownIssue {
      await store.send(.push(9)) { $0.path = StackState([9]) }
    } matching: {
      messages.capture($0)
    }
    #expect(messages.last.contains("[id: #0]: 9"), "\(messages.last)")
    #expect(messages.last.contains("[id: #2]: 9"), "\(messages.last)")
    #expect(messages.last.hasSuffix("instead of assigning a new one."), "\(messages.last)")
  }

  /// The same hint when the screens are structs whose dumps span lines (a new-user trial's
  /// detail screen got none).
  @Test func aStackOfMultilineScreensAssignedAnewGetsTheHint() async {
    struct Detail: Equatable, Sendable {
      var noteID: Int
      var text: String
    }
    let tea = Detail(noteID: 1, text: "Tea")
    let store = TestStore(initialState: PushingStack<Detail>.State()) { PushingStack<Detail>() }
    await store.send(.push(tea)) { $0.path.append(tea) }
    await store.send(.popAll) { $0.path.removeAll() }
    await withKnownIssue {
      await store.send(.push(tea)) { $0.path = StackState([tea]) }
    } matching: {
      messages.capture($0)
    }
    #expect(messages.last.contains("[id: #1]: TestStoreFailureTests.Detail("), "\(messages.last)")
    #expect(messages.last.hasSuffix("instead of assigning a new one."), "\(messages.last)")
    // A screen that differs in a field as well as its id gets no hint.
    await store.send(.popAll) { $0.path.removeAll() }
    await withKnownIssue {
      await store.send(.push(tea)) {
        $0.path = StackState([Detail(noteID: 1, text: "Milk")])
      }
    } matching: {
      messages.capture($0)
    }
    #expect(messages.last.contains(#"+         text: "Tea""#), "\(messages.last)")
    #expect(!messages.last.contains("instead of assigning a new one."), "\(messages.last)")
  }

  @Test func aChangeWithoutAnAssertionClosureFails() async {
    let store = makeStore()
    await withKnownIssue {
      await store.send(.moveTapped("Lyon"))
    } matching: {
      messages.capture($0)
    }
    #expect(messages.last.contains("no assertion closure was given"))
  }

  @Test func anAssertionClosureWithNoChangeFails() async {
    let store = makeStore()
    await withKnownIssue {
      await store.send(.moveTapped("Paris")) { $0.user.address.city = "Paris" }
    } matching: {
      messages.capture($0)
    }
    #expect(messages.last.contains("it did not change"))
  }

  /// An assertion closure may throw (to unwrap a value, say): what it threw fails the step,
  /// named (a coverage trial found no test of it).
  @Test func anAssertionClosureThatThrowsFailsNamingTheError() async {
    struct Unwrapped: Error, CustomStringConvertible {
      var description: String { "no city" }
    }
    let store = makeStore()
    await withKnownIssue {
      await store.send(.moveTapped("Lyon")) { _ in throw Unwrapped() }
    } matching: {
      messages.capture($0)
    }
    #expect(
      messages.all.contains(
        #"The assertion closure of send(Profile.Action.moveTapped("Lyon")) threw: no city"#))
  }

  @Test func receivingTheWrongActionFails() async {
    let store = makeStore()
    await store.send(.refreshTapped) { $0.isLoading = true }
    await withKnownIssue {
      await store.receive(.loaded("Bob"))
    } matching: {
      messages.capture($0)
    }
    #expect(messages.last.contains("Received an unexpected action"))
    #expect(messages.last.contains("Bob"))
    #expect(messages.last.contains("Ada"))
  }

  @Test func receivingWhenNoEffectRunsFailsAtOnce() async {
    let store = makeStore()
    await withKnownIssue {
      await store.receive(.tick)
    } matching: {
      messages.capture($0)
    }
    // The store did not wait, and does not say it did.
    #expect(messages.last.contains("nothing arrived, and no effect is running, so none can arrive"))
    #expect(!messages.last.contains("within"))
  }

  /// The timer sleeps on the test clock, which only the test can advance: `receive` fails at
  /// once, without waiting out its timeout, and says why (waiting, it said "nothing arrived
  /// within 0.05 seconds").
  @Test func receivingWhatNeverArrivesFailsNamingTheEffectsInFlight() async {
    let store = makeStore()
    await store.send(.startTimer)
    await withKnownIssue {
      await store.receive(.tick)
    } matching: {
      messages.capture($0)
    }
    #expect(
      messages.last.hasPrefix(
        """
        Expected to receive Profile.Action.tick, but nothing arrived, and every effect still running is \
        asleep on a test clock, which only the test can advance, so none can arrive until it \
        does. Effects still running:
        """))
    #expect(messages.last.contains("Profile.Action.startTimer"))
    // The timer sleeps on the test clock: the message says the clock must move, and how far.
    #expect(messages.last.contains("asleep until a test clock advances 1.0 seconds"))
    await clock.advance(by: .milliseconds(400))
    await withKnownIssue {
      await store.finish()
    } matching: {
      messages.capture($0)
    }
    #expect(messages.last.contains("asleep until a test clock advances 0.6 seconds"))
    await store.skipInFlightEffects()
  }

  @Test func sendingWithUnassertedReceivedActionsFails() async {
    let store = makeStore()
    await store.send(.refreshTapped) { $0.isLoading = true }
    await withKnownIssue {
      await store.send(.noop)
    } matching: {
      messages.capture($0)
    }
    #expect(messages.all.count == 1)
    #expect(
      messages.last.contains(
        "Must assert received actions before sending Profile.Action.noop: 1 received action not yet asserted"
      ))
    #expect(messages.last.contains(#"loaded("Ada")"#))
    // The dropped action's change is taken as the state before the send: the send itself
    // changed nothing, and later steps are checked from the state the load left.
    await store.send(.moveTapped("Lyon")) {
      #expect($0.user.name == "Ada" && !$0.isLoading)
      $0.user.address.city = "Lyon"
    }
    #expect(messages.all.count == 1)
  }

  @Test func finishingWithARunningEffectFailsNamingTheActionThatStartedIt() async {
    let store = makeStore()
    await store.send(.startTimer)
    await withKnownIssue {
      await store.finish()
    } matching: {
      messages.capture($0)
    }
    #expect(messages.last.contains("still running at the end of the test"))
    #expect(messages.last.contains("Profile.Action.startTimer"))
  }

  @Test func finishingWithUnassertedActionsFails() async {
    let store = makeStore()
    await store.send(.echo(["a"]))
    await withKnownIssue {
      await store.finish()
    } matching: {
      messages.capture($0)
    }
    #expect(messages.last.contains("The test ended with 1 received action not yet asserted"))
  }

  /// A list of actions left unreceived shows a run of equal actions once, with its count, and
  /// names at most 20 entries: a timer advanced by an hour listed 3,600 lines.
  @Test func aLongListOfUnassertedActionsIsShortened() async {
    let store = makeStore()
    await store.send(.echo(Array(repeating: "tick", count: 3_000) + (1...30).map { "w\($0)" }))
    await withKnownIssue {
      await store.finish()
    } matching: {
      messages.capture($0)
    }
    let message = messages.last
    #expect(message.contains("The test ended with 3030 received actions not yet asserted"))
    #expect(message.contains(#"  • Profile.Action.loaded("tick") (3000 times)"#), "\(message)")
    #expect(message.contains(#"  • Profile.Action.loaded("w19")"#))
    #expect(!message.contains(#"Profile.Action.loaded("w20")"#))
    #expect(message.contains("  … and 11 more\n"), "\(message)")
    #expect(message.count < 2_000)
  }

  @Test func aNonExhaustiveReceiveOfAnActionASendDroppedSaysWhichSendDroppedIt() async {
    let store = makeStore()
    store.exhaustivity = .off
    await store.send(.echo(["a"]))
    await store.send(.noop)
    await withKnownIssue {
      await store.receive(.loaded("a"))
    } matching: {
      messages.capture($0)
    }
    #expect(messages.last.contains("nothing arrived"))
    #expect(
      messages.last.contains(
        #"`send(Profile.Action.noop)`, which dropped Profile.Action.loaded("a")"#))
    // Only the sends that dropped a matching action are named, and a failure forgets them.
    await store.send(.echo(["a"]))
    await store.send(.noop)
    await store.send(.echo(["b"]))
    await store.send(.moveTapped("Lyon"))
    await withKnownIssue {
      await store.receive(.loaded("a"))
    } matching: {
      messages.capture($0)
    }
    #expect(messages.last.contains("`send(Profile.Action.noop)`"))
    #expect(!messages.last.contains("moveTapped"))
    await withKnownIssue {
      await store.receive(.loaded("b"))
    } matching: {
      messages.capture($0)
    }
    #expect(!messages.last.contains("dropped"))
    // A receive that matches forgets the drop.
    await store.send(.echo(["b"]))
    await store.receive(.loaded("b"))
    await withKnownIssue {
      await store.receive(.loaded("c"))
    } matching: {
      messages.capture($0)
    }
    #expect(!messages.last.contains("dropped"))
  }

  @Test func aNonExhaustiveReceiveOfAnActionAnEarlierReceiveSkippedSaysWhichReceive() async {
    let store = makeStore()
    store.exhaustivity = .off
    await store.send(.echo(["a", "b"]))
    await store.receive(.loaded("b"))
    await withKnownIssue {
      await store.receive(.loaded("a"))
    } matching: {
      messages.capture($0)
    }
    #expect(messages.last.contains("nothing arrived"))
    #expect(
      messages.last.contains(
        #"• `receive` of Profile.Action.loaded("b") at StoreTestingTests/TestStoreFailureTests.swift:"#
      ))
    #expect(messages.last.contains(#", which skipped Profile.Action.loaded("a")"#))
    #expect(messages.last.contains("each `receive` skips those that arrived before the one"))
    // A failure forgets it; a receive that skips nothing matching is not named.
    await store.send(.echo(["a", "b"]))
    await store.receive(.loaded("b"))
    await withKnownIssue {
      await store.receive(.loaded("c"))
    } matching: {
      messages.capture($0)
    }
    #expect(!messages.last.contains("dropped by"))
  }

  /// A failing non-exhaustive receive drops every received action; a later receive that waits
  /// for one of them named no step before (stop 69's hunter E).
  @Test func aNonExhaustiveReceiveOfAnActionAFailedReceiveDroppedSaysWhichReceive() async {
    let store = makeStore()
    store.exhaustivity = .off
    await store.send(.echo(["a", "b"]))
    await withKnownIssue {
      await store.receive(.loaded("c"))
    } matching: {
      messages.capture($0)
    }
    #expect(messages.last.contains("Received but not matching:"))
    await withKnownIssue {
      await store.receive(.loaded("a"))
    } matching: {
      messages.capture($0)
    }
    #expect(messages.last.contains("nothing arrived"))
    #expect(
      messages.last.contains(
        #"• `receive` of Profile.Action.loaded("c") at StoreTestingTests/TestStoreFailureTests.swift:"#
      ))
    #expect(messages.last.contains(#", which failed and dropped Profile.Action.loaded("a")"#))
    #expect(messages.last.contains(#"and a `receive` that fails drops them all; matching"#))
    // Named until a receive fails, as a receive's skips are.
    await withKnownIssue {
      await store.receive(.loaded("b"))
    } matching: {
      messages.capture($0)
    }
    #expect(!messages.last.contains("dropped by"))
  }

  @Test func aDebouncedEffectStillWaitingIsNamedOnceAtTheLineThatDebouncedIt() async {
    let store = makeStore()
    await store.send(.searchTyped("Ada"))
    await withKnownIssue {
      await store.finish()
    } matching: {
      messages.capture($0)
    }
    #expect(messages.last.contains("1 effect still running at the end of the test"))
    #expect(
      messages.last.contains(
        #"Profile.Action.searchTyped("Ada") (created at StoreTestingTests/Profile.swift:"#))
    #expect(!messages.last.contains("Effect+Timing"))
    #expect(messages.last.components(separatedBy: "an effect started by").count == 2)
  }

  @Test func releasingTheStoreWithWorkLeftFails() async {
    await withKnownIssue {
      let store = makeStore()
      await store.send(.startTimer)
      await store.send(.stopTimer)
      await store.send(.echo(["late"]))
      await store.send(.startTimer, assert: nil)
      _ = store
    } matching: {
      messages.capture($0)
    }
    #expect(messages.all.contains { $0.contains("Must assert received actions") })
    #expect(messages.all.contains { $0.contains("still running") })
  }

  @Test func releasingTheStoreWithAnUnassertedActionFails() async {
    await withKnownIssue {
      let store = makeStore()
      await store.send(.echo(["late"]))
      _ = store
    } matching: {
      messages.capture($0)
    }
    #expect(messages.last.contains("The test store was released with 1 received action not"))
  }

  @Test func aNonExhaustiveStoreReleasedWithWorkLeftChecksNoMoreThanFinishWould() async {
    // In non-exhaustive mode, `finish()` allows running effects and unreceived actions; so
    // does releasing the store without it. (A failure here is a real test failure.)
    let store = makeStore()
    store.exhaustivity = .off
    await store.send(.startTimer)
    await store.send(.echo(["unasserted"]))
    _ = store
  }

  @Test func mainActorEffectsSkippedOrCancelledAreNotLeftOver() async {
    // Their cancelled code winds down on the main actor, after the store stopped waiting:
    // no "still running" failure when the store is released.
    let skipped = makeStore()
    await skipped.send(.startMainActorTimer)
    await skipped.skipInFlightEffects()
    let cancelled = makeStore()
    await cancelled.send(.startMainActorTimer).cancel()
  }

  @Test func aTestClockRunThatNeverEndsFailsTheTestOfTheStoreWhoseEffectSleeps() async {
    let store = makeStore()
    store.exhaustivity = .off
    await store.send(.startTimer)
    await clock.run(maxSteps: 5)
    await withKnownIssue {
      await store.finish()
    } matching: {
      messages.capture($0)
    }
    #expect(messages.all.contains { $0.contains("TestClock.run() woke 5 sleepers") })
  }

  /// The guard's warning fails the test at the next step the test takes, a skip too, not
  /// where the store was made (as it did when the test skipped the effects and ended).
  @Test func aTestClockRunThatNeverEndsIsReportedAtTheSkipThatFollowsIt() async {
    let store = makeStore()
    store.exhaustivity = .off
    await store.send(.startTimer)
    await clock.run(maxSteps: 5)
    let lines = Locked<[Int]>([])
    let skipLine = #line + 2
    await withKnownIssue {
      await store.skipInFlightEffects()
    } matching: { issue in
      lines.withLock { $0.append(issue.sourceLocation?.line ?? 0) }
      return messages.capture(issue)
    }
    #expect(lines.withLock { $0 } == [skipLine], "\(messages.all)")
    #expect(messages.all.contains { $0.contains("TestClock.run() woke 5 sleepers") })
  }

  @Test func anEffectTheFeatureCancelledThatNeverEndsIsStillLeftOver() async {
    let gate = Gate()
    let store = TestStore(initialState: Stubborn.State()) { Stubborn(gate: gate) }
    store.timeout = .milliseconds(50)
    await store.send(.start)
    await store.send(.stop)
    await withKnownIssue {
      await store.finish()
    } matching: {
      messages.capture($0)
    }
    #expect(messages.last.contains("still running"))
    gate.open()
  }

  @Test func receivingACaseThatNeverArrivesNamesTheCaseAndWhatItCarries() async {
    let store = makeStore()
    await withKnownIssue {
      await store.receive(.loaded)
    } matching: {
      messages.capture($0)
    }
    #expect(
      messages.last.hasPrefix(
        "Expected to receive an action of the case Profile.Action.loaded (carrying String),"))
  }

  @Test func statesThatDifferOnlyWhereTheDumpCannotSeeSaySo() async {
    let store = TestStore(initialState: Deep.State()) { Deep() }
    await withKnownIssue {
      // The chain differs 100 levels down, deeper than the dump goes.
      await store.send(.set(2)) { $0.chain = Links.nested(100, end: 3) }
    } matching: {
      messages.capture($0)
    }
    #expect(
      messages.last.hasPrefix(
        "The state after send(Deep.Action.set(2)) differs from the expected state, although both "
          + "print the same: they differ in something the dump does not show"))
    #expect(
      messages.last.hasSuffix(
        "a value whose description hides the difference, such as an object compared by "
          + "identity). `==` says they differ."))
  }

  @Test func aRuntimeWarningFailsTheTest() async {
    let store = makeStore()
    await withKnownIssue {
      await store.send(.crashTapped)
    } matching: {
      messages.capture($0)
    }
    #expect(messages.last.hasPrefix("Runtime warning at StoreTestingTests/Profile.swift:"))
    #expect(!messages.last.contains("runtime warning:"))
    #expect(messages.last.contains("offline"))
    #expect(messages.last.contains("crashTapped"))
    await store.finish()
  }

  @Test func nonExhaustiveAssertionsStillFailWhenWrong() async {
    let store = makeStore()
    store.exhaustivity = .off
    await withKnownIssue {
      await store.send(.moveTapped("Lyon")) { $0.user.address.city = "Nice" }
    } matching: {
      messages.capture($0)
    }
    #expect(messages.last.contains("differs"))
  }

  @Test func aTaskThatDoesNotFinishFails() async {
    let store = makeStore()
    let timer = await store.send(.startTimer)
    await withKnownIssue {
      await timer.finish()
    } matching: {
      messages.capture($0)
    }
    // At once: the timer sleeps on the test clock, so the failure does not blame the time.
    #expect(messages.last.contains("have not finished, and every effect still running is asleep"))
    #expect(!messages.last.contains("in time"))
    await store.skipInFlightEffects()
  }
}

/// A chain of links, as deep as wanted.
indirect enum Links: Equatable {
  case end(Int)
  case link(Links)

  static func nested(_ depth: Int, end: Int) -> Links {
    var chain = Links.end(end)
    for _ in 0..<depth { chain = .link(chain) }
    return chain
  }
}

/// A feature whose state is a deep chain.
/// A stack that pushes the screens it is sent and pops them all.
struct PushingStack<Screen: Equatable & Sendable>: Reducer {
  struct State: Equatable, Sendable { var path = StackState<Screen>() }
  enum Action: Sendable, Equatable { case push(Screen), popAll }
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .push(let screen): state.path.append(screen)
    case .popAll: state.path.removeAll()
    }
    return .none
  }
}

struct Deep: Reducer {
  struct State: Equatable {
    var chain = Links.nested(100, end: 0)
  }
  enum Action: Sendable {
    case set(Int)
  }
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    guard case .set(let value) = action else { return .none }
    state.chain = Links.nested(100, end: value)
    return .none
  }
}

/// Holds a task until opened, whatever its cancellation.
final class Gate: Sendable {
  private let waiter = Locked<CheckedContinuation<Void, Never>?>(nil)

  func wait() async {
    await withCheckedContinuation { continuation in waiter.withLock { $0 = continuation } }
  }

  func open() {
    waiter.withLock { $0.take() }?.resume()
  }
}

/// A feature whose effect does not stop when cancelled.
struct Stubborn: Reducer {
  struct State: Equatable {}
  enum Action: Sendable {
    case start, stop
  }
  let gate: Gate
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .start: .run { _ in await gate.wait() }.cancellable(id: "stubborn")
    case .stop: .cancel(id: "stubborn")
    }
  }
}

/// Captures the text of each known issue, to assert what a failure says.
final class Messages: Sendable {
  private let storage = Locked<[String]>([])

  func capture(_ issue: Issue) -> Bool {
    let text = issue.comments.map(\.rawValue).joined(separator: "\n")
    storage.withLock { $0.append(text) }
    return true
  }

  var all: [String] { storage.withLock { $0 } }
  var last: String { all.last ?? "" }
}
