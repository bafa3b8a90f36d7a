import Effects
import Foundation
import Testing

@testable import Store

@MainActor
@Suite struct StackReducerTests {
  let clock = TestClock()

  func makeHarness(warnings: WarningLog = WarningLog()) -> Harness<Todos> {
    var state = Todos.State()
    for id in 1...3 { state.rows.append(Row.State(id: id, title: "row \(id)")) }
    return Harness(initialState: state, warnings: warnings.handler, reducer: Todos(clock: clock))
  }

  @Test func aPushActionKeepsTheScreensStateOutOfLine() {
    struct Screen: Sendable {
      var fields: (Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int)
    }
    // Every ancestor action that can carry a push is as large as the push: not the screen.
    #expect(MemoryLayout<StackAction<Screen, Int>>.size < MemoryLayout<Screen>.size / 4)
  }

  @Test func pushedScreensGetDeterministicIDs() {
    let harness = makeHarness()
    harness.send(.openDetail(2))
    harness.send(.openDetail(3))
    #expect(harness.state.path.ids == [StackElementID(rawValue: 0), StackElementID(rawValue: 1)])
    #expect(harness.state.path.map(\.title) == ["row 2", "row 3"])
    harness.send(.path(.popFrom(id: StackElementID(rawValue: 1))))
    harness.send(.openDetail(1))
    // Ids are never reused, so a replayed session names the same screens.
    #expect(harness.state.path.ids == [StackElementID(rawValue: 0), StackElementID(rawValue: 2)])
  }

  @Test func screenActionsReachTheirScreen() {
    let harness = makeHarness()
    harness.send(.openDetail(1))
    harness.send(.openDetail(2))
    harness.send(.path(.element(id: StackElementID(rawValue: 1), action: .renamed("edited"))))
    #expect(harness.state.path.map(\.title) == ["row 1", "edited"])
  }

  @Test func poppingCancelsThePoppedScreensEffectsOnly() async {
    let harness = makeHarness()
    harness.send(.openDetail(1))
    harness.send(.openDetail(2))
    harness.send(.path(.element(id: StackElementID(rawValue: 0), action: .loadTapped)))
    harness.send(.path(.element(id: StackElementID(rawValue: 1), action: .loadTapped)))
    #expect(clock.sleeperCount == 2)
    harness.send(.path(.popFrom(id: StackElementID(rawValue: 1))))
    #expect(clock.sleeperCount == 1)
    await clock.advance(by: .seconds(1))
    #expect(harness.state.path[0].loads == 1)
  }

  @Test func aParentCancelsOneScreensEffectByItsCancellationID() async {
    let harness = makeHarness()
    harness.send(.openDetail(1))
    harness.send(.openDetail(2))
    harness.send(.path(.element(id: StackElementID(rawValue: 0), action: .loadTapped)))
    harness.send(.path(.element(id: StackElementID(rawValue: 1), action: .loadTapped)))
    harness.send(.stopScreenLoad(StackElementID(rawValue: 0)))
    #expect(clock.sleeperCount == 1)
    await clock.advance(by: .seconds(1))
    #expect(harness.state.path.map(\.loads) == [0, 1])
  }

  @Test func aScreenCancelsItsOwnEffectFromAnotherAction() async {
    let harness = makeHarness()
    harness.send(.openDetail(1))
    harness.send(.openDetail(2))
    harness.send(.path(.element(id: StackElementID(rawValue: 0), action: .loadTapped)))
    harness.send(.path(.element(id: StackElementID(rawValue: 1), action: .loadTapped)))
    harness.send(.path(.element(id: StackElementID(rawValue: 1), action: .stopLoadTapped)))
    #expect(clock.sleeperCount == 1, "screen #1's load is cancelled; screen #0's runs on")
    await clock.advance(by: .seconds(1))
    #expect(harness.state.path.map(\.loads) == [1, 0])
  }

