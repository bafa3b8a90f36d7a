import Effects
import Store
import StoreTesting
import Testing

/// The issues a test expected, as Swift Testing recorded them: what they say, and whether each
/// is a `#require` that failed.
final class RecordedIssues: Sendable {
  private let storage = Locked<[(text: String, isRequire: Bool)]>([])

  /// Records `issue`, and matches it: for `withKnownIssue`'s `matching:`.
  func capture(_ issue: Issue) -> Bool {
    let isRequire =
      if case .expectationFailed(let expectation) = issue.kind { expectation.isRequired } else {
        false
      }
    let text = issue.comments.map(\.rawValue).joined(separator: "\n")
    storage.withLock { $0.append((text, isRequire)) }
    return true
  }

  /// Runs `body` as `withKnownIssue` does (a test fails if it records no issue), recording
  /// every issue it records. An effect's task records its issues in the scope it was started
  /// in, so start the effects inside `body`.
  func expectKnown(
    isolation: isolated (any Actor)? = #isolation,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () async -> Void
  ) async {
    await withKnownIssue(
      isolation: isolation, sourceLocation: sourceLocation, body,
      matching: { self.capture($0) })
  }

  /// What the recorded issues say, in order.
  var texts: [String] { storage.withLock { $0.map(\.text) } }
  /// How many of the recorded issues are `#require`s that failed.
  var requires: Int { storage.withLock { $0.count(where: \.isRequire) } }
}

/// An error of the effect's own, made of one it caught.
struct WrappedError: Error, CustomStringConvertible {
  let error: any Error
  var description: String { "Wrapped(\(error))" }
}

/// A real failure: no check of the test threw it.
struct DiskFullError: Error, CustomStringConvertible {
  var description: String { "disk full" }
}

/// Loads a count with `#require` in its effects: with no `catch:`, once cancelled, with a
/// `catch:` that turns what the effect threw into an action; in effects that cancel themselves
/// (the action they send first cancels their id) just before they throw, so that what `catch:`
/// makes of the error is dropped; and in one that wraps the error in its own.
struct RequireInEffectLoader: Reducer {
  struct State: Equatable {
    var count = 0
    var failure = ""
  }

  enum Action: Equatable, Sendable {
    case loadTapped
    case loadWhenWokenTapped
    case loadCaughtTapped
    /// Cancels its own effect, then fails a `#require`; `catch:` returns `.failed`.
    case requireThenDropTapped
    /// The same, with a `catch:` handler that sends `.failed`.
    case requireThenDropHandledTapped
    /// The same as `requireThenDropTapped`, with an `unimplemented` stub's error.
    case stubThenDropTapped
    /// The same as `requireThenDropTapped`, with a real error.
    case failThenDropTapped
    /// Fails a `#require`, and throws its error wrapped in `WrappedError`, with no `catch:`.
    case requireWrappedTapped
    /// Cancels the effects of id `"load"`.
    case cancel
    case loaded(Int)
    case failed(String)
  }

  /// What the `load…Tapped` effects load.
  var load: @Sendable () async -> Int? = { nil }
  /// What `stubThenDropTapped` loads.
  var stub: @Sendable () async throws -> Int = unimplemented("stub")
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
        throw DiskFullError()
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
          throw WrappedError(error: error)
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
