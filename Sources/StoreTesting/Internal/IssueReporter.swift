import Effects

// Either framework can be missing: on a Mac with only the Command Line Tools, XCTest (and,
// with older tools, Swift Testing) comes only with Xcode. Failures then go to whichever is
// there, or to standard error, rather than the module failing to build.
#if canImport(Testing)
  import Testing
#endif
#if canImport(XCTest)
  import Foundation
  import XCTest
#endif

/// Where in a test a failure belongs: the call site of a ``TestStore`` method.
package struct TestLocation: Sendable {
  package var fileID: StaticString
  package var filePath: StaticString
  package var line: UInt
  package var column: UInt

  package init(fileID: StaticString, filePath: StaticString, line: UInt, column: UInt) {
    self.fileID = fileID
    self.filePath = filePath
    self.line = line
    self.column = column
  }
}

/// Reports a test failure to whichever framework is running the current test.
///
/// Swift Testing's `Issue.record` is ignored when no Swift Testing test is running (as inside an
/// `XCTestCase` on Linux), and `XCTFail` means nothing to Swift Testing; so this checks
/// `Test.current` and reports through the right one.
///
/// Off a Swift Testing test's task (a `Task.detached`, or another thread's callback, that
/// calls an `unimplemented` dependency), `Test.current` is `nil`, as it is in an XCTest test,
/// where `XCTFail` alone would go nowhere and the test would pass. So a failure goes to
/// XCTest alone while an XCTest test is known to run (the first test store of the process
/// starts following them), and otherwise to both: Swift Testing records it for the run (it
/// cannot tell for which test), and XCTest for its test that is running, if any; each
/// ignores it otherwise. Where the two frameworks forward each other's failures (Xcode's
/// interoperability), such a failure can then be reported twice: twice a failure, never lost.
package func reportFailure(_ message: String, at location: TestLocation) {
  #if canImport(Testing)
    let sourceLocation = SourceLocation(
      fileID: "\(location.fileID)",
      filePath: "\(location.filePath)",
      line: Int(location.line),
      column: Int(location.column)
    )
    if Test.current != nil {
      Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
      return
    }
  #endif
  #if canImport(XCTest)
    XCTFail(message, file: location.filePath, line: location.line)
    if XCTestEnd.isInXCTestTest { return }
  #else
    writeToStandardError("\(location.filePath):\(location.line): error: \(message)\n")
  #endif
  #if canImport(Testing)
    Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
  #endif
}

/// Whether `error` comes from a check that recorded its own failure before it threw it: Swift
/// Testing's `#require`, whose failure names the expression, at its line, XCTest's
/// `XCTUnwrap`, or an `unimplemented` dependency (a ``ReportedByItsThrower``, such as
/// ``UnimplementedError``). A test store does not report such an error again when an
/// assertion closure throws it, nor when an effect does with no `catch:` or once cancelled,
/// nor when the action a `catch:` made of it is dropped as its effect was cancelled (its
/// runtime asks this; a `catch:` still turns the error into an action).
///
/// XCTest skips `XCTUnwrap`'s error itself when a test method throws it, by marks that are not
/// public API: on Darwin, and in older swift-corelibs-xctest, the error's user info key
/// `XCTestErrorUserInfoKeyShouldIgnore`; in swift-corelibs-xctest, its type,
/// `XCTestErrorWhileUnwrappingOptional`, which says so through an internal protocol.
func wasRecordedByItsThrower(_ error: any Error) -> Bool {
  if error is any ReportedByItsThrower { return true }
  #if canImport(Testing)
    if error is ExpectationFailedError { return true }
  #endif
  #if canImport(XCTest)
    if String(reflecting: type(of: error)) == "XCTest.XCTestErrorWhileUnwrappingOptional" {
      return true
    }
    if (error as NSError).userInfo["XCTestErrorUserInfoKeyShouldIgnore"] as? Bool == true {
      return true
    }
  #endif
  return false
}
