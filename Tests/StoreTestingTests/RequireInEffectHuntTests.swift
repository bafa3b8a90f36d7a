import Effects
import Store
import StoreTesting
import Testing

/// Loads a count with `#require` in its effects: with no `catch:`, once cancelled, and with a
/// `catch:` that turns what the effect threw into an action.
private struct Counter: Reducer {
  struct State: Equatable {
    var count = 0
    var failure = ""
  }

  enum Action: Equatable, Sendable {
    case loadTapped
    case loadWhenWokenTapped
    case loadCaughtTapped
    case cancelTapped
    case loaded(Int)
    case failed(String)
  }

  let load: @Sendable () async -> Int?
  /// What `loadWhenWokenTapped` sleeps on: never advanced, so that the load runs once the
  /// effect is cancelled.
  var clock = TestClock()

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .loadTapped:
      return .run { send in
        let count = await load()
        send(.loaded(try #require(count)))
      }
    case .loadWhenWokenTapped:
      return .run { [clock] send in
        try? await clock.sleep(for: .seconds(1))
        let count = await load()
        send(.loaded(try #require(count)))
      }
      .cancellable(id: "load")
    case .loadCaughtTapped:
      return .run { send in
        let count = await load()
        send(.loaded(try #require(count)))
      } catch: { _ in
        .failed("no count")
      }
    case .cancelTapped:
      return .cancel(id: "load")
    case .loaded(let count):
      state.count = count
      return .none
    case .failed(let failure):
      state.failure = failure
      return .none
    }
  }
}

/// The issues a test expected, as Swift Testing recorded them: what they say, and whether each
/// is a `#require` that failed.
private final class RecordedIssues: Sendable {
  private let storage = Locked<[(text: String, isRequire: Bool)]>([])

  func capture(_ issue: Issue) -> Bool {
    let isRequire =
      if case .expectationFailed(let expectation) = issue.kind { expectation.isRequired } else {
        false
      }
    let text = issue.comments.map(\.rawValue).joined(separator: "\n")
    storage.withLock { $0.append((text, isRequire)) }
    return true
  }

  var texts: [String] { storage.withLock { $0.map(\.text) } }
  var requires: Int { storage.withLock { $0.count(where: \.isRequire) } }
}

/// A `#require` that fails in an effect run by a test store records its failure, at its line,
/// and throws: the effect's error was reported again, a second failure of one mistake.
@MainActor
@Suite struct RequireInEffectHuntTests {
  private let issues = RecordedIssues()

  /// With no `catch:`, the runtime warning that asks for one ("threw an error that no catch
  /// action handles: ExpectationFailedError(…). Pass `catch:` to `.run`") failed the test a
  /// second time, with advice that does not fit a check of the test.
  @Test func aFailedRequireInAnEffectWithNoCatchFailsTheTestOnce() async {
    let store = TestStore(initialState: Counter.State()) {
      Counter(load: { nil })
    }
    // Started inside `withKnownIssue`: the effect's task records the `#require`'s failure in
    // the scope it was started in.
    await withKnownIssue {
      await store.send(.loadTapped)
      await store.finish()
    } matching: {
      issues.capture($0)
    }
    #expect(issues.requires == 1)
    #expect(issues.texts.count == 1, "\(issues.texts)")
  }

  /// Nor once the effect was cancelled: not reported again as thrown after the cancellation.
  @Test func aFailedRequireInAnEffectOnceCancelledFailsTheTestOnce() async {
    let store = TestStore(initialState: Counter.State()) {
      Counter(load: { nil })
    }
    await withKnownIssue {
      await store.send(.loadWhenWokenTapped)
      await store.send(.cancelTapped)
      await store.finish()
    } matching: {
      issues.capture($0)
    }
    #expect(issues.requires == 1)
    #expect(issues.texts.count == 1, "\(issues.texts)")
  }

  /// A `catch:` still turns the error into an action, as it does `UnimplementedError`: the
  /// test receives it, and fails once, for the `#require`.
  @Test func aFailedRequireInAnEffectWithACatchIsTurnedIntoItsAction() async {
    let store = TestStore(initialState: Counter.State()) {
      Counter(load: { nil })
    }
    await withKnownIssue {
      await store.send(.loadCaughtTapped)
      await store.receive(.failed("no count")) { $0.failure = "no count" }
      await store.finish()
    } matching: {
      issues.capture($0)
    }
    #expect(issues.requires == 1)
    #expect(issues.texts.count == 1, "\(issues.texts)")
  }

  /// A `#require` that passes lets the effect go on.
  @Test func aPassingRequireInAnEffectSendsOn() async {
    let store = TestStore(initialState: Counter.State()) {
      Counter(load: { 3 })
    }
    await store.send(.loadTapped)
    await store.receive(.loaded(3)) { $0.count = 3 }
    await store.finish()
  }
}
