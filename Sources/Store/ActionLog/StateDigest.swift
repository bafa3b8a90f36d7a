// `_forEachField(of:options:body:)`: a structure's or class's stored properties, from its
// type alone (Mirror needs a value, and an empty array of rows has no row to reflect).
@_spi(Reflection) import Swift

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
/// state type (every stored property's name and type, recursively, and the element types of
/// the collections and optionals it holds), so that a log recorded against other types is
/// refused rather than misread.
///
/// It reads types, not a value: an empty array of rows still fingerprints the row's
/// properties, and no value changes it. Actions are enums, whose cases cannot be listed
/// without macros; their type names count, and a feature can add a `schemaVersion` to the
/// fingerprint when it changes its actions.
enum SchemaFingerprint {
  static func of<State, Action>(
    state: State.Type,
    action: Action.Type,
    version: String
  ) -> String {
    let names = "\(String(reflecting: State.self))|\(String(reflecting: Action.self))|\(version)|"
    return StateDigest.of(Data(withoutAddresses(names + shape(of: State.self)).utf8))
  }

  /// The shape of `type` that the fingerprint hashes: its stored properties, recursively.
  static func shape(of type: Any.Type) -> String {
    var shape = ""
    var path: [ObjectIdentifier] = []
    describe(type, into: &shape, path: &path)
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
    "Synchronization.", "Observation.", "_StringProcessing.",
  ]

  /// Appends the shape of `type` after its name, which the caller wrote: the element types of
  /// a collection or optional, or the stored properties of a structure or class, each as
  /// `name:Type` followed by its own shape. Enums, tuples, functions and existentials are
  /// described by name alone; a type met again inside itself (a tree's node) is marked `^`.
  private static func describe(
    _ type: Any.Type, into shape: inout String, path: inout [ObjectIdentifier]
  ) {
    let identity = ObjectIdentifier(type)
    guard path.count < 32 else { return }
    guard !path.contains(identity) else {
      shape += "^"
      return
    }
    path.append(identity)
    defer { path.removeLast() }
    if let container = type as? any SchemaContainer.Type {
      shape += "["
      for element in container.schemaElementTypes {
        shape += "\(element)"
        describe(element, into: &shape, path: &path)
        shape += ","
      }
      shape += "]"
      return
    }
    let name = String(reflecting: type)
    guard !opaqueModules.contains(where: name.hasPrefix) else { return }
    var fields: [(name: String, type: Any.Type)] = []
    // `.classType`, spelled by its value: the standard library declares the option a
    // mutable static, which Swift 6 refuses to read from a nonisolated context.
    let options = _EachFieldOptions(rawValue: type is AnyClass ? 1 : 0)
    let walked = _forEachField(of: type, options: options) { name, _, fieldType, _ in
      fields.append((String(cString: name), fieldType))
      return true
    }
    guard walked, !fields.isEmpty else { return }
    shape += "{"
    for field in fields {
      shape += "\(field.name):\(field.type)"
      describe(field.type, into: &shape, path: &path)
      shape += ","
    }
    shape += "}"
  }
}

/// A generic type whose shape, for ``SchemaFingerprint``, is its element types rather than
/// its stored properties (the collection's own bookkeeping).
protocol SchemaContainer {
  /// The types it holds.
  static var schemaElementTypes: [Any.Type] { get }
}

extension Optional: SchemaContainer {
  static var schemaElementTypes: [Any.Type] { [Wrapped.self] }
}

extension Array: SchemaContainer {
  static var schemaElementTypes: [Any.Type] { [Element.self] }
}

extension ContiguousArray: SchemaContainer {
  static var schemaElementTypes: [Any.Type] { [Element.self] }
}

extension ArraySlice: SchemaContainer {
  static var schemaElementTypes: [Any.Type] { [Element.self] }
}

extension Set: SchemaContainer {
  static var schemaElementTypes: [Any.Type] { [Element.self] }
}

extension Dictionary: SchemaContainer {
  static var schemaElementTypes: [Any.Type] { [Key.self, Value.self] }
}

extension IdentifiedArray: SchemaContainer {
  static var schemaElementTypes: [Any.Type] { [Element.self] }
}

extension StackState: SchemaContainer {
  static var schemaElementTypes: [Any.Type] { [Element.self] }
}
