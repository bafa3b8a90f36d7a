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
/// state (every stored property's name and type, through nested structures and classes), so
/// that a log recorded against other types is refused rather than misread.
///
/// The shape is read from the initial state with `Mirror`, the one public reflection there
/// is, so it sees what a value shows: a collection, optional or enum counts by its type's
/// name (`IdentifiedArray<UUID, CartItem>`), not by what it holds, which an empty list could
/// not show. (The standard library's `_forEachField(of:)` reads a type's properties without
/// a value, but it is an SPI that Apple's release toolchains do not offer, and a fingerprint
/// must be the same on every platform: a log recorded on Linux replays on a Mac.) Actions are
/// enums, whose cases cannot be listed without macros; their type names count, and a feature
/// adds a `schemaVersion` to the fingerprint when it changes its actions, or what its
/// collections hold.
enum SchemaFingerprint {
  static func of<State, Action>(
    state: State,
    action: Action.Type,
    version: String
  ) -> String {
    let names = "\(String(reflecting: State.self))|\(String(reflecting: Action.self))|\(version)|"
    return StateDigest.of(Data(withoutAddresses(names + shape(of: state)).utf8))
  }

  /// The shape of `value` that the fingerprint hashes: its stored properties, recursively.
  static func shape(of value: Any) -> String {
    var shape = ""
    var path: [ObjectIdentifier] = []
    describe(value, into: &shape, path: &path)
    return shape
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

  /// The modules whose types are described by name alone: their stored properties are the
  /// toolchain's implementation (`String`'s storage, `Date`'s), which is not the feature's
  /// shape and differs between platforms and releases.
  private static let opaqueModules = [
    "Swift.", "_Concurrency.", "Foundation.", "FoundationEssentials.",
    "FoundationInternationalization.", "CoreFoundation.", "ObjectiveC.", "Dispatch.",
    "Synchronization.", "Observation.", "_StringProcessing.", "__C.",
  ]

  /// Appends the shape of `value` after its type's name, which the caller wrote: for a
  /// structure or class of the feature's own, each stored property as `name:Type` followed by
  /// its own shape (a class's inherited properties first). A value whose type reflects itself
  /// (`CustomReflectable`: `Data` shows its bytes only when there are few, so its shape would
  /// follow its size), a toolchain type, and anything else (collections, optionals, enums,
  /// tuples, functions) count by name alone; a type met inside itself is marked `^`.
  private static func describe(
    _ value: Any, into shape: inout String, path: inout [ObjectIdentifier]
  ) {
    let type = Swift.type(of: value)
    let name = String(reflecting: type)
    guard !(value is any CustomReflectable), !opaqueModules.contains(where: name.hasPrefix) else {
      return
    }
    let mirror = Mirror(reflecting: value)
    guard mirror.displayStyle == .struct || mirror.displayStyle == .class else { return }
    let identity = ObjectIdentifier(type)
    guard path.count < 32, !path.contains(identity) else {
      shape += "^"
      return
    }
    path.append(identity)
    defer { path.removeLast() }
    // A class's own properties, after those it inherits, from the root class down.
    var mirrors = [mirror]
    while let superclass = mirrors.last?.superclassMirror { mirrors.append(superclass) }
    shape += "{"
    for level in mirrors.reversed() {
      for child in level.children {
        shape += "\(child.label ?? "_"):\(Swift.type(of: child.value))"
        describe(child.value, into: &shape, path: &path)
        shape += ","
      }
    }
    shape += "}"
  }
}
