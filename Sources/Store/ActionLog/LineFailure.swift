#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Why the recorder could not write a line, in words: what could not be written, where in
/// the line, and what to do about it.
struct LineFailure: Error {
  /// The explanation, as part of a sentence.
  var reason: String

  /// `JSONEncoder` refused `value`, which is at `prefix` in the line (such as `state`, or
  /// nothing when `value` is the line itself).
  static func unencodable(_ error: any Error, encoding value: Any, at prefix: String = "")
    -> LineFailure
  {
    guard let error = error as? EncodingError else {
      // An `encode(to:)` that throws its own error says neither where nor why in a way we
      // can read: it is quoted whole.
      return LineFailure(reason: "encoding it threw an error: \(error)")
    }
    switch error {
    case .invalidValue(let invalid, let context):
      let found =
        place(of: context.codingPath[...], in: value) ?? context.codingPath.map(LogText.component)
      // Cut as a message cuts a place: a key of a million characters makes a short reason.
      let components = (prefix.isEmpty ? [] : ["." + prefix]) + found
      let path = LogText.place(count: components.count) { components[$0] }
      let place = path.isEmpty ? "" : " at \(path)"
      if let number = invalid as? any BinaryFloatingPoint, !number.isFinite {
        return LineFailure(
          reason: """
            the \(type(of: number)) \(number)\(place) cannot be written as JSON, which has no \
            NaN or infinity: keep such numbers out of actions and state, or encode them \
            another way (as nil, or as a string)
            """)
      }
      var detail = context.debugDescription
      while detail.hasSuffix(".") { detail.removeLast() }
      let cause = context.underlyingError.map { "\($0)" } ?? ""
      // JSONEncoder's writer refuses arrays and objects nested past its limit with only this
      // (on Linux, with no underlying error); its other refusals come with a place.
      if detail.lowercased().contains("nest") || cause.lowercased().contains("nest")
        || (context.codingPath.isEmpty && detail.hasPrefix("Unable to encode the given top-level"))
      {
        return LineFailure(
          reason: """
            the value\(place) is nested too deep to be written as JSON (JSONEncoder writes at \
            most \(JSONCheck.maximumDepth) levels of arrays and objects, and says only \
            "\(cause.isEmpty ? detail : cause)"): keep deeply nested values (a long linked list, \
            a deep tree) out of actions and state, or encode them flat
            """)
      }
      return LineFailure(
        reason:
          "the value\(place) cannot be written as JSON: \(detail)\(cause.isEmpty ? "" : " (\(cause))")"
      )
    @unknown default:
      return LineFailure(reason: "it could not be encoded: \(error)")
    }
  }

  /// `JSONEncoder` wrote text that is not JSON (a `Decimal` that is NaN, written as a bare
  /// `NaN`) at `offset` in `json`, which is at `prefix` in the line (such as `state`, or
  /// nothing when `json` is the line itself).
  static func notJSON(_ json: Data, at offset: Int, prefix: String = "") -> LineFailure {
    let token = NonJSONToken.token(at: offset, in: json)
    var path = prefix
    let inner = JSONCheck.check(json).path
    if !inner.isEmpty { path += path.isEmpty ? inner : "." + inner }
    let place = path.isEmpty ? "" : " at \(path)"
    let cause =
      token == "NaN"
      ? "JSONEncoder writes a Decimal that is NaN so, though JSON has no NaN"
      : "JSONEncoder wrote it so, though it is not a JSON value"
    return LineFailure(
      reason: """
        the value\(place) was encoded as \(LogText.escaped(token)), which is not JSON \
        (\(cause)): keep such numbers out of actions and state, or encode them another way \
        (as nil, or as a string)
        """)
  }

  /// The recorder's `time` closure returned `time`, which is NaN or infinite.
  static func unwritableTime(_ time: Double) -> LineFailure {
    LineFailure(
      reason: """
        the recorder's time closure returned \(time), which JSON cannot hold: the time closure \
        given to recordActions must return a finite number of seconds
        """)
  }

  /// An encoded line of `bytes` bytes is longer than `limit`.
  static func tooLong(bytes: Int, limit: Int) -> LineFailure {
    LineFailure(
      reason: """
        its line of \(bytes) bytes is longer than the \(limit) a replay reads: keep large \
        data out of actions and the initial state
        """)
  }

  /// Where `keys` lead through `value`, as path components (`.key` or `[index]`), with the
  /// enum case names put back that `JSONEncoder` leaves out of a coding path (it drops the key
  /// of every nested container, and synthesized `Codable` puts an enum's payload in one under
  /// the case's name). `nil` when the keys do not lead through the value, as for a type with
  /// its own `encode(to:)` or coding keys.
  private static func place(of keys: ArraySlice<any CodingKey>, in value: Any) -> [String]? {
    guard let key = keys.first else { return [] }
    let mirror = Mirror(reflecting: value)
    let rest = keys.dropFirst()
    switch mirror.displayStyle {
    case .optional:
      guard let wrapped = mirror.children.first?.value else { return nil }
      return place(of: keys, in: wrapped)
    case .enum:
      guard let payload = mirror.children.first, let name = payload.label else { return nil }
      // An encoder that keeps the case's key in the path is followed too.
      if key.stringValue == name, let inner = place(ofPayload: payload.value, along: rest) {
        return [".\(name)"] + inner
      }
      return place(ofPayload: payload.value, along: keys).map { [".\(name)"] + $0 }
    case .struct, .class:
      let field = mirror.children.first {
        $0.label == key.stringValue || $0.label == "_" + key.stringValue
      }
      guard let field else { return nil }
      return place(of: rest, in: field.value).map { [".\(key.stringValue)"] + $0 }
    case .collection, .set:
      let elements = Array(mirror.children)
      guard let index = key.intValue, elements.indices.contains(index) else { return nil }
      return place(of: rest, in: elements[index].value).map { ["[\(index)]"] + $0 }
    case .dictionary:
      let entries = mirror.children.map { Array(Mirror(reflecting: $0.value).children) }
      // Keyed by strings or integers, a dictionary is a JSON object.
      if let entry = entries.first(where: { $0.count == 2 && "\($0[0].value)" == key.stringValue })
      {
        return place(of: rest, in: entry[1].value).map { [LogText.key(key.stringValue)] + $0 }
      }
      // Otherwise a flat array: a key, its value, the next key, and so on.
      guard let index = key.intValue, index >= 0, index / 2 < entries.count,
        entries[index / 2].count == 2
      else { return nil }
      return place(of: rest, in: entries[index / 2][index % 2].value).map { ["[\(index)]"] + $0 }
    default:
      return nil
    }
  }

  /// Where `keys` lead through an enum case's payload: `_0`, `_1`… or a label names one of its
  /// values.
  private static func place(ofPayload payload: Any, along keys: ArraySlice<any CodingKey>)
    -> [String]?
  {
    guard let key = keys.first else { return [] }
    let fields = Mirror(reflecting: payload)
    guard fields.displayStyle == .tuple else {
      // One unlabeled value.
      guard key.stringValue == "_0" else { return nil }
      return place(of: keys.dropFirst(), in: payload).map { [".\(key.stringValue)"] + $0 }
    }
    for (index, field) in fields.children.enumerated() {
      let label = field.label.flatMap { $0.hasPrefix(".") ? nil : $0 } ?? "_\(index)"
      if label == key.stringValue {
        return place(of: keys.dropFirst(), in: field.value).map { [".\(label)"] + $0 }
      }
    }
    return nil
  }
}
