#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension ReplayStep where Action: Encodable {
  /// The action as a short path through the features, as a timeline prints it:
  /// `cart.items.element(id: 3, action: .quantityChanged(2))` for
  /// `.cart(.items(.element(id: 3, action: .quantityChanged(2))))`.
  ///
  /// Written from the action's JSON, as the log holds it: a ``Secret`` shows as
  /// `"<redacted>"`, an `id` comes first among a case's values, and a string is quoted as a
  /// Swift string literal writes it (`"Tea\u{1B}[31m"`), so that text from a log cannot
  /// send control characters to a terminal nor start a line of its own. An action that
  /// cannot be encoded is described as Swift prints it, escaped the same way. The JSON does
  /// not say which objects are enum cases: a struct of one field that holds a struct reads as
  /// a case (`inner(a: 1, b: 2)`), and a `nil` left out reads as a case without values.
  ///
  /// ```swift
  /// _ = try replayer.replay(path: path) { step in
  ///   print("#\(step.sequence) \(step.actionSummary)")
  ///   for change in step.stateChanges { print("    \(change)") }
  /// }
  /// ```
  ///
  /// - Complexity: O(*n*) for an action that encodes to *n* JSON values.
  public var actionSummary: String {
    guard let data = try? makeLogEncoder().encode(action),
      let summary = JSONValue.reading(data, { ActionSummary.render($0, isTopLevel: true) })
    else { return LogText.escaped("\(action)") }
    return summary
  }
}

extension ReplayStep where State: Encodable {
  /// The fields of the state this step's action changed, one line each, as
  /// `path: old → new`, sorted by path; empty when it changed nothing. The same as
  /// `stateChanges(from: stateBefore, to: stateAfter)`.
  ///
  /// A step the replay made encodes only its `stateAfter`: the replay keeps the encoding of
  /// the state after each of the last two actions, which is the next step's `stateBefore`
  /// (and what a checkpoint there digests). A state set anew on the step is encoded anew.
  /// For a state that is a value, as states are meant to be, that gives the same lines. An
  /// object a state holds and the reducer changes in place is one object in both states:
  /// encoded now, both show its new content; kept from the step before, `stateBefore`'s
  /// encoding shows what it held then, so the change is listed when the step before
  /// listed its own.
  ///
  /// - Complexity: O(*n*) for states that encode to *n* JSON values.
  public var stateChanges: [String] {
    guard let encodings = replayed.encodings else {
      return changedFields(from: stateBefore, to: stateAfter, limit: .max)
    }
    let encoder = makeLogEncoder()
    guard let before = encodings.json(of: stateBefore, after: replayed.before, encoder: encoder),
      let after = encodings.json(of: stateAfter, after: replayed.after, encoder: encoder)
    else {
      return ["(the state could not be encoded)"]
    }
    return changedFields(fromCanonical: before, to: after, limit: .max)
  }
}

/// Renders an action's JSON as a path of enum cases.
enum ActionSummary {
  /// `value` as a case path when it is an enum case's encoding (an object with one key),
  /// else as a value: strings quoted, `null` as `nil`.
  static func render(_ value: JSONValue, isTopLevel: Bool = false) -> String {
    switch value {
    case .object(let object) where object.count == 1:
      let (key, payload) = object.first!
      let name = LogText.escaped(key)
      let prefix = isTopLevel ? "" : "."
      // An enum case's values are an object; a struct of one field holding something
      // else is shown as the struct it is.
      guard case .object(let fields) = payload else { return "{\(name): \(render(payload))}" }
      if fields.isEmpty { return prefix + name }
      if fields.count == 1, let only = fields["_0"] {
        let inner = render(only)
        return inner.hasPrefix(".") ? prefix + name + inner : "\(prefix)\(name)(\(inner))"
      }
      // Ids first, so a line says which element before what happened to it.
      let labels = fields.keys.sorted { ($0 == "id" ? 0 : 1, $0) < ($1 == "id" ? 0 : 1, $1) }
      let arguments = labels.map { label in
        label.hasPrefix("_")
          ? render(fields[label]!) : "\(LogText.escaped(label)): \(render(fields[label]!))"
      }
      return "\(prefix)\(name)(\(arguments.joined(separator: ", ")))"
    case .object(let object):
      let fields = object.keys.sorted().map { "\(LogText.escaped($0)): \(render(object[$0]!))" }
      return "{" + fields.joined(separator: ", ") + "}"
    case .array(let values):
      return "[" + values.map { render($0) }.joined(separator: ", ") + "]"
    case .string(let text):
      return LogText.quoted(text)
    case .null:
      return "nil"
    case .bool(let value):
      return "\(value)"
    case .number(let number):
      return number.text
    }
  }
}
