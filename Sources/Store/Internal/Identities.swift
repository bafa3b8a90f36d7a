import Effects

/// Identifies one place in state (a key path) as part of an effect lifetime's identity.
///
/// `@unchecked Sendable`: key paths are immutable once created, so sharing one across
/// threads is safe; the compiler only lacks a conformance for the generic class.
struct KeyPathIdentity: Hashable, @unchecked Sendable, CustomStringConvertible {
  let keyPath: AnyKeyPath
  var description: String { "\(keyPath)" }
}

/// The lifetime identity of one element of an identified collection.
struct ElementIdentity<ID: Hashable & Sendable>: Hashable, Sendable {
  let collection: KeyPathIdentity
  let id: ID
}

/// Lends a value to a `@Sendable` closure that the effect runtime calls synchronously on the
/// main actor while it starts an effect, right after the reducer that made it returned.
///
/// `@unchecked Sendable`: the value is only read, and only on the main actor, before the
/// store reduces anything else.
struct MainActorLoan<Value>: @unchecked Sendable {
  let value: Value
}
