/// One value's structure as read from its mirror: the tree that ``StateDump`` prints and
/// ``StateDiff`` compares.
///
/// A node is either a leaf, printed on one line (`42`, `"Paris"`, `.idle`, `nil`), or a
/// container with an opening line, one entry per child, and a closing line:
///
/// ```
/// Address(
///   city: "Paris"
///   zip: "75001"
/// )
/// ```
///
/// Building the tree once and printing it from there keeps the dump and the diff in step: two
/// values render the same exactly when their trees are equal.
struct DumpNode: Hashable, Sendable {
  /// What a node stands for; it decides the node's brackets and how a diff lines up children.
  enum Kind: Hashable, Sendable {
    /// A value printed on one line: a number, a string, a payload-free enum case, `nil`.
    case leaf
    /// A struct or class, with its stored properties as labelled children.
    case object
    /// An enum case with a payload, labelled or positional.
    case enumCase
    /// A tuple, labelled or positional.
    case tuple
    /// An ordered collection, with `[index]` labels.
    case collection
    /// A set, with unlabelled children sorted by their rendering.
    case set
    /// A dictionary, with children labelled by key and sorted by key.
    case dictionary
  }

  /// A child of a container, with the label printed before it.
  struct Child: Hashable, Sendable {
    /// The text before the colon: a property name, `[2]`, a dictionary key, or `nil`.
    var label: String?
    /// The child's own tree.
    var node: DumpNode
    /// For an element of a collection that is `Identifiable`: its id, printed. A diff pairs
    /// such elements by id rather than by position. `nil` for an id that is an object's
    /// address (`ObjectIdentifier`), which pairs nothing across two states.
    var id: String? = nil
  }

  /// One printed line, before it is indented.
  struct Line: Hashable, Sendable {
    /// How many levels of two-space indentation the line gets.
    var depth: Int
    /// The line's text, without indentation.
    var text: String
  }

  /// What the node stands for.
  var kind: Kind
  /// The leaf's text, the short type name of an object, or `.caseName` of an enum case.
  var name: String
  /// The fully qualified type of an object or enum case, so that a diff never pairs up two
  /// types that print alike; empty for other kinds, whose type is not printed.
  var typeName: String
  /// The children of a container, in printing order; empty for a leaf.
  var children: [Child] = []
  /// For a string that spans lines: each line, escaped as the leaf's text is, without the
  /// quotes. A diff of two such strings compares them line by line. `nil` for other nodes.
  var textLines: [String]? = nil

  /// A leaf printed as `text`.
  static func leaf(_ text: String) -> DumpNode {
    DumpNode(kind: .leaf, name: text, typeName: "")
  }

  /// The first line of a container that has children.
  var opening: String {
    switch kind {
    case .leaf: name
    case .object, .enumCase: name + "("
    case .tuple: "("
    case .collection, .set, .dictionary: "["
    }
  }

  /// The last line of a container that has children.
  var closing: String {
    switch kind {
    case .leaf: ""
    case .object, .enumCase, .tuple: ")"
    case .collection, .set, .dictionary: "]"
    }
  }

  /// The single line printed for a leaf or for a container with no children.
  var singleLine: String {
    switch kind {
    case .leaf: name
    case .object, .enumCase, .tuple, .collection, .set: opening + closing
    case .dictionary: "[:]"
    }
  }

  /// Whether a diff may descend into both nodes and compare their children.
  ///
  /// Enum cases and objects must match in type; collection types are not printed, so an
  /// `Array` and a `ContiguousArray` holding different elements still diff element by element.
  func isComparable(to other: DumpNode) -> Bool {
    guard kind != .leaf, kind == other.kind else { return false }
    switch kind {
    case .object, .enumCase: return name == other.name && typeName == other.typeName
    case .leaf, .tuple, .collection, .set, .dictionary: return true
    }
  }

  /// The node's lines, with `label` before the first one.
  ///
  /// - Parameters:
  ///   - label: The text printed before the first line, followed by `: `.
  ///   - depth: The indentation level of the first and last lines.
  ///   - limit: The most lines to make; a tree that has more is cut short there.
  /// - Complexity: O(*n*), where *n* is the number of nodes printed: the whole tree, or about
  ///   `limit` of them.
  func lines(label: String?, depth: Int, limit: Int = .max) -> [Line] {
    var lines: [Line] = []
    appendLines(label: label, depth: depth, limit: limit, to: &lines)
    return lines
  }

  private func appendLines(label: String?, depth: Int, limit: Int, to lines: inout [Line]) {
    guard lines.count < limit else { return }
    let prefix = label.map { "\($0): " } ?? ""
    guard kind != .leaf, !children.isEmpty else {
      // A description may span lines; keep the extra ones inside the node's own indentation.
      let textLines = singleLine.split(separator: "\n", omittingEmptySubsequences: false)
      lines.append(Line(depth: depth, text: prefix + textLines[0]))
      for extra in textLines.dropFirst() where lines.count < limit {
        lines.append(Line(depth: depth + 1, text: String(extra)))
      }
      return
    }
    lines.append(Line(depth: depth, text: prefix + opening))
    for child in children {
      guard lines.count < limit else { return }
      child.node.appendLines(label: child.label, depth: depth + 1, limit: limit, to: &lines)
    }
    if lines.count < limit { lines.append(Line(depth: depth, text: closing)) }
  }

  /// The whole tree as indented text, two spaces per level.
  var rendered: String {
    lines(label: nil, depth: 0).map(\.indented).joined(separator: "\n")
  }

  /// Whether both trees print the same ``rendered`` text, found without printing them: the
  /// types of objects and enum cases are not printed, so trees that differ only there
  /// render alike.
  ///
  /// - Complexity: O(*n*) for trees of *n* nodes, and no text made but for a leaf that spans
  ///   lines compared with a container.
  func rendersLike(_ other: DumpNode) -> Bool {
    let isSingleLine = kind == .leaf || children.isEmpty
    let otherIsSingleLine = other.kind == .leaf || other.children.isEmpty
    switch (isSingleLine, otherIsSingleLine) {
    case (true, true):
      return singleLine == other.singleLine
    case (false, false):
      return opening == other.opening && closing == other.closing
        && children.count == other.children.count
        && zip(children, other.children).allSatisfy { pair in
          pair.0.label == pair.1.label && pair.0.node.rendersLike(pair.1.node)
        }
    case (true, false), (false, true):
      // A description that spans lines can print like a container.
      return rendered == other.rendered
    }
  }

  /// The whole tree on one line, such as `Point(x: 1, y: 2)`; used for dictionary keys.
  var compact: String {
    guard kind != .leaf, !children.isEmpty else {
      return singleLine.replacingNewlines()
    }
    let showsLabels = kind != .collection && kind != .set
    let parts = children.map { child in
      let prefix = showsLabels ? child.label.map { "\($0): " } ?? "" : ""
      return prefix + child.node.compact
    }
    return opening + parts.joined(separator: ", ") + closing
  }
}

extension DumpNode.Line {
  /// The text after two spaces per level of depth.
  var indented: String {
    String(repeating: "  ", count: depth) + text
  }
}

extension String {
  /// The string with each line break spelled `\n`, so it fits on one line.
  fileprivate func replacingNewlines() -> String {
    split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "\\n")
  }
}
