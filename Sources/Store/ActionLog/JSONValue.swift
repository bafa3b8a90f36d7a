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

  /// Whether this is an object.
  var isObject: Bool {
    if case .object = self { true } else { false }
  }

  /// The keys of an object, in no order; `nil` for any other value.
  var keys: [String]? {
    if case .object(let fields) = self { Array(fields.keys) } else { nil }
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

  /// The value as compact JSON-like text, shortened past `limit` characters, never inside a
  /// value: a string quoted and cut as ``LogText/quoted(_:limit:)`` cuts one, with its closing
  /// quote and its length (`"Tea, m"… (8000000 characters)`), unless it is longer than the
  /// room by 16 characters at most, when the cut would save little; a number of more than 40
  /// characters as its first 24 and its length; an array's or an object's members until the
  /// text is `limit` characters long, and `…` for the rest (`[1, 2, …]`); a key or a case's
  /// name cut as a string is, and quoted when it would not read as one key unquoted
  /// (`{"b: 1, c": 2}`).
  ///
  /// - Complexity: O(`limit`) for an array of any size: the text stops once it is long
  ///   enough to be cut. O(*n* log *n*) for an object of *n* keys, which are sorted.
  func rendered(limit: Int = 80) -> String {
    switch self {
    case .null: return "null"
    case .bool(let value): return "\(value)"
    case .number(let value): return JSONCheck.Number.shown(value.text)
    case .string(let value):
      return LogText.quoted(value, limit: Self.cut(value, room: limit))
    case .array(let values):
      guard limit > 0 || values.isEmpty else { return "[…]" }
      return "[" + Self.joined(values, limit: limit - 1) { $0.rendered(limit: $1) } + "]"
    case .object(let fields):
      return Self.render(fields, limit: limit)
    }
  }

  /// The fewest characters of a string, a key or a case's name that ``rendered(limit:)``
  /// shows, however little room the value's members before it left (a UUID's 36 fit with
  /// ``cutMarkLength``). Characters are counted in the value: an escaped one takes up to 10
  /// in the text (`\u{E0041}`).
  private static let smallestRoom = 20

  /// About how many characters a cut adds (`… (8000 characters)`): a string no longer than
  /// the room by this many is shown whole.
  private static let cutMarkLength = 16

  /// Where ``rendered(limit:)`` cuts `text` (a string, a key) given `room`: after `room`
  /// characters, or ``smallestRoom`` deep in a long value, so that it still shows its start;
  /// nowhere (`.max`) when it is longer by ``cutMarkLength`` at most.
  private static func cut(_ text: String, room: Int) -> Int {
    let room = min(max(room, smallestRoom), Int.max / 2)
    let isNearlyInRoom =
      text.unicodeScalars.prefix(room + cutMarkLength + 1).count <= room + cutMarkLength
    return isNearlyInRoom ? .max : room
  }

  /// `key` as ``rendered(limit:)`` writes it: escaped, or quoted when it would not read as
  /// one key, and cut as ``cut(_:room:)`` says.
  ///
  /// A key is quoted when it is empty or holds a character the rendered text is written with
  /// (`:`, `,`, braces, brackets, parentheses, a quote, a backslash) or a space: unquoted,
  /// the key `"b: 1, c"` of `{a: 0, "b: 1, c": 2}` would read as two more members.
  private static func shownKey(_ key: String, room: Int) -> String {
    let limit = cut(key, room: room)
    return readsAsOneKey(key)
      ? LogText.escaped(key, limit: limit) : LogText.quoted(key, limit: limit)
  }

  /// Whether `key` reads as one key unquoted: see ``shownKey(_:room:)``.
  private static func readsAsOneKey(_ key: String) -> Bool {
    !key.isEmpty
      && !key.unicodeScalars.contains { scalar in
        switch scalar {
        case ":", ",", "{", "}", "[", "]", "(", ")", "\"", "\\": true
        default: scalar.properties.isWhitespace
        }
      }
  }

  /// `parts` rendered with the room left, joined by ", ", until the text reaches `limit`
  /// characters; `…` stands for the parts left out.
  private static func joined<Part>(
    _ parts: some Sequence<Part>, limit: Int, _ render: (Part, _ room: Int) -> String
  ) -> String {
    var text = ""
    var length = 0
    for part in parts {
      if !text.isEmpty {
        guard length < limit else { return text + ", …" }
        text += ", "
        length += 2
      }
      let rendered = render(part, limit - length)
      text += rendered
      length += rendered.count
    }
    return text
  }

  /// An object; enum cases, which encode as one-key objects, show as `.case` or
  /// `.case(payload)`.
  private static func render(_ fields: [String: JSONValue], limit: Int) -> String {
    if fields.count == 1, let (key, payload) = fields.first, case .object(let inner) = payload {
      let name = "." + shownKey(key, room: limit)
      if inner.isEmpty { return name }
      guard limit > name.count else { return name + "(…)" }
      let room = limit - name.count - 1
      if inner.count == 1, let only = inner["_0"] {
        return name + "(" + only.rendered(limit: room) + ")"
      }
      return name + "(" + members(inner, limit: room) + ")"
    }
    guard limit > 0 || fields.isEmpty else { return "{…}" }
    return "{" + members(fields, limit: limit - 1) + "}"
  }

  /// `fields` as `key: value`, in the order of their keys, joined as ``joined(_:limit:_:)``
  /// joins parts.
  private static func members(_ fields: [String: JSONValue], limit: Int) -> String {
    joined(fields.keys.sorted(), limit: limit) { key, room in
      let name = shownKey(key, room: room) + ": "
      return name + fields[key]!.rendered(limit: room - name.count)
    }
  }

  /// The paths where `self` and `other` differ, each as `path: old → new`, or as
  /// `path added: value` and `path removed: value` for an element only one side has; past
  /// `limit` of them, the rest are only counted (`unlisted`).
  ///
  /// - Complexity: O(*n*) comparisons for values of *n* nodes, and O(`limit`) lines written.
  func differences(to other: JSONValue, limit: Int = .max) -> (lines: [String], unlisted: Int) {
    var list = DifferenceList(limit: limit)
    var path: [PathComponent] = []
    differences(to: other, at: &path, into: &list)
    return (list.lines, list.unlisted)
  }

  /// A step of the place a difference is at: an object's key, or an array's position.
  private enum PathComponent {
    case key(String)
    case index(Int)
  }

  /// `path` as a message names a place, cut as ``LogText/place(count:shown:keyLimit:component:)``
  /// cuts one (a key of a million characters, or a value a thousand levels down, makes a
  /// short line); `state` for the value itself.
  private static func name(_ path: [PathComponent]) -> String {
    guard !path.isEmpty else { return "state" }
    return LogText.place(count: path.count) { index in
      switch path[index] {
      case .key(let key): LogText.key(key)
      case .index(let position): "[\(position)]"
      }
    }
  }

  /// Adds the differences between `self` and `other`, found at `path`, to `list`. The path
  /// is a stack, pushed and popped on the way down, and only named for a line that is
  /// listed: the comparison itself builds no text.
  private func differences(
    to other: JSONValue, at path: inout [PathComponent], into list: inout DifferenceList
  ) {
    switch (self, other) {
    case (.object(let old), .object(let new))
    where old.count == 1 && new.count == 1 && old.keys.first != new.keys.first
      && old.values.first!.isObject && new.values.first!.isObject:
      // Another enum case (an enum encodes as its case's name holding an object of the
      // case's values): the value changed as a whole. A dictionary of one entry whose key
      // changed holds no object, and is compared key by key as any other.
      list.add("\(Self.name(path)): \(rendered()) → \(other.rendered())")
    case (.object(let old), .object(let new)):
      for key in Set(old.keys).union(new.keys).sorted() {
        path.append(.key(key))
        defer { path.removeLast() }
        switch (old[key], new[key]) {
        case (let before?, let after?): before.differences(to: after, at: &path, into: &list)
        case (let before?, nil): list.add("\(Self.name(path)): \(before.rendered()) → (absent)")
        case (nil, let after?): list.add("\(Self.name(path)): (absent) → \(after.rendered())")
        case (nil, nil): break
        }
      }
    case (.array(let old), .array(let new)) where old.count == new.count:
      for (index, pair) in zip(old, new).enumerated() {
        path.append(.index(index))
        defer { path.removeLast() }
        pair.0.differences(to: pair.1, at: &path, into: &list)
      }
    case (.array(let old), .array(let new)):
      // Elements added or removed: name them, after the common prefix and suffix.
      let prefix = zip(old, new).prefix { $0 == $1 }.count
      let suffix = zip(old.reversed(), new.reversed()).prefix { $0 == $1 }.count
      let keep = min(suffix, min(old.count, new.count) - prefix)
      for (offset, value) in old[prefix..<(old.count - keep)].enumerated() {
        path.append(.index(prefix + offset))
        defer { path.removeLast() }
        list.add("\(Self.name(path)) removed: \(value.rendered())")
      }
      for (offset, value) in new[prefix..<(new.count - keep)].enumerated() {
        path.append(.index(prefix + offset))
        defer { path.removeLast() }
        list.add("\(Self.name(path)) added: \(value.rendered())")
      }
    default:
      if self != other {
        list.add("\(Self.name(path)): \(rendered()) → \(other.rendered())")
      }
    }
  }
}

