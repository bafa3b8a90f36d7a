import Effects
import Testing

@testable import Store

/// A parent whose optional child is read through a computed property.
private struct ComputedParent: Reducer {
  struct State: Equatable {
    var stored: Row.State?
    var child: Row.State? {
      get { stored }
      set { stored = newValue }
    }
  }
  enum Action: Sendable, Equatable {
    case child(Row.Action)
    static var childKey: CaseKey<Self, Row.Action> {
      CaseKey(Self.child) { if case .child(let action) = $0 { action } else { nil } }
    }
  }
  let clock: TestClock
  var body: some Reducer<State, Action> {
    EmptyReducer().ifLet(\.child, action: Action.childKey) { Row(clock: clock) }
  }
}

/// A parent whose stack is read through a computed property.
private struct ComputedStackParent: Reducer {
  struct State: Equatable {
    var storedPath = StackState<Row.State>()
    var path: StackState<Row.State> {
      get { storedPath }
      set { storedPath = newValue }
    }
  }
  enum Action: Sendable, Equatable {
    case path(StackAction<Row.State, Row.Action>)
    static var pathKey: CaseKey<Self, StackAction<Row.State, Row.Action>> {
      CaseKey(Self.path) { if case .path(let action) = $0 { action } else { nil } }
    }
  }
  let clock: TestClock
  var body: some Reducer<State, Action> {
    EmptyReducer().navigationStack(\.path, action: Action.pathKey) { Row(clock: clock) }
  }
}

/// A mode whose state describes itself, as a type may to keep its details out of logs.
private struct DescribedMode: Reducer {
  enum State: Equatable, CustomStringConvertible {
    case idle
    case editing(Row.State)
    case list([Int])
    var description: String { "a mode with details a log should not hold" }
    static var editingKey: CaseKey<Self, Row.State> {
      CaseKey(Self.editing) { if case .editing(let row) = $0 { row } else { nil } }
    }
  }
  enum Action: Sendable, Equatable {
    case editing(Row.Action)
    static var editingKey: CaseKey<Self, Row.Action> {
      CaseKey(Self.editing) { if case .editing(let action) = $0 { action } else { nil } }
    }
  }
  let clock: TestClock
  var body: some Reducer<State, Action> {
    EmptyReducer().ifCaseLet(State.editingKey, action: Action.editingKey) { Row(clock: clock) }
  }
}

/// The warning for an action to a missing child named a computed key path with the address of
/// its getter (`\State.<computed 0x0000556f89f10b10 (Optional<State>)>`), and the case an
/// enum state was in by the state's own description, which may be long or private
/// (lifecycle hunt).
@MainActor
@Suite struct MissingChildPlaceMessageTests {
  let clock = TestClock()

  @Test func aComputedKeyPathIsNamedWithoutAnAddress() throws {
    let warnings = WarningLog()
    let harness = Harness(
      initialState: ComputedParent.State(), warnings: warnings.handler,
      reducer: ComputedParent(clock: clock))
    harness.send(.child(.loadTapped))
    let message = try #require(warnings.messages.first)
    #expect(message.contains(#"sent to the child at \State.<computed (Optional<State>)>"#))
    #expect(!message.contains("0x"), "\(message)")
  }

  /// The stack's warning was missed at first (the second review).
  @Test func aComputedStackIsNamedWithoutAnAddress() throws {
    let warnings = WarningLog()
    let harness = Harness(
      initialState: ComputedStackParent.State(), warnings: warnings.handler,
      reducer: ComputedStackParent(clock: clock))
    harness.send(.path(.element(id: StackElementID(rawValue: 7), action: .loadTapped)))
    let message = try #require(warnings.messages.first)
    #expect(message.contains(#"of the stack at \State.<computed (StackState<State>)>"#))
    #expect(!message.contains("0x"), "\(message)")
  }

  @Test func keyPathsThroughStoredPropertiesAreNamedAsSwiftWritesThem() {
    #expect(describeKeyPath(\ComputedParent.State.stored) == #"\State.stored"#)
    #expect(describeKeyPath(\ComputedParent.State.stored?.title) == #"\State.stored?.title?"#)
  }

  @Test(arguments: [
    (DescribedMode.State.idle, "another case. Neither"),
    (.list([1, 2]), "another case: .list. Neither"),
  ])
  fileprivate func aCaseIsNamedWithoutTheStatesOwnDescription(
    state: DescribedMode.State, expected: String
  ) throws {
    let warnings = WarningLog()
    let harness = Harness(
      initialState: state, warnings: warnings.handler, reducer: DescribedMode(clock: clock))
    harness.send(.editing(.loadTapped))
    let message = try #require(warnings.messages.first)
    #expect(message.contains(expected), "\(message)")
    #expect(!message.contains("details"), "\(message)")
  }
}
