// Either framework can be missing: on a Mac with only the Command Line Tools, XCTest (and,
// with older tools, Swift Testing) comes only with Xcode. Failures then go to whichever is
// there, or to standard error, rather than the module failing to build.
#if canImport(Testing)
  import Testing
#endif
#if canImport(XCTest)
  import XCTest
#endif
#if !canImport(XCTest)
  import Effects
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
package func reportFailure(_ message: String, at location: TestLocation) {
  #if canImport(Testing)
    if Test.current != nil {
      Issue.record(
        Comment(rawValue: message),
        sourceLocation: SourceLocation(
          fileID: "\(location.fileID)",
          filePath: "\(location.filePath)",
          line: Int(location.line),
          column: Int(location.column)
        )
      )
      return
    }
  #endif
  #if canImport(XCTest)
    XCTFail(message, file: location.filePath, line: location.line)
  #else
    writeToStandardError("\(location.filePath):\(location.line): error: \(message)\n")
  #endif
}
