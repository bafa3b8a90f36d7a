#if canImport(XCTest)
  import Effects
  import Foundation
  import XCTest
#endif
#if canImport(Testing)
  import Testing
#endif

/// Runs code when the XCTest test that is running ends.
///
/// XCTest keeps every test case object until the whole run ends, and with it whatever its
/// properties hold: a test store made in `setUp()` and kept in a property would make its
/// end-of-test checks when the run ends, failing nothing. A test case's teardown block runs
/// as the test ends, and what it reports fails that test. Which test case is running is told
/// only to observers of XCTest, from the test after the one that made the first test store
/// on: a store made in the first test of the run is still checked when it is released.
@MainActor
enum XCTestEnd {
  /// Calls `body` on the main actor when the running XCTest test ends, if one is running and
  /// its start was seen; otherwise does nothing.
  static func onEndOfCurrentTest(_ body: @escaping @MainActor () -> Void) {
    #if canImport(XCTest)
      #if canImport(Testing)
        // A Swift Testing test reports through `Issue.record`, when the store is released.
        if Test.current != nil { return }
      #endif
      guard let testCase = Tracker.shared.current else { return }
      testCase.addTeardownBlock {
        // XCTest runs teardown blocks on the main thread; elsewhere, the store's release
        // makes the checks as before.
        guard Thread.isMainThread else { return }
        MainActor.assumeIsolated { body() }
      }
    #endif
  }

  #if canImport(XCTest)
    /// Whether an XCTest test is known to be running, from any thread: `false` too before the
    /// first test store of the process started following XCTest (see ``Tracker``).
    nonisolated static var isInXCTestTest: Bool {
      Tracker.testsRunning.withLock { $0 > 0 }
    }

    /// Follows which XCTest test case runs (XCTest tells its observers on the main thread).
    @MainActor
    final class Tracker: NSObject, XCTestObservation {
      static let shared: Tracker = {
        let tracker = Tracker()
        XCTestObservationCenter.shared.addTestObserver(tracker)
        return tracker
      }()

      /// How many XCTest test cases have started and not finished, on any thread: what a
      /// failure reported off the main actor asks (see `reportFailure(_:at:)`).
      nonisolated static let testsRunning = Locked(0)

      private(set) var current: XCTestCase?

      nonisolated func testCaseWillStart(_ testCase: XCTestCase) {
        Self.testsRunning.withLock { $0 += 1 }
        guard Thread.isMainThread else { return }
        // On the main thread, where the store reads it: no other isolation sees it.
        nonisolated(unsafe) let testCase = testCase
        MainActor.assumeIsolated { current = testCase }
      }

      nonisolated func testCaseDidFinish(_ testCase: XCTestCase) {
        Self.testsRunning.withLock { $0 = max(0, $0 - 1) }
        guard Thread.isMainThread else { return }
        MainActor.assumeIsolated { current = nil }
      }
    }
  #endif
}
