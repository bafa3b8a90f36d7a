/// A type-erased, sendable identifier for cancellation ids and lifetime identities.
///
/// Two ids are equal only when they have the same type and equal values, so `1 as Int` and
/// `1 as Int64`, or two different enum types with the same case, never collide.
@usableFromInline
package struct EffectID: Hashable, Sendable, CustomStringConvertible {
  package let base: any Hashable & Sendable
  private let type: ObjectIdentifier

  package init(_ base: some Hashable & Sendable) {
    if let id = base as? EffectID {
      self = id
      return
    }
    self.base = base
    self.type = ObjectIdentifier(Swift.type(of: base))
  }

  @usableFromInline
  package static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.type == rhs.type && AnyHashable(lhs.base) == AnyHashable(rhs.base)
  }

  @usableFromInline
  package func hash(into hasher: inout Hasher) {
    hasher.combine(type)
    hasher.combine(AnyHashable(base))
  }

  @usableFromInline
  package var description: String {
    "\(Swift.type(of: base)).\(base)"
  }
}

/// An effect's id as a runtime warning names it: an enum's case with its type, as a test
/// writes it (`Search.CancelID.search`, where the case alone could be any feature's), a
/// string or a UUID as ``describeID(_:)`` writes it (`"search"`, `UUID(counting: 1)`), any
/// other value as it describes itself.
///
/// - Parameter id: The id.
/// - Returns: Its text.
package func describe(effectID id: EffectID) -> String {
  let base = id.base
  if Mirror(reflecting: base).displayStyle == .enum { return describe(base) }
  return describeID(base)
}

/// A place in source code, used to attribute runtime warnings.
///
/// Reducers are rebuilt for every action, each with its site, so the file stays a
/// `StaticString` until a warning needs it as text.
@usableFromInline
package struct SourceSite: Hashable, Sendable, CustomStringConvertible {
  @usableFromInline let file: StaticString
  @usableFromInline package let line: UInt

  @inlinable
  package init(fileID: StaticString, line: UInt) {
    self.file = fileID
    self.line = line
  }

  /// The file, as `#fileID` spells it.
  package var fileID: String { "\(file)" }

  @usableFromInline
  package var description: String { "\(fileID):\(line)" }

  @usableFromInline
  package static func == (lhs: Self, rhs: Self) -> Bool {
    guard lhs.line == rhs.line else { return false }
    return lhs.file.withUTF8Buffer { left in
      rhs.file.withUTF8Buffer { right in left.elementsEqual(right) }
    }
  }

  @usableFromInline
  package func hash(into hasher: inout Hasher) {
    hasher.combine(line)
    file.withUTF8Buffer { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
  }
}

/// An identity whose lifetime does not namespace cancellation ids: effects started inside it
/// are cancelled, and cancel, with the ids of the namespace around it, while still ending with
/// it. A screen's lifecycle hooks run in the lifetime of the screen's task, yet a
/// `.cancel(id:)` from the feature's own actions reaches the effects they started; the child
/// of an enum's case shares the enum reducer's ids, so a parent that cancels in a row or a
/// screen that is an enum reaches the case's effects.
///
/// A throttle window opened directly inside it belongs to the namespace its id lives in, and
/// outlives it: the end of a screen's task, or of an enum's case, must not close a window in
/// which an effect of the screen, or of the enum's own reducer, waits. A window opened deeper,
/// inside an identity with ids of its own (a row or a sheet within the case), belongs to that
/// identity and ends with it, and so with the case.
package protocol SharesCancellationIDs {}

/// A lifetime identity that is a span of time, with no place in state: a screen's task, in
/// which the work of its lifecycle hooks runs. A child's effects are started by the child's
/// own actions, never inside such a span, so the lifetime operations a reducer returns inside
/// one (an `ifLet` child's end, a `forEach` collection's retained rows) address the places
/// around it, where those effects run. A lifetime a feature scopes its own work to is the
/// feature's in such a span and out of it, as its cancellation ids are: ending it, inside the
/// span or outside, ends the work in both.
package protocol PlacelessLifetime {}

/// A lifetime identity inside which a `.dismiss` is the enclosing feature's own: a `Scope`
/// child, an enum's case, a screen's task (its lifecycle hooks). A presenter resolves such a
/// `.dismiss` as the feature's, and a test store testing the feature alone records it as
/// dismissing the feature; inside any other identity (a child run by hand in a namespace of
/// its own), an unresolved `.dismiss` is a wiring mistake, reported as a runtime warning.
package protocol PartOfItsFeature {}
