/// Text read from a log, made safe to print.
///
/// A log is input: a string in it may hold any character, its JSON escapes decoded, such as
/// an escape sequence that recolours a terminal, retitles its window, or (with a carriage
/// return or a newline) prints a line that looks like the replay's own. Every value a message
/// or a timeline quotes from a log goes through here, and comes out with such characters
/// written as a Swift string literal writes them.
package enum LogText {
  /// `text` in double quotes, escaped as in a Swift string literal: `"Tea\u{1B}[31m\n"`.
  ///
  /// A quote, a backslash and every control character (C0, DEL and C1) are escaped, so the
  /// result is one line that shows where the value ends.
  package static func quoted(_ text: some StringProtocol) -> String {
    var result = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": result += "\\\""
      case "\\": result += "\\\\"
      default: append(scalar, to: &result)
      }
    }
    return result + "\""
  }

  /// `text` with every control character (C0, DEL and C1) escaped as in a Swift string
  /// literal, and the rest left as it is: for text that is not quoted, such as a key in a
  /// path, or a message that quotes values of its own.
  package static func escaped(_ text: some StringProtocol) -> String {
    // Nearly every text has nothing to escape: checked on its bytes first. A C1 control is
    // encoded as 0xC2 followed by 0x80...0x9F.
    let utf8 = text.utf8
    guard utf8.contains(where: { $0 < 0x20 || $0 == 0x7F || $0 == 0xC2 }) else {
      return String(text)
    }
    var result = ""
    for scalar in text.unicodeScalars { append(scalar, to: &result) }
    return result
  }

  /// Appends `scalar`, escaped if it is a control character.
  private static func append(_ scalar: Unicode.Scalar, to result: inout String) {
    switch scalar {
    case "\0": result += "\\0"
    case "\t": result += "\\t"
    case "\n": result += "\\n"
    case "\r": result += "\\r"
    case "\u{00}"..."\u{1F}", "\u{7F}"..."\u{9F}":
      result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
    default: result.unicodeScalars.append(scalar)
    }
  }
}
