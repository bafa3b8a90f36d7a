/// Prints the diff of two ``DumpNode`` trees for ``TreeDiffer``, up to a limit.
///
/// Each change costs one from the limit: a pair printed whole (a leaf that changed, an enum
/// that changed case), an element or a line removed or inserted. Once the changes or the lines
/// run out, the writer prints one line where the next change would have gone and then only
/// the closing lines of the containers already open; it still walks the rest of the trees,
/// without printing, to count the changes left out.
struct DiffWriter {
  private var lines: [TreeDiffer.Line] = []
  private var changesLeft: Int
  private var linesLeft: Int
  private var shownChanges = 0
  private var omittedChanges = 0
  /// The index of the line that counts the changes left out, once the limit is reached.
  private var cutLine: Int?

  /// A writer that prints up to `limit`, or everything when it is `nil`.
  init(limit: TreeDiffer.Limit?) {
    changesLeft = limit?.changes ?? .max
    linesLeft = limit?.lines ?? .max
  }

  /// The lines written, with the count of changes left out filled in.
  func finished() -> TreeDiffer.Diff {
    var lines = lines
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
    guard expected.isComparable(to: actual) else {
      guard startChange(depth: depth) else { return }
      appendWhole(expected, label: label, depth: depth, marker: .removed)
      appendWhole(actual, label: label, depth: depth, marker: .inserted)
      return
    }
    let isOpen = open(label.map { "\($0): " } ?? "", expected.opening, depth: depth)
    var unchanged = 0
    for step in TreeDiffer.childSteps(expected, actual) {
      if case .unchanged = step {
        unchanged += 1
        continue
      }
      flush(&unchanged, depth: depth + 1)
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
    flush(&unchanged, depth: depth + 1)
    if isOpen { append(.context, depth: depth, expected.closing) }
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

  /// Prints a run of unchanged siblings as one line, and ends the run.
  private mutating func flush(_ unchanged: inout Int, depth: Int) {
    defer { unchanged = 0 }
    guard unchanged > 0, !isCut else { return }
    append(.context, depth: depth, "… (\(unchanged) unchanged)")
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
    lines += made.prefix(isCutShort ? room - 1 : room).map {
      TreeDiffer.Line(marker: marker, line: $0)
    }
    linesLeft -= made.count
    if isCutShort {
      lines.append(
        TreeDiffer.Line(marker: marker, line: .init(depth: depth + 1, text: "… (cut short)")))
    }
  }
}
