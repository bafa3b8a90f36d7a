/// An error as a runtime warning names it: as it describes itself, when it does
/// (`SaveFailed(disk full)`, a Foundation error's text), and otherwise with its type, without
/// the module: `Boom()` for a struct (with the types it is nested in, `Sync.Failed()`, where
/// Swift writes `Failed()`), `LoadError.offline` for an enum's case, which Swift prints bare
/// (`offline`), naming neither the error nor where it comes from, and `NetworkFailure` for a
/// class instance, which Swift prints with its module (and, for a private or local class, an
/// address that changes from run to run). What an enum's case, or a struct's fields, hold is
/// written as ``describe(_:)`` writes an action's payload: `LoadError.wrapped(.timeout)`, not
/// `LoadError.wrapped(MyApp.Reason.timeout)`, `Failed(reason: .timeout)`, a string with its
/// invisible characters escaped. An action's payload that holds an error names it the same
/// way.
///
/// - Parameter error: The error an effect, or a clock it waits on, threw.
/// - Returns: Its text.
package func describeError(_ error: any Error) -> String {
  guard
    !(error is CustomStringConvertible), !(error is CustomDebugStringConvertible),
    !(error is TextOutputStreamable)
  else { return "\(error)" }
  // Swift's own text only where no shorter one is made: printed whole, a long chain of errors
  // overflowed the stack of an effect's thread, to be cut at 16 levels after all.
  switch Mirror(reflecting: error).displayStyle {
  case .enum:
    return TypeName.name(of: type(of: error)) + (shortErrorDescription(error) ?? ".\(error)")
  case .class: return TypeName.name(of: type(of: error))
  case .struct: return shortErrorDescription(error) ?? "\(error)"
  default: return "\(error)"
  }
}
