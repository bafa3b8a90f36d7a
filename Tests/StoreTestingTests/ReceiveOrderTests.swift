import Effects
import Store
import StoreTesting
import Testing

/// An effect that reports twice, in a fixed order.
private struct TwoReports: Reducer {
  struct State: Equatable { var reports: [String] = [] }
  enum Action: Sendable, Equatable { case start, saved, closed }
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .start:
      return .run { send in
        send(.saved)
        send(.closed)
      }
    case .saved:
      state.reports.append("saved")
      return .none
    case .closed:
      state.reports.append("closed")
      return .none
    }
  }
}

@MainActor
@Suite struct ReceiveOrderTests {
  /// Two receives swapped: the failure says the expected action came later, and in what order
  /// the actions arrived (a new-user trial got two failures saying only "unexpected action").
  @Test func aReceiveOfALaterActionSaysItArrivedLaterAndTheOrder() async {
    let messages = Messages()
    let store = await receivingClosedFirst(messages)
    let message = messages.last
    #expect(message.contains("Received an unexpected action"), "\(message)")
    #expect(
      message.contains(
        """
        The expected action was received too, after this one. The actions arrived in this \
        order; receive them in it:
          • TwoReports.Action.saved
          • TwoReports.Action.closed
        """), "\(message)")
    await store.receive(.closed) { $0.reports = ["saved", "closed"] }
    await store.finish()
  }

  /// The receive written after the swapped one fails too, on the action the first one took:
  /// it says it may follow from the first (a new-user trial read it as a second mistake).
  @Test func theReceiveAfterASwappedOneSaysItMayFollowFromIt() async {
    let messages = Messages()
    let store = await receivingClosedFirst(messages)
    #expect(!messages.last.contains("This may follow from"), "\(messages.last)")
    await withKnownIssue {
      await store.receive(.saved) { $0.reports = ["closed", "saved"] }
    } matching: {
      messages.capture($0)
    }
    #expect(
      messages.last.contains(
        """
        This may follow from the `receive` at StoreTestingTests/ReceiveOrderTests.swift:
        """), "\(messages.last)")
    #expect(
      messages.last.hasSuffix("put the receives in the order they arrived, and this one may pass."))
    await store.finish()
  }

  /// A store whose effect sent `.saved`, then `.closed`, after a `receive` of `.closed` that
  /// failed (its failure in `messages`).
  private func receivingClosedFirst(_ messages: Messages) async -> TestStore<
    TwoReports.State, TwoReports.Action
  > {
    let store = TestStore(initialState: TwoReports.State()) { TwoReports() }
    await store.send(.start)
    await withKnownIssue {
      await store.receive(.closed) { $0.reports = ["closed"] }
    } matching: {
      messages.capture($0)
    }
    return store
  }

  /// An action that never arrives gets no such hint.
  @Test func aReceiveOfAnActionThatNeverArrivesHasNoOrderHint() async {
    let store = TestStore(initialState: TwoReports.State()) { TwoReports() }
    await store.send(.start)
    let messages = Messages()
    await withKnownIssue {
      await store.receive(.start)
    } matching: {
      messages.capture($0)
    }
    #expect(!messages.last.contains("received too"))
    await store.receive(.closed) { $0.reports = ["saved", "closed"] }
    await store.finish()
  }
}
