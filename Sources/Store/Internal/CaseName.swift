/// The name of the case `value` is (see `enumCaseName(of:)`), down to a payload of type
/// `payload`: a case whose payload is an enum of another type names that enum's case too. A
/// key made with `appending(_:)`, `.destination.appending(.add)`, is in `destination(.add)`,
/// which tells it apart from `destination(.edit)`, where `destination` alone would not. A
/// value in another case than a key's is named as deep as its enums nest
/// (`failed(.network(.timeout))`): case names only, never a payload's values. At most 16
/// levels.
func enumCaseName<Payload>(of value: Any, holding payload: Payload.Type) -> String? {
  guard let name = enumCaseName(of: value) else { return nil }
  var names = [name]
  var current = value
  while names.count < 16, let inner = soleCasePayload(of: current), !(inner is Payload),
    let innerName = enumCaseName(of: inner)
  {
    names.append(innerName)
    current = inner
  }
  var text = names.removeLast()
  while let outer = names.popLast() { text = "\(outer)(.\(text))" }
  return text
}

/// The payload of the enum case `value` is, when it is one value (see
/// `soleCasePayload(in:)`).
private func soleCasePayload(of value: Any) -> Any? {
  soleCasePayload(in: Mirror(reflecting: value))
}

/// The payload of the enum case a mirror reflects, when it is one value: a labeled one
/// (`case alert(info: Alert)`) is reflected as a tuple of one element, which is it. `nil` for
/// a case without a payload, or with several values.
func soleCasePayload(in mirror: Mirror) -> Any? {
  guard let payload = mirror.children.first?.value else { return nil }
  let inner = Mirror(reflecting: payload)
  guard inner.displayStyle == .tuple else { return payload }
  guard inner.children.count == 1 else { return nil }
  return inner.children.first?.value
}

/// The name of the case `value` is, as Swift's default description writes it; `nil` for a
/// value that is not an enum (a `CaseKey` may pick a part of a struct, whose first property's
/// name is no case's), and for a type that describes or reflects itself otherwise, whose
/// description may be long, or hold what a log should not (a case name is all a message
/// needs). For runtime warnings only: it reflects the value.
func enumCaseName(of value: Any) -> String? {
  guard !(value is CustomReflectable) else { return nil }
  let mirror = Mirror(reflecting: value)
  guard mirror.displayStyle == .enum else { return nil }
  // A case with a payload is reflected with the case's name as its one child's label.
  if let label = mirror.children.first?.label { return label }
  guard
    !(value is CustomStringConvertible), !(value is CustomDebugStringConvertible),
    !(value is TextOutputStreamable)
  else { return nil }
  return "\(value)"
}
