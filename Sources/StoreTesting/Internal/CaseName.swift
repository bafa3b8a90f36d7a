import Effects
import Store

/// Names the case a `CaseKey` stands for, where that can be found out.
///
/// A key holds two closures and where it was created, not its case's name. The name shows in
/// an action the key makes, so for a payload that a literal can make safely (none, an
/// optional's `nil`, or a standard library string, number, Boolean, collection or SIMD
/// vector), the key embeds such a sample and
/// the name is read from the action's mirror: `Inventory.Action.step`, or
/// `App.Action.cart(.checkout)` through a key made by `appending(_:)`. Other payloads (a
/// child feature's action, a struct, a tuple) leave the case unnamed, as does a key whose
/// extractor does not give the sample back.
enum CaseName {
  /// What a test expected to receive through `key`, for a failure message: "an action of the
  /// case Inventory.Action.step (carrying String)", or, when the case cannot be named, "an
  /// action of Inventory.Action whose case carries Cart.Action".
  static func expectedAction<Root, Value>(_ key: CaseKey<Root, Value>) -> String {
    let root = TypeName.name(of: Root.self)
    let carrying = Value.self == Void.self ? "" : " (carrying \(TypeName.name(of: Value.self)))"
    guard let path = casePath(of: key) else {
      let payload =
        Value.self == Void.self ? "no value" : TypeName.name(of: Value.self)
      return "an action of \(root) whose case carries \(payload)"
    }
    return "an action of the case \(root)\(path)\(carrying)"
  }

  /// The failure for a `receive` through `key` that got `received`, an action the key does not
  /// extract (another case, or the same case for another row or screen, when the key goes
  /// through one): what was expected and what came, a line each, and why the case has no name
  /// when it has none.
  static func mismatch<Root, Value>(received: String, key: CaseKey<Root, Value>) -> String {
    let unnamed =
      casePath(of: key) != nil
      ? ""
      : """

      The expected case cannot be named: a CaseKey holds no name, and the store reads one \
      only from an action the key makes, which takes a payload the store can create (none, \
      an optional's `nil`, a string, a number, a Boolean, a collection or a SIMD vector).
      """
    return """
      Received an action that does not match the key passed to `receive`.
        Expected: \(expectedAction(key))
        Received: \(received)\(unnamed)
      """
  }

  /// The case's path below the root type, such as `.step`, `.cart(.checkout)` or, through a
  /// case with several values, `.rows(.element(id: 3, action: .ticked))`; `nil` when it cannot
  /// be found out.
  static func casePath<Root, Value>(of key: CaseKey<Root, Value>) -> String? {
    guard let sample = sample(of: Value.self) else { return nil }
    let action = key.embed(sample)
    guard key.extract(action) != nil else { return nil }
    var path = ""
    var levels = 0
    var value: Any = action
    func closed(_ path: String) -> String { path + String(repeating: ")", count: levels) }
    while levels < 16 {
      let mirror = Mirror(reflecting: value)
      guard mirror.displayStyle == .enum, !(value is CustomReflectable) else { return nil }
      guard let payload = mirror.children.first, let label = payload.label else {
        // A case without a payload, for a key that carries nothing.
        guard Value.self == Void.self, !DumpReflector.hasCustomDescription(value) else {
          return nil
        }
        return closed(path + ".\(value)")
      }
      if type(of: payload.value) == Value.self { return closed(path + ".\(label)") }
      let fields = Mirror(reflecting: payload.value)
      // A case with one labelled value (a pop's `popFrom(id:)`) holds it in a tuple of one.
      if fields.displayStyle == .tuple, fields.children.count == 1,
        let only = fields.children.first, type(of: only.value) == Value.self
      {
        return closed(path + ".\(label)")
      }
      path += ".\(label)("
      levels += 1
      guard fields.displayStyle == .tuple else {
        value = payload.value
        continue
      }
      // A case with several values, such as a row's `.element(id:action:)`: the key leads on
      // through the last (as one made by `appending(_:)` does); the others are written out
      // with the values the key put there.
      let children = Array(fields.children)
      guard let last = children.last else { return nil }
      for field in children.dropLast() {
        // Written as the received action's are: a row's UUID as `UUID(counting: 3)`, not in
        // hex, and a string id escaped, so that the two lines read alike.
        path += Self.argument(field.label, describePayload(field.value)) + ", "
      }
      path += Self.argument(last.label, "")
      value = last.value
    }
    return nil
  }

  /// `label: value`, or the value alone for a tuple element without a label (which a mirror
  /// labels `.0`, `.1`, …).
  private static func argument(_ label: String?, _ value: String) -> String {
    guard let label, !label.hasPrefix(".") else { return value }
    return "\(label): \(value)"
  }

  /// A value of `type` made from a literal, for the types whose literal initializer cannot
  /// fail or run code of a test's own: `()`, optionals, and the standard library's (a SIMD
  /// vector, whose empty literal fails, as its zero vector); or a stack's screen id.
  private static func sample<Value>(of type: Value.Type) -> Value? {
    if Value.self == Void.self { return () as? Value }
    // A stack's pop (`CaseKey.path.popFrom`) carries a screen's id.
    if Value.self == StackElementID.self { return StackElementID(rawValue: 0) as? Value }
    let typeName = String(reflecting: type)
    // An optional's `nil`; not a type of one's own that takes the literal, whose initializer
    // is the test's code.
    if typeName.hasPrefix("Swift.Optional<"),
      let optional = type as? any ExpressibleByNilLiteral.Type
    {
      return optional.init(nilLiteral: ()) as? Value
    }
    guard typeName.hasPrefix("Swift.") else { return nil }
    // A SIMD vector takes an array literal of exactly its count of scalars, and stops the
    // program for an empty one: it gets its zero vector.
    func zero<T: SIMD>(_: T.Type) -> T { T() }
    if let vector = type as? any SIMD.Type { return zero(vector) as? Value }
    func string<T: ExpressibleByStringLiteral>(_: T.Type) -> T { "" }
    func integer<T: ExpressibleByIntegerLiteral>(_: T.Type) -> T { 0 }
    func boolean<T: ExpressibleByBooleanLiteral>(_: T.Type) -> T { false }
    func array<T: ExpressibleByArrayLiteral>(_: T.Type) -> T { [] }
    func dictionary<T: ExpressibleByDictionaryLiteral>(_: T.Type) -> T { [:] }
    switch type {
    case let literal as any ExpressibleByStringLiteral.Type: return string(literal) as? Value
    case let literal as any ExpressibleByIntegerLiteral.Type: return integer(literal) as? Value
    case let literal as any ExpressibleByBooleanLiteral.Type: return boolean(literal) as? Value
    case let literal as any ExpressibleByArrayLiteral.Type: return array(literal) as? Value
    case let literal as any ExpressibleByDictionaryLiteral.Type:
      return dictionary(literal) as? Value
    default: return nil
    }
  }
}
