import Effects
import Store
import StoreTesting
import Testing

/// An error of the effect's own, made of one it caught.
private struct Wrapped: Error, CustomStringConvertible {
  let error: any Error
  var description: String { "Wrapped(\(error))" }
}

/// A real failure: no check of the test threw it.
private struct DiskFull: Error, CustomStringConvertible {
  var description: String { "disk full" }
}

/// Loads with `#require` in effects that cancel themselves (the action they send first
/// cancels their id) just before they throw, so that what `catch:` makes of the error is
/// dropped; and in one that wraps the error in its own.
private struct Loader: Reducer {
  struct State: Equatable {
    var count = 0
    var failure = ""
  }

  enum Action: Equatable, Sendable {
    /// Cancels its own effect, then fails a `#require`; `catch:` returns `.failed`.
    case requireThenDropTapped
    /// The same, with a `catch:` handler that sends `.failed`.
    case requireThenDropHandledTapped
    /// The same as `requireThenDropTapped`, with an `unimplemented` stub's error.
    case stubThenDropTapped
    /// The same as `requireThenDropTapped`, with a real error.
    case failThenDropTapped
    /// Fails a `#require`, and throws its error wrapped in `Wrapped`, with no `catch:`.
    case requireWrappedTapped
    case cancel
    case loaded(Int)
    case failed(String)
  }

  var stub: @Sendable () async throws -> Int = unimplemented("stub")

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .requireThenDropTapped:
      return .run { send in
        send(.cancel)
        let count: Int? = nil
        send(.loaded(try #require(count)))
      } catch: { _ in
        .failed("no count")
      }
      .cancellable(id: "load")
    case .requireThenDropHandledTapped:
      return .run { send in
        send(.cancel)
        let count: Int? = nil
        send(.loaded(try #require(count)))
      } catch: { _, send in
        send(.failed("no count"))
      }
      .cancellable(id: "load")
    case .stubThenDropTapped:
      return .run { [stub] send in
        send(.cancel)
        send(.loaded(try await stub()))
      } catch: { _ in
        .failed("no count")
      }
      .cancellable(id: "load")
    case .failThenDropTapped:
      return .run { send in
        send(.cancel)
        throw DiskFull()
      } catch: { _ in
        .failed("disk full")
      }
      .cancellable(id: "load")
    case .requireWrappedTapped:
      return .run { send in
        do {
          let count: Int? = nil
          send(.loaded(try #require(count)))
        } catch {
          throw Wrapped(error: error)
        }
      }
    case .cancel:
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

/// A second look at 2bacd07 (a failed `#require` in an effect fails the test once): the other
/// ways a test store reports what an effect threw.
@MainActor
@Suite struct RequireInEffectSecondLookHuntTests {
  private let issues = RecordedIssues()

  /// What `catch:` made of a failed `#require`'s error, dropped as the effect was cancelled
  /// before it reached a reducer, was a runtime warning naming the error ("threw an error:
  /// ExpectationFailedError(…). The action `catch:` made of it, … was dropped"): a second
  /// failure, where the error thrown a moment later, once cancelled, ends the effect quietly.
  @Test(arguments: [false, true])
  func aFailedRequiresCaughtActionDroppedFailsTheTestOnce(handlerSends: Bool) async {
    let store = TestStore(initialState: Loader.State()) { Loader() }
    await withKnownIssue {
      await store.send(handlerSends ? .requireThenDropHandledTapped : .requireThenDropTapped)
      await store.receive(.cancel)
      await store.finish()
    } matching: {
      issues.capture($0)
    }
    #expect(issues.requires == 1)
    #expect(issues.texts.count == 1, "\(issues.texts)")
    #expect(store.state == Loader.State())
  }

  /// So with an `unimplemented` stub's error: its call failed the test, naming the stub.
  @Test func anUnimplementedStubsCaughtActionDroppedFailsTheTestOnce() async {
    let store = TestStore(initialState: Loader.State()) { Loader() }
    await withKnownIssue {
      await store.send(.stubThenDropTapped)
      await store.receive(.cancel)
      await store.finish()
    } matching: {
      issues.capture($0)
    }
    #expect(issues.texts.count == 1, "\(issues.texts)")
    #expect(issues.texts.first?.contains("stub") == true, "\(issues.texts)")
    #expect(store.state == Loader.State())
  }

  /// A real error dropped so is still a failure, the warning naming the error and the action.
  @Test func aRealErrorsCaughtActionDroppedIsStillAFailure() async {
    let store = TestStore(initialState: Loader.State()) { Loader() }
    await withKnownIssue {
      await store.send(.failThenDropTapped)
      await store.receive(.cancel)
      await store.finish()
    } matching: {
      issues.capture($0)
    }
    #expect(issues.texts.count == 1, "\(issues.texts)")
    let text = issues.texts.first ?? ""
    #expect(text.contains("threw an error: disk full"), "\(text)")
    #expect(text.contains("The action `catch:` made of it, "), "\(text)")
  }

  /// An error of the effect's own that wraps a failed `#require`'s is not the check's error:
  /// the test store cannot see into it, and reports it as any error with no `catch:`.
  @Test func aFailedRequiresErrorWrappedInTheEffectsOwnIsReported() async {
    let store = TestStore(initialState: Loader.State()) { Loader() }
    await withKnownIssue {
      await store.send(.requireWrappedTapped)
      await store.finish()
    } matching: {
      issues.capture($0)
    }
    #expect(issues.requires == 1)
    #expect(issues.texts.count == 2, "\(issues.texts)")
    #expect(
      issues.texts.contains { $0.contains("no catch action handles: Wrapped(") },
      "\(issues.texts)")
  }
}
