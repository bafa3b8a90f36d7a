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
    let shown = action.count > 160 ? String(action.prefix(159)) + "…" : action
    output.line("#\(number)  \(origin)  \(shown)")
    for change in step.stateChanges {
      output.line("          \(change)")
    }
  }
}

extension String {
  func leftPadded(to width: Int) -> String {
    count >= width ? self : String(repeating: " ", count: width - count) + self
  }
}
