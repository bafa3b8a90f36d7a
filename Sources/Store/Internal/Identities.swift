import Effects

/// Identifies one place in state (a key path) as part of an effect lifetime's identity.
///
/// `@unchecked Sendable`: key paths are immutable once created, so sharing one across
/// threads is safe; the compiler only lacks a conformance for the generic class.
@usableFromInline
struct KeyPathIdentity: Hashable, @unchecked Sendable, CustomStringConvertible {
  @usableFromInline let keyPath: AnyKeyPath
  @usableFromInline var description: String { "\(keyPath)" }

  @inlinable
  init(keyPath: AnyKeyPath) {
    self.keyPath = keyPath
  }
}

/// The lifetime identity of one element of an identified collection.
@usableFromInline
struct ElementIdentity<ID: Hashable & Sendable>: Hashable, Sendable {
  @usableFromInline let collection: KeyPathIdentity
  @usableFromInline let id: ID

  @inlinable
  init(collection: KeyPathIdentity, id: ID) {
    self.collection = collection
    self.id = id
  }
}

/// The lifetime identity of an enum case's child: where the reducer was declared, and the
/// child's state type.
@usableFromInline
struct CaseIdentity: Hashable, Sendable {
  @usableFromInline let site: SourceSite
  @usableFromInline let type: ObjectIdentifier

  @usableFromInline
  init(site: SourceSite, type: ObjectIdentifier) {
    self.site = site
    self.type = type
  }
}

/// Lends a value to a `@Sendable` closure that the effect runtime calls synchronously on the
/// main actor while it starts an effect, right after the reducer that made it returned.
///
/// `@unchecked Sendable`: the value is only read, and only on the main actor, before the
/// store reduces anything else.
@usableFromInline
struct MainActorLoan<Value>: @unchecked Sendable {
  @usableFromInline let value: Value

  @inlinable
  init(value: Value) {
    self.value = value
  }
}
