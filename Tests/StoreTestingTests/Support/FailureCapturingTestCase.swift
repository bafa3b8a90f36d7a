import XCTest

/// An `XCTestCase` that captures the failures `isCaptured(_:)` picks, in `failures`, instead of
/// failing the test with them; any other failure (such as a failing `XCTAssert` on `failures`)
/// still fails the test.
class FailureCapturingTestCase: XCTestCase {
  /// The failures captured, in the order they were recorded.
  var failures: [String] = []

  /// Whether a failure of this description is captured; by default, none is.
  func isCaptured(_ description: String) -> Bool { false }

  #if canImport(Darwin)
    override func record(_ issue: XCTIssue) {
      if isCaptured(issue.compactDescription) {
        failures.append(issue.compactDescription)
      } else {
        super.record(issue)
      }
    }
  #else
    override func recordFailure(
      withDescription description: String,
      inFile filePath: String,
      atLine lineNumber: Int,
      expected: Bool
    ) {
      if isCaptured(description) {
        failures.append(description)
      } else {
        super.recordFailure(
          withDescription: description,
          inFile: filePath,
          atLine: lineNumber,
          expected: expected
        )
      }
    }
  #endif
}
