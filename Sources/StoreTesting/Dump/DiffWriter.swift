/// Prints the diff of two ``DumpNode`` trees for ``TreeDiffer``, up to a limit.
///
/// Each change costs one from the limit: a pair printed whole (a leaf that changed, an enum
/// that changed case), an element or a line removed or inserted. Once the changes or the lines
/// run out, the writer prints one line where the next change would have gone and then only
/// the closing lines of the containers already open; it still walks the rest of the trees,
/// without printing, to count the changes left out.
///
/// Two strings that both span lines print as a block of lines between `"""`, like a
/// multi-line string literal, with only the lines that differ marked and the unchanged ones
/// far from a change collapsed:
///
/// ```
///     text: """
///       line one
/// -     line two
/// +     line 2
///       line three
///       """
/// ```
///
/// With a limit, a long line is shortened (see ``TextElision``): two strings on one line, or
/// two lines of text that replace one another, show the region that changed with some context,
/// and other lines their start, each with a count of the characters left out. A long label (a
/// dictionary's key, a row's id) before a value that changed, or before a container's opening
/// line, shows its start the same way.
struct DiffWriter {
  /// How many unchanged lines of a string are shown on each side of a change.
  static let textContext = 2

  private var lines: [TreeDiffer.Line] = []
  /// The whole text of each line a whole value printed shortened, by its index in ``lines``.
  private var shortenedLines: [Int: String] = [:]
  private var changesLeft: Int
  private var linesLeft: Int
  private var shownChanges = 0
  private var omittedChanges = 0
  /// The index of the line that counts the changes left out, once the limit is reached.
  private var cutLine: Int?
  /// Whether long lines are shortened: only when there is a limit.
  private let shortensLines: Bool

  /// A writer that prints up to `limit`, or everything, long lines whole, when it is `nil`.
  init(limit: TreeDiffer.Limit?) {
    changesLeft = limit?.changes ?? .max
    linesLeft = limit?.lines ?? .max
    shortensLines = limit != nil
  }

  /// The lines written, with the count of changes left out filled in.
  func finished() -> TreeDiffer.Diff {
    var lines = lines
    unmaskChanges(in: &lines)
    if let cutLine {
      lines[cutLine].line.text = "… (\(Messages.counted(omittedChanges, "more change")) left out)"
    }
    return TreeDiffer.Diff(
      lines: lines, shownChanges: shownChanges, omittedChanges: omittedChanges)
  }

  private var isCut: Bool { cutLine != nil }
  private var isSpent: Bool { changesLeft <= 0 || linesLeft <= 0 }

  /// Writes the diff of two trees that differ.
  ///
  /// - Parameters:
  ///   - expected: The tree whose lines are marked `-`.
  ///   - actual: The tree whose lines are marked `+`.
  ///   - label: The text before the first line of each tree.
  ///   - depth: The indentation level of the trees' first lines.
  mutating func write(_ expected: DumpNode, _ actual: DumpNode, label: String?, depth: Int) {
    if let old = expected.textLines, let new = actual.textLines {
      writeText(old, new, label: label, depth: depth)
      return
    }
    // Two one-line leaves (a description that spans lines prints as it is).
    if shortensLines, expected.kind == .leaf, actual.kind == .leaf,
      !expected.name.contains("\n"), !actual.name.contains("\n")
    {
      guard startChange(depth: depth) else { return }
      let prefix = labelPrefix(label)
      let (old, new) = TextElision.pair(expected.name, actual.name)
      append(.removed, depth: depth, prefix + old)
      append(.inserted, depth: depth, prefix + new)
      return
    }
    guard expected.isComparable(to: actual) else {
      guard startChange(depth: depth) else { return }
      appendWhole(expected, label: label, depth: depth, marker: .removed)
      appendWhole(actual, label: label, depth: depth, marker: .inserted)
      return
    }
    let isOpen = open(labelPrefix(label), expected.opening, depth: depth)
    var unchanged = 0
    for step in TreeDiffer.childSteps(expected, actual) {
      if case .unchanged = step {
        unchanged += 1
        continue
      }
      flush(&unchanged, noun: nil, depth: depth + 1)
      switch step {
      case .unchanged:
        break
      case .changed(let label, let old, let new):
        write(old, new, label: label, depth: depth + 1)
      case .removed(let child):
        guard startChange(depth: depth + 1) else { continue }
        appendWhole(child.node, label: child.label, depth: depth + 1, marker: .removed)
      case .inserted(let child):
        guard startChange(depth: depth + 1) else { continue }
        appendWhole(child.node, label: child.label, depth: depth + 1, marker: .inserted)
      }
    }
    flush(&unchanged, noun: nil, depth: depth + 1)
    if isOpen { append(.context, depth: depth, expected.closing) }
  }

