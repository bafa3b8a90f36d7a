import Effects
import Store
import StoreTesting
import Testing

/// A stack whose screens can close themselves.
private struct Pages: Reducer {
  struct State: Equatable {
    var path = StackState<Page.State>()
  }
  enum Action: Sendable, Equatable {
    case path(StackActionOf<Page>)
    case open(String)
  }
  var body: some Reducer<State, Action> {
    Reduce { state, action in
      if case .open(let title) = action { state.path.append(Page.State(title: title)) }
      return .none
    }
    .navigationStack(\.path, action: .pages) { Page() }
  }
}

private struct Page: Reducer {
  struct State: Equatable { var title: String }
  enum Action: Sendable, Equatable { case closeTapped }
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    .dismiss
  }
}

extension CaseKey<Pages.Action, StackActionOf<Page>> {
  fileprivate static var pages: Self {
    Self(Pages.Action.path) { if case .path(let a) = $0 { a } else { nil } }
  }
}

@MainActor
@Suite struct StackPopKeyTests {
  /// A screen's `.dismiss` arrives as its stack's pop, which a test can receive by its case
  /// (a new-user trial found only the value or a predicate would do).
  @Test func aScreensDismissalIsReceivedByThePopKey() async {
    let store = TestStore(initialState: Pages.State()) { Pages() }
    await store.send(.open("a")) { $0.path.append(Page.State(title: "a")) }
    await store.send(.open("b")) { $0.path.append(Page.State(title: "b")) }
    await store.send(.path(.element(id: 0, action: .closeTapped)))
    await store.receive(CaseKey.pages.popFrom) { $0.path.removeAll() }
    await store.finish()
  }

  @Test func thePopKeyExtractsTheIDOfAPopAndNothingElse() {
    let key = CaseKey.pages.popFrom
    #expect(key.extract(.path(.popFrom(id: 3))) == 3)
    #expect(key.extract(.path(.element(id: 3, action: .closeTapped))) == nil)
    #expect(key.extract(.open("a")) == nil)
    #expect(key.embed(4) == .path(.popFrom(id: 4)))
  }

  /// A receive by the pop key that gets another action names the case it expected
  /// (`.path(.popFrom)`), not only "an action whose case carries StackElementID" (a new-user
  /// trial).
  @Test func aFailedReceiveNamesThePopCase() async {
    let messages = Messages()
    let store = TestStore(initialState: Pages.State()) { Pages() }
    await store.send(.open("a")) { $0.path.append(Page.State(title: "a")) }
    await withKnownIssue {
      await store.receive(CaseKey.pages.popFrom)
    } matching: {
      messages.capture($0)
    }
    #expect(
      messages.last.hasPrefix(
        "Expected to receive an action of the case Pages.Action.path(.popFrom) (carrying "
          + "StackElementID), but nothing arrived"), "\(messages.last)")
  }
}
