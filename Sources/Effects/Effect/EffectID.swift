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

/// A place in source code, used to attribute runtime warnings.
@usableFromInline
package struct SourceSite: Hashable, Sendable, CustomStringConvertible {
  package var fileID: String
  package var line: UInt

  package init(fileID: StaticString, line: UInt) {
    self.fileID = "\(fileID)"
    self.line = line
  }

  @usableFromInline
  package var description: String { "\(fileID):\(line)" }
}
