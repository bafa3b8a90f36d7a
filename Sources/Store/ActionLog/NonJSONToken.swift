#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Finds text `JSONEncoder` wrote that is not JSON: it refuses a `Double` or `Float` that is
/// NaN or infinite, but writes a `Decimal` that is NaN as a bare `NaN`, which no JSON reader
/// takes, and a line holding one would make the whole log unreadable from there.
///
/// The recorder checks every line it writes with it, so it only looks at the bytes outside
/// strings, one pass with no allocation: what `JSONEncoder` writes there is brackets,
/// punctuation, numbers and the literals `true`, `false` and `null`, and nothing else.
enum NonJSONToken {
  /// The offset of the first byte outside a string that JSON does not allow there, if any.
  ///
  /// It does not check the structure (`JSONEncoder` writes that right), only the tokens.
  ///
  /// - Complexity: O(*n*) for *n* bytes.
  static func firstOffset(in bytes: Data) -> Int? {
    bytes.withUnsafeBytes { raw -> Int? in
      var index = 0
      let count = raw.count
      var isInString = false
      while index < count {
        let byte = raw[index]
        if isInString {
          if byte == UInt8(ascii: "\"") {
            isInString = false
          } else if byte == UInt8(ascii: "\\") {
            index += 1
          }
        } else if byte == UInt8(ascii: "\"") {
          isInString = true
        } else if !isAllowedOutsideStrings(byte) {
          return index
        }
        index += 1
      }
      return nil
    }
  }

  /// The token that starts at `offset`: up to the next comma, bracket or space.
  static func token(at offset: Int, in bytes: Data) -> String {
    let rest = bytes[(bytes.startIndex + offset)...]
    let end =
      rest.firstIndex { ",]} \t\r\n".utf8.contains($0) } ?? rest.endIndex
    let token = rest[..<end]
    return String(decoding: token.prefix(40), as: UTF8.self)
  }

  /// Whether JSON allows `byte` outside a string: white space, brackets and punctuation,
  /// what numbers are made of, and the letters of `true`, `false` and `null`.
  @inline(__always)
  private static func isAllowedOutsideStrings(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: ","), UInt8(ascii: ":"),
      UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: "["), UInt8(ascii: "]"),
      UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."), UInt8(ascii: "e"),
      UInt8(ascii: "E"), UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"),
      UInt8(ascii: "\n"), UInt8(ascii: "t"), UInt8(ascii: "r"), UInt8(ascii: "u"),
      UInt8(ascii: "f"), UInt8(ascii: "a"), UInt8(ascii: "l"), UInt8(ascii: "s"),
      UInt8(ascii: "n"):
      true
    default:
      false
    }
  }
}