  /// A new stack that replaces the old one (a deep link) numbers its screens from 0 again;
  /// the old screen #0 is gone all the same, and so are its effects.
  @Test func replacingTheStackEndsTheReplacedScreensEffects() async {
    let harness = makeHarness()
    harness.send(.openDetail(1))
    harness.send(.path(.element(id: StackElementID(rawValue: 0), action: .loadTapped)))
    #expect(clock.sleeperCount == 1)
    harness.send(.deepLink([2, 3]))
    #expect(harness.state.path.ids == [StackElementID(rawValue: 0), StackElementID(rawValue: 1)])
    #expect(clock.sleeperCount == 0, "the replaced screen #0's load runs on")
    await clock.advance(by: .seconds(1))
    #expect(harness.state.path.map(\.loads) == [0, 0])
  }

  /// A stack set back to a copy saved before a push, then pushed onto, gives its new screen
  /// the id the undone screen had: it is another screen all the same, which the undone
  /// screen's effects and store never reach.
  @Test(arguments: [false, true])
  func aStackSetBackToASavedCopyKeepsItsNextScreenApartFromTheUndoneOne(inOneAction: Bool)
    async
  {
    let warnings = WarningLog()
    let harness = makeHarness(warnings: warnings)
    let undone = StackElementID(rawValue: 1)
    harness.send(.openDetail(1))
    harness.send(.savePath)
    harness.send(.openDetail(2))
    harness.send(.path(.element(id: undone, action: .loadTapped)))
    let undoneStore = harness.store.scope(state: \.path, action: .path)[id: undone]
    if inOneAction {
      harness.send(.restorePathThenOpen(3))
    } else {
      harness.send(.restorePath)
      harness.send(.openDetail(3))
    }
    #expect(harness.state.path.ids == [StackElementID(rawValue: 0), undone])
    #expect(harness.state.path[id: undone]?.id == 3)
    await clock.advance(by: .seconds(1))
    #expect(harness.state.path[id: undone]?.loads == 0, "the undone screen's load")
    undoneStore?.send(.renamed("meant for the undone screen"))
    #expect(harness.state.path[id: undone]?.title == "row 3")
    #expect(warnings.messages.count == 1)
    let current = harness.store.scope(state: \.path, action: .path)[id: undone]
    #expect(current !== undoneStore)
    #expect(current?.id == 3)
  }

  @Test func screensPushedWithTheSameIDAreEqualValuesButNotTheSameScreen() throws {
    var live = StackState<Int>([1])
    let saved = live
    live.append(2)
    var restored = saved
    restored.append(2)  // the same id and value, another push
    #expect(restored == live)
    #expect(restored.hashValue == live.hashValue)
    #expect(restored.entries[1].birth != live.entries[1].birth)
    #expect(restored.entries[0].birth == live.entries[0].birth)
    // Not written to a log, nor shown in a diff.
    let json = String(decoding: try JSONEncoder().encode(restored), as: UTF8.self)
    #expect(!json.contains("birth"))
    #expect(Mirror(reflecting: restored.entries[1]).children.map(\.label) == ["id", "element"])
  }

  @Test func aScreenStoreAskedForRightAfterAnUndoAndPushIsTheNewScreens() {
    let harness = makeHarness()
    let reused = StackElementID(rawValue: 1)
    var seen: [Store<Row.State, Row.Action>?] = []
    // Runs after each action before the stack's store cache tidies up.
    harness.core.afterDispatch {
      seen.append(harness.store.scope(state: \.path, action: .path)[id: reused])
      return true
    }
    harness.send(.openDetail(1))
    harness.send(.savePath)
    harness.send(.openDetail(2))
    let undone = harness.store.scope(state: \.path, action: .path)[id: reused]
    harness.send(.restorePathThenOpen(3))
    let asked = seen.last ?? nil
    #expect(asked !== undone)
    #expect(asked?.id == 3)
  }

