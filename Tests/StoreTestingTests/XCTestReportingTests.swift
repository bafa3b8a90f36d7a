import Effects
import Store
import XCTest

@testable import StoreTesting

/// Proves that a test store failure inside an `XCTestCase` is reported to that test case
/// (through XCTest, where Swift Testing's issues would be ignored).
final class XCTestReportingTests: FailureCapturingTestCase {
  // Only the test store's own failure is captured; any other failure (such as a failing
  // XCTAssert below) still fails the test.
  override func isCaptured(_ description: String) -> Bool {
    description.contains("differs from the expected state")
      || description.contains("still running at the end of the test")
  }

  /// A store kept in a property, as one made in `setUp()` is.
  private var store: TestStore<Profile.State, Profile.Action>?

  @MainActor
  func testAFailingAssertionFailsTheXCTestCase() async {
    let store = TestStore(initialState: Profile.State()) {
      Profile(load: { "Ada" })
    }
    await store.send(.moveTapped("Lyon")) { $0.user.address.city = "Nice" }
    // The failure was recorded on this test case; swallowing it here keeps the suite green.
    XCTAssertEqual(failures.count, 1)
    XCTAssertTrue(failures.first?.contains("Nice") ?? false)
  }

  /// A store kept in the test case's property lived until the whole run ended, so a test that
  /// left its timer running passed (flakiness trial). Its checks now run as its test ends.
  /// (The first test of a run that makes a test store is not covered: XCTest names the
  /// running test only to observers, and the first store registers one. This test runs
  /// after the one above.)
  @MainActor
  func testAStoreKeptInAPropertyIsCheckedWhenItsTestEnds() async {
    // Registered before the store's own, so it runs after it.
    addTeardownBlock { [unowned self] in
      XCTAssertEqual(self.failures.count, 1, "\(self.failures)")
      XCTAssertTrue(self.failures.first?.contains("Action.startTimer") ?? false)
    }
    store = TestStore(initialState: Profile.State()) {
      Profile(load: { "Ada" })
    }
    // Followed since the test above made the first store: a failure raised off the main
    // actor goes to XCTest alone, not to Swift Testing's run too.
    XCTAssertTrue(XCTestEnd.isInXCTestTest)
    await store?.send(.startTimer)
  }
}
