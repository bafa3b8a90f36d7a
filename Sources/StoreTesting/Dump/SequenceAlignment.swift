/// How two sequences line up: which elements they share, in order, and which were removed
/// from the first or inserted into the second.
///
/// The alignment is a longest common subsequence, so a diff of `[a, b, c]` against
/// `[a, x, b, c]` reports one insertion rather than three changes. Within each gap,
/// removals come before insertions, which makes the result deterministic.
///
/// ```swift
/// SequenceAlignment.steps(from: ["a", "b", "c"], to: ["a", "x", "c"])
/// // [.match(0, 0), .removal(1), .insertion(1), .match(2, 2)]
/// ```
enum SequenceAlignment {
  /// One step through both sequences.
  enum Step: Hashable, Sendable {
    /// The element at the first index in the old sequence equals the one at the second
    /// index in the new sequence.
    case match(Int, Int)
    /// The old sequence's element at this index has no partner.
    case removal(Int)
    /// The new sequence's element at this index has no partner.
    case insertion(Int)
  }

  /// The most table cells an alignment fills by default before it stops matching the middle.
  ///
  /// Past the limit, the unmatched middle is reported as removed and then inserted: still a
  /// correct diff, just a longer one, and never a table of hundreds of megabytes.
  static let defaultCellLimit = 4_000_000

  /// The steps that turn `old` into `new`, in order.
  ///
  /// - Parameters:
  ///   - old: The expected elements.
  ///   - new: The actual elements.
  ///   - cellLimit: The largest table to fill for the part between the common prefix and
  ///     suffix; past it, that part is all removals followed by all insertions.
  /// - Returns: Every index of both sequences exactly once, in increasing order per sequence.
  /// - Complexity: O(*n* + *m*) when the sequences differ only at one end; otherwise
  ///   O(*k* × *l*) time and space, where *k* and *l* are the lengths left after trimming the
  ///   common prefix and suffix.
  static func steps<Element: Hashable>(
    from old: [Element],
    to new: [Element],
    cellLimit: Int = defaultCellLimit
  ) -> [Step] {
    // Equal elements share an id, so the table compares integers, not whole values.
    var ids: [Element: Int] = [:]
    let oldIDs = old.map { element in ids[element] ?? insert(element, into: &ids) }
    let newIDs = new.map { element in ids[element] ?? insert(element, into: &ids) }

    var prefix = 0
    while prefix < oldIDs.count, prefix < newIDs.count, oldIDs[prefix] == newIDs[prefix] {
      prefix += 1
    }
    var suffix = 0
    while suffix < oldIDs.count - prefix, suffix < newIDs.count - prefix,
      oldIDs[oldIDs.count - 1 - suffix] == newIDs[newIDs.count - 1 - suffix]
    {
      suffix += 1
    }

    var steps = (0..<prefix).map { Step.match($0, $0) }
    steps += middleSteps(
      old: Array(oldIDs[prefix..<(oldIDs.count - suffix)]),
      new: Array(newIDs[prefix..<(newIDs.count - suffix)]),
      offsets: (prefix, prefix),
      cellLimit: cellLimit)
    steps += (0..<suffix).reversed().map {
      Step.match(oldIDs.count - 1 - $0, newIDs.count - 1 - $0)
    }
    return steps
  }

  private static func insert<Element: Hashable>(
    _ element: Element,
    into ids: inout [Element: Int]
  ) -> Int {
    let id = ids.count
    ids[element] = id
    return id
  }

  /// The alignment of the part between the common prefix and suffix.
  private static func middleSteps(
    old: [Int],
    new: [Int],
    offsets: (old: Int, new: Int),
    cellLimit: Int
  ) -> [Step] {
    let rows = old.count + 1
    let columns = new.count + 1
    guard rows * columns <= cellLimit else {
      return old.indices.map { .removal($0 + offsets.old) }
        + new.indices.map { .insertion($0 + offsets.new) }
    }
    // lengths[i * columns + j]: the common subsequence length of old[i...] and new[j...].
    var lengths = [Int32](repeating: 0, count: rows * columns)
    for i in old.indices.reversed() {
      for j in new.indices.reversed() {
        lengths[i * columns + j] =
          old[i] == new[j]
          ? lengths[(i + 1) * columns + j + 1] + 1
          : max(lengths[(i + 1) * columns + j], lengths[i * columns + j + 1])
      }
    }
    var steps: [Step] = []
    var (i, j) = (0, 0)
    while i < old.count || j < new.count {
      if i < old.count, j < new.count, old[i] == new[j] {
        steps.append(.match(i + offsets.old, j + offsets.new))
        i += 1
        j += 1
      } else if j == new.count
        || (i < old.count && lengths[(i + 1) * columns + j] >= lengths[i * columns + j + 1])
      {
        steps.append(.removal(i + offsets.old))
        i += 1
      } else {
        steps.append(.insertion(j + offsets.new))
        j += 1
      }
    }
    return steps
  }
}