  @Test func undoingAPushKeepsTheScreensBelowIt() async {
    // The screens an undo does not touch keep their effects and their stores.
    let harness = makeHarness()
    let bottom = StackElementID(rawValue: 0)
    harness.send(.openDetail(1))
    harness.send(.path(.element(id: bottom, action: .loadTapped)))
    let bottomStore = harness.store.scope(state: \.path, action: .path)[id: bottom]
    harness.send(.savePath)
    harness.send(.openDetail(2))
    harness.send(.restorePathThenOpen(3))
    #expect(clock.sleeperCount == 1)
    await clock.advance(by: .seconds(1))
    #expect(harness.state.path[id: bottom]?.loads == 1)
    #expect(harness.store.scope(state: \.path, action: .path)[id: bottom] === bottomStore)
    bottomStore?.send(.renamed("still mine"))
    #expect(harness.state.path[id: bottom]?.title == "still mine")
  }

  @Test func aPushOntoACopyThatIsNeverUsedChangesNothingForTheStack() async {
    let harness = makeHarness()
    let bottom = StackElementID(rawValue: 0)
    harness.send(.openDetail(1))
    harness.send(.path(.element(id: bottom, action: .loadTapped)))
    var preview = harness.state.path
    preview.append(Row.State(id: 7))  // a copy, thrown away
    harness.send(.openDetail(2))
    await clock.advance(by: .seconds(1))
    #expect(harness.state.path[id: bottom]?.loads == 1)
  }

