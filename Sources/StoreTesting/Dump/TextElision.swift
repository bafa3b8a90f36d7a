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
  /// - Complexity: O(*n*), where *n* is the length of the longer text.
  static func pair(_ old: String, _ new: String) -> (old: String, new: String) {
    guard old.count > lineLimit || new.count > lineLimit else { return (old, new) }
    var oldStart = old.startIndex
    var newStart = new.startIndex
    while oldStart < old.endIndex, newStart < new.endIndex, old[oldStart] == new[newStart] {
      old.formIndex(after: &oldStart)
      new.formIndex(after: &newStart)
    }
    var oldEnd = old.endIndex
    var newEnd = new.endIndex
    while oldEnd > oldStart, newEnd > newStart {
      let oldBefore = old.index(before: oldEnd)
      let newBefore = new.index(before: newEnd)
      guard old[oldBefore] == new[newBefore] else { break }
      oldEnd = oldBefore
      newEnd = newBefore
    }
    let prefix = elidedStart(old[..<oldStart])
    let suffix = elidedEnd(old[oldEnd...])
    return (
      prefix + elidedMiddle(old[oldStart..<oldEnd]) + suffix,
      prefix + elidedMiddle(new[newStart..<newEnd]) + suffix
    )
  }

  /// `line` cut to about its first `limit` characters when it is longer, with a count of the
  /// characters left out.
  ///
  /// - Parameters:
  ///   - line: The text.
  ///   - limit: The most characters kept whole; ``lineLimit`` by default.
  /// - Complexity: O(*n*), where *n* is the length of `line`.
  static func single(_ line: String, limit: Int = lineLimit) -> String {
    guard line.count > limit else { return line }
    let kept = line.prefix(limit - changedEnds)
    return kept + marker(line.count - kept.count)
  }

  /// The text that stands for `count` characters left out.
  static func marker(_ count: Int) -> String {
    "…[\(Messages.counted(count, "character"))]…"
  }

  /// The common start of two texts: the last ``context`` characters of it, after the opening
  /// quote of a string, kept so that the line still reads as one.
  private static func elidedStart(_ text: Substring) -> String {
    let quote = text.first == "\"" ? "\"" : ""
    let elided = text.count - quote.count - context
    guard elided > 1 else { return String(text) }
    return quote + marker(elided) + text.suffix(context)
  }

  /// The common end of two texts: the first ``context`` characters of it, and a closing
  /// quote.
  private static func elidedEnd(_ text: Substring) -> String {
    let quote = text.last == "\"" ? "\"" : ""
    let elided = text.count - quote.count - context
    guard elided > 1 else { return String(text) }
    return text.prefix(context) + marker(elided) + quote
  }

  /// A changed region: its first and last ``changedEnds`` characters.
  private static func elidedMiddle(_ text: Substring) -> String {
    guard text.count > 2 * changedEnds + 1 else { return String(text) }
    return text.prefix(changedEnds) + marker(text.count - 2 * changedEnds)
      + text.suffix(changedEnds)
  }
}
