import Effects
import Testing

@testable import Store

/// A pop of a screen the stack popped already is ordinary, as a sheet's second dismissal is:
/// a back button tapped as the screen closed itself (a new-user trial's race, in 234 of 300
/// rounds of a live store). It changes nothing, the parent does not see it, and nothing is
/// reported. A pop from an id the stack never gave out is still reported.
@MainActor
@Suite struct StalePopTests {
  struct Detail: Reducer {
    struct State: Equatable, Sendable {
      var title = ""
    }
    enum Action: Equatable, Sendable {
      case deleteTapped
      case delegate(Delegate)
      enum Delegate: Equatable, Sendable { case deleted }
    }
    func reduce(into state: inout State, action: Action) -> Effect<Action> {
      guard action == .deleteTapped else { return .none }
      return .concatenate(.send(.delegate(.deleted)), .dismiss)
    }
  }
  struct Inbox: Reducer {
    struct State: Equatable {
      var path = StackState<Detail.State>()
      var deleted = 0
      /// The pops the parent's reducer saw.
      var popsSeen = 0
      /// The ids of the pushes the parent's reducer saw.
      var pushesSeen: [StackElementID] = []
    }
    enum Action: Equatable, Sendable {
      case path(StackAction<Detail.State, Detail.Action>)
    }
    var body: some Reducer<State, Action> {
      Reduce { state, action in
        switch action {
        case .path(.element(_, .delegate(.deleted))): state.deleted += 1
        case .path(.popFrom): state.popsSeen += 1
        case .path(.push(let id, _)): state.pushesSeen.append(id)
        case .path: break
        }
        return .none
      }
      .navigationStack(\.path, action: .stalePopPath) { Detail() }
    }
  }

  func harness(_ warnings: WarningLog) -> Harness<Inbox> {
    var state = Inbox.State()
    state.path.append(Detail.State(title: "a"))
    state.path.append(Detail.State(title: "b"))
    return Harness(initialState: state, warnings: warnings.handler, reducer: Inbox())
  }

  @Test func aBackTapAfterTheScreenClosedItselfChangesNothingAndWarnsNothing() {
    let warnings = WarningLog()
    let harness = harness(warnings)
    let top = StackElementID(rawValue: 1)
    harness.send(.path(.element(id: top, action: .deleteTapped)))
    let closed = harness.state
    #expect(closed.path.map(\.title) == ["a"])
    #expect(closed.deleted == 1)
    #expect(closed.popsSeen == 1, "the screen's own dismissal, a pop the parent sees")
    harness.send(.path(.popFrom(id: top)))
    #expect(harness.state == closed, "the late pop changes nothing; the parent does not see it")
    #expect(warnings.messages.isEmpty, "\(warnings.messages)")
    // The screen below is still there, and a pop of it works as before.
    harness.send(.path(.popFrom(id: StackElementID(rawValue: 0))))
    #expect(harness.state.path.isEmpty)
    #expect(harness.state.popsSeen == 2)
  }

  @Test func aPopFromAnIDTheStackNeverGaveOutIsReported() {
    let warnings = WarningLog()
    let harness = harness(warnings)
    let before = harness.state
    harness.send(.path(.popFrom(id: StackElementID(rawValue: 2))))
    #expect(harness.state == before)
    #expect(warnings.messages.count == 1, "\(warnings.messages)")
    #expect(warnings.messages.first?.contains("which is not on the stack") == true)
  }

  /// A negative id is below the next id, but the stack never gave it out: reported.
  @Test func aPopFromANegativeIDIsReported() {
    let warnings = WarningLog()
    let harness = harness(warnings)
    harness.send(.path(.popFrom(id: StackElementID(rawValue: -1))))
    #expect(harness.state.path.count == 2)
    #expect(warnings.messages.count == 1, "\(warnings.messages)")
  }

  /// A stack emptied with `removeAll()` keeps its next id, so a late pop of one of its
  /// screens is still known as popped already (a stack assigned anew starts its ids over,
  /// as the docs say).
  @Test func aLatePopAfterRemoveAllIsSilent() {
    let warnings = WarningLog()
    let harness = harness(warnings)
    harness.send(.path(.popFrom(id: StackElementID(rawValue: 0))))
    #expect(harness.state.path.isEmpty)
    harness.send(.path(.popFrom(id: StackElementID(rawValue: 1))))
    #expect(harness.state.popsSeen == 1)
    #expect(warnings.messages.isEmpty, "\(warnings.messages)")
  }

  /// A push whose id the stack gave out already is refused, and the parent does not see it
  /// either: a parent that answers a push (popping it again when it may not show, as the
  /// cart's does) would otherwise act on the screen that holds that id (the navigation
  /// hunt: a stale link popped the screen it named and every screen above it).
  @Test func aRefusedPushIsNotSeenByTheParent() {
    let warnings = WarningLog()
    let harness = harness(warnings)
    let before = harness.state
    harness.send(.path(.push(id: StackElementID(rawValue: 0), state: Detail.State(title: "c"))))
    #expect(harness.state == before, "nothing pushed, and the parent saw no push")
    #expect(warnings.messages.count == 1, "\(warnings.messages)")
    #expect(warnings.messages.first?.contains("Nothing was pushed") == true)
    // A push with the next id is seen as before.
    harness.send(.path(.push(id: StackElementID(rawValue: 2), state: Detail.State(title: "c"))))
    #expect(harness.state.path.map(\.title) == ["a", "b", "c"])
    #expect(harness.state.pushesSeen == [StackElementID(rawValue: 2)])
  }

  /// A replay runs the reducers without effects and reports the warnings their effects
  /// carry: the late pop's mark is not one.
  @Test func aReplayReportsNothingForALatePop() {
    let top = StackElementID(rawValue: 1)
    var state = harness(WarningLog()).state
    var reported: [String] = []
    for action: Inbox.Action in [
      .path(.element(id: top, action: .delegate(.deleted))), .path(.popFrom(id: top)),
      .path(.popFrom(id: top)),
    ] {
      Inbox().reduce(into: &state, action: action).forEachWarning { message, _ in
        reported.append(message)
      }
    }
    #expect(state.path.map(\.title) == ["a"])
    #expect(state.popsSeen == 1)
    #expect(reported.isEmpty, "\(reported)")
  }
}

extension CaseKey<
  StalePopTests.Inbox.Action, StackAction<StalePopTests.Detail.State, StalePopTests.Detail.Action>
> {
  fileprivate static var stalePopPath: Self {
    Self(StalePopTests.Inbox.Action.path) { if case .path(let a) = $0 { a } else { nil } }
  }
}