  @Test func decodingRefusesNegativeScreenIDs() throws {
    let json = #"{"entries":[{"id":-5,"element":1}],"nextID":0}"#
    #expect(throws: DecodingError.self) {
      try JSONDecoder().decode(StackState<Int>.self, from: Data(json.utf8))
    }
  }

  @Test func pushByActionAndBadStackActionsWarn() {
    let warnings = WarningLog()
    let harness = makeHarness(warnings: warnings)
    harness.send(.path(.push(id: StackElementID(rawValue: 5), state: Row.State(id: 9))))
    #expect(harness.state.path.nextElementID == StackElementID(rawValue: 6))
    harness.send(.path(.push(id: StackElementID(rawValue: 2), state: Row.State(id: 9))))
    harness.send(.path(.popFrom(id: StackElementID(rawValue: 40))))
    harness.send(.path(.element(id: StackElementID(rawValue: 41), action: .loadTapped)))
    #expect(harness.state.path.count == 1)
    #expect(warnings.messages.count == 3)
    #expect(warnings.messages[0].contains("ids are never reused"))
    #expect(warnings.messages[1].contains("#40"))
    #expect(warnings.messages[2].contains("#41"))
    // The stack as the feature names it, not the entries inside `StackState`.
    #expect(warnings.messages[2].contains("the screen with id #41 of the stack at \\State.path,"))
    #expect(warnings.messages[2].contains("the stack never pushed it (its next id is #6)"))
    #expect(!warnings.messages[2].contains("entries"))
  }

  /// A popped screen's store sends to the stack, whose `navigationStack` refuses the action
  /// naming the screen (and ends its lifetime, should its effects still run).
  @Test func aPoppedScreensSendIsRefusedByTheStackNamingTheScreen() throws {
    let warnings = WarningLog()
    let harness = makeHarness(warnings: warnings)
    harness.send(.openDetail(3))
    let id = try #require(harness.state.path.lastID)
    let screen = try #require(harness.store.scope(state: \.path, action: .path)[id: id])
    harness.send(.path(.popFrom(id: id)))
    screen.send(.renamed("too late"))
    #expect(warnings.messages.count == 1)
    #expect(
      warnings.messages.first?.contains(
        "it was popped (or its stack replaced by another, or a push with a later id skipped "
          + "it). No screen's reducer ran") == true,
      "\(warnings.messages)")
  }

  /// A push with a negative id is refused for being negative, not for an id "reused".
  @Test func aNegativePushedIDIsRefusedForBeingNegative() {
    let warnings = WarningLog()
    let harness = makeHarness(warnings: warnings)
    harness.send(.path(.push(id: StackElementID(rawValue: -3), state: Row.State(id: 9))))
    #expect(harness.state.path.isEmpty)
    #expect(warnings.messages.count == 1)
    #expect(
      warnings.messages.first?.contains(
        "with id #-3 came to the stack at \\State.path, but a stack's ids are never negative. "
          + "Nothing was pushed.") == true,
      "\(warnings.messages)")
  }

  /// An action for an id a push with a later id skipped: the stack cannot tell it from a
  /// popped screen's, and its warning says either may be.
  @Test func anActionForAnIDAPushSkippedNamesTheSkip() {
    let warnings = WarningLog()
    let harness = makeHarness(warnings: warnings)
    harness.send(.path(.push(id: StackElementID(rawValue: 4), state: Row.State(id: 9))))
    harness.send(.path(.element(id: StackElementID(rawValue: 2), action: .loadTapped)))
    #expect(harness.state.path.count == 1)
    #expect(warnings.messages.count == 1)
    #expect(
      warnings.messages.first?.contains("or a push with a later id skipped it") == true,
      "\(warnings.messages)")
  }

  @Test func aPushedIDTooLargeToCountOnFromIsRefusedNotTrapped() {
    let warnings = WarningLog()
    let harness = makeHarness(warnings: warnings)
    harness.send(.path(.push(id: StackElementID(rawValue: .max), state: Row.State(id: 9))))
    harness.send(.path(.push(id: StackElementID(rawValue: .max - 1), state: Row.State(id: 9))))
    #expect(harness.state.path.isEmpty)
    #expect(harness.state.path.nextElementID == StackElementID(rawValue: 0))
    #expect(warnings.messages.count == 2)
    #expect(warnings.messages.allSatisfy { $0.contains("Nothing was pushed") })
    #expect(warnings.messages.allSatisfy { $0.contains("a pushed id must be below Int.max / 2") })
    // The message names the pushed type and id, not the whole pushed state.
    #expect(
      warnings.messages[0].hasPrefix(
        "A .push action of a StoreTests.Row.State with id #\(Int.max) came to the stack at"))
    #expect(!warnings.messages.contains { $0.contains("title") })
  }

  @Test func aStackPushedWithTheHighestIDItAcceptsStillRoundTripsAfterMorePushes() throws {
    var stack: StackState<String> = ["list"]
    let highest = StackElementID(rawValue: StackState<String>.idLimit - 1)
    let pushed = stack.push("detail", id: highest)
    #expect(pushed)
    stack.append("more")
    stack.append("still more")
    let decoded = try JSONDecoder().decode(
      StackState<String>.self, from: JSONEncoder().encode(stack))
    #expect(decoded == stack)
    #expect(decoded.nextElementID == StackElementID(rawValue: highest.rawValue + 3))
  }

  @Test func screenIDsCanBeWrittenAsNumbers() {
    var stack: StackState<String> = ["list", "detail"]
    let id: StackElementID = 1
    #expect(id == StackElementID(rawValue: 1))
    #expect(stack[id: 1] == "detail")
    stack.pop(from: 1)
    #expect(stack.ids == [0])
  }

  @Test func popToAndPopToRoot() {
    var stack = StackState<String>(["a", "b", "c", "d"])
    let popped = stack.pop(to: StackElementID(rawValue: 1))
    #expect(popped)
    #expect(Array(stack) == ["a", "b"])
    #expect(stack.popLast() == "b")
    stack.removeAll()
    #expect(stack.isEmpty)
    let poppedEmpty = stack.pop(to: StackElementID(rawValue: 0))
    #expect(!poppedEmpty)
    stack.append("e")
    #expect(stack.ids == [StackElementID(rawValue: 4)])
    stack[id: StackElementID(rawValue: 4)] = "E"
    #expect(stack[id: StackElementID(rawValue: 4)] == "E")
  }

  @Test func stacksThatWouldGiveTheNextScreenDifferentIDsAreNotEqual() {
    let untouched: StackState<String> = ["list"]
    var pushedAndPopped = untouched
    pushedAndPopped.append("detail")
    pushedAndPopped.popLast()
    #expect(pushedAndPopped != untouched)
    var a = untouched
    a.append("x")
    pushedAndPopped.append("x")
    #expect(a.ids != pushedAndPopped.ids)
  }

  @Test func stackStateRoundTripsThroughJSONAndRejectsBadIDs() throws {
    let stack: StackState<String> = ["a", "b"]
    let data = try JSONEncoder().encode(stack)
    #expect(try JSONDecoder().decode(StackState<String>.self, from: data) == stack)
    let bad = Data(#"{"entries":[{"id":3,"element":"a"}],"nextID":2}"#.utf8)
    #expect(throws: DecodingError.self) {
      try JSONDecoder().decode(StackState<String>.self, from: bad)
    }
    for nextID in ["-1", "\(Int.max)"] {
      let outOfRange = Data(#"{"entries":[],"nextID":\#(nextID)}"#.utf8)
      #expect(throws: DecodingError.self) {
        try JSONDecoder().decode(StackState<String>.self, from: outOfRange)
      }
    }
  }

  @Test func stackLookupsByPositionAndByScreen() {
    var stack = StackState<String>(["list", "detail", "editor", "detail"])
    #expect(stack.id(at: 1) == StackElementID(rawValue: 1))
    #expect(stack.lastID == StackElementID(rawValue: 3))
    #expect(stack.firstID { $0 == "detail" } == StackElementID(rawValue: 1))
    #expect(stack.lastID { $0 == "detail" } == StackElementID(rawValue: 3))
    #expect(stack.firstID { $0 == "settings" } == nil)
    #expect(stack.contains(id: StackElementID(rawValue: 2)))
    stack.pop(from: StackElementID(rawValue: 2))
    #expect(!stack.contains(id: StackElementID(rawValue: 2)))
    #expect(stack.lastID == StackElementID(rawValue: 1))
    stack.removeAll()
    #expect(stack.lastID == nil)
  }

  /// A stack of steps; a step that is done reports it and closes itself.
  struct Wizard: Reducer {
    struct State: Equatable {
      var path = StackState<Step.State>()
      var done: [Int] = []
      /// Whether the parent answers a step's report by replacing the stack's top.
      var replacesOnDone = false
    }
    enum Action: Equatable, Sendable {
      case path(StackAction<Step.State, Step.Action>)
    }
    var body: some Reducer<State, Action> {
      Reduce { state, action in
        if case .path(.element(let id, .delegate(.done(let number)))) = action {
          state.done.append(number)
          if state.replacesOnDone {
            state.path.pop(from: id)
            state.path.append(Step.State(number: number + 10))
          }
        }
        return .none
      }
      .navigationStack(\.path, action: .path) { Step() }
    }
  }

  struct Step: Reducer {
    struct State: Equatable, Sendable {
      var number: Int
    }
    enum Action: Equatable, Sendable {
      case finishTapped
      case delegate(Delegate)
      enum Delegate: Equatable, Sendable { case done(Int) }
    }
    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      guard action == .finishTapped else { return .none }
      return .concatenate(.send(.delegate(.done(state.number))), .dismiss)
    }
  }

  @Test func aScreenThatDismissesItselfIsPoppedWithTheScreensAboveIt() {
    let warnings = WarningLog()
    var wizard = Wizard.State()
    for number in 1...3 { wizard.path.append(Step.State(number: number)) }
    let harness = Harness(initialState: wizard, warnings: warnings.handler, reducer: Wizard())
    let second = harness.state.path.ids[1]
    harness.send(.path(.element(id: second, action: .finishTapped)))
    #expect(harness.state.done == [2])
    #expect(harness.state.path.map(\.number) == [1])
    #expect(warnings.messages.isEmpty)
    let popped = harness.processed.map(\.action).last
    #expect(popped == .path(.popFrom(id: second)))
  }

  @Test func aScreensDismissalDoesNothingOnceItsParentReplacedIt() {
    let warnings = WarningLog()
    var wizard = Wizard.State()
    wizard.replacesOnDone = true
    wizard.path.append(Step.State(number: 1))
    let harness = Harness(initialState: wizard, warnings: warnings.handler, reducer: Wizard())
    let first = harness.state.path.ids[0]
    harness.send(.path(.element(id: first, action: .finishTapped)))
    // The parent popped step 1 and pushed step 11 in answer; step 1's dismissal finds it gone.
    #expect(harness.state.done == [1])
    #expect(harness.state.path.map(\.number) == [11])
    #expect(warnings.messages.isEmpty)
  }

  /// Routes that only name what to show: a stack whose screens have no reducer.
  struct Routes: Reducer {
    struct State: Equatable {
      var path = StackState<String>()
    }
    enum Action: Equatable, Sendable {
      case path(StackAction<String, Never>)
      case open(String)
    }
    var body: some Reducer<State, Action> {
      Reduce { state, action in
        if case .open(let route) = action { state.path.append(route) }
        return .none
      }
      .navigationStack(\.path, action: .path)
    }
  }

  @Test func aStackOfRoutesWithoutAReducerPushesAndPops() {
    let warnings = WarningLog()
    let harness = Harness(
      initialState: Routes.State(), warnings: warnings.handler, reducer: Routes())
    harness.send(.open("a"))
    harness.send(.path(.push(id: StackElementID(rawValue: 1), state: "b")))
    harness.send(.path(.push(id: StackElementID(rawValue: 2), state: "c")))
    #expect(Array(harness.state.path) == ["a", "b", "c"])
    harness.send(.path(.popFrom(id: StackElementID(rawValue: 1))))
    #expect(Array(harness.state.path) == ["a"])
    harness.send(.path(.popFrom(id: StackElementID(rawValue: 7))))
    #expect(warnings.messages.count == 1)
    #expect(warnings.messages.first?.contains("#7") == true)
  }
}

