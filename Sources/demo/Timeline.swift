import AppFeature
import Foundation
import Store

/// Prints a replay step by step: number, origin, action, and the state's changes.
@MainActor
final class Timeline {
  private let output: Output
  private let isQuiet: Bool
  private let encoder: JSONEncoder = {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    return encoder
  }()

  init(output: Output, isQuiet: Bool) {
    self.output = output
    self.isQuiet = isQuiet
  }

  func show(_ step: ReplayStep<AppFeature.State, AppFeature.Action>) {
    if step.sequence % 10_000 == 0 {
      output.progress("replayed \(step.sequence) actions…")
    }
    guard !isQuiet else { return }
    let number = String(step.sequence).leftPadded(to: 5)
    let origin = step.origin.rawValue.padding(toLength: 6, withPad: " ", startingAt: 0)
    let action = describe(step.action)
    let shown = action.count > 160 ? String(action.prefix(159)) + "…" : action
    output.line("#\(number)  \(origin)  \(shown)")
    for change in stateChanges(from: step.stateBefore, to: step.stateAfter) {
      output.line("          \(change)")
    }
  }

  /// An action as a short path, such as `cart.items.element(id: …, action: .noteChanged("x"))`.
  ///
  /// The action comes from the log, so its strings are written as Swift string literals
  /// (`"Tea\u{1B}[31m"`, `"a\nb"`): a control character in one cannot reach the terminal, nor
  /// a newline print a line of its own.
  func describe(_ action: AppFeature.Action) -> String {
    guard let data = try? encoder.encode(action),
      let json = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
    else { return LogText.escaped("\(action)") }
    return render(json, isTopLevel: true)
  }

  private func render(_ value: Any, isTopLevel: Bool = false) -> String {
    if let object = value as? [String: Any], object.count == 1, let (key, payload) = object.first {
      let name = LogText.escaped(key)
      let prefix = isTopLevel ? "" : "."
      guard let fields = payload as? [String: Any] else { return "\(prefix)\(name)" }
      if fields.isEmpty { return "\(prefix)\(name)" }
      if fields.count == 1, let only = fields["_0"] {
        let inner = render(only)
        return inner.hasPrefix(".") ? "\(prefix)\(name)\(inner)" : "\(prefix)\(name)(\(inner))"
      }
      // Ids first, so a line says which element before what happened to it.
      let keys = fields.keys.sorted { ($0 == "id" ? 0 : 1, $0) < ($1 == "id" ? 0 : 1, $1) }
      let arguments = keys.map { label in
        label.hasPrefix("_")
          ? render(fields[label]!) : "\(LogText.escaped(label)): \(render(fields[label]!))"
      }
      return "\(prefix)\(name)(\(arguments.joined(separator: ", ")))"
    }
    switch value {
    case let string as String: return LogText.quoted(string)
    case let array as [Any]: return "[" + array.map { render($0) }.joined(separator: ", ") + "]"
    case let object as [String: Any]:
      return "{"
        + object.keys.sorted().map { "\(LogText.escaped($0)): \(render(object[$0]!))" }
        .joined(separator: ", ") + "}"
    case is NSNull: return "nil"
    default: return "\(value)"
    }
  }
}

extension String {
  func leftPadded(to width: Int) -> String {
    count >= width ? self : String(repeating: " ", count: width - count) + self
  }
}
