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

  /// The most cells an alignment keeps by default before it stops matching the middle.
  ///
  /// Past the limit, the unmatched middle is reported as removed and then inserted: still a
  /// correct diff, just a longer one, and never a table of hundreds of megabytes.
  static let defaultCellLimit = 4_000_000

  /// The steps that turn `old` into `new`, in order.
  ///
  /// - Parameters:
  ///   - old: The expected elements.
  ///   - new: The actual elements.
  ///   - cellLimit: The most cells to keep for the part between the common prefix and
  ///     suffix, about the square of its number of differences; past it, that part is all
  ///     removals followed by all insertions.
  /// - Returns: Every index of both sequences exactly once, in increasing order per sequence.
  /// - Complexity: O(*n* + *m*) when the sequences differ only at one end; otherwise
  ///   O((*k* + *l*) × *d*) time and O(*d*²) space, where *k* and *l* are the lengths left
  ///   after trimming the common prefix and suffix, and *d* the number of removals and
  ///   insertions.
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

  /// The alignment of the part between the common prefix and suffix: Myers's algorithm,
  /// whose cost grows with the number of differences *d*, not with the product of the
  /// lengths. It keeps the furthest reach of each diagonal for each *d* to trace the path
  /// back: (*d* + 1)² cells, so it gives up (all removals, then all insertions) past
  /// `cellLimit` of them.
  private static func middleSteps(
    old: [Int],
    new: [Int],
    offsets: (old: Int, new: Int),
    cellLimit: Int
  ) -> [Step] {
    let (n, m) = (old.count, new.count)
    let giveUp =
      old.indices.map { Step.removal($0 + offsets.old) }
      + new.indices.map { Step.insertion($0 + offsets.new) }
    guard n > 0, m > 0 else { return giveUp }
    // reach[k + offset]: the furthest x reached on diagonal k = x - y.
    let offset = n + m + 1
    var reach = [Int](repeating: 0, count: 2 * offset + 1)
    var trace: [[Int]] = []
    var cells = 0
    var found: Int?
    search: for d in 0...(n + m) {
      for k in stride(from: -d, through: d, by: 2) {
        let down = k == -d || (k != d && reach[k - 1 + offset] < reach[k + 1 + offset])
        var x = down ? reach[k + 1 + offset] : reach[k - 1 + offset] + 1
        var y = x - k
        while x < n, y < m, old[x] == new[y] {
          x += 1
          y += 1
        }
        reach[k + offset] = x
        if x >= n, y >= m {
          trace.append(Array(reach[(offset - d)...(offset + d)]))
          found = d
          break search
        }
      }
      cells += 2 * d + 1
      guard cells <= cellLimit else { return giveUp }
      trace.append(Array(reach[(offset - d)...(offset + d)]))
    }
    guard let distance = found else { return giveUp }
    // Back from the end: each step of d undoes one removal or insertion and the run of
    // matches after it.
    var matches: [(Int, Int)] = []
    var (x, y) = (n, m)
    for d in stride(from: distance, to: 0, by: -1) {
      let previous = trace[d - 1]
      func reached(_ k: Int) -> Int { previous[k + d - 1] }
      let k = x - y
      let down = k == -d || (k != d && reached(k - 1) < reached(k + 1))
      let previousK = down ? k + 1 : k - 1
      let previousX = reached(previousK)
      let snakeStart = down ? previousX : previousX + 1
      while x > snakeStart {
        x -= 1
        y -= 1
        matches.append((x, y))
      }
      (x, y) = (previousX, previousX - previousK)
    }
    while x > 0, y > 0 {
      x -= 1
      y -= 1
      matches.append((x, y))
    }
    // Between two matches, the removals first, then the insertions.
    var steps: [Step] = []
    var (i, j) = (0, 0)
    for (matchedOld, matchedNew) in matches.reversed() + [(n, m)] {
      while i < matchedOld {
        steps.append(.removal(i + offsets.old))
        i += 1
      }
      while j < matchedNew {
        steps.append(.insertion(j + offsets.new))
        j += 1
      }
      if matchedOld < n {
        steps.append(.match(matchedOld + offsets.old, matchedNew + offsets.new))
        i += 1
        j += 1
      }
    }
    return steps
  }
}
