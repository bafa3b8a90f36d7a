import Effects
import Store
import StoreTesting
import Testing

/// Review of the `.some(nil)` dump: a nested optional holding an optional that holds nil,
/// one level deeper (`Int???`), still prints as the shallower one.
private struct Deeper: Reducer {
  struct State: Equatable { var value: Int??? = nil }
  enum Action: Equatable, Sendable { case set(Int???) }
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    if case .set(let value) = action { state.value = value }
    return .none
  }
}

@MainActor
@Suite struct NestedOptionalDumpReviewTests {
  let messages = Messages()

  /// `.some(.some(nil))` prints as `.some(nil)`: the diff against an expected `.some(nil)` is
  /// empty ("although both print the same"), and the action is printed as another value.
  @Test func aDoublyWrappedNilPrintsAsItIs() async {
    let store = TestStore(initialState: Deeper.State()) { Deeper() }
    await withKnownIssue {
      await store.send(.set(.some(.some(nil)))) { $0.value = .some(nil) }
    } matching: {
      messages.capture($0)
    }
    let message = messages.last
    #expect(message.contains("Deeper.Action.set(.some(.some(nil)))"), "\(message)")
    #expect(!message.contains("print the same"), "\(message)")
  }
}