  /// Writes two strings that span lines as a block of lines, aligned line by line.
  private mutating func writeText(_ old: [String], _ new: [String], label: String?, depth: Int) {
    let isOpen = open(labelPrefix(label), "\"\"\"", depth: depth)
    let steps = SequenceAlignment.steps(from: old, to: new)
    let partners = shortensLines ? Self.replacedLines(steps) : [:]
    let newPartners = Dictionary(uniqueKeysWithValues: partners.map { ($1, $0) })
    var unchanged = 0
    var index = 0
    while index < steps.count {
      guard case .match = steps[index] else {
        flush(&unchanged, noun: "line", depth: depth + 1)
        switch steps[index] {
        case .removal(let line):
          if startChange(depth: depth + 1) {
            let text = Self.visible(old[line])
            let shown = partners[line].map { TextElision.pair(text, Self.visible(new[$0])).old }
            append(.removed, depth: depth + 1, shown ?? shortened(text))
          }
        case .insertion(let line):
          if startChange(depth: depth + 1) {
            let text = Self.visible(new[line])
            let shown = newPartners[line].map { TextElision.pair(Self.visible(old[$0]), text).new }
            append(.inserted, depth: depth + 1, shown ?? shortened(text))
          }
        case .match:
          break
        }
        index += 1
        continue
      }
      // A run of unchanged lines: a few next to each change show, the middle collapses.
      var end = index
      while end < steps.count, case .match = steps[end] { end += 1 }
      let shownBefore = index > 0 ? Self.textContext : 0
      let shownAfter = end < steps.count ? Self.textContext : 0
      let hidden = end - index - shownBefore - shownAfter
      for position in index..<end {
        guard case .match(let line, _) = steps[position] else { continue }
        let isShown =
          hidden <= 1 || position < index + shownBefore || position >= end - shownAfter
        if isShown {
          flush(&unchanged, noun: "line", depth: depth + 1)
          if !isCut { append(.context, depth: depth + 1, shortened(Self.visible(old[line]))) }
        } else {
          unchanged += 1
        }
      }
      index = end
    }
    flush(&unchanged, noun: "line", depth: depth + 1)
    if isOpen { append(.context, depth: depth + 1, "\"\"\"") }
  }

  /// The lines of text that replace one another, old line to new: in each gap between
  /// unchanged lines, the removals and the insertions paired in order.
  private static func replacedLines(_ steps: [SequenceAlignment.Step]) -> [Int: Int] {
    var partners: [Int: Int] = [:]
    var removals: [Int] = []
    var insertions: [Int] = []
    for step in steps + [.match(-1, -1)] {
      switch step {
      case .removal(let line): removals.append(line)
      case .insertion(let line): insertions.append(line)
      case .match:
        for (removal, insertion) in zip(removals, insertions) { partners[removal] = insertion }
        removals = []
        insertions = []
      }
    }
    return partners
  }

