#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Any JSON value, for comparing encoded states field by field; read with
/// ``init(parsing:)``, which keeps numbers exact.
enum JSONValue: Equatable {
  case null
  case bool(Bool)
  case number(JSONNumber)
  case string(String)
  case array([JSONValue])
  case object([String: JSONValue])

  /// This value with the placeholder of a ``Secret`` wherever `reencoded` (the same value
  /// decoded and encoded again) has one: what a log held there in plain text must not be
  /// quoted in a message, and is not a difference the replay made.
  func maskingSecrets(as reencoded: JSONValue) -> JSONValue {
    switch (self, reencoded) {
    case (_, .string(let text)) where text == Secret<String>.placeholder:
      return reencoded
    case (.array(let values), .array(let others)) where values.count == others.count:
      return .array(zip(values, others).map { $0.maskingSecrets(as: $1) })
    case (.object(let fields), .object(let others)):
      return .object(
        fields.reduce(into: [:]) { masked, field in
          masked[field.key] =
            others[field.key].map { field.value.maskingSecrets(as: $0) }
            ?? field.value
        })
    default:
      return self
    }
  }

  /// The value found by following `path` (object keys and array positions), or `nil`.
  func value(at path: [any CodingKey]) -> JSONValue? {
    var value = self
    for key in path {
      switch value {
      case .object(let object):
        guard let next = object[key.stringValue] else { return nil }
        value = next
      case .array(let array):
        guard let index = key.intValue, array.indices.contains(index) else { return nil }
        value = array[index]
      default:
        return nil
      }
    }
    return value
  }

  /// The value as compact JSON-like text, shortened past `limit` characters.
  func rendered(limit: Int = 80) -> String {
    let text: String
    switch self {
    case .null: text = "null"
    case .bool(let value): text = "\(value)"
    case .number(let value): text = value.text
    case .string(let value): text = LogText.quoted(value)
    case .array(let values):
      text = "[" + values.map { $0.rendered(limit: limit) }.joined(separator: ", ") + "]"
    case .object(let fields):
      text = Self.render(fields, limit: limit)
    }
    return text.count > limit ? String(text.prefix(limit - 1)) + "…" : text
  }

  /// An object; enum cases, which encode as one-key objects, show as `.case` or
  /// `.case(payload)`.
  private static func render(_ fields: [String: JSONValue], limit: Int) -> String {
    if fields.count == 1, let (key, payload) = fields.first, case .object(let inner) = payload {
      let name = LogText.escaped(key)
      if inner.isEmpty { return ".\(name)" }
      if inner.count == 1, let only = inner["_0"] {
        return ".\(name)(\(only.rendered(limit: limit)))"
      }
      let arguments = inner.keys.sorted().map {
        "\(LogText.escaped($0)): \(inner[$0]!.rendered(limit: limit))"
      }
      return ".\(name)(\(arguments.joined(separator: ", ")))"
    }
    let members = fields.keys.sorted().map {
      "\(LogText.escaped($0)): \(fields[$0]!.rendered(limit: limit))"
    }
    return "{" + members.joined(separator: ", ") + "}"
  }

  /// The paths where `self` and `other` differ, each as `path: old → new`, or as
  /// `path added: value` and `path removed: value` for an element only one side has.
  func differences(to other: JSONValue, at path: String = "") -> [String] {
    switch (self, other) {
    case (.object(let old), .object(let new))
    where old.count == 1 && new.count == 1 && old.keys.first != new.keys.first:
      // Another enum case: the value changed as a whole.
      return ["\(path.isEmpty ? "state" : path): \(rendered()) → \(other.rendered())"]
    case (.object(let old), .object(let new)):
      return Set(old.keys).union(new.keys).sorted().flatMap { key -> [String] in
        let name = LogText.escaped(key)
        let childPath = path.isEmpty ? name : "\(path).\(name)"
        switch (old[key], new[key]) {
        case (let before?, let after?): return before.differences(to: after, at: childPath)
        case (let before?, nil): return ["\(childPath): \(before.rendered()) → (absent)"]
        case (nil, let after?): return ["\(childPath): (absent) → \(after.rendered())"]
        case (nil, nil): return []
        }
      }
    case (.array(let old), .array(let new)) where old.count == new.count:
      return zip(old, new).enumerated().flatMap { index, pair in
        pair.0.differences(to: pair.1, at: "\(path)[\(index)]")
      }
    case (.array(let old), .array(let new)):
      // Elements added or removed: name them, after the common prefix and suffix.
      let prefix = zip(old, new).prefix { $0 == $1 }.count
      let suffix = zip(old.reversed(), new.reversed()).prefix { $0 == $1 }.count
      let keep = min(suffix, min(old.count, new.count) - prefix)
      let removed = old[prefix..<(old.count - keep)]
      let added = new[prefix..<(new.count - keep)]
      return removed.enumerated().map { "\(path)[\(prefix + $0)] removed: \($1.rendered())" }
        + added.enumerated().map { "\(path)[\(prefix + $0)] added: \($1.rendered())" }
    default:
      return self == other
        ? [] : ["\(path.isEmpty ? "state" : path): \(rendered()) → \(other.rendered())"]
    }
  }
}

/// Lists what differs between two states, field by field, as `path: old → new`, or as
/// `path added: value` and `path removed: value` for an element only one side has.
///
/// The states are compared through their JSON encoding, so secrets stay redacted. The action
/// log's replay uses it to say where a replay diverged; the demo uses it to print what each
/// step changed.
///
/// - Parameters:
///   - old: The state before.
///   - new: The state after.
/// - Returns: One line per changed field, sorted by path; empty when nothing changed.
public func stateChanges<State: Encodable>(from old: State, to new: State) -> [String] {
  let encoder = makeLogEncoder()
  guard let oldPlain = try? encoder.encode(old), let newPlain = try? encoder.encode(new) else {
    return ["(the state could not be encoded)"]
  }
  // In canonical form: a set (or a dictionary written as a list) that only iterates in
  // another order is not a change.
  let oldJSON = CanonicalJSON.canonical(oldPlain, of: old, encoder: encoder)
  let newJSON = CanonicalJSON.canonical(newPlain, of: new, encoder: encoder)
  if oldJSON == newJSON { return [] }
  guard let before = JSONValue(parsing: oldJSON), let after = JSONValue(parsing: newJSON)
  else { return ["(the state could not be compared)"] }
  // A set (or a dictionary written as a list) that only iterates in another order is not a
  // change.
  return before.differences(to: after)
}