extension CaseKey<StackReducerTests.Routes.Action, StackAction<String, Never>> {
  static var path: Self {
    Self(StackReducerTests.Routes.Action.path) { if case .path(let a) = $0 { a } else { nil } }
  }
}

extension CaseKey<
  StackReducerTests.Wizard.Action,
  StackAction<StackReducerTests.Step.State, StackReducerTests.Step.Action>
> {
  static var path: Self {
    Self(StackReducerTests.Wizard.Action.path) { if case .path(let a) = $0 { a } else { nil } }
  }
}

/// Screens of two kinds in one stack, for reading and changing a screen as one case.
enum TwoScreens: Equatable, Sendable {
  case counter(Int)
  case note(String)
}

extension CaseKey<TwoScreens, Int> {
  static var counter: Self {
    Self(TwoScreens.counter) { if case .counter(let n) = $0 { n } else { nil } }
  }
}

@Suite struct StackCaseSubscriptTests {
  @Test func aScreenIsReadAndChangedAsOneCase() {
    var stack: StackState<TwoScreens> = [.counter(1), .note("a")]
    #expect(stack[id: 0, case: .counter] == 1)
    #expect(stack[id: 1, case: .counter] == nil, "another case")
    #expect(stack[id: 7, case: .counter] == nil, "no such screen")
    stack[id: 0, case: .counter]? += 1
    #expect(stack[id: 0] == .counter(2))
    stack[id: 1, case: .counter]? += 1
    #expect(stack[id: 1] == .note("a"), "a screen of another case is left alone")
    stack[id: 1, case: .counter] = 5
    #expect(stack[id: 1] == .counter(5), "setting a value puts the screen in that case")
    stack[id: 9, case: .counter] = 5
    #expect(stack.count == 2, "no screen is pushed for an id not on the stack")
    stack[id: 1, case: .counter] = nil
    #expect(stack.ids == [StackElementID(rawValue: 0)], "nil pops a screen of that case")
    stack.append(.note("b"))
    stack[id: 2, case: .counter] = nil
    #expect(stack.count == 2, "nil leaves a screen of another case alone")
  }
}
