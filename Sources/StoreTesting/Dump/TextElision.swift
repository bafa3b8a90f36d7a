/// Shortens long lines of a diff: two texts that differ keep the region that changed, with a
/// little of what surrounds it, and a count of the characters left out in its place.
///
/// ```swift
/// TextElision.pair(
///   "\"" + String(repeating: "a", count: 1_000) + "b\"",
///   "\"" + String(repeating: "a", count: 1_000) + "c\"")
/// // ("\"…[960 characters]…aaaa…aaab\"", "\"…[960 characters]…aaaa…aaac\"")
/// ```
enum TextElision {
  /// How many characters a line may have before it is shortened.
  static let lineLimit = 240
  /// How many unchanged characters are kept on each side of a change.
  static let context = 40
  /// How many characters of a changed region are kept at its start and at its end.
  static let changedEnds = 80

  /// `old` and `new` with their common start and end cut down to ``context`` characters next
  /// to the change, and a changed region longer than twice ``changedEnds`` cut in its middle;
  /// unchanged when both are at most ``lineLimit`` characters long.
  ///
  /// No cut splits an escape (`\u{A0}`, `\n`, `\\`): the part kept next to a cut gives up the
  /// few characters of an escape the cut would have split, and the count left out takes them.
  /// Split, `…[960 characters]…{A0}\u{A0}` read as the text `{A0}`, and `\u{A…` as a
  /// character of its own.
  ///
  /// - Complexity: O(*n*), where *n* is the length of the longer text.
  static func pair(_ old: String, _ new: String) -> (old: String, new: String) {
    guard old.count > lineLimit || new.count > lineLimit else { return (old, new) }
    let (old, new) = (Array(old), Array(new))
    var start = 0
    while start < old.count, start < new.count, old[start] == new[start] { start += 1 }
    // The length of the common end.
    var common = 0
    while common < old.count - start, common < new.count - start,
      old[old.count - 1 - common] == new[new.count - 1 - common]
    {
      common += 1
    }
    let (oldEscapes, newEscapes) = (Escapes(old), Escapes(new))
    // Both texts are the same up to `start`, escapes included.
    let prefix = elidedStart(old[..<start], escapes: oldEscapes)
    // The common end is the same text in both, but not always the same escapes: what comes
    // before it can pair its backslashes differently all along (`a` then `\\\\n` in one, `\`
    // then the same in the other), so that no cut near it is between escapes in both. Each
    // text is cut between its own, which keeps the same text, give or take a character.
    let oldEnd = old.count - common
    let newEnd = new.count - common
    func suffix(_ text: [Character], from end: Int, _ escapes: Escapes) -> String {
      elidedEnd(text[end...], keeping: max(escapes.cut(atOrBefore: end + context) - end, 0))
    }
    return (
      prefix + elidedMiddle(old[start..<oldEnd], escapes: oldEscapes)
        + suffix(old, from: oldEnd, oldEscapes),
      prefix + elidedMiddle(new[start..<newEnd], escapes: newEscapes)
        + suffix(new, from: newEnd, newEscapes)
    )
  }

  /// `line` cut to its first `limit` − ``changedEnds`` characters when it has more than
  /// `limit`, with a count of the characters left out (so that the line with the count stays
  /// well within `limit`).
  ///
  /// - Parameters:
  ///   - line: The text.
  ///   - limit: The longest line kept whole; ``lineLimit`` by default.
  /// - Complexity: O(*n*), where *n* is the length of `line`.
  static func single(_ line: String, limit: Int = lineLimit) -> String {
    guard line.count > limit else { return line }
    let characters = Array(line)
    // Not inside an escape: `\u{20…` would read as another character.
    let kept = Escapes(characters).cut(atOrBefore: max(limit - changedEnds, 0))
    return String(characters[..<kept]) + marker(characters.count - kept)
  }

  /// The text that stands for `count` characters left out.
  static func marker(_ count: Int) -> String {
    "…[\(Messages.counted(count, "character"))]…"
  }

  /// The common start of two texts: the last ``context`` characters of it, after the opening
  /// quote of a string, kept so that the line still reads as one.
  private static func elidedStart(_ text: ArraySlice<Character>, escapes: Escapes) -> String {
    let quote = text.first == "\"" ? 1 : 0
    guard text.count - quote - context > 1 else { return String(text) }
    let from = min(escapes.cut(atOrAfter: text.endIndex - context), text.endIndex)
    return String(text.prefix(quote)) + marker(from - text.startIndex - quote)
      + String(text[from...])
  }

  /// The common end of two texts: its first `kept` characters (``context`` of them, or fewer
  /// so as not to split an escape), and a closing quote.
  private static func elidedEnd(_ text: ArraySlice<Character>, keeping kept: Int) -> String {
    let quote = text.last == "\"" ? 1 : 0
    guard text.count - quote - context > 1 else { return String(text) }
    return String(text.prefix(kept)) + marker(text.count - quote - kept)
      + String(text.suffix(quote))
  }

  /// A changed region: its first and last ``changedEnds`` characters, or a few fewer so as
  /// not to split an escape.
  private static func elidedMiddle(_ text: ArraySlice<Character>, escapes: Escapes) -> String {
    guard text.count > 2 * changedEnds + 1 else { return String(text) }
    let headEnd = max(escapes.cut(atOrBefore: text.startIndex + changedEnds), text.startIndex)
    let tailStart = min(escapes.cut(atOrAfter: text.endIndex - changedEnds), text.endIndex)
    return String(text[..<headEnd]) + marker(tailStart - headEnd) + String(text[tailStart...])
  }

  /// Where the escapes of a printed line lie (`\n`, `\\`, `\"`, `\u{200B}`, as a string leaf
  /// writes them), so that a cut falls between them.
  struct Escapes {
    /// The escapes, by character offset, in order.
    private var spans: [Range<Int>] = []

    /// The escapes of `line`.
    ///
    /// - Complexity: O(*n*) for a line of *n* characters.
    init(_ line: [Character]) {
      var index = 0
      while index < line.count {
        guard line[index] == "\\" else {
          index += 1
          continue
        }
        var end = min(index + 2, line.count)
        // A combining mark after an escaped character (`\u{A0}` then U+0301, the usual way to
        // show a mark alone) joins the closing brace in one `Character`.
        if end < line.count, line[index + 1] == "u", line[end] == "{",
          let close = line[(end + 1)..<min(end + 10, line.count)].firstIndex(where: {
            $0.unicodeScalars.first == "}"
          })
        {
          end = close + 1
        }
        spans.append(index..<end)
        index = end
      }
    }

    /// The escape that `offset` falls strictly inside, if any.
    private func span(around offset: Int) -> Range<Int>? {
      // The last escape that begins before `offset`.
      var (low, high) = (0, spans.count)
      while low < high {
        let middle = (low + high) / 2
        if spans[middle].lowerBound < offset { low = middle + 1 } else { high = middle }
      }
      guard low > 0, offset < spans[low - 1].upperBound else { return nil }
      return spans[low - 1]
    }

    /// `offset`, or the start of the escape it would split.
    func cut(atOrBefore offset: Int) -> Int {
      span(around: offset)?.lowerBound ?? offset
    }

    /// `offset`, or the end of the escape it would split.
    func cut(atOrAfter offset: Int) -> Int {
      span(around: offset)?.upperBound ?? offset
    }
  }
}
