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
/// collapses into one `… (N unchanged)` line, so unchanged values never appear. Two strings
/// that both span lines compare line by line (see ``DiffWriter``).
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

  /// How much of a diff to print before leaving the rest out.
  struct Limit: Hashable, Sendable {
    /// The most changes shown: a value that differs where its type or case did, an element
    /// or a line removed or inserted, a leaf changed.
    var changes: Int
    /// The most lines shown, so that a few large values cannot make a diff long either.
    var lines: Int

    /// A limit of `count` changes and eight lines a change.
    ///
    /// A count of zero or less shows no change, only the line counting them. The lines stop
    /// at `Int.max` for a count past an eighth of it: a test may set `Int.max` to mean "no
    /// limit", and eight times that would overflow.
    static func changes(_ count: Int) -> Limit {
      let changes = max(count, 0)
      let (lines, overflow) = max(changes, 1).multipliedReportingOverflow(by: 8)
      return Limit(changes: changes, lines: overflow ? .max : lines)
    }
  }

  /// The lines of a diff, and how many changes they leave out.
  struct Diff: Hashable, Sendable {
    /// The lines, starting with the root's.
    var lines: [Line]
    /// The changes the lines show.
    var shownChanges: Int
    /// The changes past the limit, which a line `… (N more changes left out)` stands for.
    var omittedChanges: Int
  }

  /// How a pair of sibling lists lines up, one child at a time.
  enum ChildStep {
    /// Both sides hold the same child; it only counts towards a collapsed run.
    case unchanged
    /// Both sides hold a child under this label, with different values.
    case changed(label: String?, expected: DumpNode, actual: DumpNode)
    /// Only the expected side holds this child.
    case removed(DumpNode.Child)
    /// Only the actual side holds this child.
    case inserted(DumpNode.Child)
  }

  /// The whole diff of two trees, or no lines when they are equal.
  ///
  /// - Parameters:
  ///   - expected: The tree whose lines are marked `-`.
  ///   - actual: The tree whose lines are marked `+`.
  /// - Returns: The lines of the diff, starting with the root's.
  /// - Complexity: O(*n* × *d*) for trees of *n* nodes and depth *d*, plus the cost of
  ///   ``SequenceAlignment`` for collections whose length changed.
  static func lines(expected: DumpNode, actual: DumpNode) -> [Line] {
    diff(expected: expected, actual: actual, limit: nil).lines
  }

  /// The diff of two trees up to `limit`, or no lines when they are equal.
  ///
  /// Past the limit, the diff stops printing: one line, where the first change left out
  /// would have been, counts the changes left out, and the ancestors' closing lines follow.
  /// The changes left out are counted, not printed, so a diff of a large collection that
  /// changed throughout costs about what its first changes do to print.
  ///
  /// - Parameters:
  ///   - expected: The tree whose lines are marked `-`.
  ///   - actual: The tree whose lines are marked `+`.
  ///   - limit: How much to print; `nil` for everything.
  /// - Returns: The lines, and how many changes they leave out.
  /// - Complexity: O(*n* × *d*) for trees of *n* nodes and depth *d* to walk, plus the cost of
  ///   ``SequenceAlignment`` for collections whose length changed; the text made is O(`limit`).
  static func diff(expected: DumpNode, actual: DumpNode, limit: Limit?) -> Diff {
    guard expected != actual else { return Diff(lines: [], shownChanges: 0, omittedChanges: 0) }
    var writer = DiffWriter(limit: limit)
    writer.write(expected, actual, label: nil, depth: 0)
    return writer.finished()
  }

  /// Whether every child has an id, and no two the same.
  private static func haveUniqueIDs(_ children: [DumpNode.Child]) -> Bool {
    var seen = Set<String>()
    return children.allSatisfy { child in child.id.map { seen.insert($0).inserted } ?? false }
  }

  /// Lines up the children of two comparable containers.
  static func childSteps(_ expected: DumpNode, _ actual: DumpNode) -> [ChildStep] {
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
