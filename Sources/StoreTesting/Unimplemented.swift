import Effects

/// The error an `unimplemented(_:)` dependency throws, after it failed the test.
///
/// An effect that throws it with no `catch:` ends without the runtime warning an uncaught error
/// gets: the dependency's own failure already names the mistake. A `catch:` still turns it into
/// an action.
public struct UnimplementedError: Error, Equatable, Sendable, CustomStringConvertible,
  ReportedByItsThrower
{
  /// The name the dependency was given.
  public let name: String

  /// Says which dependency was called.
  public var description: String {
    "\(name) is not implemented in this test"
  }
}

/// A dependency that a test does not expect to be called: calling it fails the test, naming
/// the dependency and the line that made it, then throws ``UnimplementedError``.
///
/// Pass it for each dependency a test should not reach, so that reaching one is a failure
/// rather than a call to the live service or a silent default. It takes the shape of the
/// closure it stands in for, whatever its arguments:
///
/// ```swift
/// let store = TestStore(initialState: Profile.State()) {
///   Profile(load: unimplemented("load"), clock: clock)  // load: () async throws -> String
/// }
/// SearchClient(search: unimplemented("search"))  // search: (String) async throws -> [String]
/// NotesClient(save: unimplemented("save"))  // save: (UUID, String) async throws -> Void
/// ```
///
/// - Parameters:
///   - name: The dependency's name, for the failure message.
///   - fileID: The file of the call, where the failure is reported.
///   - filePath: The path of the file of the call.
///   - line: The line of the call.
///   - column: The column of the call.
/// - Returns: A closure that fails the test and throws when called.
public func unimplemented<each Input, Output>(
  _ name: String,
  fileID: StaticString = #fileID,
  filePath: StaticString = #filePath,
  line: UInt = #line,
  column: UInt = #column
) -> @Sendable (repeat each Input) async throws -> Output {
  let location = TestLocation(fileID: fileID, filePath: filePath, line: line, column: column)
  return { (_: repeat each Input) in
    reportUnimplemented(name, at: location)
    throw UnimplementedError(name: name)
  }
}

/// A dependency that cannot throw, which a test does not expect to be called: calling it fails
/// the test, naming the dependency and the line that made it, then returns `placeholder`.
///
/// It takes the shape of the closure it stands in for, whatever its arguments:
///
/// ```swift
/// Feature(now: unimplemented("now", placeholder: Date(timeIntervalSince1970: 0)))
/// Feature(format: unimplemented("format", placeholder: ""))  // format: (Int, Locale) -> String
/// ```
///
/// - Parameters:
///   - name: The dependency's name, for the failure message.
///   - placeholder: What the closure returns once it has failed the test.
///   - fileID: The file of the call, where the failure is reported.
///   - filePath: The path of the file of the call.
///   - line: The line of the call.
///   - column: The column of the call.
/// - Returns: A closure that fails the test when called.
public func unimplemented<each Input, Output: Sendable>(
  _ name: String,
  placeholder: Output,
  fileID: StaticString = #fileID,
  filePath: StaticString = #filePath,
  line: UInt = #line,
  column: UInt = #column
) -> @Sendable (repeat each Input) -> Output {
  let location = TestLocation(fileID: fileID, filePath: filePath, line: line, column: column)
  return { (_: repeat each Input) in
    reportUnimplemented(name, at: location)
    return placeholder
  }
}

/// Fails the test: `name` was called.
private func reportUnimplemented(_ name: String, at location: TestLocation) {
  reportFailure(
    """
    \(name) was called, but this test does not expect it: it was made with \
    unimplemented("\(name)"). Give the feature an implementation of \(name) if the test should \
    reach it.
    """,
    at: location)
}
