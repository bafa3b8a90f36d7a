/// Compares two ``DumpNode`` trees and prints only the branches that differ, each under the
/// opening and closing lines of its ancestors.
///
/// Children are lined up according to the container:
///
/// - Properties, tuple elements, enum payloads and dictionary entries pair up by label (for
///   dictionaries, by key), and paired children that differ are compared recursively.
/// - Collections of equal length pair up by index, and differing pairs are compared
///   recursively; otherwise, like sets, they are aligned with ``SequenceAlignment``, and
///   elements without a partner print whole as removed or inserted.
///
/// Leaves that differ, enum values that changed case, and values of different types print
/// whole, expected first with `-`, then actual with `+`. Each run of unchanged siblings
/// collapses into one `… (N unchanged)` line, so unchanged values never appear.
enum TreeDiffer {
  /// One line of a diff: a dump line and the side it belongs to.
  struct Line: Hashable, Sendable {
    /// Which side a line shows.
    enum Marker: Hashable, Sendable {
      /// An ancestor's opening or closing line, or a collapsed run; on both sides.
      case context
      /// A line only the expected value has.
      case removed
      /// A line only the actual value has.
      case inserted
    }

    /// Which side the line shows.
    var marker: Marker
    /// The dump line.
    var line: DumpNode.Line

    /// The line as printed: a two-character marker column (`- `, `+ ` or two spaces), then
    /// the indented text, so that the three kinds of line stay aligned.
    var rendered: String {
      let column =
        switch marker {
        case .context: "  "
        case .removed: "- "
        case .inserted: "+ "
        }
      return column + line.indented
    }
  }

  /// How a pair of sibling lists lines up, one child at a time.
  private enum ChildStep {
    /// Both sides hold the same child; it only counts towards a collapsed run.
    case unchanged
    /// Both sides hold a child under this label, with different values.
    case changed(label: String?, expected: DumpNode, actual: DumpNode)
    /// Only the expected side holds this child.
    case removed(DumpNode.Child)
    /// Only the actual side holds this child.
    case inserted(DumpNode.Child)
  }

  /// The diff of two trees, or no lines when they are equal.
  ///
  /// - Parameters:
  ///   - expected: The tree whose lines are marked `-`.
  ///   - actual: The tree whose lines are marked `+`.
  /// - Returns: The lines of the diff, starting with the root's.
  /// - Complexity: O(*n* × *d*) for trees of *n* nodes and depth *d*, plus the cost of
  ///   ``SequenceAlignment`` for collections whose length changed.
  static func lines(expected: DumpNode, actual: DumpNode) -> [Line] {
    guard expected != actual else { return [] }
    var lines: [Line] = []
    appendDiff(expected, actual, label: nil, depth: 0, to: &lines)
    return lines
  }

  private static func appendDiff(
    _ expected: DumpNode,
    _ actual: DumpNode,
    label: String?,
    depth: Int,
    to lines: inout [Line]
  ) {
    guard expected.isComparable(to: actual) else {
      append(expected, label: label, depth: depth, marker: .removed, to: &lines)
      append(actual, label: label, depth: depth, marker: .inserted, to: &lines)
      return
    }
    let prefix = label.map { "\($0): " } ?? ""
    lines.append(Line(marker: .context, line: .init(depth: depth, text: prefix + expected.opening)))
    var unchanged = 0
    func flushUnchanged() {
      guard unchanged > 0 else { return }
      let text = "… (\(unchanged) unchanged)"
      lines.append(Line(marker: .context, line: .init(depth: depth + 1, text: text)))
      unchanged = 0
    }
    for step in childSteps(expected, actual) {
      switch step {
      case .unchanged:
        unchanged += 1
      case .changed(let label, let old, let new):
        flushUnchanged()
        appendDiff(old, new, label: label, depth: depth + 1, to: &lines)
      case .removed(let child):
        flushUnchanged()
        append(child.node, label: child.label, depth: depth + 1, marker: .removed, to: &lines)
      case .inserted(let child):
        flushUnchanged()
        append(child.node, label: child.label, depth: depth + 1, marker: .inserted, to: &lines)
      }
    }
    flushUnchanged()
    lines.append(Line(marker: .context, line: .init(depth: depth, text: expected.closing)))
  }

  private static func append(
    _ node: DumpNode,
    label: String?,
    depth: Int,
    marker: Line.Marker,
    to lines: inout [Line]
  ) {
    lines += node.lines(label: label, depth: depth).map { Line(marker: marker, line: $0) }
  }

  /// Whether every child has an id, and no two the same.
  private static func haveUniqueIDs(_ children: [DumpNode.Child]) -> Bool {
    var seen = Set<String>()
    return children.allSatisfy { child in child.id.map { seen.insert($0).inserted } ?? false }
  }

  /// Lines up the children of two comparable containers.
  private static func childSteps(_ expected: DumpNode, _ actual: DumpNode) -> [ChildStep] {
    let old = expected.children
    let new = actual.children
    switch expected.kind {
    case .collection where Self.haveUniqueIDs(old) && Self.haveUniqueIDs(new):
      // Identified elements pair by id: a row that moved, or that another row's removal
      // shifted, is not reported as every row after it changing.
      return pairSteps(old, new, by: \.id)
    case .collection where old.count == new.count:
      return zip(old, new).map { pair in
        pair.0 == pair.1
          ? .unchanged : .changed(label: pair.0.label, expected: pair.0.node, actual: pair.1.node)
      }
    case .collection, .set:
      // Matching whole elements: a match is unchanged by construction.
      let steps = SequenceAlignment.steps(from: old.map(\.node), to: new.map(\.node))
      return steps.map { step in
        switch step {
        case .match: .unchanged
        case .removal(let index): .removed(old[index])
        case .insertion(let index): .inserted(new[index])
        }
      }
    case .leaf, .object, .enumCase, .tuple, .dictionary:
      // Matching labels: a match may still hold different values.
      return pairSteps(old, new, by: \.label)
    }
  }

  /// Lines up children by `key` (a label, an id); a pair whose trees differ is changed.
  private static func pairSteps<Key: Hashable>(
    _ old: [DumpNode.Child], _ new: [DumpNode.Child], by key: (DumpNode.Child) -> Key
  ) -> [ChildStep] {
    SequenceAlignment.steps(from: old.map(key), to: new.map(key)).map { step in
      switch step {
      case .match(let oldIndex, let newIndex):
        old[oldIndex].node == new[newIndex].node
          ? .unchanged
          : .changed(
            label: new[newIndex].label, expected: old[oldIndex].node,
            actual: new[newIndex].node)
      case .removal(let index): .removed(old[index])
      case .insertion(let index): .inserted(new[index])
      }
    }
  }
}
