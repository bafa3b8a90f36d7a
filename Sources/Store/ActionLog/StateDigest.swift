#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A short digest of a state, for checkpoints: 64-bit FNV-1a over the state's canonical JSON.
///
/// It detects drift (a replay whose state differs from the recording's), not tampering.
package enum StateDigest {
  /// The digest of `json` (or of any bytes), as 16 lowercase hex digits.
  package static func of(_ json: Data) -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in json {
      hash ^= UInt64(byte)
      hash &*= 0x0000_0100_0000_01b3
    }
    let hex = String(hash, radix: 16)
    return String(repeating: "0", count: 16 - hex.count) + hex
  }

  /// Whether `text` has the form of a digest: 16 lowercase hexadecimal digits.
  static func isWellFormed(_ text: String) -> Bool {
    text.utf8.count == 16
      && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
  }
}

/// A fingerprint of a feature's state and action types: their names and the shape of the
/// state (every stored property's name and type, recursively), so that a log recorded
/// against other types is refused rather than misread.
///
/// Actions are enums, whose cases cannot be listed without macros; their type names count,
/// and a feature can add a `schemaVersion` to the fingerprint when it changes its actions.
enum SchemaFingerprint {
  static func of<State, Action>(
    state: State,
    action: Action.Type,
    version: String
  ) -> String {
    var shape = "\(String(reflecting: State.self))|\(String(reflecting: Action.self))|\(version)|"
    describe(state, into: &shape, depth: 0)
    return StateDigest.of(Data(withoutAddresses(shape).utf8))
  }

  /// `text` without the addresses the runtime prints for types declared `private`,
  /// `fileprivate` or in a function (`Module.(unknown context at $55d1c3a0).State`), which
  /// change from one run to the next.
  static func withoutAddresses(_ text: String) -> String {
    var result = ""
    var rest = Substring(text)
    let marker = "(unknown context at $"
    while let start = rest.firstRange(of: marker) {
      result += rest[..<start.lowerBound]
      result += "(unknown context)"
      rest = rest[start.upperBound...]
      if let end = rest.firstIndex(of: ")") { rest = rest[rest.index(after: end)...] }
    }
    return result + rest
  }

  private static func describe(_ value: Any, into shape: inout String, depth: Int) {
    guard depth < 32 else { return }
    let mirror = Mirror(reflecting: value)
    switch mirror.displayStyle {
    case .struct?, .class?:
      shape += "{"
      for child in mirror.children {
        shape += "\(child.label ?? "_"):\(type(of: child.value))"
        describe(child.value, into: &shape, depth: depth + 1)
        shape += ","
      }
      shape += "}"
    default:
      // Enums, optionals and collections vary with their value; their type name says enough.
      break
    }
  }
}
