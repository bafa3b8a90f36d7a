import AppFeature
import Foundation
import Store

/// Prints a replay step by step: number, origin, action, and the state's changes.
@MainActor
final class Timeline {
  private let output: Output
  private let isQuiet: Bool

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
    let action = step.actionSummary
    output.line("#\(number)  \(origin)  \(Self.shortened(action))")
    for change in step.stateChanges {
      output.line("          \(change)")
    }
  }
}

extension Timeline {
  /// `summary`, an action as ``ReplayStep/actionSummary`` prints it, cut after about `limit`
  /// characters (Unicode scalars) with `…`, but never inside a string literal, its escapes or
  /// the count that follows a literal cut short (`"xxx"… (168 characters)`): the summary
  /// cuts each literal already, and cutting one again would drop its closing quote and
  /// count, or split an escape (`\u{20…`). The cut comes at the first place after `limit`
  /// outside those, so a line keeps the whole value it reached; a line with at most 16 more
  /// characters after that place is not cut at all.
  static func shortened(_ summary: String, limit: Int = 160) -> String {
    let scalars = Array(summary.unicodeScalars)
    guard scalars.count > limit else { return summary }
    let note = Array("… (".unicodeScalars)
    var position = 0
    while position < scalars.count {
      // What is left after the limit is cut, unless it is no longer than the cut's own
      // mark would be worth (closing parentheses, a last short value).
      if position >= limit - 1 {
        guard scalars.count - position > 16 else { return summary }
        return String(String.UnicodeScalarView(scalars[..<position])) + "…"
      }
      guard scalars[position] == "\"" else {
        position += 1
        continue
      }
      // A literal: to its closing quote, past escaped characters.
      position += 1
      while position < scalars.count, scalars[position] != "\"" {
        position += scalars[position] == "\\" ? 2 : 1
      }
      position += 1
      // The count of a literal cut short goes with it, to its closing parenthesis.
      if scalars[min(position, scalars.count)...].starts(with: note),
        let close = scalars[position...].firstIndex(of: ")")
      {
        position = close + 1
      }
    }
    return summary
  }
}

extension String {
  func leftPadded(to width: Int) -> String {
    count >= width ? self : String(repeating: " ", count: width - count) + self
  }
}