  /// Shows the change in removed and inserted lines that their starts hide: a line kept as its
  /// start (a long string in an element removed at one place and inserted at another) prints
  /// the same on both sides when the strings differ only further on. Each such removed line is
  /// paired with an inserted one printed the same at the same depth, first with one whose
  /// whole text is the same (a moved element's line did not change), then with the first left;
  /// a pair whose whole texts differ is shortened around the region that changed instead (see
  /// ``TextElision/pair(_:_:)``).
  ///
  /// - Complexity: O(*n* × *k*) for *n* lines shortened, *k* of which print alike at most.
  private func unmaskChanges(in lines: inout [TreeDiffer.Line]) {
    guard !shortenedLines.isEmpty else { return }
    let shortened = shortenedLines.sorted { $0.key < $1.key }
    // The inserted lines left to pair, by how they print, in order.
    var inserted: [DumpNode.Line: [(index: Int, whole: String)]] = [:]
    for (index, whole) in shortened where lines[index].marker == .inserted {
      inserted[lines[index].line, default: []].append((index, whole))
    }
    var unpaired: [(index: Int, whole: String)] = []
    for (index, whole) in shortened where lines[index].marker == .removed {
      if let same = inserted[lines[index].line]?.firstIndex(where: { $0.whole == whole }) {
        inserted[lines[index].line]?.remove(at: same)
      } else {
        unpaired.append((index, whole))
      }
    }
    for (index, whole) in unpaired {
      guard let partner = inserted[lines[index].line]?.first else { continue }
      inserted[lines[index].line]?.removeFirst()
      let pair = TextElision.pair(whole, partner.whole)
      lines[index].line.text = pair.old
      lines[partner.index].line.text = pair.new
    }
  }

  /// `text` shortened when long lines are.
  private func shortened(_ text: String) -> String {
    shortensLines ? TextElision.single(text) : text
  }

  /// The text before a line that a label (a dictionary's key, a row's id) starts, shortened
  /// when long lines are: a long key printed whole made each line of its entry as long, its
  /// value's change at the end.
  private func labelPrefix(_ label: String?) -> String {
    label.map { "\(shortened($0)): " } ?? ""
  }

  /// A line of a string with a space at its end made visible, as a literal could write it.
  private static func visible(_ line: String) -> String {
    line.last == " " ? line.dropLast() + "\\u{20}" : line
  }

  /// Prints a container's opening line, unless the limit was reached; then the container's
  /// changes are only counted, and the line counting them goes here if it is not yet placed.
  ///
  /// - Returns: Whether the opening line was printed, and the closing one must be.
  private mutating func open(_ prefix: String, _ opening: String, depth: Int) -> Bool {
    if !isCut, isSpent { cut(depth: depth) }
    guard !isCut else { return false }
    append(.context, depth: depth, prefix + opening)
    return true
  }

  /// Takes one change from the limit; once none is left, counts the change as left out.
  ///
  /// - Returns: Whether to print the change.
  private mutating func startChange(depth: Int) -> Bool {
    if !isCut, isSpent { cut(depth: depth) }
    guard !isCut else {
      omittedChanges += 1
      return false
    }
    changesLeft -= 1
    shownChanges += 1
    return true
  }

  /// Places the line that will count the changes left out.
  private mutating func cut(depth: Int) {
    cutLine = lines.count
    lines.append(TreeDiffer.Line(marker: .context, line: .init(depth: depth, text: "")))
  }

  /// Prints a run of unchanged siblings (or lines of a string) as one line, and ends the run.
  private mutating func flush(_ unchanged: inout Int, noun: String?, depth: Int) {
    defer { unchanged = 0 }
    guard unchanged > 0, !isCut else { return }
    let count =
      noun.map { Messages.counted(unchanged, "unchanged \($0)") } ?? "\(unchanged) unchanged"
    append(.context, depth: depth, "… (\(count))")
  }

  private mutating func append(_ marker: TreeDiffer.Line.Marker, depth: Int, _ text: String) {
    lines.append(TreeDiffer.Line(marker: marker, line: .init(depth: depth, text: text)))
    linesLeft -= 1
  }

  /// Prints a whole value as one side of a change, cut short past the lines left (though
  /// never to fewer than four, so that each change printed shows something).
  private mutating func appendWhole(
    _ node: DumpNode,
    label: String?,
    depth: Int,
    marker: TreeDiffer.Line.Marker
  ) {
    let room = max(linesLeft, 4)
    let made = node.lines(label: label, depth: depth, limit: room == .max ? .max : room + 1)
    let isCutShort = made.count > room
    for line in made.prefix(isCutShort ? room - 1 : room) {
      let text = shortened(line.text)
      if text != line.text { shortenedLines[lines.count] = line.text }
      lines.append(TreeDiffer.Line(marker: marker, line: .init(depth: line.depth, text: text)))
    }
    linesLeft -= made.count
    if isCutShort {
      lines.append(
        TreeDiffer.Line(marker: marker, line: .init(depth: depth + 1, text: "… (cut short)")))
    }
  }
}
