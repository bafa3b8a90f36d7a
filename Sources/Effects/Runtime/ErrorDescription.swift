/// An error as a runtime warning names it: as it describes itself, when it does
/// (`SaveFailed(disk full)`, a Foundation error's text), and otherwise with its type, without
/// the module: `Boom()` for a struct, as Swift prints one already, and `LoadError.offline` for
/// an enum's case, which Swift prints bare (`offline`), naming neither the error nor where it
/// comes from. An action's payload of type `any Error` keeps its type the same way.
///
/// - Parameter error: The error an effect, or a clock it waits on, threw.
/// - Returns: Its text.
package func describeError(_ error: any Error) -> String {
  let text = "\(error)"
  guard
    !(error is CustomStringConvertible), !(error is CustomDebugStringConvertible),
    !(error is TextOutputStreamable), Mirror(reflecting: error).displayStyle == .enum
  else { return text }
  return "\(TypeName.name(of: type(of: error))).\(text)"
}
