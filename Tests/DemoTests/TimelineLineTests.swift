import Testing

@testable import demo

/// The timeline cuts a long action line, but never inside a string literal, its escapes or
/// the count that follows a literal the summary cut short (a bug hunt's finding: a fixed cut
/// at 159 characters dropped the literal's closing quote and count, and could split an
/// escape).
@MainActor
@Suite struct TimelineLineTests {
  @Test func aLineOfAtMostTheLimitIsPrintedWhole() {
    let line = "cart.addItemTapped(name: \"Tea\")"
    #expect(Timeline.shortened(line) == line)
    let exact = String(repeating: "x", count: 160)
    #expect(Timeline.shortened(exact) == exact)
  }

  @Test func aLiteralThatCrossesTheLimitKeepsItsQuoteAndCount() {
    let name = "\"" + String(repeating: "x", count: 120) + "\"… (168 characters)"
    let line = "cart.items.element(id: 1, action: .renamed(\(name), note: \(name)))"
    let shown = Timeline.shortened(line)
    // Cut after the first literal's count, the second literal left out whole.
    #expect(shown == "cart.items.element(id: 1, action: .renamed(\(name)…")
  }

  @Test func anEscapeAcrossTheLimitIsNotSplit() {
    let escapes = String(repeating: "\\u{202E}", count: 30)
    let line = "account.usernameChanged(\"\(escapes)\", \"\(escapes)\")"
    let shown = Timeline.shortened(line)
    #expect(shown == "account.usernameChanged(\"\(escapes)\"…")
    #expect(!shown.contains("\\u{20…"))
  }

  @Test func aQuoteEscapedInsideALiteralDoesNotEndIt() {
    let text = String(repeating: "a\\\"b", count: 50)
    let line = "x(\"\(text)\", " + String(repeating: "1, ", count: 20) + "2)"
    #expect(Timeline.shortened(line) == "x(\"\(text)\"…")
  }

  @Test func aLongListIsCutNearTheLimit() {
    let line = "rows.loaded([" + (1...200).map(String.init).joined(separator: ", ") + "])"
    let shown = Timeline.shortened(line)
    #expect(shown.hasSuffix("…"))
    #expect(shown.unicodeScalars.count == 160)
    #expect(line.hasPrefix(String(shown.dropLast())))
  }

  @Test func aFewCharactersPastTheLimitAreKept() {
    let line = String(repeating: "y", count: 170) + "))"
    #expect(Timeline.shortened(line) == line)
  }

  @Test func anUnclosedLiteralIsPrintedWhole() {
    // Not what the summary writes, but the cut must not crash on it.
    let line = String(repeating: "z", count: 100) + "\"" + String(repeating: "w", count: 100)
    #expect(Timeline.shortened(line) == line)
    #expect(Timeline.shortened(line + "\\") == line + "\\")
  }
}
