/// A readable diff of two values' structure, for test failure messages.
///
/// The diff follows the tree of ``StateDump``, not the lines of two dumps: it shows the path
/// from the root down to each change, the change itself, and a count in place of each run of
/// unchanged siblings. Expected lines start with `- `, actual lines with `+ `, and the lines
/// both sides share with two spaces, so the columns line up.
///
/// ```swift
/// StateDiff.diff(expected: state, actual: changed)
/// //   State(
/// //     profile: Profile(
/// //       address: Address(
/// // -       city: "Paris"
/// // +       city: "Lyon"
/// //         … (1 unchanged)
/// //       )
/// //       … (2 unchanged)
/// //     )
/// //   )
/// ```
///
/// How each kind of value compares:
///
/// - Structs, classes, tuples and enum payloads pair their children by label.
/// - Dictionaries pair entries by key; entries only one side has print whole.
/// - Collections of equal length compare element by element. When the length changed, the
///   elements are aligned by a longest common subsequence of their renderings, and elements
///   only one side has print whole, labelled with their index on that side. Sets always
///   align this way. Elements that are `Identifiable`, with no id twice on either side, pair
///   by id instead, so a row that moved or was removed does not shift the rest; an
///   identified array's rows are labelled by id too (`[id: 7]`). An id that is an object's
///   address (a class's default `ObjectIdentifier`) is not used: it changes from run to run.
/// - Two strings that both span lines compare line by line, printed between `"""`.
/// - Leaves that differ, enums that changed case, `nil` against a value, and values of
///   different types print whole: all expected lines, then all actual lines.
///
/// A diff stops after ``defaultChangeLimit`` changes (see ``DiffWriter``): one line counts
/// the changes left out, and a last line says how to see them all. The walk past the limit
/// only counts, so a large collection that changed throughout gives a short message quickly.
package enum StateDiff {
  /// How many changes a diff shows unless told otherwise.
  package static let defaultChangeLimit = 50

  /// `nil` when the renderings are equal; otherwise the diff text described above.
  ///
  /// The text has one line per `\n`-separated row and no trailing newline. It is
  /// deterministic: sets and dictionaries are ordered by rendering, and nothing depends on
  /// memory addresses or hash seeds, but for one thing. Secrets are numbered (`<redacted #2>`)
  /// in the order they are read: a set's elements and a dictionary's keys are read in the
  /// order of how they print with their secrets unnumbered, and a dictionary's values in the
  /// order of their keys; but elements or keys that print alike but for their secrets are read
  /// in the order the collection holds them, which changes from run to run, and so are the
  /// values of keys that print alike.
  ///
  /// - Parameters:
  ///   - expected: The value a test expected; its side of the diff is marked `-`.
  ///   - actual: The value the test observed; its side of the diff is marked `+`.
  ///   - changeLimit: The most changes to show, ``defaultChangeLimit`` by default; `nil` shows
  ///     them all.
  /// - Returns: `nil` when ``StateDump/render(_:)`` gives the same text for both values;
  ///   otherwise the diff.
  /// - Complexity: O(*n* × *d*) for values of *n* nodes and depth *d*, plus the alignment of
  ///   each collection whose length changed. The text made is O(`changeLimit`).
  package static func diff(
    expected: Any, actual: Any, changeLimit: Int? = defaultChangeLimit
  ) -> String? {
    // Secrets print alike; when nothing else differs, they are numbered by content, so a
    // secret that differs shows where, still without what it holds.
    for numberingRedactedValues in [false, true] {
      var reflector = DumpReflector(numberingRedactedValues: numberingRedactedValues)
      let expectedNode = reflector.node(for: expected)
      let actualNode = reflector.node(for: actual)
      // Trees that render alike count as equal even if they came from different types.
      guard expectedNode != actualNode, !expectedNode.rendersLike(actualNode) else { continue }
      let diff = TreeDiffer.diff(
        expected: expectedNode, actual: actualNode, limit: changeLimit.map(TreeDiffer.Limit.changes)
      )
      let text = diff.lines.map(\.rendered).joined(separator: "\n")
      guard diff.omittedChanges > 0, let changeLimit else { return text }
      let total = diff.shownChanges + diff.omittedChanges
      return text + "\n" + """
        The diff shows the first \(diff.shownChanges) of \(total) changes (the limit is \
        \(changeLimit)); set the test store's `diffChangeLimit` to `nil` to see them all.
        """
    }
    return nil
  }
}