/// How a value as a log wrote it differs from what it decodes to, encoded again: a value
/// whose `Codable` conformance does not decode as it encodes (`.some(nil)` of an `Int??`,
/// written `null` and decoded as `nil`), which the replay reduced in place of what was
/// recorded.
struct RoundTripMismatch {
  /// The value as recorded, shortened (at most 120 characters).
  let recorded: String
  /// The value decoded and encoded again, shortened (at most 120 characters).
  let reencoded: String
  /// The first five places where they differ, as ``JSONValue/differences(to:limit:)``
  /// lists them.
  let changes: [String]
  /// How many more places differ.
  let unlisted: Int

  /// The mismatch between `written`, the JSON a log holds, and `reencoded`, what it decodes
  /// to encoded again, both in canonical form; `nil` when they are the same, or either
  /// cannot be read. A secret the log held in plain text (which the replay warns of) is
  /// neither quoted nor taken for a difference.
  init?(written: Data, reencoded: Data) {
    guard
      let mismatch = StackRoom.run(
        reading: written, reencoded,
        body: { () -> RoundTripMismatch? in
          guard let decoded = JSONValue(parsing: reencoded),
            let recorded = JSONValue(parsing: written)?.maskingSecrets(as: decoded),
            recorded != decoded
          else { return nil }
          let (changes, unlisted) = recorded.differences(to: decoded, limit: 5)
          return RoundTripMismatch(
            recorded: recorded.rendered(limit: 120), reencoded: decoded.rendered(limit: 120),
            changes: changes, unlisted: unlisted)
        })
    else { return nil }
    self = mismatch
  }

