import Effects
import Store
import Testing

@testable import StoreTesting

@MainActor
@Suite struct UnimplementedTests {
  let clock = TestClock()
  let messages = Messages()

  /// A dependency the test does not expect fails the test when the feature calls it, naming
  /// it, and throws: the feature's `catch:` turns the error into its action.
  @Test func callingAnUnimplementedDependencyFailsTheTestNamingIt() async {
    let store = TestStore(initialState: Profile.State()) {
      Profile(load: unimplemented("load"), clock: clock)
    }
    await withKnownIssue {
      await store.send(.refreshTapped) { $0.isLoading = true }
      await store.receive(.failed("load is not implemented in this test")) {
        $0.isLoading = false
        $0.error = "load is not implemented in this test"
      }
    } matching: {
      messages.capture($0)
    }
    #expect(messages.all.count == 1)
    #expect(
      messages.last.hasPrefix(
        "load was called, but this test does not expect it: it was made with unimplemented(\"load\")."
      ), "\(messages.all)")
    await store.finish()
  }

  /// An effect that throws the error on, with no `catch:`, fails the test once, for the call:
  /// not a second time with the runtime warning that asks for a `catch:`, whose advice does
  /// not fit an error that exists only because of the stub.
  @Test func anEffectThatThrowsTheErrorOnWithNoCatchFailsTheTestOnce() async {
    let store = TestStore(initialState: Loader.State()) {
      Loader(load: unimplemented("load"))
    }
    await withKnownIssue {
      await store.send(.loadTapped)
      await store.finish()
    } matching: {
      messages.capture($0)
    }
    #expect(messages.all.count == 1, "\(messages.all)")
    #expect(messages.last.hasPrefix("load was called"), "\(messages.all)")
  }

  /// Nor once the effect was cancelled: the stub reached after the cancellation fails the test
  /// for the call, and the error it throws is not reported again as thrown after it.
  @Test func anEffectThatThrowsTheErrorOnOnceCancelledFailsTheTestOnce() async {
    let store = TestStore(initialState: Loader.State()) {
      Loader(load: unimplemented("load"), clock: clock)
    }
    // Started inside `withKnownIssue`: the effect's task records the stub's failure in the
    // scope it was started in.
    await withKnownIssue {
      await store.send(.loadWhenWokenTapped)
      await store.send(.cancelTapped)
      await store.finish()
    } matching: {
      messages.capture($0)
    }
    #expect(messages.all.count == 1, "\(messages.all)")
    #expect(messages.last.hasPrefix("load was called"), "\(messages.all)")
  }

  /// Any other error the effect throws with no `catch:` is still reported.
  @Test func anotherErrorThrownWithNoCatchIsStillReported() async {
    struct Offline: Error {}
    let store = TestStore(initialState: Loader.State()) {
      Loader(load: { throw Offline() })
    }
    await withKnownIssue {
      await store.send(.loadTapped)
      await store.finish()
    } matching: {
      messages.capture($0)
    }
    #expect(messages.all.count == 1, "\(messages.all)")
    #expect(messages.last.contains("threw an error that no catch action handles"))
  }

  /// One that is never called costs nothing.
  @Test func anUnimplementedDependencyThatIsNotCalledPasses() async {
    let store = TestStore(initialState: Profile.State()) {
      Profile(load: unimplemented("load"), clock: clock)
    }
    await store.send(.startTimer)
    await clock.advance(by: .seconds(1))
    await store.receive(.tick) { $0.ticks = 1 }
    await store.send(.stopTimer)
    await store.finish()
  }

  @Test func theOtherFormsFailAndGiveBackTheirPlaceholderOrThrow() async {
    let now: @Sendable () -> Int = unimplemented("now", placeholder: 7)
    let search: @Sendable (String) async throws -> [String] = unimplemented("search")
    await withKnownIssue {
      #expect(now() == 7)
      await #expect(throws: UnimplementedError(name: "search")) { try await search("milk") }
    } matching: {
      messages.capture($0)
    }
    #expect(messages.all.count == 2)
    #expect(messages.all.first?.hasPrefix("now was called") == true)
    #expect(messages.all.last?.hasPrefix("search was called") == true)
  }

  /// A dependency of several arguments takes the same call: `unimplemented` used to come in
  /// forms of no argument and of one, and a `save: (UUID, String) async throws -> Void` took
  /// a closure written out around it (the compiler's error named the no-argument form, then
  /// every action of the file).
  @Test func aDependencyOfSeveralArgumentsTakesTheSameCall() async {
    let save: @Sendable (Int, String) async throws -> Void = unimplemented("save")
    let format: @Sendable (Int, String, Bool) -> String = unimplemented(
      "format", placeholder: "-")
    await withKnownIssue {
      await #expect(throws: UnimplementedError(name: "save")) { try await save(1, "milk") }
      #expect(format(1, "milk", true) == "-")
    } matching: {
      messages.capture($0)
    }
    #expect(messages.all.map { $0.prefix(16) } == ["save was called,", "format was calle"])
  }
}

/// Loads a name with no `catch:`, so that what `load` throws reaches the runtime.
private struct Loader: Reducer {
  struct State: Equatable {
    var name = ""
  }

  enum Action: Equatable, Sendable {
    case loadTapped
    case loadWhenWokenTapped
    case cancelTapped
    case loaded(String)
  }

  let load: @Sendable () async throws -> String
  /// What `loadWhenWokenTapped` sleeps on: never advanced, so that the load runs once the
  /// effect is cancelled.
  var clock = TestClock()

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .loadTapped:
      return .run { send in send(.loaded(try await load())) }
    case .loadWhenWokenTapped:
      return .run { [clock] send in
        try? await clock.sleep(for: .seconds(1))
        send(.loaded(try await load()))
      }
      .cancellable(id: "load")
    case .cancelTapped:
      return .cancel(id: "load")
    case .loaded(let name):
      state.name = name
      return .none
    }
  }
}
