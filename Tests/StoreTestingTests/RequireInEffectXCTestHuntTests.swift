import Effects
import Store
import StoreTesting
import XCTest

/// Loads a count with `XCTUnwrap` in its effect, with no `catch:`.
private struct UnwrappingCounter: Reducer {
  struct State: Equatable {
    var count = 0
  }

  enum Action: Equatable, Sendable {
    case loadTapped
    case loaded(Int)
  }

  let load: @Sendable () async -> Int?

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .loadTapped:
      return .run { send in
        let count = await load()
        send(.loaded(try XCTUnwrap(count)))
      }
    case .loaded(let count):
      state.count = count
      return .none
    }
  }
}

/// An `XCTUnwrap` that fails in an effect run by a test store, in an `XCTestCase`, records its
/// failure and throws: the runtime warning for an effect's error that no `catch:` handles
/// failed the test a second time.
final class RequireInEffectXCTestHuntTests: FailureCapturingTestCase {
  // Only the unwrap's failure and the test store's runtime warnings are captured, told by how
  // they start; any other failure (the assertions below, which name them) still fails the test.
  override func isCaptured(_ description: String) -> Bool {
    description.hasPrefix("XCTUnwrap failed") || description.hasPrefix("failed - Runtime warning")
      || description.hasPrefix("Runtime warning")
  }

  @MainActor
  func testAFailedUnwrapInAnEffectWithNoCatchFailsTheTestOnce() async {
    let store = TestStore(initialState: UnwrappingCounter.State()) {
      UnwrappingCounter(load: { nil })
    }
    await store.send(.loadTapped)
    await store.finish()
    XCTAssertEqual(failures.count, 1, "\(failures)")
    XCTAssertTrue(failures.first?.hasPrefix("XCTUnwrap failed") ?? false, "\(failures)")
  }
}