  private init(recorded: String, reencoded: String, changes: [String], unlisted: Int) {
    self.recorded = recorded
    self.reencoded = reencoded
    self.changes = changes
    self.unlisted = unlisted
  }
}

/// Differences as they are found: the first `limit` written out, the rest only counted.
private struct DifferenceList {
  let limit: Int
  private(set) var lines: [String] = []
  private(set) var unlisted = 0

  init(limit: Int) {
    self.limit = limit
  }

  /// Adds a difference; its line is made only if it is listed.
  mutating func add(_ line: @autoclosure () -> String) {
    if lines.count < limit { lines.append(line()) } else { unlisted += 1 }
  }
}

/// Lists what differs between two states, field by field, as `path: old → new`, or as
/// `path added: value` and `path removed: value` for an element only one side has. A value
/// that becomes another enum case is one line (`mode: .idle → .editing(draft: "x")`); the
/// JSON tells a case from a struct of one field only by the case's values, which encode as
/// an object, so a struct of one field holding a struct that becomes one of another field
/// reads as such a case too.
///
/// The states are compared through their JSON encoding, so secrets stay redacted. The action
/// log's replay uses it to say where a replay diverged; the demo uses it to print what each
/// step changed.
///
/// - Parameters:
///   - old: The state before.
///   - new: The state after.
///   - limit: How many changes to write out at most; a last line counts the rest ("and 12
///     more difference(s)"). By default, all.
/// - Returns: One line per changed field, sorted by path; empty when nothing changed.
/// - Complexity: O(*n*) for states that encode to *n* JSON values, and O(`limit`) lines.
public func stateChanges<State: Encodable>(
  from old: State, to new: State, limit: Int = .max
) -> [String] {
  changedFields(from: old, to: new, limit: limit)
}

/// ``stateChanges(from:to:limit:)``, under a name that a member called `stateChanges` does
/// not hide (the module's name is also its `Store` type's, so the module cannot qualify it).
func changedFields<State: Encodable>(from old: State, to new: State, limit: Int) -> [String] {
  let encoder = makeLogEncoder()
  guard let oldJSON = canonicalEncoding(of: old, encoder: encoder),
    let newJSON = canonicalEncoding(of: new, encoder: encoder)
  else {
    return ["(the state could not be encoded)"]
  }
  return changedFields(fromCanonical: oldJSON, to: newJSON, limit: limit)
}

/// The changes between two states given as their canonical JSON (see `CanonicalJSON`): a
/// set (or a dictionary written as a list) that only iterates in another order is not a
/// change.
func changedFields(fromCanonical oldJSON: Data, to newJSON: Data, limit: Int) -> [String] {
  if oldJSON == newJSON { return [] }
  return StackRoom.run(reading: oldJSON, newJSON) {
    guard let (before, after) = JSONValue.parsingDifferences(oldJSON, newJSON) else {
      return ["(the state could not be compared)"]
    }
    let (lines, unlisted) = before.differences(to: after, limit: limit)
    return unlisted == 0 ? lines : lines + ["and \(unlisted) more difference(s)"]
  }
}
